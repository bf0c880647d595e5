// Command scaletraces writes the traces of N times the paper's design as
// `datg import traces` reads them, for scripts/scale.sh: 3 models x 3
// levels x 125 problems x 34 language pairs, seeds 1..N, each trace
// written by internal/tracegen from the demo questions' prose in its
// reasoning language (none of the paper's text).
//
// Lengths are drawn like real reasoning traces: log-normal in tokens
// (sigma 0.8) with medians of 1,600, 3,600 and 7,600 tokens for low,
// medium and high problems, cut at the paper's budgets (4,096, 8,192 and
// 16,384 tokens): about 12%, 15% and 17% of traces run to the budget and
// end there, with no answer. A token is -bytes-per-token bytes of text.
//
// With -solutions FILE it also writes a worked solution for every problem
// (internal/worked: 5 to 11 chained steps ending in the problem's gold
// answer, read from PolyMath in -polymath) for datg simulate --solutions,
// whose references then make symbolic DAGs of several nodes, and weaves
// each problem's steps into its traces (most written, some wrong), so
// that alignments find events as they do on real traces.
//
//	go run ./scripts/scaletraces -n 1 -demo data/demo > traces.jsonl
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/datg/datg/internal/tracegen"
	"github.com/datg/datg/internal/worked"
	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms"
)

type level struct {
	name          string
	medianTokens  float64
	budgetTokens  int
	problemsCount int
}

var (
	models = []string{"Qwen/Qwen3-1.7B", "Qwen/Qwen3-4B", "Qwen/Qwen3-8B"}
	levels = []level{{"low", 1600, 4096, 125}, {"medium", 3600, 8192, 125}, {"high", 7600, 16384, 125}}
)

type record struct {
	Model            string `json:"model"`
	InputLang        string `json:"input_lang"`
	ReasoningLang    string `json:"reasoning_lang"`
	Level            string `json:"level"`
	ProblemID        string `json:"problem_id"`
	Seed             int64  `json:"seed"`
	Method           string `json:"method"`
	Text             string `json:"text"`
	CompletionTokens int    `json:"completion_tokens"`
	FinishReason     string `json:"finish_reason"`
	MaxTokens        int    `json:"max_tokens"`
}

func main() {
	n := flag.Int("n", 1, "times the paper's design (seeds 1..n)")
	demo := flag.String("demo", "data/demo", "the demo problem set, whose questions are the traces' prose")
	bytesPerToken := flag.Float64("bytes-per-token", 5, "bytes of text a token stands for")
	problems := flag.Int("problems", 125, "problems per level (fewer for a quick try)")
	solutionsFile := flag.String("solutions", "", "also write worked solutions here (JSONL for datg simulate --solutions) and weave them into the traces")
	polymath := flag.String("polymath", "", "PolyMath's directory, whose gold answers the solutions end in (with -solutions)")
	flag.Parse()
	for i := range levels {
		levels[i].problemsCount = *problems
	}
	var solved map[string][]string
	if *solutionsFile != "" {
		var err error
		if solved, err = writeSolutions(*solutionsFile, *polymath); err != nil {
			fmt.Fprintln(os.Stderr, "scaletraces:", err)
			os.Exit(1)
		}
	}
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	err := run(w, *n, *demo, *bytesPerToken, solved)
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "scaletraces:", err)
		os.Exit(1)
	}
}

// writeSolutions writes a worked solution for every problem to path and
// returns them by problem id.
func writeSolutions(path, polymath string) (map[string][]string, error) {
	if polymath == "" {
		return nil, fmt.Errorf("-solutions needs -polymath, whose gold answers the solutions end in")
	}
	solved, err := solutions(polymath)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	for _, lv := range levels {
		for k := 0; k < lv.problemsCount; k++ {
			id := transforms.ProblemID(lv.name, k)
			if err := enc.Encode(map[string]any{"problem_id": id, "steps": solved[id]}); err != nil {
				return nil, err
			}
		}
	}
	return solved, os.WriteFile(path, []byte(b.String()), 0o644)
}

// solutions are the worked solutions of the problems scaletraces writes
// traces of: problem k of a level ends in its English gold answer in
// polymath/en/{level}.jsonl (its k-th line; ids {level}-en-{k}).
func solutions(polymath string) (map[string][]string, error) {
	out := map[string][]string{}
	for li, lv := range levels {
		path := filepath.Join(polymath, study.English, lv.name+".jsonl")
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		if len(lines) < lv.problemsCount {
			return nil, fmt.Errorf("%s: %d problems, fewer than %d", path, len(lines), lv.problemsCount)
		}
		for k := 0; k < lv.problemsCount; k++ {
			var row struct {
				ID     string `json:"id"`
				Answer string `json:"answer"`
			}
			if err := json.Unmarshal([]byte(lines[k]), &row); err != nil {
				return nil, fmt.Errorf("%s:%d: %w", path, k+1, err)
			}
			if want := fmt.Sprintf("%s-%s-%d", lv.name, study.English, k); row.ID != want {
				return nil, fmt.Errorf("%s:%d: id %q, want %q", path, k+1, row.ID, want)
			}
			out[transforms.ProblemID(lv.name, k)] = worked.Solution(uint64(li*100_000+k+1), row.Answer)
		}
	}
	return out, nil
}

// run writes the traces; a problem with a solution has its steps woven
// into its traces.
func run(out io.Writer, n int, demo string, bytesPerToken float64, solved map[string][]string) error {
	prose := map[string][]string{}
	for _, l := range study.LanguageCodes() {
		p, err := questions(filepath.Join(demo, l))
		if err != nil {
			return err
		}
		prose[l] = p
	}
	type pair struct{ in, reasoning string }
	pairs := []pair{{study.English, study.English}}
	for _, l := range study.LanguageCodes() {
		if l != study.English {
			pairs = append(pairs, pair{study.English, l}, pair{l, study.English}, pair{l, l})
		}
	}
	enc := json.NewEncoder(out)
	count := uint64(0)
	for seed := 1; seed <= n; seed++ {
		for _, model := range models {
			for _, lv := range levels {
				for k := 0; k < lv.problemsCount; k++ {
					for _, p := range pairs {
						count++
						rng := rand.New(rand.NewPCG(count, 23))
						tokens := int(lv.medianTokens * math.Exp(0.8*rng.NormFloat64()))
						cut := tokens >= lv.budgetTokens
						tokens = max(min(tokens, lv.budgetTokens), 50)
						text := tracegen.Write(tracegen.Trace{
							Prose: prose[p.reasoning], English: prose[study.English],
							Bytes: int(float64(tokens) * bytesPerToken), Cut: cut,
							Answer: fmt.Sprint(rng.IntN(100000)), Seed: count,
						})
						problemID := transforms.ProblemID(lv.name, k)
						if steps := solved[problemID]; len(steps) > 0 {
							text = worked.Weave(text, steps, count)
						}
						finish := "stop"
						if cut {
							finish = "length"
						}
						err := enc.Encode(record{
							Model: model, InputLang: p.in, ReasoningLang: p.reasoning, Level: lv.name,
							ProblemID: problemID, Seed: int64(seed), Method: string(study.Base),
							Text: text, CompletionTokens: tokens, FinishReason: finish, MaxTokens: lv.budgetTokens,
						})
						if err != nil {
							return err
						}
					}
				}
			}
		}
	}
	return nil
}

// questions reads the questions of a language's problem files.
func questions(dir string) ([]string, error) {
	var out []string
	for _, lv := range levels {
		b, err := os.ReadFile(filepath.Join(dir, lv.name+".jsonl"))
		if err != nil {
			return nil, err
		}
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var row struct{ Question string }
			if err := json.Unmarshal([]byte(line), &row); err != nil {
				return nil, fmt.Errorf("%s: %w", dir, err)
			}
			out = append(out, row.Question)
		}
	}
	return out, nil
}
