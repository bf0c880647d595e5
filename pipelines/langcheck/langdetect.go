package langcheck

import (
	"errors"
	"fmt"
	"strings"

	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms/langdetect"
)

// langdetectDetector applies the paper's rule (appendix A.3): langdetect
// on the whole reasoning with math removed; compliant iff detect_langs
// returns exactly one language and it is the requested one (zh as zh-cn,
// ms and id accepting each other).
type langdetectDetector struct {
	d *langdetect.Detector
}

// newLangdetect builds the detector with langdetect's defaults and a fixed
// seed (0): the paper's run was unseeded.
func newLangdetect() (*langdetectDetector, error) {
	d, err := langdetect.New(langdetect.Options{Seed: 0})
	if err != nil {
		return nil, err
	}
	return &langdetectDetector{d}, nil
}

func (d *langdetectDetector) name() string { return string(study.Langdetect) }

func (d *langdetectDetector) settings() string {
	return "langdetect 1.0.9 (Go port, Debian profiles), " + d.d.Settings() + ", paper rule: exactly one language above 0.1, zh = zh-cn, ms = id"
}

// The paper's rule has no minimum length: the length is not read.
func (d *langdetectDetector) check(requested string, r reasoning) (verdict, error) {
	langs, err := d.d.DetectLangs(r.text)
	switch {
	case errors.Is(err, langdetect.ErrNoFeatures):
		// Nothing langdetect can read (Python raises there): no language
		// is returned, so the trace is not compliant.
		return verdict{status: study.ComplianceEmpty}, nil
	case err != nil:
		return verdict{}, err
	}
	v := verdict{compliant: langdetect.Complies(requested, langs), status: study.ComplianceOK}
	switch {
	case len(langs) == 0:
		v.status = study.ComplianceUndecided
	case len(langs) > 1:
		v.status = study.ComplianceMixed
	}
	parts := make([]string, len(langs))
	for i, l := range langs {
		v.detected = append(v.detected, l.Lang)
		parts[i] = fmt.Sprintf("%s:%.4f", l.Lang, l.Prob)
	}
	v.shares = strings.Join(parts, ",")
	return v, nil
}
