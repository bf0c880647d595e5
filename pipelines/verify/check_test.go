package verify

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/datg/datg/study"
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
