package langdetect

import (
	"bytes"
	"compress/gzip"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"path"
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
	norm    *normalization
}

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
	var perGram [][]entry
	var grams [][]rune // by gram id
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
				perGram = append(perGram, nil)
				grams = append(grams, []rune(word))
			}
			perGram[id] = append(perGram[id], entry{lang, float64(freq) / float64(p.NWords[n-1])})
		}
	}
	if len(m.langs) < 2 {
		return nil, fmt.Errorf("%w: %d profiles embedded, langdetect needs 2 or more", ErrBadProfile, len(m.langs))
	}
	m.start = make([]int32, 0, len(perGram)+1)
	for _, es := range perGram {
		m.start = append(m.start, int32(len(m.entries)))
		m.entries = append(m.entries, es...)
	}
	m.start = append(m.start, int32(len(m.entries)))
	if m.grams, err = newGramTable(norm, grams); err != nil {
		return nil, err
	}
	return m, nil
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
