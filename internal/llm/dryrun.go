package llm

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/datg/datg/internal/journal"
)

// ErrDryRun ends a stage run with DryRun set: its requests were counted,
// none was sent, and nothing was written. It counts as a failed request
// (RequestFailed) where a stage meets it mid-way.
var ErrDryRun = errors.New("dry run: nothing was sent or written")

// DryRun, set in Options, makes the journaled client count the requests a
// stage would send instead of sending them, and estimate their tokens:
// from the means observed in the run's journal for the same model and
// budget when there are any, from the budget (an upper bound) otherwise.
// Prices, when set, turn the tokens into a cost, online and through the
// Batch API (half price).
type DryRun struct {
	// PriceInput and PriceOutput are prices per million prompt and
	// completion tokens (0: no cost shown).
	PriceInput, PriceOutput float64
	// NoBatchAPI leaves out the Batch API's price: the server has none
	// (Model Studio's compatible mode, whose thinking requests stream).
	NoBatchAPI bool

	mu        sync.Mutex
	loaded    bool
	observed  map[string]*tokenMean // model + "\x00" + max_tokens -> completion tokens seen
	byteRatio map[string]*tokenMean // model -> prompt tokens per prompt byte seen
	toSend    map[string]*planLine  // model -> what is left to send
	journaled int
}

type tokenMean struct {
	sum float64
	n   int
}

func (m *tokenMean) add(v float64) { m.sum += v; m.n++ }
func (m *tokenMean) mean() float64 { return m.sum / float64(m.n) }

// planLine is what is left to send for one model.
type planLine struct {
	requests               int
	prompt, completion     float64
	fromJournal, fromLimit int // how the completion tokens were estimated
	budgets                map[planBudget]int
}

// planBudget is a budget requests are sent with, and whether it counts
// the model's reasoning (max_completion_tokens) or only the reply
// (max_tokens).
type planBudget struct {
	tokens    int
	reasoning bool
}

// journalSample bounds the records read to learn the means: enough for
// stable means, few enough that a plan of a large run starts at once.
const journalSample = 4000

// learn reads the means from (a sample of) the journal, once.
func (d *DryRun) learn(j *journal.Journal) {
	if d.loaded {
		return
	}
	d.loaded = true
	d.observed, d.byteRatio, d.toSend = map[string]*tokenMean{}, map[string]*tokenMean{}, map[string]*planLine{}
	keys := j.Keys()
	sort.Slice(keys, func(a, b int) bool { return keys[a].String() < keys[b].String() })
	for _, k := range keys[:min(len(keys), journalSample)] {
		var rec Record
		if ok, err := j.Get(k, &rec); !ok || err != nil || checkReply(rec.Request, rec.Response) != nil {
			continue
		}
		key := fmt.Sprint(rec.Request.Model, "\x00", rec.Request.MaxTokens)
		if d.observed[key] == nil {
			d.observed[key] = &tokenMean{}
		}
		d.observed[key].add(float64(rec.Response.CompletionTokens))
		if b := promptBytes(rec.Request); b > 0 && rec.Response.PromptTokens > 0 {
			if d.byteRatio[rec.Request.Model] == nil {
				d.byteRatio[rec.Request.Model] = &tokenMean{}
			}
			d.byteRatio[rec.Request.Model].add(float64(rec.Response.PromptTokens) / float64(b))
		}
	}
}

// bytesPerTokenGuess is how many prompt bytes a token is taken to cover
// when the journal has seen none of the model's prompts: a low guess
// (tokenizers average three to four bytes a token on English, fewer on
// other scripts), so the estimate errs high.
const bytesPerTokenGuess = 2.5

// count records a request the stage would send (journaled: would not).
func (d *DryRun) count(j *journal.Journal, req Request, journaled bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.learn(j)
	if journaled {
		d.journaled++
		return
	}
	line := d.toSend[req.Model]
	if line == nil {
		line = &planLine{}
		d.toSend[req.Model] = line
	}
	line.requests++
	if line.budgets == nil {
		line.budgets = map[planBudget]int{}
	}
	line.budgets[planBudget{req.MaxTokens, req.Wire == WireReasoning}]++
	if m := d.observed[fmt.Sprint(req.Model, "\x00", req.MaxTokens)]; m != nil {
		line.completion += m.mean()
		line.fromJournal++
	} else {
		line.completion += float64(req.MaxTokens)
		line.fromLimit++
	}
	if r := d.byteRatio[req.Model]; r != nil {
		line.prompt += r.mean() * float64(promptBytes(req))
	} else {
		line.prompt += float64(promptBytes(req)) / bytesPerTokenGuess
	}
}

// budgetText says the budgets the requests go with: max_tokens, or, where
// the budget counts the model's reasoning, max_completion_tokens and the
// larger budget a reply that spends it reasoning is asked again with.
func (l *planLine) budgetText() string {
	budgets := slices.SortedFunc(maps.Keys(l.budgets), func(a, b planBudget) int {
		return cmp.Or(cmp.Compare(a.tokens, b.tokens), cmp.Compare(fmt.Sprint(a.reasoning), fmt.Sprint(b.reasoning)))
	})
	var parts []string
	for _, b := range budgets {
		text := fmt.Sprintf("max_tokens %d", b.tokens)
		if b.reasoning {
			text = fmt.Sprintf("max_completion_tokens %d (it counts the hidden reasoning", b.tokens)
			if grown, ok := grownBudget(Request{Wire: WireReasoning, MaxTokens: b.tokens}, Response{FinishReason: "length"}); ok {
				text += fmt.Sprintf("; a reply that spends it reasoning is asked once more with %d", grown.MaxTokens)
			}
			text += ")"
		}
		if len(budgets) > 1 {
			text += fmt.Sprintf(" for %d", l.budgets[b])
		}
		parts = append(parts, text)
	}
	return strings.Join(parts, ", ")
}

// Report writes what is left to send, per model, with the estimate's basis
// and, given prices, the cost online and through the Batch API.
func (d *DryRun) Report(w io.Writer, stage string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	models := make([]string, 0, len(d.toSend))
	for m := range d.toSend {
		models = append(models, m)
	}
	sort.Strings(models)
	fmt.Fprintf(w, "%s: dry run (nothing sent, nothing written): %d request(s) already journaled\n", stage, d.journaled)
	var total float64
	for _, m := range models {
		l := d.toSend[m]
		basis := fmt.Sprintf("completion tokens: %d from journal means, %d at the budget", l.fromJournal, l.fromLimit)
		fmt.Fprintf(w, "  %-28s %8d requests to send  ~%.0f prompt + ~%.0f completion tokens  (%s)\n", m, l.requests, l.prompt, l.completion, basis)
		fmt.Fprintf(w, "    budget: %s\n", l.budgetText())
		total += l.prompt/1e6*d.PriceInput + l.completion/1e6*d.PriceOutput
	}
	if len(models) == 0 {
		fmt.Fprintln(w, "  nothing left to send")
	}
	switch {
	case (d.PriceInput > 0 || d.PriceOutput > 0) && d.NoBatchAPI:
		fmt.Fprintf(w, "  cost at %.4g/%.4g per million prompt/completion tokens: %.2f\n", d.PriceInput, d.PriceOutput, total)
	case d.PriceInput > 0 || d.PriceOutput > 0:
		fmt.Fprintf(w, "  cost at %.4g/%.4g per million prompt/completion tokens: %.2f online, %.2f through OpenAI's Batch API (half price)\n",
			d.PriceInput, d.PriceOutput, total, total/2)
	}
	fmt.Fprintln(w, "  (a first pass only: requests that depend on replies, such as DAG repairs, alignment retries, replies asked again with a larger budget, further reference rounds and Loop-Retry's later trials, are not counted)")
}
