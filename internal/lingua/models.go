package lingua

import (
	"archive/zip"
	"bytes"
	"embed"
	"fmt"
	"io"
	"math"
	"sync"
	"unicode/utf8"

	"github.com/pemistahl/lingua-go/serialization"
	"google.golang.org/protobuf/proto"
)

// modelFiles are lingua-go v1.4.0's unigram, bigram and trigram models of
// the study's languages, copied unchanged (models/NOTICE).
//
//go:embed models
var modelFiles embed.FS

// ngramTable holds every language's n-grams of one to three letters: the
// key packs the n-gram's runes (21 bits each; no letter is rune 0, so the
// length is implied), the entry says which languages have it and where
// their logarithms are.
type ngramTable struct {
	index   map[uint64]uint32 // key -> entries index
	entries []ngramEntry
	logs    []float64 // math.Log of each language's probability, in language order
}

type ngramEntry struct {
	languages uint16 // bit per language that has the n-gram
	offset    uint32 // logs[offset] is the first such language's
}

func (t *ngramTable) lookUp(key uint64) ngramEntry {
	if i, ok := t.index[key]; ok {
		return t.entries[i]
	}
	return ngramEntry{}
}

// logOf is language l's logarithm in e (which must have l).
func (t *ngramTable) logOf(e ngramEntry, l int) float64 {
	return t.logs[e.offset+uint32(popcount16(e.languages&(1<<l-1)))]
}

func pack(r0, r1, r2 rune) uint64 { return uint64(r0) | uint64(r1)<<21 | uint64(r2)<<42 }

var (
	tableOnce sync.Once
	table     *ngramTable
	tableErr  error
)

// models loads the n-gram table once.
func models() (*ngramTable, error) {
	tableOnce.Do(func() { table, tableErr = loadModels() })
	return table, tableErr
}

func loadModels() (*ngramTable, error) {
	// byKey[key][l] is language l's probability (0: absent), read as
	// lingua-go reads it: a later n-gram set overwrites an earlier one.
	byKey := map[uint64]*[numLanguages]float64{}
	var order []uint64
	for l, code := range codes {
		for n, name := range []string{"unigrams", "bigrams", "trigrams"} {
			path := fmt.Sprintf("models/%s/%s.pb.bin.zip", code, name)
			data, err := modelFiles.ReadFile(path)
			if err != nil {
				continue // lingua-go has no such model: look-ups find nothing
			}
			model, err := readModel(data)
			if err != nil {
				return nil, fmt.Errorf("%w: %s: %v", ErrModel, path, err)
			}
			for _, set := range model.NgramSets {
				for _, s := range set.Ngrams {
					if utf8.RuneCountInString(s) != n+1 {
						return nil, fmt.Errorf("%w: %s: n-gram %q is not %d letters", ErrModel, path, s, n+1)
					}
					var rs [3]rune
					i := 0
					for _, r := range s {
						rs[i] = r
						i++
					}
					key := pack(rs[0], rs[1], rs[2])
					p, ok := byKey[key]
					if !ok {
						p = new([numLanguages]float64)
						byKey[key] = p
						order = append(order, key)
					}
					p[l] = set.Probability
				}
			}
		}
	}
	t := &ngramTable{index: make(map[uint64]uint32, len(byKey)), entries: make([]ngramEntry, 0, len(byKey))}
	for _, key := range order {
		e := ngramEntry{offset: uint32(len(t.logs))}
		for l, p := range byKey[key] {
			// lingua-go takes an n-gram as found when its probability is
			// above zero, and adds math.Log of it.
			if p > 0 {
				e.languages |= 1 << l
				t.logs = append(t.logs, math.Log(p))
			}
		}
		if e.languages != 0 {
			t.index[key] = uint32(len(t.entries))
			t.entries = append(t.entries, e)
		}
	}
	return t, nil
}

func readModel(data []byte) (*serialization.SerializableLanguageModel, error) {
	archive, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	if len(archive.File) != 1 {
		return nil, fmt.Errorf("%d files in the archive, want 1", len(archive.File))
	}
	f, err := archive.File[0].Open()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	content, err := io.ReadAll(f)
	if err != nil {
		return nil, err
	}
	model := &serialization.SerializableLanguageModel{}
	if err := proto.Unmarshal(content, model); err != nil {
		return nil, err
	}
	return model, nil
}
