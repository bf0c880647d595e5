package lingua

import (
	"archive/zip"
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/bits"
	"sync"

	"github.com/pemistahl/lingua-go/serialization"
	"google.golang.org/protobuf/proto"
)

// modelFiles are lingua-go v1.4.0's unigram, bigram and trigram models of
// the study's languages, copied unchanged (models/NOTICE).
//
//go:embed models
var modelFiles embed.FS

// ngramTable holds every language's n-grams of one to three letters in an
// open-addressing hash table: the key packs the n-gram's runes (21 bits
// each; no letter is rune 0, so the length is implied and 0 marks an empty
// slot), the entry says which languages have it and where their
// logarithms are.
type ngramTable struct {
	slots []ngramSlot // a power of two, at most half full
	shift uint        // 64 - log2(len(slots))
	logs  []float64   // math.Log of each language's probability, in language order
}

type ngramSlot struct {
	key uint64
	ngramEntry
}

type ngramEntry struct {
	languages uint16 // bit per language that has the n-gram
	offset    uint32 // logs[offset] is the first such language's
}

func (t *ngramTable) home(key uint64) uint64 { return (key * 0x9e3779b97f4a7c15) >> t.shift }

// lookUp returns key's entry (no languages when no model has it).
func (t *ngramTable) lookUp(key uint64) ngramEntry {
	mask := uint64(len(t.slots) - 1)
	for i := t.home(key); ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.key == key {
			return s.ngramEntry
		}
		if s.key == 0 {
			return ngramEntry{}
		}
	}
}

func (t *ngramTable) insert(key uint64, e ngramEntry) {
	mask := uint64(len(t.slots) - 1)
	i := t.home(key)
	for t.slots[i].key != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = ngramSlot{key, e}
}

// touch reads the home slot of each key and the first logarithm that
// slot points to, and returns a value made of them (for the caller to keep,
// so the reads are not left out). The table and its logarithms are
// megabytes: a look-up is two cache misses, one after the other, which
// lookUp's loop, with its branches, waits for one key at a time; here
// nothing depends on the previous key, so the processor waits for many at
// once, and the look-ups then find their lines in cache.
func (t *ngramTable) touch(keys []uint64) uint64 {
	mask := uint64(len(t.slots) - 1)
	var sum uint64
	for _, key := range keys {
		s := &t.slots[t.home(key)&mask]
		sum += s.key ^ math.Float64bits(t.logs[s.offset])
	}
	return sum
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
	tableOnce.Do(func() { table, tableErr = loadModels(modelFiles) })
	return table, tableErr
}

// loadModels reads the models of files (laid out as modelFiles).
func loadModels(files fs.FS) (*ngramTable, error) {
	// probs[index[key]][l] is language l's probability of the n-gram (0:
	// absent), read as lingua-go reads it: a later n-gram set overwrites an
	// earlier one.
	type file struct {
		path     string
		language int
		length   int
		model    *serialization.SerializableLanguageModel
	}
	var read []file
	ngrams := 0
	for l, code := range codes {
		for n, name := range []string{"unigrams", "bigrams", "trigrams"} {
			path := fmt.Sprintf("models/%s/%s.pb.bin.zip", code, name)
			data, err := fs.ReadFile(files, path)
			if errors.Is(err, fs.ErrNotExist) {
				continue // lingua-go has no such model: look-ups find nothing
			}
			if err != nil {
				return nil, fmt.Errorf("%w: %s: %v", ErrModel, path, err)
			}
			model, err := readModel(data)
			if err != nil {
				return nil, fmt.Errorf("%w: %s: %v", ErrModel, path, err)
			}
			read = append(read, file{path, l, n + 1, model})
			for _, set := range model.NgramSets {
				ngrams += len(set.Ngrams)
			}
		}
	}
	index := make(map[uint64]uint32, ngrams)
	probs := make([][numLanguages]float64, 0, ngrams)
	for _, f := range read {
		for _, set := range f.model.NgramSets {
			for _, s := range set.Ngrams {
				var rs [3]rune
				n := 0
				for _, r := range s {
					if n == len(rs) || r == 0 {
						n = -1 // too long, or a rune that would not pack
						break
					}
					rs[n] = r
					n++
				}
				if n != f.length {
					return nil, fmt.Errorf("%w: %s: n-gram %q is not %d letters", ErrModel, f.path, s, f.length)
				}
				key := pack(rs[0], rs[1], rs[2])
				at, ok := index[key]
				if !ok {
					at = uint32(len(probs))
					index[key] = at
					probs = append(probs, [numLanguages]float64{})
				}
				probs[at][f.language] = set.Probability
			}
		}
	}
	size := 1
	for size < 2*len(probs) {
		size *= 2
	}
	t := &ngramTable{slots: make([]ngramSlot, size), shift: uint(64 - bits.TrailingZeros(uint(size)))}
	for key, at := range index {
		e := ngramEntry{offset: uint32(len(t.logs))}
		for l, p := range probs[at] {
			// lingua-go takes an n-gram as found when its probability is
			// above zero, and adds math.Log of it.
			if p > 0 {
				e.languages |= 1 << l
				t.logs = append(t.logs, math.Log(p))
			}
		}
		if e.languages != 0 {
			t.insert(key, e)
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
