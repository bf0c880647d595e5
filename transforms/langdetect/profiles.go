package langdetect

import (
	"bytes"
	"compress/gzip"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
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

// loadModel reads the embedded profiles once; every detector shares them.
var loadModel = sync.OnceValues(buildModel)

// buildModel reads the embedded profiles and normalization tables.
func buildModel() (*model, error) { return buildModelFrom(profileFiles) }

// buildModelFrom reads the profiles of fsys (profiles/<lang>.json.gz) and
// the embedded normalization tables.
func buildModelFrom(fsys fs.FS) (*model, error) {
	norm, err := newNormalization()
	if err != nil {
		return nil, err
	}
	files, err := fs.ReadDir(fsys, "profiles")
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadProfile, err)
	}
	m := &model{norm: norm}
	// Grams get ids in the order first read; every entry is kept in one
	// list in the order read (by language), then placed by gram.
	ids := make(map[uint64]int32, 1<<17)
	var (
		grams    []uint64 // packed (packGram), by id
		lastLang []int32  // by id: the language of its last entry
		read     []readEntry
	)
	// ReadDir lists the files sorted by name, so the languages are in
	// alphabetical order (Python takes os.listdir's, which depends on the
	// file system; the order only changes the last bits of a sum).
	profiles := make([]*parsedProfile, len(files))
	nRead := 0
	for i, f := range files {
		name := "profiles/" + f.Name()
		p, err := readProfile(fsys, name)
		if err != nil {
			return nil, err
		}
		if want := strings.TrimSuffix(path.Base(name), ".json.gz"); p.name != want {
			return nil, fmt.Errorf("%w: %s holds the profile of %q", ErrBadProfile, name, p.name)
		}
		profiles[i] = p
		nRead += len(p.grams)
	}
	read = make([]readEntry, 0, nRead)
	for i, p := range profiles {
		name := "profiles/" + files[i].Name()
		lang := int32(len(m.langs))
		m.langs = append(m.langs, p.name)
		for _, g := range p.grams {
			n := g.runes
			if len(p.nWords) < n || p.nWords[n-1] <= 0 || g.freq < 0 {
				return nil, fmt.Errorf("%w: %s: %d-gram %q with frequency %d over n_words %v", ErrBadProfile, name, n, string(unpackGram(g.gram)), g.freq, p.nWords)
			}
			id, ok := ids[g.gram]
			switch {
			case !ok:
				id = int32(len(grams))
				ids[g.gram] = id
				grams = append(grams, g.gram)
				lastLang = append(lastLang, -1)
			case lastLang[id] == lang:
				return nil, fmt.Errorf("%w: %s: %d-gram %q given twice", ErrBadProfile, name, n, string(unpackGram(g.gram)))
			}
			lastLang[id] = lang
			read = append(read, readEntry{id, entry{lang, float64(g.freq) / float64(p.nWords[n-1])}})
		}
	}
	if len(m.langs) < 2 {
		return nil, fmt.Errorf("%w: %d profiles embedded, langdetect needs 2 or more", ErrBadProfile, len(m.langs))
	}
	newID := m.placeEntries(len(grams), read)
	runes := make([][]rune, len(grams))
	for id, g := range grams {
		runes[newID[id]] = unpackGram(g)
	}
	if m.grams, err = newGramTable(norm, runes); err != nil {
		return nil, err
	}
	return m, nil
}

// readEntry is a profile's entry for gram id (as first read).
type readEntry struct {
	id int32
	entry
}

// placeEntries lays out the entries read by gram: the dense grams (held by
// denseMinLangs languages or more) first, then the others, each part in
// the order first read; each gram's entries in language order, as read.
// It sets start, entries, nDense and dense, and returns each gram's new id.
func (m *model) placeEntries(nGrams int, read []readEntry) (newID []int32) {
	count := make([]int32, nGrams)
	for _, r := range read {
		count[r.id]++
	}
	// newID[id] is gram id's place: dense ones first.
	newID = make([]int32, nGrams)
	next := int32(0)
	for _, dense := range []bool{true, false} {
		for id, n := range count {
			if n >= denseMinLangs == dense {
				newID[id] = next
				next++
			}
		}
		if dense {
			m.nDense = next
		}
	}
	m.start = make([]int32, nGrams+1)
	for id, n := range count {
		m.start[newID[id]+1] = n
	}
	for i := range nGrams {
		m.start[i+1] += m.start[i]
	}
	m.entries = make([]entry, len(read))
	fill := slices.Clone(m.start[:nGrams])
	for _, r := range read {
		g := newID[r.id]
		m.entries[fill[g]] = r.entry
		fill[g]++
	}
	nLangs := len(m.langs)
	m.dense = make([]float64, int(m.nDense)*nLangs)
	for g := range m.nDense {
		row := m.dense[int(g)*nLangs:][:nLangs]
		for _, e := range m.entries[m.start[g]:m.start[g+1]] {
			row[e.lang] = e.prob
		}
	}
	return newID
}

// readProfile reads a profile (gzipped JSON).
func readProfile(fsys fs.FS, name string) (*parsedProfile, error) {
	data, err := gunzipProfile(fsys, name)
	if err != nil {
		return nil, err
	}
	p, err := parseProfile(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrBadProfile, name, err)
	}
	return p, nil
}

// gunzipProfile is a profile's JSON.
func gunzipProfile(fsys fs.FS, name string) ([]byte, error) {
	raw, err := fs.ReadFile(fsys, name)
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
	return data, nil
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
