package duck

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
	"github.com/parquet-go/parquet-go"
)

// complianceV02 is a compliance row as datg wrote it before v0.3.0: no
// settings column, the settings after the detector's name in detector.
type complianceV02 struct {
	TraceID   string `parquet:"trace_id"`
	Requested string `parquet:"requested"`
	Detected  string `parquet:"detected"`
	Compliant bool   `parquet:"compliant"`
	Status    string `parquet:"status"`
	Chars     int32  `parquet:"chars"`
	Shares    string `parquet:"shares"`
	Detector  string `parquet:"detector"`
	TextHash  string `parquet:"text_hash"`
}

// A run written before compliance had a settings column reads with the
// bare detector name, the settings split off, so a query by name finds its
// rows; a run written now reads as written.
func TestComplianceDetectorOfOldRunsReadsAsTheBareName(t *testing.T) {
	// The values v0.2.0's langcheck wrote (name + ": " + settings).
	const (
		ldSettings = "langdetect 1.0.9 (Go port, Debian profiles), seed 0, paper rule: exactly one language above 0.1, zh = zh-cn, ms = id"
		liSettings = "lingua-go v1.4.0 low-accuracy mode, 12 languages, 24 segments x 200 chars, share >= 0.1"
	)
	old := t.TempDir()
	f, err := os.Create(filepath.Join(old, "compliance.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if err := parquet.Write(f, []complianceV02{
		{TraceID: "t1", Detector: "langdetect: " + ldSettings},
		{TraceID: "t2", Detector: "lingua: " + liSettings},
		{TraceID: "t3", Detector: "imported"}, // no settings to split off
	}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	checkQuery(t, "an old run", open(t, old), "SELECT trace_id, detector, settings FROM compliance ORDER BY trace_id",
		"trace_id,detector,settings\nt1,langdetect,\""+ldSettings+"\"\nt2,lingua,\""+liSettings+"\"\nt3,imported,\n")
	checkQuery(t, "an old run by name", open(t, old), "SELECT count(*) AS n FROM compliance WHERE detector = 'langdetect'", "n\n1\n")

	// Written now: the detector is the name, and a settings value holding
	// ": " is not split again.
	now := t.TempDir()
	if err := store.WriteAll(now, schema.Compliances, store.Meta{}, []schema.Compliance{
		{TraceID: "t1", Detector: "langdetect", Settings: ldSettings},
		{TraceID: "t2", Detector: "lingua", Settings: "a: b"},
	}); err != nil {
		t.Fatal(err)
	}
	checkQuery(t, "a new run", open(t, now), "SELECT trace_id, detector, settings FROM compliance ORDER BY trace_id",
		"trace_id,detector,settings\nt1,langdetect,\""+ldSettings+"\"\nt2,lingua,a: b\n")
}
