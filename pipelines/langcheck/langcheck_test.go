package langcheck

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/pipelines/prompts"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/transforms"
)

// prose is natural text in a language: the demo set's questions.
func prose(t testing.TB, lang string) string {
	t.Helper()
	var parts []string
	for _, level := range []string{"low", "medium", "high"} {
		f, err := os.Open(filepath.Join(testenv.Demo(t), lang, level+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var row struct{ Question string }
			json.Unmarshal(sc.Bytes(), &row)
			parts = append(parts, row.Question)
		}
		f.Close()
	}
	return strings.Join(parts, "\n\n")
}

func trace(id, lang, reasoning string) schema.Trace {
	l, _ := prompts.Lookup(lang)
	text := transforms.ThinkOpen + l.Prefix + " " + reasoning + "\n" + transforms.ThinkClose + "\n\nAnswer: \\boxed{7}"
	return schema.Trace{TraceID: id, ReasoningLang: lang, Text: text, Prefix: l.Prefix}
}

func TestEveryLanguageIsRecognized(t *testing.T) {
	d := NewDetector()
	for _, l := range prompts.Languages() {
		c := d.Check(&schema.Trace{TraceID: l.Code, ReasoningLang: l.Code, Text: "<think>\n" + prose(t, l.Code)})
		if !c.Compliant || c.Status != transforms.ComplianceOK {
			t.Errorf("%s prose: %+v", l.Code, c)
		}
	}
}

func TestRunWritesComplianceForEveryTrace(t *testing.T) {
	dir := t.TempDir()
	mixed := prose(t, "sw") + "\n\n" + prose(t, "en")
	traces := []schema.Trace{
		trace("sw-ok", "sw", prose(t, "sw")),
		trace("sw-in-english", "sw", prose(t, "en")),
		trace("sw-mixed", "sw", mixed),
		trace("ms-as-id", "ms", prose(t, "id")),
		trace("te-math-only", "te", "$x = 3$ $$y = 4 + 5$$ \\(z\\)"),
		trace("bn-short", "bn", "ঠিক আছে"),
	}
	for i := range traces {
		traces[i].TextHash = transforms.TextHash(traces[i].Text)
	}
	if err := store.WriteAll(dir, schema.Traces, store.Meta{}, traces); err != nil {
		t.Fatal(err)
	}
	sum, err := Run(context.Background(), Config{Data: dir})
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := store.ReadAll(dir, schema.Compliances)
	got := map[string]schema.Compliance{}
	for _, r := range rows {
		got[r.TraceID] = r
	}
	want := map[string]struct {
		compliant bool
		status    string
		detected  string
	}{
		"sw-ok":         {true, transforms.ComplianceOK, "sw"},
		"sw-in-english": {false, transforms.ComplianceOK, "en"},
		"sw-mixed":      {false, transforms.ComplianceMixed, ""},
		"ms-as-id":      {true, transforms.ComplianceOK, "ms"},
		"te-math-only":  {false, transforms.ComplianceEmpty, ""},
		"bn-short":      {false, transforms.ComplianceTooShort, ""},
	}
	for id, w := range want {
		c := got[id]
		if c.Compliant != w.compliant || c.Status != w.status || (w.detected != "" && c.Detected != w.detected) || c.TextHash == "" {
			t.Errorf("%s: %+v, want %+v", id, c, w)
		}
	}
	if sum.Traces != 6 || sum.Compliant != 2 {
		t.Errorf("summary %+v", sum)
	}
}
