package langdetect

import (
	"fmt"
	"sort"
	"sync"
	"unicode"
)

// Langdetect's constants (detector.py).
const (
	// DefaultAlpha is the additive smoothing of a gram's probability
	// (ALPHA_DEFAULT), jittered by alphaWidth times a standard normal
	// deviate in every trial.
	DefaultAlpha = 0.5
	alphaWidth   = 0.05
	// DefaultTrials is n_trial: independent random walks over the text's
	// grams, averaged.
	DefaultTrials = 7
	// iterationLimit bounds a trial's grams; a trial also stops when a
	// language's probability exceeds convThreshold (checked every 5 grams).
	iterationLimit = 1000
	convThreshold  = 0.99999
	baseFreq       = 10000
	// ProbThreshold: detect_langs lists the languages whose averaged
	// probability is above it.
	ProbThreshold = 0.1
	// DefaultMaxTextLength is max_text_length: only the first 10,000
	// characters (after URLs and mail addresses are removed) are read.
	DefaultMaxTextLength = 10000
)

// Options are a detector's settings; the zero value is langdetect's
// defaults with seed 0.
type Options struct {
	// Seed seeds the trials' random numbers, as DetectorFactory.seed does
	// in Python (langdetect leaves it unseeded by default: two runs over
	// the same text can then differ).
	Seed uint32
	// Trials, Alpha and MaxTextLength override the defaults when positive.
	Trials        int
	Alpha         float64
	MaxTextLength int
}

// Language is a detected language and its probability.
type Language struct {
	Lang string
	Prob float64
}

func (l Language) String() string { return fmt.Sprintf("%s:%.4f", l.Lang, l.Prob) }

// Detector is langdetect's detector over the embedded profiles. It is safe
// for concurrent use.
type Detector struct {
	m             *model
	seed          uint32
	trials        int
	alpha         float64
	maxTextLength int
	// seeded is the random numbers' state right after seeding with seed:
	// each text's trials start from a copy (seeding computes 1,250 words).
	seeded pyRandom
	// scratch holds *scratch buffers, reused from one text to the next.
	scratch sync.Pool
}

// scratch is the memory one detection works in.
type scratch struct {
	prepared []rune
	grams    []int32
	memo     wordMemo
}

// New returns a detector with the given options.
func New(opt Options) (*Detector, error) {
	m, err := loadModel()
	if err != nil {
		return nil, err
	}
	d := &Detector{m: m, seed: opt.Seed, trials: DefaultTrials, alpha: DefaultAlpha, maxTextLength: DefaultMaxTextLength}
	if opt.Trials > 0 {
		d.trials = opt.Trials
	}
	if opt.Alpha > 0 {
		d.alpha = opt.Alpha
	}
	if opt.MaxTextLength > 0 {
		d.maxTextLength = opt.MaxTextLength
	}
	d.seeded.seed(d.seed)
	return d, nil
}

// Settings describes the detector for a table's detector column.
func (d *Detector) Settings() string {
	return fmt.Sprintf("seed %d, %d trials, alpha %g, first %d chars, %d profiles", d.seed, d.trials, d.alpha, d.maxTextLength, len(d.m.langs))
}

// DetectLangs is detect_langs: the languages whose probability is above
// ProbThreshold, most probable first. A text without any known n-gram
// gives ErrNoFeatures.
func (d *Detector) DetectLangs(text string) ([]Language, error) {
	probs, err := d.probabilities(text)
	if err != nil {
		return nil, err
	}
	var out []Language
	for i, p := range probs {
		if p > ProbThreshold {
			out = append(out, Language{d.m.langs[i], p})
		}
	}
	// Python's list.sort(reverse=True) keeps equal ones in language order.
	sort.SliceStable(out, func(i, j int) bool { return out[i].Prob > out[j].Prob })
	return out, nil
}

// probabilities is _detect_block: every language's probability averaged
// over the trials.
func (d *Detector) probabilities(text string) ([]float64, error) {
	s, _ := d.scratch.Get().(*scratch)
	if s == nil {
		s = &scratch{}
	}
	defer d.scratch.Put(s)
	s.grams = d.m.gramsOf(s, text, d.maxTextLength)
	grams := s.grams
	if len(grams) == 0 {
		return nil, ErrNoFeatures
	}
	nLangs := len(d.m.langs)
	langProb := make([]float64, nLangs)
	prob := make([]float64, nLangs)
	rng := d.seeded
	for t := 0; t < d.trials; t++ {
		for i := range prob {
			prob[i] = 1.0 / float64(nLangs)
		}
		alpha := d.alpha + rng.gauss()*alphaWidth
		weight := alpha / baseFreq
		for i := 0; ; i++ {
			d.m.update(prob, grams[rng.below(len(grams))], weight)
			if i%5 == 0 {
				if normalize(prob) > convThreshold || i >= iterationLimit {
					break
				}
			}
		}
		for j := range langProb {
			langProb[j] += prob[j] / float64(d.trials)
		}
	}
	return langProb, nil
}

// update multiplies each language's probability by weight plus the gram's
// probability in that language (_update_lang_prob). A dense gram's row has
// every language's probability, 0 where its profile lacks the gram (weight
// is positive, and weight + 0 is weight to the bit). Otherwise the gram's
// entries are in language order: the languages between two of them, which
// the gram's profile lacks, are multiplied by weight alone.
func (m *model) update(prob []float64, id int32, weight float64) {
	if id < m.nDense {
		n := len(prob)
		row := m.dense[int(id)*n:][:n]
		for i := range prob {
			prob[i] *= weight + row[i]
		}
		return
	}
	rest, lang := prob, int32(0) // rest is prob[lang:]
	for _, e := range m.entries[m.start[id]:m.start[id+1]] {
		gap := rest[:e.lang-lang]
		for i := range gap {
			gap[i] *= weight
		}
		rest[len(gap)] *= weight + e.prob
		rest, lang = rest[len(gap)+1:], e.lang+1
	}
	for i := range rest {
		rest[i] *= weight
	}
}

// normalize scales the probabilities to sum 1 and returns the largest
// (_normalize_prob; the sum in language order, as Python's sum() before
// 3.12 adds).
func normalize(prob []float64) float64 {
	sum := 0.0
	for _, p := range prob {
		sum += p
	}
	maxp := 0.0
	for i, p := range prob {
		p /= sum
		if maxp < p {
			maxp = p
		}
		prob[i] = p
	}
	return maxp
}

// isUpper is Python's str.isupper() on one character: the Unicode
// Uppercase property (Lu and Other_Uppercase).
func isUpper(r rune) bool {
	return unicode.IsUpper(r) || unicode.Is(unicode.Other_Uppercase, r)
}
