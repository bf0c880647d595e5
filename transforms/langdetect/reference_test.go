package langdetect

import (
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

// The detector as it was before issue 23 made it fast (commit 94069bd),
// kept as the oracle the differential tests compare with: n-grams packed
// as runes and looked up in a Go map, each walk step through a scratch
// factor slice. Only the text preparation (prepare) is shared.

// refGram is an n-gram of one to three characters packed in 21 bits each,
// zero-padded.
type refGram uint64

func refGramOf(rs []rune) refGram {
	var g refGram
	for i := range 3 {
		g <<= 21
		if i < len(rs) {
			g |= refGram(rs[i]) & (1<<21 - 1)
		}
	}
	return g
}

type refModel struct {
	langs   []string
	ids     map[refGram]int32
	start   []int32
	entries []entry
	norm    *normalization
}

var loadRefModel = sync.OnceValues(buildRefModel)

func buildRefModel() (*refModel, error) {
	norm, err := newNormalization()
	if err != nil {
		return nil, err
	}
	files, err := profileFiles.ReadDir("profiles")
	if err != nil {
		return nil, err
	}
	m := &refModel{ids: map[refGram]int32{}, norm: norm}
	var perGram [][]entry
	for _, f := range files {
		name := "profiles/" + f.Name()
		p, err := readProfile(name)
		if err != nil {
			return nil, err
		}
		if want := strings.TrimSuffix(path.Base(name), ".json.gz"); p.Name != want {
			return nil, fmt.Errorf("%s holds %q", name, p.Name)
		}
		lang := int32(len(m.langs))
		m.langs = append(m.langs, p.Name)
		for word, freq := range p.Freq {
			n := utf8.RuneCountInString(word)
			if n < 1 || n > 3 {
				continue
			}
			g := refGramOf([]rune(word))
			id, ok := m.ids[g]
			if !ok {
				id = int32(len(perGram))
				m.ids[g] = id
				perGram = append(perGram, nil)
			}
			perGram[id] = append(perGram[id], entry{lang, float64(freq) / float64(p.NWords[n-1])})
		}
	}
	for _, es := range perGram {
		m.start = append(m.start, int32(len(m.entries)))
		m.entries = append(m.entries, es...)
	}
	m.start = append(m.start, int32(len(m.entries)))
	return m, nil
}

// refDetectLangs is DetectLangs as it was, with its probabilities.
func refDetectLangs(m *refModel, prep *model, opt Options, text string) ([]Language, []float64, error) {
	d := &Detector{seed: opt.Seed, trials: DefaultTrials, alpha: DefaultAlpha, maxTextLength: DefaultMaxTextLength}
	if opt.Trials > 0 {
		d.trials = opt.Trials
	}
	if opt.Alpha > 0 {
		d.alpha = opt.Alpha
	}
	if opt.MaxTextLength > 0 {
		d.maxTextLength = opt.MaxTextLength
	}
	probs, err := m.probabilities(d, prep.refPrepare(text, d.maxTextLength))
	if err != nil {
		return nil, nil, err
	}
	var out []Language
	for i, p := range probs {
		if p > ProbThreshold {
			out = append(out, Language{m.langs[i], p})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Prob > out[j].Prob })
	return out, probs, nil
}

func (m *refModel) probabilities(d *Detector, prepared []rune) ([]float64, error) {
	grams := m.extract(prepared)
	if len(grams) == 0 {
		return nil, ErrNoFeatures
	}
	nLangs := len(m.langs)
	langProb := make([]float64, nLangs)
	prob := make([]float64, nLangs)
	factor := make([]float64, nLangs)
	var rng pyRandom
	rng.seed(d.seed)
	for t := 0; t < d.trials; t++ {
		for i := range prob {
			prob[i] = 1.0 / float64(nLangs)
		}
		alpha := d.alpha + rng.gauss()*alphaWidth
		weight := alpha / baseFreq
		for i := 0; ; i++ {
			m.update(prob, factor, grams[rng.below(len(grams))], weight)
			if i%5 == 0 {
				if refNormalize(prob) > convThreshold || i >= iterationLimit {
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

func (m *refModel) update(prob, factor []float64, id int32, weight float64) {
	for i := range factor {
		factor[i] = weight
	}
	for _, e := range m.entries[m.start[id]:m.start[id+1]] {
		factor[e.lang] = weight + e.prob
	}
	for i := range prob {
		prob[i] *= factor[i]
	}
}

func refNormalize(prob []float64) float64 {
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

// extract returns the grams found, in text order.
func (m *refModel) extract(text []rune) []int32 {
	var out []int32
	grams := []rune{' '}
	buf := make([]rune, 0, 4)
	capital := false
	for _, raw := range text {
		ch := m.norm.normalizeRune(raw)
		last := grams[len(grams)-1]
		if last == ' ' {
			grams = append(buf[:0], ' ')
			capital = false
			if ch == ' ' {
				continue
			}
		} else if len(grams) >= 3 {
			grams = append(buf[:0], grams[1:]...)
		}
		grams = append(grams, ch)
		if isUpper(ch) {
			if isUpper(last) {
				capital = true
			}
		} else {
			capital = false
		}
		if capital {
			continue
		}
		for n := 1; n <= 3 && n <= len(grams); n++ {
			w := grams[len(grams)-n:]
			if n == 1 && w[0] == ' ' {
				continue
			}
			if id, ok := m.ids[refGramOf(w)]; ok {
				out = append(out, id)
			}
		}
	}
	return out
}

// refPrepare is prepare as it was: the passes over a prefix of the text
// converted to runes, then the first characters kept.
func (m *model) refPrepare(text string, maxTextLength int) []rune {
	for k := maxTextLength + prepareMargin; ; k *= 2 {
		head, whole := runePrefix(text, k)
		runes := m.spaceOutAndCompose([]rune(head))
		if whole || len(runes) >= maxTextLength+prepareMargin {
			return refFirstChars(runes, maxTextLength)
		}
	}
}

func refFirstChars(runes []rune, maxTextLength int) []rune {
	n := min(len(runes), maxTextLength)
	kept := make([]rune, 0, n)
	var pre rune = -1
	for _, ch := range runes[:n] {
		if ch != ' ' || pre != ' ' {
			kept = append(kept, ch)
		}
		pre = ch
	}
	return refCleanLatin(kept)
}

func refCleanLatin(text []rune) []rune {
	latin, nonLatin := 0, 0
	for _, ch := range text {
		switch {
		case 'A' <= ch && ch <= 'z':
			latin++
		case ch >= 0x300 && !(0x1E00 <= ch && ch <= 0x1EFF):
			nonLatin++
		}
	}
	if latin*2 >= nonLatin {
		return text
	}
	out := text[:0]
	for _, ch := range text {
		if ch < 'A' || 'z' < ch {
			out = append(out, ch)
		}
	}
	return out
}
