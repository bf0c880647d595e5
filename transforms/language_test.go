package transforms

import (
	"github.com/datg/datg/study"

	"strings"
	"testing"
)

func TestReasoningTextAndMath(t *testing.T) {
	text := "<think>\nNitaanza.\nKwanza, tuna $x = 3$ na $$y=4$$ \\(z\\) \\[w\\].\n</think>\n\nJibu \\boxed{7}"
	got := ReasoningText(text, "Nitaanza.\nKwanza,")
	if strings.Contains(got, "Nitaanza") || strings.Contains(got, "Jibu") || !strings.Contains(got, "tuna") {
		t.Fatalf("ReasoningText = %q", got)
	}
	if s := StripMath(got); strings.ContainsAny(s, "xyzw=$") {
		t.Fatalf("StripMath left math: %q", s)
	}
}

func TestSegmentsSpreadAndBound(t *testing.T) {
	text := strings.Repeat("Hii ni sentensi moja ya Kiswahili. ", 1000)
	segs := Segments(text, 200, 10)
	if len(segs) != 10 {
		t.Fatalf("%d segments", len(segs))
	}
	for _, s := range segs {
		if len(s) > 400 || len(s) < 150 {
			t.Fatalf("segment of %d characters", len(s))
		}
	}
}

func TestComply(t *testing.T) {
	cases := []struct {
		requested string
		letters   int
		shares    map[string]float64
		detected  string
		compliant bool
		status    study.ComplianceStatus
	}{
		{"sw", 500, map[string]float64{"sw": 1}, "sw", true, study.ComplianceOK},
		{"sw", 500, map[string]float64{"sw": 0.95, "en": 0.05}, "sw", true, study.ComplianceOK},
		{"sw", 500, map[string]float64{"sw": 0.6, "en": 0.4}, "sw,en", false, study.ComplianceMixed},
		{"sw", 500, map[string]float64{"en": 1}, "en", false, study.ComplianceOK},
		{"ms", 500, map[string]float64{"id": 0.7, "ms": 0.3}, "ms", true, study.ComplianceOK},
		{"id", 500, map[string]float64{"ms": 1}, "id", true, study.ComplianceOK},
		{"fr", 500, map[string]float64{"ms": 1}, "ms", false, study.ComplianceOK},
		{"sw", 0, nil, "", false, study.ComplianceEmpty},
		{"sw", 12, map[string]float64{"sw": 1}, "", false, study.ComplianceTooShort},
		{"sw", 500, map[string]float64{"sw": 0.1, "en": 0.1}, "en,sw", false, study.ComplianceMixed},
	}
	for _, c := range cases {
		det, ok, status := Comply(c.requested, c.letters, c.shares)
		if strings.Join(det, ",") != c.detected || ok != c.compliant || status != c.status {
			t.Errorf("Comply(%s, %d, %v) = %v %v %s; want %s %v %s", c.requested, c.letters, c.shares, det, ok, status, c.detected, c.compliant, c.status)
		}
	}
}
