package imports

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/transforms"
)

const good = `{"model": "Qwen/Qwen3-4B", "input_lang": "en", "reasoning_lang": "sw", "level": "low", "problem_id": "low-3", "seed": 42, "method": "base", "text": "<think>\nKwanza\n</think> \\boxed{1}", "completion_tokens": 12, "finish_reason": "stop"}
{"trace_id": "mine-1", "model": "Qwen/Qwen3-4B", "input_lang": "sw", "reasoning_lang": "sw", "level": "high", "problem_id": "high-0", "seed": 215, "method": "loop-retry", "text": "x", "completion_tokens": 16384, "max_tokens": 16384}
`

// runDir is a run with the problems the test traces refer to.
func runDir(t *testing.T) string {
	dir := t.TempDir()
	var ps []schema.Problem
	for _, id := range []string{"low-3", "high-0"} {
		ps = append(ps, schema.Problem{ProblemID: id, Lang: "en", Answer: "1"})
	}
	if err := store.WriteAll(dir, schema.Problems, store.Meta{}, ps); err != nil {
		t.Fatal(err)
	}
	return dir
}

func write(t *testing.T, content string) string {
	p := filepath.Join(t.TempDir(), "traces.jsonl")
	os.WriteFile(p, []byte(content), 0o644)
	return p
}

func TestImportTraces(t *testing.T) {
	dir := runDir(t)
	sum, err := Run(context.Background(), Config{Kind: "traces", In: write(t, good), Data: dir})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Records != 2 {
		t.Fatalf("summary: Records %d, want 2", sum.Records)
	}
	rows, _ := store.ReadAll(dir, schema.Traces)
	byID := map[string]schema.Trace{}
	for _, r := range rows {
		byID[r.TraceID] = r
	}
	derived := transforms.TraceID(transforms.TraceKey{Model: "Qwen/Qwen3-4B", InputLang: "en", ReasoningLang: "sw", Level: "low", ProblemID: "low-3", Seed: 42, Method: "base"})
	r, ok := byID[derived]
	if !ok {
		t.Fatalf("no trace of the derived id %s", derived)
	}
	type derivedTrace struct {
		Direction, FinishReason, Source string
		Truncated                       bool
	}
	if diff := cmp.Diff(derivedTrace{"en-x", "stop", "import:traces.jsonl", false}, derivedTrace{r.Direction, r.FinishReason, r.Source, r.Truncated}); diff != "" {
		t.Fatalf("derived-id trace (-want +got):\n%s", diff)
	}
	type givenTrace struct {
		Direction, Method string
		Truncated         bool
	}
	r = byID["mine-1"]
	if diff := cmp.Diff(givenTrace{"x-x", "loop-retry", true}, givenTrace{r.Direction, r.Method, r.Truncated}); diff != "" {
		t.Fatalf("given-id trace (-want +got):\n%s", diff)
	}
	// Importing again replaces, not duplicates.
	sum, err = Run(context.Background(), Config{Kind: "traces", In: write(t, good), Data: dir})
	if err != nil {
		t.Fatalf("reimport: %v", err)
	}
	if sum.Replaced != 2 {
		t.Fatalf("reimport: Replaced %d, want 2", sum.Replaced)
	}
	if n, _ := store.NumRows(dir, schema.Traces.Table); n != 2 {
		t.Fatalf("%d rows after reimport", n)
	}
}

func TestImportErrorsNameLineAndField(t *testing.T) {
	base := strings.SplitN(good, "\n", 2)[0]
	cases := []struct {
		name, content, want string
		is                  error
	}{
		{"missing field", strings.Replace(base, `"seed": 42, `, "", 1), "seed: invalid record: missing (", ErrBadRecord},
		{"unknown field", strings.Replace(base, `"seed": 42`, `"seeed": 42`, 1), `unknown field "seeed"`, ErrBadRecord},
		{"bad language", strings.Replace(base, `"sw"`, `"xx"`, 1), "reasoning_lang", ErrBadRecord},
		{"no direction", strings.Replace(base, `"input_lang": "en"`, `"input_lang": "fr"`, 1), "reasoning_lang", ErrBadRecord},
		{"bad level", strings.Replace(base, `"level": "low"`, `"level": "easy"`, 1), "level", ErrBadRecord},
		{"level mismatch", strings.Replace(base, `"problem_id": "low-3"`, `"problem_id": "high-3"`, 1), "problem_id", ErrBadRecord},
		{"bad method", strings.Replace(base, `"method": "base"`, `"method": "magic"`, 1), "method", ErrBadRecord},
		{"fractional seed", strings.Replace(base, `"seed": 42`, `"seed": 4.2`, 1), "seed", ErrBadRecord},
		{"negative tokens", strings.Replace(base, `"completion_tokens": 12`, `"completion_tokens": -1`, 1), "completion_tokens", ErrBadRecord},
		{"direction mismatch", strings.Replace(base, `"seed": 42`, `"seed": 42, "direction": "x-x"`, 1), "direction", ErrBadRecord},
		{"not JSON", "{nope", "invalid character", ErrBadRecord},
		{"duplicate", base, "as line 1", ErrDuplicate},
		{"unknown problem", strings.Replace(base, `"low-3"`, `"low-99"`, 1), "problem_id: invalid record: low-99 is not in the problems table", ErrBadRecord},
		{"trailing text", base + " garbage", "text after the JSON object", ErrBadRecord},
		{"second object", base + " " + base, "text after the JSON object", ErrBadRecord},
		{"duplicate key", strings.Replace(base, `"seed": 42`, `"seed": 43, "top_p": 0.9, "top_p": 0.5`, 1), `duplicate key "top_p"`, ErrBadRecord},
		{"duplicate key by case", strings.Replace(base, `"seed": 42`, `"seed": 43, "SEED": 7`, 1), `duplicate key "SEED"`, ErrBadRecord},
		{"negative top_p", strings.Replace(base, `"seed": 42`, `"seed": 43, "top_p": -5`, 1), "top_p: invalid record: out of range", ErrBadRecord},
		{"top_p above 1", strings.Replace(base, `"seed": 42`, `"seed": 43, "top_p": 1.5`, 1), "top_p: invalid record: out of range", ErrBadRecord},
		{"negative penalty", strings.Replace(base, `"seed": 42`, `"seed": 43, "repetition_penalty": -1`, 1), "repetition_penalty: invalid record: out of range", ErrBadRecord},
		{"huge temperature", strings.Replace(base, `"seed": 42`, `"seed": 43, "temperature": 1e300`, 1), "temperature: invalid record: out of range", ErrBadRecord},
		{"negative temperature", strings.Replace(base, `"seed": 42`, `"seed": 43, "temperature": -0.5`, 1), "temperature: invalid record: out of range", ErrBadRecord},
		{"tokens out of range", strings.Replace(strings.Replace(base, `"completion_tokens": 12`, `"completion_tokens": 2000000000`, 1), `"seed": 42`, `"seed": 43`, 1), "completion_tokens: invalid record: out of range", ErrBadRecord},
		{"prompt tokens out of range", strings.Replace(base, `"seed": 42`, `"seed": 43, "prompt_tokens": 2000000000`, 1), "prompt_tokens: invalid record: out of range", ErrBadRecord},
		{"budget out of range", strings.Replace(base, `"seed": 42`, `"seed": 43, "max_tokens": 2000000000`, 1), "max_tokens: invalid record: out of range", ErrBadRecord},
		{"negative budget", strings.Replace(base, `"seed": 42`, `"seed": 43, "max_tokens": -4096`, 1), "max_tokens: invalid record: out of range", ErrBadRecord},
		{"empty", "\n\n", "no traces", ErrBadRecord},
	}
	// The cases below "trailing text" use seed 43, so that only the field
	// at fault, not a duplicate of line 1, can make them fail.
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := runDir(t)
			content := good + c.content + "\n"
			if c.name == "empty" {
				content = c.content
			}
			_, err := Run(context.Background(), Config{Kind: "traces", In: write(t, content), Data: dir})
			if !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %v mentioning %q", err, c.is, c.want)
			}
			if c.name != "empty" && !strings.Contains(err.Error(), "traces.jsonl:3") {
				t.Errorf("error does not name line 3: %v", err)
			}
			if store.Exists(dir, schema.Traces.Table) {
				t.Fatal("a failed import wrote the table")
			}
		})
	}
}

// The sampling settings a trace records are checked against the ranges a
// server takes: the edges of the ranges import.
func TestImportTakesSamplingAtTheEdgesOfTheRanges(t *testing.T) {
	dir := runDir(t)
	base := strings.SplitN(good, "\n", 2)[0]
	line := strings.Replace(base, `"seed": 42`, `"seed": 42, "temperature": 2, "top_p": 1, "repetition_penalty": 1.13, "max_tokens": 1048576, "prompt_tokens": 0`, 1)
	if _, err := Run(context.Background(), Config{Kind: "traces", In: write(t, line+"\n"), Data: dir}); err != nil {
		t.Fatal(err)
	}
	rows, _ := store.ReadAll(dir, schema.Traces)
	if len(rows) != 1 {
		t.Fatalf("%d rows, want 1", len(rows))
	}
	want := sampling{Temperature: ptr(2.0), TopP: ptr(1.0), RepetitionPenalty: ptr(1.13), MaxTokens: ptr[int64](1 << 20)}
	if diff := cmp.Diff(want, samplingOf(rows[0])); diff != "" {
		t.Fatalf("sampling recorded (-want +got):\n%s", diff)
	}
}

// sampling is what a trace records of how it was sampled.
type sampling struct {
	Temperature, TopP, RepetitionPenalty *float64
	TopK, MaxTokens                      *int64
}

func samplingOf(r schema.Trace) sampling {
	return sampling{r.Temperature, r.TopP, r.RepetitionPenalty, r.TopK, r.MaxTokens}
}

func ptr[T any](v T) *T { return &v }

// A trace that does not say how it was sampled records NULLs, not zeros:
// a temperature of 0 would claim greedy decoding.
func TestImportRecordsUnsaidSamplingAsNull(t *testing.T) {
	dir := runDir(t)
	base := strings.SplitN(good, "\n", 2)[0]
	if _, err := Run(context.Background(), Config{Kind: "traces", In: write(t, base+"\n"), Data: dir}); err != nil {
		t.Fatal(err)
	}
	rows, _ := store.ReadAll(dir, schema.Traces)
	if diff := cmp.Diff(sampling{}, samplingOf(rows[0])); diff != "" {
		t.Fatalf("unsaid sampling recorded as values (-want +got):\n%s", diff)
	}
	line := strings.Replace(base, `"seed": 42`, `"seed": 42, "top_k": -2`, 1)
	_, err := Run(context.Background(), Config{Kind: "traces", In: write(t, line+"\n"), Data: dir})
	if err == nil || !strings.Contains(err.Error(), "top_k") {
		t.Fatalf("top_k -2 (no server takes it) was imported: %v", err)
	}
	// 0 is vLLM's own default (off): a trace may say it was sampled so.
	line = strings.Replace(base, `"seed": 42`, `"seed": 42, "top_k": 0`, 1)
	if _, err := Run(context.Background(), Config{Kind: "traces", In: write(t, line+"\n"), Data: dir}); err != nil {
		t.Fatal(err)
	}
	rows, _ = store.ReadAll(dir, schema.Traces)
	if diff := cmp.Diff(ptr[int64](0), rows[0].TopK); diff != "" {
		t.Fatalf("top_k 0 recorded otherwise (-want +got):\n%s", diff)
	}
}

func TestImportKeepsOneRowPerTraceKey(t *testing.T) {
	dir := runDir(t)
	if _, err := Run(context.Background(), Config{Kind: "traces", In: write(t, good), Data: dir}); err != nil {
		t.Fatal(err)
	}
	base := strings.SplitN(good, "\n", 2)[0]
	// The same trace under a new id would be a second row for one key.
	renamed := strings.Replace(base, "{", `{"trace_id": "custom1", `, 1)
	_, err := Run(context.Background(), Config{Kind: "traces", In: write(t, renamed+"\n"), Data: dir})
	if !errors.Is(err, ErrDuplicate) || !strings.Contains(err.Error(), "give that id or none") {
		t.Fatalf("got %v", err)
	}
	// An id already naming another trace must not replace it.
	stolen := strings.Replace(strings.Replace(base, `"seed": 42`, `"seed": 7`, 1), "{", `{"trace_id": "mine-1", `, 1)
	_, err = Run(context.Background(), Config{Kind: "traces", In: write(t, stolen+"\n"), Data: dir})
	if !errors.Is(err, ErrDuplicate) || !strings.Contains(err.Error(), "already names another trace") {
		t.Fatalf("got %v", err)
	}
	if n, _ := store.NumRows(dir, schema.Traces.Table); n != 2 {
		t.Fatalf("%d rows, want 2", n)
	}
}
