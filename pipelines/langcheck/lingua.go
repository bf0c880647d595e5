package langcheck

import (
	"fmt"
	"strings"

	"github.com/datg/datg/internal/lingua"
	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms"
)

// Segmenting: about segmentSize characters each, at most maxSegments.
const (
	segmentSize = 200
	maxSegments = 24
)

// linguaSettings records lingua's version and settings.
const linguaSettings = "lingua-go v1.4.0 low-accuracy mode (its decisions, datg's implementation: internal/lingua), 12 languages, 24 segments x 200 chars, share >= 0.1, too short under 40 letter equivalents"

// linguaDetector is datg's segment detector: lingua-go restricted to the
// study's languages, run on segments spread over the reasoning.
type linguaDetector struct {
	lingua *lingua.Detector
}

// newLingua builds the detector, its models loaded (it is then safe for
// concurrent use). Segments hold about 200 characters, where lingua's
// low-accuracy (trigram) mode is as reliable as the full one and 1.6 times
// faster. internal/lingua makes lingua-go's decisions (its differential
// tests) with a hundredth of the work.
func newLingua() (*linguaDetector, error) {
	d, err := lingua.New()
	if err != nil {
		return nil, err
	}
	return &linguaDetector{lingua: d}, nil
}

func (d *linguaDetector) name() string     { return string(study.Lingua) }
func (d *linguaDetector) settings() string { return linguaSettings }

// check decides a reasoning's compliance: a language is detected when it
// holds at least 10% of the letters of the segments lingua identified; a
// reasoning shorter than transforms.MinLength (length, in letter
// equivalents: transforms.TextLength) is too short.
func (d *linguaDetector) check(requested string, r reasoning) (verdict, error) {
	segs := transforms.SegmentsOf(r.text, r.valid, segmentSize, maxSegments)
	langs := make([]string, len(segs))
	letters := make([]int, len(segs))
	for i, s := range segs {
		// Segments of fewer than 3 letters (transforms.Letters) are not
		// detected; lingua counts them as it reads the segment.
		var code string
		var ok bool
		if code, ok, letters[i] = d.lingua.DetectLetters(s, 3); ok {
			langs[i] = code
		}
	}
	shares := transforms.LanguageShares(letters, langs)
	detected, compliant, status := transforms.Comply(requested, r.length, shares)
	return verdict{detected: detected, compliant: compliant, status: status, shares: formatShares(shares)}, nil
}

func formatShares(shares map[string]float64) string {
	langs := make([]string, 0, len(shares))
	for l := range shares {
		langs = append(langs, l)
	}
	transforms.SortByShare(langs, shares)
	parts := make([]string, len(langs))
	for i, l := range langs {
		parts[i] = fmt.Sprintf("%s:%.2f", l, shares[l])
	}
	return strings.Join(parts, ",")
}
