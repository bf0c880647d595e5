package verify

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms/answer"
	"github.com/datg/datg/transforms/mathverify"
)

func TestCheckLinesKeepsOrderAndBadLines(t *testing.T) {
	in := `{"gold": "18", "pred": "\\boxed{18}"}
not json
{"gold": "$\\frac{1}{2}$", "pred": "0.5"}
{"gold": "3"}

{"gold": "3", "pred": "4"}`
	var out bytes.Buffer
	n, err := CheckLines(context.Background(), string(study.Multilingual), strings.NewReader(in), &out)
	if err != nil {
		t.Fatal(err)
	}
	if n != 6 {
		t.Fatalf("%d lines checked, want 6", n)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := []struct {
		correct bool
		err     bool
	}{{true, false}, {false, true}, {true, false}, {false, true}, {false, true}, {false, false}}
	if len(lines) != len(want) {
		t.Fatalf("%d output lines for 6 input lines:\n%s", len(lines), out.String())
	}
	for i, l := range lines {
		var r checkResult
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		if r.Correct != want[i].correct || (r.Error != "") != want[i].err {
			t.Errorf("line %d: %s", i+1, l)
		}
	}
}

// jsonString is s as a JSON string, as datg and most encoders write it
// (no HTML escapes).
func jsonString(t testing.TB, s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// countPlainLines counts the lines the fast reader takes.
func countPlainLines(in []byte) int {
	n := 0
	dec := new(requestDecoder)
	for line := range bytes.Lines(in) {
		if _, _, ok := dec.decodePlainRequest(line); ok {
			n++
		}
	}
	return n
}

// answerPairs are gold and prediction pairs from the graders' corpora,
// each gold met many times (against its own prediction and others), in a
// random order.
func answerPairs(t testing.TB, n int) [][2]string {
	t.Helper()
	var cases []struct{ Gold, Pred string }
	files, _ := filepath.Glob("../../transforms/answer/testdata/graded_cases*.jsonl")
	files = append(files, "../../transforms/mathverify/testdata/cases.jsonl")
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
			var c struct{ Gold, Pred string }
			if err := json.Unmarshal(line, &c); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			cases = append(cases, c)
		}
	}
	rng := rand.New(rand.NewPCG(53, 59))
	out := make([][2]string, n)
	for i := range out {
		c := cases[rng.IntN(min(len(cases), 500))]
		pred := c.Pred
		if rng.IntN(2) == 0 {
			pred = cases[rng.IntN(len(cases))].Pred
		}
		out[i] = [2]string{c.Gold, pred}
	}
	return out
}

// CheckLines writes, line for line, what each grader's Check gives for
// the pair alone, though it keeps golds parsed between lines.
func TestCheckLinesGradesEachPairAsCheck(t *testing.T) {
	pairs := answerPairs(t, 6000)
	// Long traces among them, so that a trace's buffer is reused for the
	// lines after it; every other line with "pred" first, so that the
	// gold is read after the prediction.
	texts, golds := longTraceCases(t)
	for k := 0; k < len(texts); k += 23 {
		at := k * len(pairs) / len(texts)
		pairs = slices.Insert(pairs, at, [2]string{golds[k], texts[k]})
	}
	var in bytes.Buffer
	for k, p := range pairs {
		gold, pred := jsonString(t, p[0]), jsonString(t, p[1])
		if k%2 == 0 {
			fmt.Fprintf(&in, `{"gold": %s, "pred": %s}`+"\n", gold, pred)
		} else {
			fmt.Fprintf(&in, `{"pred": %s, "gold": %s}`+"\n", pred, gold)
		}
	}
	if plain := countPlainLines(in.Bytes()); plain < len(pairs)*9/10 {
		t.Fatalf("only %d of %d lines take the fast reader", plain, len(pairs))
	}
	checks := map[string]func(g, p string) verdict{
		string(study.MathVerify):   func(g, p string) verdict { return verdict(mathverify.Check(g, p)) },
		string(study.Multilingual): func(g, p string) verdict { return verdict(answer.Check(g, p)) },
	}
	for _, name := range Graders() {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		for _, p := range pairs {
			v := checks[name](p[0], p[1])
			if err := enc.Encode(checkResult{Correct: v.Correct, Extracted: v.Extracted, Reason: v.Reason, Where: v.Where}); err != nil {
				t.Fatal(err)
			}
		}
		var got bytes.Buffer
		if _, err := CheckLines(context.Background(), name, bytes.NewReader(in.Bytes()), &got); err != nil {
			t.Fatal(err)
		}
		gotLines, wantLines := strings.Split(got.String(), "\n"), strings.Split(want.String(), "\n")
		if len(gotLines) != len(wantLines) {
			t.Fatalf("%s: %d output lines, want %d", name, len(gotLines), len(wantLines))
		}
		for i := range gotLines {
			if gotLines[i] != wantLines[i] {
				t.Fatalf("%s: line %d (gold %q, prediction %q):\n%s\nwant\n%s", name, i+1, pairs[i][0], pairs[i][1], gotLines[i], wantLines[i])
			}
		}
	}
}
