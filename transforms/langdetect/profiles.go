package langdetect

import (
	"bytes"
	"compress/gzip"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// The language profiles of Debian's python3-langdetect 1.0.9
// (langdetect/profiles/<lang>, JSON), each gzipped as <lang>.json.gz; see
// profiles/NOTICE.
//
//go:embed profiles/*.json.gz
var profileFiles embed.FS

// model is the profiles as the detector uses them: Python's
// word_lang_prob_map, stored sparsely. A gram's probability in a language
// is freq / n_words[len-1] of that language's profile, 0 where the profile
// lacks it.
type model struct {
	langs []string // the profiles' names, sorted (the languages' order)
	grams *gramTable
	// Gram id g's nonzero probabilities are entries[start[g]:start[g+1]].
	start   []int32
	entries []entry
	// The grams held by denseMinLangs languages or more have the first
	// ids, below nDense, and their probabilities also as dense rows:
	// gram g's probability in language l is dense[g*len(langs)+l], 0
	// where its profile lacks it.
	nDense int32
	dense  []float64
	norm   *normalization
}

// denseMinLangs: a gram held by this many languages or more is also kept as
// a dense row. A random walk's step multiplies every language's
// probability; over a dense row it does so without a branch for each of the
// languages between two entries (branches that mispredict: the gaps vary
// from gram to gram), and reads one run of memory, not an index and then
// the entries. The grams of a text in a widely written script (Latin,
// Cyrillic, Arabic) are mostly such grams; there are about 3,100 of them
// (1.4 MB of rows).
const denseMinLangs = 10

type entry struct {
	lang int32
	prob float64
}

// profile is the JSON of a langdetect profile.
type profile struct {
	Name   string           `json:"name"`
	Freq   map[string]int64 `json:"freq"`
	NWords []int64          `json:"n_words"`
}

// loadModel reads the embedded profiles once; every detector shares them.
var loadModel = sync.OnceValues(buildModel)

// buildModel reads the embedded profiles and normalization tables.
func buildModel() (*model, error) {
	norm, err := newNormalization()
	if err != nil {
		return nil, err
	}
	files, err := profileFiles.ReadDir("profiles")
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadProfile, err)
	}
	m := &model{norm: norm}
	ids := map[string]int32{}
	var perGram []gramEntries // by gram id, as read
	// ReadDir lists the files sorted by name, so the languages are in
	// alphabetical order (Python takes os.listdir's, which depends on the
	// file system; the order only changes the last bits of a sum).
	for _, f := range files {
		name := "profiles/" + f.Name()
		p, err := readProfile(name)
		if err != nil {
			return nil, err
		}
		if want := strings.TrimSuffix(path.Base(name), ".json.gz"); p.Name != want {
			return nil, fmt.Errorf("%w: %s holds the profile of %q", ErrBadProfile, name, p.Name)
		}
		lang := int32(len(m.langs))
		m.langs = append(m.langs, p.Name)
		for word, freq := range p.Freq {
			n := utf8.RuneCountInString(word)
			if n < 1 || n > 3 {
				continue
			}
			if len(p.NWords) < n || p.NWords[n-1] <= 0 || freq < 0 {
				return nil, fmt.Errorf("%w: %s: %d-gram %q with frequency %d over n_words %v", ErrBadProfile, name, n, word, freq, p.NWords)
			}
			id, ok := ids[word]
			if !ok {
				id = int32(len(perGram))
				ids[word] = id
				perGram = append(perGram, gramEntries{gram: []rune(word)})
			}
			perGram[id].entries = append(perGram[id].entries, entry{lang, float64(freq) / float64(p.NWords[n-1])})
		}
	}
	if len(m.langs) < 2 {
		return nil, fmt.Errorf("%w: %d profiles embedded, langdetect needs 2 or more", ErrBadProfile, len(m.langs))
	}
	// The dense grams first, each part in the order read.
	slices.SortStableFunc(perGram, func(a, b gramEntries) int {
		return b2i(b.dense()) - b2i(a.dense())
	})
	nLangs := len(m.langs)
	m.start = make([]int32, 0, len(perGram)+1)
	grams := make([][]rune, len(perGram))
	for id, g := range perGram {
		grams[id] = g.gram
		m.start = append(m.start, int32(len(m.entries)))
		m.entries = append(m.entries, g.entries...)
		if g.dense() {
			m.nDense++
			row := make([]float64, nLangs)
			for _, e := range g.entries {
				row[e.lang] = e.prob
			}
			m.dense = append(m.dense, row...)
		}
	}
	m.start = append(m.start, int32(len(m.entries)))
	if m.grams, err = newGramTable(norm, grams); err != nil {
		return nil, err
	}
	return m, nil
}

// gramEntries is a gram and its entries, in language order.
type gramEntries struct {
	gram    []rune
	entries []entry
}

func (g gramEntries) dense() bool { return len(g.entries) >= denseMinLangs }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func readProfile(name string) (*profile, error) {
	raw, err := profileFiles.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrBadProfile, name, err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrBadProfile, name, err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrBadProfile, name, err)
	}
	var p profile
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrBadProfile, name, err)
	}
	return &p, nil
}

// Languages lists the languages the detector tells apart (langdetect's
// codes: zh-cn and zh-tw for Chinese; no Malay).
func Languages() ([]string, error) {
	m, err := loadModel()
	if err != nil {
		return nil, err
	}
	return append([]string(nil), m.langs...), nil
}
