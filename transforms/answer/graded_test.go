package answer

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestGradedCases checks the grader against (gold, prediction, verdict)
// triples written independently of it, in the way careful human graders
// decide (testdata/graded_cases*.jsonl, with each case's reason).
func TestGradedCases(t *testing.T) {
	files, _ := filepath.Glob("testdata/graded_cases*.jsonl")
	if len(files) == 0 {
		t.Fatal("no graded cases")
	}
	for _, name := range files {
		t.Run(filepath.Base(name), func(t *testing.T) { gradedFile(t, name) })
	}
}

func gradedFile(t *testing.T, name string) {
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n, agree := 0, 0
	for line := 1; sc.Scan(); line++ {
		var c struct {
			Gold, Pred, Note string
			Correct          bool
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("line %d: %v", line, err)
		}
		n++
		v := Check(c.Gold, c.Pred)
		if v.Correct == c.Correct {
			agree++
			continue
		}
		t.Errorf("line %d: Check(%q, %q) = %v (%s, extracted %q), want %v: %s", line, c.Gold, c.Pred, v.Correct, v.Reason, v.Extracted, c.Correct, c.Note)
	}
	t.Logf("%d of %d cases agree", agree, n)
}
