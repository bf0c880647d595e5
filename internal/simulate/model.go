package simulate

import (
	_ "embed"
	"encoding/binary"
	"encoding/json"
	"hash/fnv"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"

	"github.com/datg/datg/prompts"
	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms"
	"github.com/datg/datg/transforms/scaffold"
)

//go:embed phrases.json
var phrasesJSON []byte

// phrasebook is the sentences the simulated model writes in one language.
type phrasebook struct {
	Equation string   `json:"equation"` // a sentence around one step of a solution: {eq}
	Steps    []string `json:"steps"`
	Check    []string `json:"check"`
	Loop     string   `json:"loop"`
	Conclude string   `json:"conclude"`
	Final    string   `json:"final"`
}

// phrases are the phrase books by language, parsed on first use so that
// commands other than simulate do not pay for it.
var phrases = sync.OnceValue(func() map[string]phrasebook {
	var f struct {
		Languages map[string]phrasebook `json:"languages"`
	}
	if err := json.Unmarshal(phrasesJSON, &f); err != nil {
		panic("simulate: phrases.json: " + err.Error())
	}
	return f.Languages
})

// Outcomes of a simulated generation.
const (
	OutcomeCorrect       = "correct"
	OutcomeWrong         = "wrong"
	OutcomeLoop          = "loop"
	OutcomeWrongLanguage = "wrong-language"
	OutcomeNoAnswer      = "no-answer"
)

// problemInfo is what the simulated model "knows" about a question.
type problemInfo struct {
	ID, Lang, Level, Answer string
	Steps                   []string // a worked solution's equations, when given (--solutions)
}

// sampling is the part of a request that shapes the sample.
type sampling struct {
	Model             string
	Seed              int64
	Temperature, TopP float64
	RepetitionPenalty float64
	MaxTokens         int
}

// generation is one simulated completion.
type generation struct {
	Reasoning                       string   // continuation up to the end of the thinking block
	Answer                          string   // visible answer after </think> (may be empty)
	Tokens                          []string // the continuation split into tokens (concatenation = Reasoning + Answer)
	FinishReason                    string
	StopReason                      string // the stop string that ended it (vLLM's stop_reason; empty: end of sequence or budget)
	Outcome                         string
	Correct                         bool // the boxed answer is the gold one
	ReasoningLang, InputLang, Level string
}

// Text is the whole continuation.
func (g generation) Text() string { return g.Reasoning + g.Answer }

// split is the continuation as vLLM's Qwen3 reasoning parser returns it
// (thinking on, <think> in the prompt): a <think> in the output is dropped
// with everything before it; the output is cut at the first </think>,
// which is dropped, into the reasoning before and the content after (every
// newline kept), the content null (nil) when nothing follows; without
// </think> all of it is reasoning and the content is null.
func (g generation) split() (reasoning string, content *string) {
	out := g.Text()
	if _, after, ok := strings.Cut(out, transforms.ThinkOpen); ok {
		out = after
	}
	r, c, ok := strings.Cut(out, transforms.ThinkClose)
	if !ok || c == "" {
		return r, nil
	}
	return r, &c
}

// model is the simulated reasoning model.
type model struct {
	profile Profile
	key     map[string]problemInfo // question text -> what it is
}

func normQuestion(q string) string { return strings.Join(strings.Fields(q), " ") }

// reasoningLanguage finds the requested reasoning language from the
// assistant prefix (or else the system message) of datg's own prompts.
func reasoningLanguage(system, assistant string) string {
	for _, l := range prompts.Languages() {
		if strings.HasSuffix(strings.TrimRight(assistant, " "), l.Prefix) {
			return l.Code
		}
	}
	if code, ok := scaffoldLanguage(system); ok {
		return code
	}
	for _, l := range prompts.Languages() {
		if system == l.System {
			return l.Code
		}
	}
	return study.English
}

func (m *model) generate(system, user, assistant string, s sampling) generation {
	if start, partial, ok := continued(assistant); ok {
		return m.continuation(system, user, start, partial, s)
	}
	return m.sample(system, user, assistant, s)
}

// sample writes a new reasoning after the assistant's prefix.
func (m *model) sample(system, user, assistant string, s sampling) generation {
	info, known := m.key[normQuestion(user)]
	g := generation{ReasoningLang: reasoningLanguage(system, assistant), InputLang: info.Lang, Level: info.Level}
	if !known {
		g.InputLang, g.Level = study.English, string(study.Medium)
	}
	rng := rand.New(seedFor(system, user, assistant, s))

	rl, il := m.profile.lang(g.ReasoningLang), m.profile.lang(g.InputLang)
	reasoning := rl.Reasoning
	if strings.Contains(assistant, scaffold.Close) {
		// A plan written beforehand makes up part of what reasoning in a
		// weak language loses.
		reasoning += (1 - reasoning) * m.profile.ScaffoldGain[g.Level]
	}
	pCorrect := clamp01(m.profile.LevelAccuracy[g.Level] * m.profile.modelFactor(s.Model) * reasoning * il.Input)
	loopFactor := m.profile.LoopLevelFactor[g.Level]
	if loopFactor == 0 {
		loopFactor = 1
	}
	// A repetition penalty above 1 makes loops rarer, as it does for real models.
	pLoop := clamp01(rl.Loop * loopFactor * max(0, 1-3*(max(s.RepetitionPenalty, 1)-1)))
	u := rng.Float64()
	g.Correct = rng.Float64() < pCorrect
	switch {
	case u < pLoop:
		g.Outcome, g.Correct = OutcomeLoop, false
	case u < pLoop+rl.WrongLanguage:
		g.Outcome = OutcomeWrongLanguage // drifting language does not decide the answer
	case u < pLoop+rl.WrongLanguage+rl.NoAnswer:
		g.Outcome, g.Correct = OutcomeNoAnswer, false
	case g.Correct:
		g.Outcome = OutcomeCorrect
	default:
		g.Outcome = OutcomeWrong
	}

	writeLang := g.ReasoningLang
	if g.Outcome == OutcomeWrongLanguage {
		writeLang = study.English
		if g.ReasoningLang == study.English {
			writeLang = "fr"
		}
	}
	pb, ok := phrases()[writeLang]
	if !ok {
		pb = phrases()[study.English]
	}
	answer := boxedForm(info.Answer)
	if !known {
		answer = strconv.Itoa(rng.IntN(1000))
	}
	if !g.Correct {
		answer = perturb(answer, rng)
	}

	var b strings.Builder
	steps := m.profile.steps(g.Level)
	n := steps[0] + rng.IntN(steps[1]-steps[0]+1)
	if g.Outcome == OutcomeLoop {
		n = 1 + rng.IntN(2)
	}
	if len(info.Steps) > 0 {
		// Write the solution's own steps: skipped at a rate that grows as the
		// language's reasoning gets weaker, one of them wrong when the
		// answer will be.
		n = 0
		writeSolution(&b, pb, info.Steps, g, rng, 0.4*(1-rl.Reasoning))
	}
	for i := 0; i < n; i++ {
		if i > 0 {
			if rng.IntN(3) == 0 {
				b.WriteString("\n\n")
			} else {
				b.WriteString(" ")
			}
		} else {
			b.WriteString(" ")
		}
		x, y := 2+rng.IntN(98), 2+rng.IntN(98)
		step := rng.IntN(len(pb.Steps))
		if i == 0 {
			// The prefix already said "First,"; do not open with the
			// phrase book's own first step.
			step = 1 + rng.IntN(len(pb.Steps)-1)
		}
		b.WriteString(fill(pb.Steps[step], x, y, x+y, ""))
		if rng.IntN(5) == 0 {
			b.WriteString(" " + pb.Check[rng.IntN(len(pb.Check))])
		}
	}
	budget := s.MaxTokens
	if budget <= 0 {
		budget = 4096
	}
	switch g.Outcome {
	case OutcomeLoop:
		// Reason on until the loop sets in (its onset is the sample's, not
		// the request's: a sample cut at a checkpoint and continued loops
		// where the whole one does), then repeat one sentence until the
		// budget runs out.
		have := countTokens(b.String())
		if on, ok := m.profile.LoopOnset[g.Level]; ok && on[1] > on[0] {
			for onset := on[0] + rng.IntN(on[1]-on[0]); have < onset && have <= budget; {
				step := " " + fill(pb.Steps[1+rng.IntN(len(pb.Steps)-1)], 2+rng.IntN(98), 2+rng.IntN(98), 2+rng.IntN(98), "")
				b.WriteString(step)
				have += countTokens(step)
			}
		}
		chunk := "\n\n" + pb.Loop + strings.Repeat(" "+pb.Loop, 7)
		per := countTokens(chunk)
		for ; have <= budget; have += per {
			b.WriteString(chunk)
		}
		g.Reasoning = b.String()
	case OutcomeNoAnswer:
		b.WriteString("\n\n" + pb.Check[rng.IntN(len(pb.Check))])
		g.Reasoning = b.String() + "\n" + transforms.ThinkClose
		g.Answer = "\n\n" + pb.Check[0]
	default:
		// Drawn after every other draw, so the rest of the sample is what
		// it would be without it: a model that writes its own digits
		// writes them in the conclusion and the box alike.
		if rl.NativeDigits > 0 && rng.Float64() < rl.NativeDigits {
			answer = nativeDigits(answer, writeLang)
		}
		b.WriteString("\n\n" + fill(pb.Conclude, 0, 0, 0, answer))
		g.Reasoning = b.String() + "\n" + transforms.ThinkClose
		g.Answer = "\n\n" + pb.Final + " $\\boxed{" + answer + "}$"
	}
	g.FinishReason = "stop"
	g.Tokens = tokenize(g.Text())
	// A loop never stops by itself: it ends at the budget.
	if len(g.Tokens) > budget || g.Outcome == OutcomeLoop && len(g.Tokens) == budget {
		g.Tokens = g.Tokens[:budget]
		g.FinishReason = "length"
		cut := strings.Join(g.Tokens, "")
		if len(cut) <= len(g.Reasoning) {
			g.Reasoning, g.Answer = cut, ""
		} else {
			g.Answer = cut[len(g.Reasoning):]
		}
	}
	return g
}

func fill(tmpl string, a, b, c int, answer string) string {
	return strings.NewReplacer("{a}", strconv.Itoa(a), "{b}", strconv.Itoa(b), "{c}", strconv.Itoa(c), "{answer}", answer).Replace(tmpl)
}

// digitZero is the zero of the languages whose own digits the simulated
// model sometimes writes (Unicode digits run zero to nine).
var digitZero = map[string]rune{"bn": '০', "te": '౦', "th": '๐'}

// nativeDigits writes a whole number in the language's digits; anything
// else is left as it is.
func nativeDigits(answer, lang string) string {
	zero, ok := digitZero[lang]
	if !ok || answer == "" || strings.Trim(answer, "0123456789") != "" {
		return answer
	}
	out := []rune(answer)
	for i, r := range out {
		out[i] = zero + (r - '0')
	}
	return string(out)
}

// boxedForm is a gold answer as a model would box it: without $ delimiters.
func boxedForm(gold string) string {
	return strings.TrimSpace(strings.ReplaceAll(gold, "$", ""))
}

// perturb makes a wrong answer near the right one.
func perturb(ans string, rng *rand.Rand) string {
	delta := int64(1 + rng.IntN(9))
	if rng.IntN(2) == 0 {
		delta = -delta
	}
	if n, ok := new(big.Int).SetString(ans, 10); ok {
		return n.Add(n, big.NewInt(delta)).String()
	}
	return ans + "+" + strconv.FormatInt(delta*delta, 10)
}

func seedFor(system, user, assistant string, s sampling) *rand.PCG {
	h := fnv.New128a()
	for _, part := range []string{system, user, assistant, s.Model,
		strconv.FormatInt(s.Seed, 10), strconv.FormatFloat(s.Temperature, 'g', -1, 64),
		strconv.FormatFloat(s.TopP, 'g', -1, 64), strconv.FormatFloat(s.RepetitionPenalty, 'g', -1, 64)} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	sum := h.Sum(nil)
	return rand.NewPCG(binary.LittleEndian.Uint64(sum[:8]), binary.LittleEndian.Uint64(sum[8:]))
}

// writeSolution writes a solution's steps in a phrase book's language: a
// looping trace stops after two of them; a wrong trace gets one step with a
// wrong result; steps other than the last are skipped with probability skip.
func writeSolution(b *strings.Builder, pb phrasebook, steps []string, g generation, rng *rand.Rand, skip float64) {
	wrongAt := -1
	if !g.Correct && g.Outcome != OutcomeLoop && g.Outcome != OutcomeNoAnswer {
		wrongAt = rng.IntN(len(steps))
	}
	for i, step := range steps {
		if g.Outcome == OutcomeLoop && i >= 2 {
			return
		}
		if i < len(steps)-1 && rng.Float64() < skip {
			continue
		}
		if i == wrongAt {
			step = wrongResult(step, rng)
		}
		b.WriteString(" " + strings.ReplaceAll(pb.Equation, "{eq}", step))
		if rng.IntN(3) == 0 {
			b.WriteString("\n\n")
		}
	}
}

// wrongResult changes what an equation ends with.
func wrongResult(step string, rng *rand.Rand) string {
	i := strings.LastIndex(step, "=")
	if i < 0 {
		return step
	}
	return step[:i+1] + " " + perturb(strings.TrimSpace(step[i+1:]), rng)
}
