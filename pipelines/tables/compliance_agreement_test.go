package tables

import (
	"context"
	"slices"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
)

func detection(id, detector string, compliant bool) schema.Detection {
	return schema.Detection{TraceID: id, Detector: detector, Compliant: compliant}
}

// compliance_agreement is skipped until langcheck wrote detections, laid
// out like the compliance table with "langdetect/lingua" cells, and
// refused when a trace lacks a detector's row.
func TestComplianceAgreementLayoutAndInputs(t *testing.T) {
	dir := writeRun(t, true)
	if err := store.WriteAll(dir, schema.Compliances, store.Meta{}, []schema.Compliance{
		{TraceID: "a", Compliant: true}, {TraceID: "b", Compliant: true}, {TraceID: "c", Compliant: true}, {TraceID: "d"},
	}); err != nil {
		t.Fatal(err)
	}
	wantContains(t, "the report", report(t, dir), "compliance_agreement: skipped, no detections yet (run datg langcheck)")

	dets := []schema.Detection{
		detection("a", "langdetect", true), detection("a", "lingua", true),
		detection("b", "langdetect", true), detection("b", "lingua", false),
		detection("c", "langdetect", true), detection("c", "lingua", true),
		detection("d", "langdetect", false), detection("d", "lingua", false),
	}
	if err := store.WriteAll(dir, schema.Detections, store.Meta{}, dets); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), Config{Data: dir}); err != nil {
		t.Fatal(err)
	}
	wantContains(t, "compliance_agreement.md", readOutput(t, dir, "compliance_agreement.md"),
		"| Pair | org/my\\_model&amp;v2 Low | 8B Med. |", "| en-sw | 100.0/0.0 (1) | -- |", "| en-te | -- | 0.0/0.0 |")
	wantContains(t, "compliance_agreement.tex", readOutput(t, dir, "compliance_agreement.tex"),
		`& org/my\_model\&v2 & 8B \\`, `Pair & Low & Med. \\`, `en-sw & 100.0/0.0 (1) & -- \\`)
	wantContains(t, "compliance_agreement.csv", readOutput(t, dir, "compliance_agreement.csv"),
		"model,model_label,level,lang,n,compliant_langdetect,compliant_lingua,pct_langdetect,pct_lingua,disagree,only_langdetect,only_lingua\n",
		"org/my_model&v2,org/my_model&v2,low,sw,1,1,0,100,0,1,1,0\n")
	// A trace without lingua's decision: detections are stale.
	if err := store.WriteAll(dir, schema.Detections, store.Meta{}, dets[1:]); err != nil {
		t.Fatal(err)
	}
	_, err := Run(context.Background(), Config{Data: dir})
	wantRefusal(t, err, ErrStale, "1 probe traces lack a detections row")

}

// Cells are keyed by model: two models sharing a label keep their columns.
func TestComplianceAgreementKeysCellsByModel(t *testing.T) {
	r := &result{Columns: []string{"model", "model_label", "level", "lang", "n", "pct_langdetect", "pct_lingua", "disagree"}}
	r.Rows = [][]any{
		{"a/X-8B", "8B", "medium", "sw", int64(2), 50.0, 100.0, int64(1)},
		{"a/X-8B", "8B", "low", "sw", int64(2), 100.0, 100.0, int64(0)},
		{"b/Y-8B", "8B", "low", "te", int64(1), 0.0, 100.0, int64(1)},
	}
	g := complianceAgreement(r, layoutOpts{})
	if want := []string{"Pair", "8B Low", "8B Med.", "8B Low"}; !slices.Equal(g.mdHeader(), want) {
		t.Errorf("header %q, want %q", g.mdHeader(), want)
	}
	want := [][]string{{"en-sw", "100.0/100.0", "50.0/100.0 (1)", "--"}, {"en-te", "--", "--", "0.0/100.0 (1)"}}
	if !slices.EqualFunc(g.sections()[0].Rows, want, slices.Equal) {
		t.Errorf("rows %q, want %q", g.sections()[0].Rows, want)
	}
}
