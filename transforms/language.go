package transforms

import (
	"regexp"
	"sort"
	"strings"
	"unicode"

	"github.com/datg/datg/study"
)

// Thresholds of the compliance check. A language counts as detected when it
// holds at least MinLanguageShare of the reasoning's letters, as
// langdetect's detect_langs reports languages above probability 0.1 (the
// paper's protocol); a reasoning with fewer than MinLetters letters is too
// short to tell.
const (
	MinLanguageShare = 0.1
	MinLetters       = 40
)

var mathSpanRe = regexp.MustCompile(`(?s)\$\$.*?\$\$|\\\[.*?\\\]|\\\(.*?\\\)|\$[^$]*?\$`)

// ReasoningText is the part of a trace whose language is checked: the
// reasoning the model wrote, without the direct-first prefix datg put in
// its mouth and without the visible answer after </think>.
func ReasoningText(text, prefix string) string {
	s := strings.TrimPrefix(text, ThinkOpen)
	if prefix != "" {
		s = strings.TrimPrefix(s, prefix)
	}
	if i := strings.Index(s, ThinkClose); i >= 0 {
		s = s[:i]
	}
	return s
}

// StripMath removes display and inline math ($$...$$, \[...\], \(...\),
// $...$), which is in no natural language.
func StripMath(s string) string {
	return mathSpanRe.ReplaceAllString(s, " ")
}

// Letters counts the letters of s.
func Letters(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			n++
		}
	}
	return n
}

// Segments cuts text into pieces of about size characters at sentence or
// line ends and returns at most max of them, spread evenly over the text,
// so the check of a runaway trace costs no more than that of a normal one.
func Segments(text string, size, max int) []string {
	var segs []string
	var cur strings.Builder
	flush := func() {
		if s := strings.TrimSpace(cur.String()); s != "" {
			segs = append(segs, s)
		}
		cur.Reset()
	}
	for _, r := range text {
		cur.WriteRune(r)
		end := r == '\n' || r == '.' || r == '?' || r == '!' || r == '。' || r == '।' || r == '؟'
		if end && cur.Len() >= size || cur.Len() >= 2*size {
			flush()
		}
	}
	flush()
	if len(segs) <= max {
		return segs
	}
	out := make([]string, 0, max)
	for i := 0; i < max; i++ {
		out = append(out, segs[i*len(segs)/max])
	}
	return out
}

// LanguageShares turns per-segment detections into each language's share
// of the letters (segments detected as "" are left out).
func LanguageShares(segs, langs []string) map[string]float64 {
	weights := map[string]float64{}
	total := 0.0
	for i, s := range segs {
		if langs[i] == "" {
			continue
		}
		w := float64(Letters(s))
		weights[langs[i]] += w
		total += w
	}
	for l := range weights {
		weights[l] /= total
	}
	return weights
}

// sameLanguage reports whether a detection satisfies a request: Malay and
// Indonesian accept each other, as detectors confuse them.
func sameLanguage(requested, detected string) bool {
	if requested == detected {
		return true
	}
	pair := requested + detected
	return pair == "msid" || pair == "idms"
}

// SortByShare sorts languages by their share, largest first, then by code.
func SortByShare(langs []string, shares map[string]float64) {
	sort.Slice(langs, func(i, j int) bool {
		if shares[langs[i]] != shares[langs[j]] {
			return shares[langs[i]] > shares[langs[j]]
		}
		return langs[i] < langs[j]
	})
}

// Comply decides compliance from the languages' shares of a reasoning with
// the given number of letters. detected lists the languages holding at least
// MinLanguageShare, largest first.
func Comply(requested string, letters int, shares map[string]float64) (detected []string, compliant bool, status study.ComplianceStatus) {
	switch {
	case letters == 0:
		return nil, false, study.ComplianceEmpty
	case letters < MinLetters:
		return nil, false, study.ComplianceTooShort
	}
	// Malay and Indonesian count as one language for this request.
	grouped := map[string]float64{}
	for l, s := range shares {
		key := l
		if sameLanguage(requested, l) {
			key = requested
		}
		grouped[key] += s
	}
	for l, s := range grouped {
		if s >= MinLanguageShare {
			detected = append(detected, l)
		}
	}
	SortByShare(detected, grouped)
	switch {
	case len(detected) == 0:
		return nil, false, study.ComplianceTooShort
	case len(detected) > 1:
		return detected, false, study.ComplianceMixed
	}
	return detected, detected[0] == requested, study.ComplianceOK
}
