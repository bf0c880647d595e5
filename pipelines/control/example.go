package control

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/pipelines/generate"
	"github.com/datg/datg/prompts"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms"
	"github.com/datg/datg/transforms/loop"
	"github.com/datg/datg/transforms/scaffold"
)

// seedStride separates the seeds of an example's trials: trial t samples
// with seed + (t-1)·seedStride, so every retry is a new sample and a rerun
// draws the same ones.
const seedStride = 1_000_003

// SampleSeed is the seed trial t (1-based) of a run seed samples with.
func SampleSeed(seed int64, trial int) int64 { return seed + int64(trial-1)*seedStride }

// outcome is one controlled example: its final trace and every attempt.
type outcome struct {
	trace  schema.Trace
	trials []schema.Trial
	sent   int // requests sent in this run (the others came from the journal)
}

// tokens is what the example decoded, every attempt included.
func (o outcome) tokens() int {
	n := 0
	for _, t := range o.trials {
		n += int(t.CompletionTokens) // int is 64 bits wherever datg builds (cgo DuckDB)
	}
	return n
}

// example runs one job under the control.
type example struct {
	cfg    *Config
	client llm.Journaled
	job    generate.Job
	out    outcome
}

// do sends a request (or reads it from the journal).
func (e *example) do(ctx context.Context, req llm.Request) (llm.Response, error) {
	resp, cached, err := e.client.Do(ctx, req)
	if err == nil && !cached {
		e.out.sent++
	}
	return resp, err
}

// trialRow starts an attempt's row.
func (e *example) trialRow(phase study.Phase, trial int) schema.Trial {
	k := e.job.Key
	return schema.Trial{TraceID: transforms.TraceID(k), Method: k.Method, Model: k.Model, ReasoningLang: k.ReasoningLang,
		Level: k.Level, ProblemID: k.ProblemID, Seed: k.Seed, Phase: string(phase), Trial: int32(trial)}
}

// run samples the example: for Formula-Retry the scaffold first, then up to
// MaxTrials reasoning attempts.
func (e *example) run(ctx context.Context) error {
	conv := e.job.Conversation()
	if e.cfg.Method == study.Base {
		return e.base(ctx, conv)
	}
	scaffoldTokens := 0
	if e.cfg.Method == study.FormulaRetry {
		var err error
		if conv, scaffoldTokens, err = e.scaffold(ctx, conv); err != nil {
			return err
		}
	}
	budget := e.job.Budget
	checkpoint := budget / 4
	for t := 1; ; t++ {
		last := t >= e.cfg.MaxTrials
		row := e.trialRow(study.PhaseReasoning, t)
		row.SampleSeed = SampleSeed(e.job.Key.Seed, t)
		row.Temperature = e.cfg.Generation.Study.Temperature
		row.RepetitionPenalty = e.cfg.FirstPenalty
		if t > 1 {
			row.RepetitionPenalty = e.cfg.RetryPenalty
		}
		row.Checkpoint = int64(checkpoint)
		sampling := generate.Sampling{MaxTokens: checkpoint, Temperature: row.Temperature, TopP: e.cfg.Generation.Study.TopP,
			RepetitionPenalty: row.RepetitionPenalty, TopK: e.cfg.Generation.Study.TopK, Seed: row.SampleSeed, TokenIDs: true}
		req := generate.Query(e.cfg.Generation.Study.API, e.job.Key.Model, conv, sampling)
		head, err := e.do(ctx, req)
		if err != nil {
			return fmt.Errorf("trial %d to the checkpoint: %w", t, err)
		}
		text := checkpointText(head.Continuation())
		headTokens := decoded(head)
		row.CompletionTokens, row.CheckpointTokens = int64(headTokens), int64(headTokens)
		resp := head
		if head.FinishReason == "length" {
			// The attempt reached the checkpoint unfinished: test it.
			if len(head.TokenIDs) == 0 {
				// An empty generation cut at the budget; the pool refuses
				// any other answer without token ids.
				return fmt.Errorf("trial %d from %s: %w", t, head.Endpoint, ErrNoTokenIDs)
			}
			st := loop.Detect(head.TokenIDs, text, budget)
			setStats(&row, st)
			if st.Trigger && !last {
				row.Aborted, row.AbortReason = true, st.Reason
				e.finishTrial(&row, text, head)
				continue
			}
			if st.Trigger {
				row.ForcedAccept, row.AbortReason = true, st.Reason
			}
			if rest := budget - headTokens; rest > 0 {
				// Continue the same attempt from its own text, where its
				// prefix is cached.
				more := conv
				more.Prefix += text
				sampling.MaxTokens, sampling.TokenIDs = rest, false
				req = generate.Query(e.cfg.Generation.Study.API, e.job.Key.Model, more, sampling)
				req.Prefer = head.Endpoint
				tail, err := e.do(ctx, req)
				if err != nil {
					return fmt.Errorf("trial %d after the checkpoint: %w", t, err)
				}
				// The head may have closed its thinking: the parser, seeing only
				// the tail, then returns it all as reasoning.
				text += tail.ContinuationAfter(strings.Contains(text, transforms.ThinkClose))
				row.CompletionTokens += int64(decoded(tail))
				resp = tail
			}
		}
		row.Accepted = true
		e.finishTrial(&row, text, resp)
		e.out.trace = e.traceRow(conv, text, req, resp, row, scaffoldTokens)
		return nil
	}
}

// base samples the example once: Loop-Retry's first attempt, to the
// budget, with no checkpoint.
func (e *example) base(ctx context.Context, conv transforms.Conversation) error {
	row := e.trialRow(study.PhaseReasoning, 1)
	row.SampleSeed, row.Temperature, row.RepetitionPenalty = SampleSeed(e.job.Key.Seed, 1), e.cfg.Generation.Study.Temperature, e.cfg.FirstPenalty
	req := generate.Query(e.cfg.Generation.Study.API, e.job.Key.Model, conv, generate.Sampling{MaxTokens: e.job.Budget,
		Temperature: row.Temperature, TopP: e.cfg.Generation.Study.TopP, RepetitionPenalty: row.RepetitionPenalty,
		TopK: e.cfg.Generation.Study.TopK, Seed: row.SampleSeed})
	resp, err := e.do(ctx, req)
	if err != nil {
		return fmt.Errorf("base sample: %w", err)
	}
	text := resp.Continuation()
	n := int64(decoded(resp))
	row.CompletionTokens, row.CheckpointTokens, row.Accepted = n, n, true
	e.finishTrial(&row, text, resp)
	e.out.trace = e.traceRow(conv, text, req, resp, row, 0)
	return nil
}

// finishTrial completes an attempt's row from its text and last response.
func (e *example) finishTrial(row *schema.Trial, text string, resp llm.Response) {
	row.Text, row.FinishReason, row.Endpoint = text, resp.FinishReason, resp.Endpoint
	row.CreatedAt = time.UnixMilli(resp.ReceivedAt).UTC()
	e.out.trials = append(e.out.trials, *row)
}

func setStats(row *schema.Trial, st loop.Stats) {
	row.Checked = true
	row.Rep16, row.Rep32, row.TTR256 = &st.Rep16, &st.Rep32, &st.TTR256
	row.Motif = int32(st.MotifLen)
	row.SurfaceLoop, row.MathProgress, row.Trigger = st.SurfaceLoop, st.MathProgress, st.Trigger
}

// scaffold writes Formula-Retry's phase 1 once and returns the conversation
// that phase 2 continues: the sanitized execution state, then the
// target-language starter.
func (e *example) scaffold(ctx context.Context, conv transforms.Conversation) (transforms.Conversation, int, error) {
	set := e.job.Prompts()
	lang, err := set.Language(e.job.Key.ReasoningLang)
	if err != nil {
		return conv, 0, err
	}
	starter := conv.Prefix
	conv.System = set.ScaffoldSystem(prompts.ScaffoldInput{Language: lang.Name})
	conv.Prefix = scaffold.Open
	s := e.cfg.Scaffold
	row := e.trialRow(study.PhaseScaffold, 0)
	row.SampleSeed, row.Temperature, row.RepetitionPenalty = e.job.Key.Seed, s.Temperature, s.RepetitionPenalty
	req := generate.Query(e.cfg.Generation.Study.API, e.job.Key.Model, conv, generate.Sampling{MaxTokens: s.MaxTokens,
		Temperature: s.Temperature, TopP: s.TopP, RepetitionPenalty: s.RepetitionPenalty, TopK: e.cfg.Generation.Study.TopK,
		Seed: e.job.Key.Seed, Stop: []string{scaffold.Close}})
	resp, err := e.do(ctx, req)
	if err != nil {
		return conv, 0, fmt.Errorf("scaffold: %w", err)
	}
	written := resp.Continuation()
	clean, removed := scaffold.Sanitize(scaffold.BodyStart + written)
	for _, r := range removed {
		row.Removed = append(row.Removed, r.Kind+": "+r.Text)
	}
	n := decoded(resp)
	row.CompletionTokens, row.CheckpointTokens, row.Accepted = int64(n), int64(n), true
	e.finishTrial(&row, written, resp)
	conv.Prefix = scaffold.Block(clean) + starter
	return conv, n, nil
}

// traceRow is the example's final trace: the accepted attempt after the
// prefix (for Formula-Retry, the sanitized scaffold and the starter).
func (e *example) traceRow(conv transforms.Conversation, text string, req llm.Request, resp llm.Response, accepted schema.Trial, scaffoldTokens int) schema.Trace {
	t := e.job.Trace(conv, text, req, resp, "control")
	// The accepted attempt's sampling as sent; the budget is the example's
	// whole (a checkpointed attempt spends it over two requests).
	budget := int64(e.job.Budget)
	t.CompletionTokens = accepted.CompletionTokens + int64(scaffoldTokens)
	t.Truncated = resp.FinishReason == "length"
	t.MaxTokens = &budget
	t.CreatedAt = accepted.CreatedAt
	return t
}

// decoded is what a response decoded: the server's count, or the token ids
// it returned when it sent no usage.
func decoded(resp llm.Response) int {
	if resp.CompletionTokens == 0 {
		return len(resp.TokenIDs)
	}
	return resp.CompletionTokens
}

// checkpointText is the text an attempt is continued from. A checkpoint
// can fall inside a character that takes several tokens (Telugu and Thai
// script often do); the server then ends the text with U+FFFD in its place,
// which must not become part of the prompt: the continuation writes the
// character again.
func checkpointText(text string) string {
	return strings.TrimRight(text, "\uFFFD")
}
