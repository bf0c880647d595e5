package langcheck

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/pipelinetest"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/prompts"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
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
	return schema.Trace{TraceID: id, ReasoningLang: lang, Text: text, Prefix: l.Prefix, TextHash: transforms.TextHash(text)}
}

func TestEveryLanguageIsRecognizedByBothDetectors(t *testing.T) {
	c, err := newChecker(string(study.Langdetect))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range prompts.Languages() {
		tr := schema.Trace{TraceID: l.Code, ReasoningLang: l.Code, Text: "<think>\n" + prose(t, l.Code)}
		comp, dets, err := c.check(&tr)
		if err != nil {
			t.Fatal(err)
		}
		pipelinetest.CheckFields(t, l.Code+" prose",
			pipelinetest.Field("compliant", comp.Compliant, true),
			pipelinetest.Field("status", comp.Status, string(study.ComplianceOK)))
		if comp.Detector != string(study.Langdetect) {
			t.Errorf("%s prose: detector %q, want langdetect", l.Code, comp.Detector)
		}
		for _, d := range dets {
			pipelinetest.CheckFields(t, l.Code+" prose, "+d.Detector,
				pipelinetest.Field("compliant", d.Compliant, true),
				pipelinetest.Field("status", d.Status, string(study.ComplianceOK)))
		}
	}
}

// run writes the traces to a new run and checks them with the detector.
func run(t *testing.T, detector string, traces []schema.Trace) (string, Summary, map[string]schema.Compliance, map[string]map[string]schema.Detection) {
	t.Helper()
	dir := t.TempDir()
	if err := store.WriteAll(dir, schema.Traces, store.Meta{}, traces); err != nil {
		t.Fatal(err)
	}
	sum, err := Run(context.Background(), Config{Data: dir, Detector: detector})
	if err != nil {
		t.Fatal(err)
	}
	comps, dets := read(t, dir)
	return dir, sum, comps, dets
}

func read(t *testing.T, dir string) (map[string]schema.Compliance, map[string]map[string]schema.Detection) {
	t.Helper()
	rows, err := store.ReadAll(dir, schema.Compliances)
	if err != nil {
		t.Fatal(err)
	}
	comps := map[string]schema.Compliance{}
	for _, r := range rows {
		comps[r.TraceID] = r
	}
	drows, err := store.ReadAll(dir, schema.Detections)
	if err != nil {
		t.Fatal(err)
	}
	dets := map[string]map[string]schema.Detection{}
	for _, r := range drows {
		if dets[r.Detector] == nil {
			dets[r.Detector] = map[string]schema.Detection{}
		}
		dets[r.Detector][r.TraceID] = r
	}
	return comps, dets
}

type want struct {
	compliant bool
	status    study.ComplianceStatus
	detected  string
}

func check(t *testing.T, label string, got map[string]schema.Compliance, wants map[string]want) {
	t.Helper()
	for id, w := range wants {
		c := got[id]
		fields := []pipelinetest.Check{pipelinetest.Field("compliant", c.Compliant, w.compliant), pipelinetest.Field("status", c.Status, string(w.status))}
		if w.detected != "" {
			fields = append(fields, pipelinetest.Field("detected", c.Detected, w.detected))
		}
		pipelinetest.CheckFields(t, label+" "+id, fields...)
		if c.TextHash == "" {
			t.Errorf("%s %s: no text_hash", label, id)
		}
	}
}

func sampleTraces(t *testing.T) []schema.Trace {
	return []schema.Trace{
		trace("sw-ok", "sw", prose(t, "sw")),
		trace("sw-in-english", "sw", prose(t, "en")),
		trace("sw-mixed", "sw", prose(t, "sw")+"\n\n"+prose(t, "en")),
		trace("ms-as-id", "ms", prose(t, "id")),
		trace("te-math-only", "te", "$x = 3$ $$y = 4 + 5$$ \\(z\\)"),
		trace("bn-short", "bn", "ঠিক আছে"),
	}
}

// The default detector applies the paper's rule, and detections holds both
// detectors' decisions, written in the same commit as compliance.
func TestRunAppliesThePaperRuleByDefault(t *testing.T) {
	dir, sum, comps, dets := run(t, "", sampleTraces(t))
	check(t, "langdetect", comps, map[string]want{
		"sw-ok":         {true, study.ComplianceOK, "sw"},
		"sw-in-english": {false, study.ComplianceOK, "en"},
		"sw-mixed":      {false, study.ComplianceMixed, ""},
		"ms-as-id":      {true, study.ComplianceOK, "id"},
		"te-math-only":  {false, study.ComplianceEmpty, ""},
		// The paper's rule has no minimum length.
		"bn-short": {true, study.ComplianceOK, "bn"},
	})
	// The detector is its bare name (where detector = 'langdetect' finds
	// it); its settings are in their own column, as in detections.
	for id, c := range comps {
		pipelinetest.CheckFields(t, id,
			pipelinetest.Field("detector", c.Detector, string(study.Langdetect)),
			pipelinetest.Field("settings", c.Settings, dets[string(study.Langdetect)][id].Settings))
		if !strings.HasPrefix(c.Settings, "langdetect 1.0.9") || !strings.Contains(c.Settings, "seed 0") {
			t.Errorf("%s: settings %q", id, c.Settings)
		}
	}
	pipelinetest.CheckFields(t, "summary",
		pipelinetest.Field("detector", sum.Detector, string(study.Langdetect)),
		pipelinetest.Field("traces", sum.Traces, 6),
		pipelinetest.Field("compliant", sum.Compliant, 3),
		pipelinetest.Field("disagree", sum.Disagree, 1))
	// Both detectors decided every trace, with the trace's text hash.
	for _, name := range study.Strings(study.Detectors...) {
		if len(dets[name]) != 6 {
			t.Errorf("%s: %d detections, want 6", name, len(dets[name]))
		}
		for id, d := range dets[name] {
			pipelinetest.CheckFields(t, name+" "+id, pipelinetest.Field("text_hash", d.TextHash, comps[id].TextHash))
			if d.Settings == "" {
				t.Errorf("%s %s: no settings", name, id)
			}
			if d.Requested == "" {
				t.Errorf("%s %s: no requested language", name, id)
			}
		}
	}
	for id, c := range comps {
		d := dets[string(study.Langdetect)][id]
		pipelinetest.CheckFields(t, id+": langdetect's detection against compliance",
			pipelinetest.Field("compliant", d.Compliant, c.Compliant),
			pipelinetest.Field("detected", d.Detected, c.Detected),
			pipelinetest.Field("status", d.Status, c.Status),
			pipelinetest.Field("shares", d.Shares, c.Shares))
	}
	short := dets[string(study.Lingua)]["bn-short"]
	pipelinetest.CheckFields(t, "lingua on bn-short",
		pipelinetest.Field("status", short.Status, string(study.ComplianceTooShort)),
		pipelinetest.Field("compliant", short.Compliant, false))
	sameCommit(t, dir)
}

// sameCommit checks that compliance and detections were written by one
// commit.
func sameCommit(t *testing.T, dir string) {
	t.Helper()
	var commits []string
	for _, tbl := range []*schema.Table{schema.Compliances.Table, schema.Detections.Table} {
		m, err := store.FileMeta(store.FilePath(dir, tbl))
		if err != nil {
			t.Fatal(err)
		}
		commits = append(commits, m[store.MetaCommit])
	}
	if commits[0] == "" || commits[0] != commits[1] {
		t.Errorf("compliance and detections from commits %q", commits)
	}
}

// --detector lingua keeps datg's segment detector for compliance.
func TestRunWithLingua(t *testing.T) {
	_, sum, comps, dets := run(t, string(study.Lingua), sampleTraces(t))
	check(t, "lingua", comps, map[string]want{
		"sw-ok":         {true, study.ComplianceOK, "sw"},
		"sw-in-english": {false, study.ComplianceOK, "en"},
		"sw-mixed":      {false, study.ComplianceMixed, ""},
		"ms-as-id":      {true, study.ComplianceOK, "ms"},
		"te-math-only":  {false, study.ComplianceEmpty, ""},
		"bn-short":      {false, study.ComplianceTooShort, ""},
	})
	for id, c := range comps {
		pipelinetest.CheckFields(t, id,
			pipelinetest.Field("detector", c.Detector, string(study.Lingua)),
			pipelinetest.Field("settings", c.Settings, dets[string(study.Lingua)][id].Settings))
		if !strings.HasPrefix(c.Settings, "lingua-go") {
			t.Errorf("%s: settings %q", id, c.Settings)
		}
	}
	pipelinetest.CheckFields(t, "lingua",
		pipelinetest.Field("summary's traces", sum.Traces, 6),
		pipelinetest.Field("summary's compliant", sum.Compliant, 2),
		pipelinetest.Field("langdetect's detections", len(dets[string(study.Langdetect)]), 6),
		pipelinetest.Field("lingua's detections", len(dets[string(study.Lingua)]), 6))
}

// Where the paper's rule and lingua part: langdetect tells Traditional
// from Simplified Chinese and the rule wants zh-cn (PolyMath's mapping);
// it reads the first 10,000 characters only, as Python langdetect does.
func TestPaperRuleWhereTheDetectorsDiffer(t *testing.T) {
	simplified := "这是一个关于数学的问题。我们先计算苹果的数量，然后再加上梨的数量，所以答案是十二。这个问题要求我们找出总数。首先，每天有十六个鸡蛋，她早餐吃了三个，又用四个烤松饼，剩下的九个在市场上卖掉，每个两美元。"
	traditional := "這是一個關於數學的問題。我們先計算蘋果的數量，然後再加上梨的數量，所以答案是十二。這個問題要求我們找出總數。首先，每天有十六個雞蛋，她早餐吃了三個，又用四個烤鬆餅，剩下的九個在市場上賣掉，每個兩美元。"
	long := strings.Repeat(prose(t, "sw")+"\n\n", 1+10000/len(prose(t, "sw")))
	traces := []schema.Trace{
		trace("zh-simplified", "zh", simplified),
		trace("zh-traditional", "zh", traditional),
		trace("sw-then-english", "sw", long+strings.Repeat(prose(t, "en")+"\n\n", 4)),
	}
	_, sum, comps, dets := run(t, string(study.Langdetect), traces)
	check(t, "langdetect", comps, map[string]want{
		"zh-simplified":   {true, study.ComplianceOK, "zh-cn"},
		"sw-then-english": {true, study.ComplianceOK, "sw"},
	})
	// Traditional Chinese is zh-tw (here with some Korean, which shares
	// langdetect's Kanji classes): not compliant.
	c := comps["zh-traditional"]
	pipelinetest.CheckFields(t, "zh-traditional", pipelinetest.Field("compliant", c.Compliant, false))
	if !strings.HasPrefix(c.Detected, "zh-tw") {
		t.Errorf("zh-traditional: detected %q, want zh-tw first", c.Detected)
	}
	l := dets[string(study.Lingua)]
	pipelinetest.CheckFields(t, "lingua",
		pipelinetest.Field("zh-simplified compliant", l["zh-simplified"].Compliant, true),
		pipelinetest.Field("zh-traditional compliant", l["zh-traditional"].Compliant, true),
		pipelinetest.Field("sw-then-english compliant", l["sw-then-english"].Compliant, false))
	if sum.Disagree != 2 {
		t.Errorf("summary %+v, want 2 disagreements", sum)
	}
}

// An unknown detector is an invalid configuration naming the Detector
// field; an empty one is the default, as in DefaultConfig.
func TestUnknownDetectorIsAConfigError(t *testing.T) {
	_, err := Run(context.Background(), Config{Data: t.TempDir(), Detector: "cld3"})
	if !errors.Is(err, ErrUnknownDetector) {
		t.Errorf("err = %v, want ErrUnknownDetector", err)
	}
	if !errors.Is(err, inputerr.ErrInvalidConfig) {
		t.Errorf("err = %v, want an invalid configuration", err)
	}
	var fields []string
	for _, fe := range inputerr.Fields(err) {
		fields = append(fields, fe.Field)
	}
	if !slices.Equal(fields, []string{"Detector"}) {
		t.Errorf("fields named %q, want Detector", fields)
	}
	for _, cfg := range []Config{DefaultConfig(), {Data: "data/run"}} {
		if err := cfg.Validate(); err != nil {
			t.Errorf("%+v: %v", cfg, err)
		}
	}
}

func TestNoTraces(t *testing.T) {
	dir := t.TempDir()
	if err := store.WriteAll(dir, schema.Traces, store.Meta{}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), Config{Data: dir}); !errors.Is(err, ErrNoTraces) {
		t.Fatalf("err = %v", err)
	}
}

// compliance and detections record the trace's text_hash as the traces
// table holds it (the column the views compare them with), not a hash of
// the text made again; a trace row without one is hashed.
func TestRecordsTheTracesTextHash(t *testing.T) {
	recorded := trace("recorded", "sw", prose(t, "sw"))
	recorded.TextHash = "00feedc0ffee0042" // not transforms.TextHash(text): only the column can give it
	unhashed := trace("unhashed", "sw", prose(t, "sw")+" ")
	unhashed.TextHash = ""
	_, _, comps, dets := run(t, "", []schema.Trace{recorded, unhashed})
	for _, tr := range []schema.Trace{recorded, unhashed} {
		want := tr.TextHash
		if want == "" {
			want = transforms.TextHash(tr.Text)
		}
		pipelinetest.CheckFields(t, tr.TraceID+" compliance", pipelinetest.Field("text_hash", comps[tr.TraceID].TextHash, want))
		for _, name := range study.Strings(study.Detectors...) {
			pipelinetest.CheckFields(t, tr.TraceID+" "+name, pipelinetest.Field("text_hash", dets[name][tr.TraceID].TextHash, want))
		}
	}
}
