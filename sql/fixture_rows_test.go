package sql_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// The fixture's rows (testdata/fixture/<table>.jsonl) as the independent
// computations of these tests read them: the columns they use, named as in
// the fixture.

type fixtureTrace struct {
	TraceID          string `json:"trace_id"`
	Model            string `json:"model"`
	Level            string `json:"level"`
	Direction        string `json:"direction"`
	InputLang        string `json:"input_lang"`
	ReasoningLang    string `json:"reasoning_lang"`
	ProblemID        string `json:"problem_id"`
	Seed             int64  `json:"seed"`
	Method           string `json:"method"`
	CompletionTokens int64  `json:"completion_tokens"`
}

// lang is the trace's language in the tables: the reasoning language, the
// input language under x-en.
func (tr fixtureTrace) lang() string {
	if tr.Direction == "x-en" {
		return tr.InputLang
	}
	return tr.ReasoningLang
}

type fixtureScore struct {
	TraceID string   `json:"trace_id"`
	DagID   string   `json:"dag_id"`
	Aligner string   `json:"aligner"`
	CAR     float64  `json:"car"`
	PMF     *float64 `json:"pmf"`
	HAR     float64  `json:"har"`
}

// fixtureRows reads every row of a fixture table.
func fixtureRows[T any](t *testing.T, table string) []T {
	t.Helper()
	name := filepath.Join("testdata", "fixture", table+".jsonl")
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		var r T
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s:%d: %v", name, line, err)
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return out
}

// fixtureCorrect is each trace's verdict in the fixture's answers.
func fixtureCorrect(t *testing.T) map[string]bool {
	t.Helper()
	type answer struct {
		TraceID string `json:"trace_id"`
		Correct bool   `json:"correct"`
	}
	correct := map[string]bool{}
	for _, a := range fixtureRows[answer](t, "answers") {
		correct[a.TraceID] = a.Correct
	}
	return correct
}
