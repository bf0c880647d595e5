package lingua

import (
	"math/bits"
	"sync"
)

// Detector detects the language of a text among the study's twelve as
// lingua-go v1.4.0 does in low-accuracy mode, built from these languages
// with default settings (minimum relative distance 0). It is safe for
// concurrent use.
type Detector struct {
	table   *ngramTable
	scratch sync.Pool
}

type scratch struct {
	text    text
	keys    []uint64
	spare   []uint64 // for sortKeys
	touched uint64   // see ngramTable.touch
}

// New returns a detector, its models loaded (once per process).
func New() (*Detector, error) {
	t, err := models()
	if err != nil {
		return nil, err
	}
	bmpOnce.Do(buildBMP)
	return &Detector{table: t, scratch: sync.Pool{New: func() any { return new(scratch) }}}, nil
}

// Detect returns the ISO 639-1 code of text's language, or ok false where
// lingua-go's DetectLanguageOf returns (Unknown, false).
func (d *Detector) Detect(text string) (code string, ok bool) {
	l, _ := d.detect(text)
	if l < 0 {
		return "", false
	}
	return codes[l], true
}

// DetectLetters is Detect, and the number of letters of text
// (unicode.IsLetter, as transforms.Letters counts them) counted in the
// same pass; a text of fewer than minLetters letters is not detected (ok
// false). langcheck counts each segment's letters and detects only those
// of 3 letters or more: this reads the segment once for both.
func (d *Detector) DetectLetters(text string, minLetters int) (code string, ok bool, letters int) {
	s := d.scratch.Get().(*scratch)
	defer d.scratch.Put(s)
	s.text.split(text)
	if s.text.letters < minLetters {
		return "", false, s.text.letters
	}
	l, _, _ := d.detectSplit(s, 0)
	if l < 0 {
		return "", false, s.text.letters
	}
	return codes[l], true, s.text.letters
}

// detect returns text's language (-1: unknown) and whether lingua-go's own
// answer depends on its random map order (see decide and languagesByFilter).
func (d *Detector) detect(text string) (lang int, ambiguous bool) {
	lang, ties, ambiguous := d.detectPicking(text, 0)
	return lang, ambiguous || ties > 1
}

// detectPicking is detect taking the pick-th of the most frequent alphabets
// when several tie in lingua-go's filter (see languagesByFilter), and
// returning their number; ambiguous is about the trigram sums only.
func (d *Detector) detectPicking(str string, pick int) (lang, ties int, ambiguous bool) {
	s := d.scratch.Get().(*scratch)
	defer d.scratch.Put(s)
	s.text.split(str)
	return d.detectSplit(s, pick)
}

// detectSplit is detectPicking on the text split in s.
func (d *Detector) detectSplit(s *scratch, pick int) (lang, ties int, ambiguous bool) {
	t := &s.text
	if len(t.words) == 0 {
		return -1, 1, false
	}
	if l := languageByRules(t); l >= 0 {
		return l, 1, false
	}
	set, ties := languagesByFilter(t, pick)
	if bits.OnesCount16(set) == 1 {
		return bits.TrailingZeros16(set), ties, false
	}
	letters := 0
	for _, w := range t.words {
		letters += int(w.end - w.start)
	}
	if letters < 3 {
		return -1, ties, false
	}
	var sums [numLanguages]float64
	var count int
	sums, count, s.keys, s.spare = trigramSums(d.table, t, set, s.keys, s.spare, &s.touched)
	lang, ambiguous = decide(&sums, set, count)
	return lang, ties, ambiguous
}
