package testenv

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// DemoQuestions are the demo set's questions in lang (data/demo), level by
// level (low, medium, high): prose in the study's languages for tests that
// generate traces of real length (internal/tracegen).
func DemoQuestions(t testing.TB, lang string) []string {
	t.Helper()
	var out []string
	for _, level := range []string{"low", "medium", "high"} {
		f, err := os.Open(filepath.Join(Demo(t), lang, level+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 0, 1<<16), 1<<22)
		for sc.Scan() {
			var row struct{ Question string }
			if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
				t.Fatalf("%s: %v", f.Name(), err)
			}
			out = append(out, row.Question)
		}
		if err := sc.Err(); err != nil {
			t.Fatalf("%s: %v", f.Name(), err)
		}
		f.Close()
	}
	return out
}
