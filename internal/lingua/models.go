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
// open-addressing hash table. A slot is 16 bytes: the n-gram's runes
// packed in 17 bits each (tableRuneBits; no letter is rune 0, so the
// length is implied and 0 marks an empty slot) with a bit per language
// that has it, then the logarithm itself when one language has it, or
// where the languages' logarithms are in logs when several do. Three of
// four n-grams are in one language: their look-up reads one cache line,
// not two (the slot, then logs), and the look-ups were most of lingua's
// time (their cache misses).
type ngramTable struct {
	slots []ngramSlot // a power of two, at most half full
	shift uint        // 64 - log2(len(slots))
	logs  []float64   // math.Log of each language's probability, in language order
}

type ngramSlot struct {
	keyLanguages uint64 // the compact key | languages<<languagesShift
	value        uint64 // see ngramEntry.value
}

type ngramEntry struct {
	languages uint16 // bit per language that has the n-gram
	// value is math.Float64bits of the language's logarithm when one
	// language has the n-gram, else the index in logs of the first one's.
	value uint64
}

// Compact keys: a rune of the models fits tableRuneBits bits (loadModels
// checks), so an n-gram's key (pack: 21 bits a rune) is repacked in 51
// bits, leaving 13 for the languages. A text's n-gram with a wider rune is
// in no model.
const (
	tableRuneBits  = 17
	languagesShift = 3 * tableRuneBits
	compactMask    = 1<<languagesShift - 1
	// wideRunes are the bits of pack's keys above a compact rune's.
	wideRunes = (1<<21 - 1<<tableRuneBits) * (1 | 1<<21 | 1<<42)
)

// The languages' bits fit above the compact key (this fails to compile if
// not).
const _ = uint(64 - languagesShift - numLanguages)

// compact repacks a key of pack in 3*tableRuneBits bits; ok is false when
// one of its runes is wider (no model holds the n-gram).
func compact(key uint64) (ck uint64, ok bool) {
	const runeMask = 1<<tableRuneBits - 1
	ck = key&runeMask | key>>(21-tableRuneBits)&(runeMask<<tableRuneBits) | key>>(42-2*tableRuneBits)&(runeMask<<(2*tableRuneBits))
	return ck, key&wideRunes == 0
}

func (t *ngramTable) home(ck uint64) uint64 { return (ck * 0x9e3779b97f4a7c15) >> t.shift }

// lookUp returns the entry of key, a key of pack (no languages when no
// model has it).
func (t *ngramTable) lookUp(key uint64) ngramEntry {
	ck, ok := compact(key)
	if !ok {
		return ngramEntry{}
	}
	return t.lookUpCompact(ck)
}

// lookUpCompact is lookUp of a compact key.
func (t *ngramTable) lookUpCompact(ck uint64) ngramEntry {
	mask := uint64(len(t.slots) - 1)
	for i := t.home(ck); ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.keyLanguages&compactMask == ck {
			return ngramEntry{languages: uint16(s.keyLanguages >> languagesShift), value: s.value}
		}
		if s.keyLanguages == 0 {
			return ngramEntry{}
		}
	}
}

func (t *ngramTable) insert(ck uint64, e ngramEntry) {
	mask := uint64(len(t.slots) - 1)
	i := t.home(ck)
	for t.slots[i].keyLanguages != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = ngramSlot{ck | uint64(e.languages)<<languagesShift, e.value}
}

// touch reads the home slot of each key, and the first logarithm it points
// to when several languages have its n-gram, and returns a value made of
// them (for the caller to keep, so the reads are not left out). The table
// is megabytes: a look-up is a cache miss (two when the logarithms are in
// logs), which lookUp's loop, with its branches, waits for one key at a
// time; here nothing depends on the previous key, so the processor waits
// for many at once, and the look-ups then find their lines in cache.
//
// The keys are compact keys, or pack's when wide.
func (t *ngramTable) touch(keys []uint64, wide bool) uint64 {
	mask := uint64(len(t.slots) - 1)
	var sum uint64
	for _, key := range keys {
		ck := key
		if wide {
			ck, _ = compact(key)
		}
		s := &t.slots[t.home(ck)&mask]
		languages := s.keyLanguages >> languagesShift
		at := uint64(0) // logs[0]: always in cache
		if languages&(languages-1) != 0 {
			at = s.value
		}
		sum += s.keyLanguages ^ math.Float64bits(t.logs[at])
	}
	return sum
}

// logOf is language l's logarithm in e (which must have l).
func (t *ngramTable) logOf(e ngramEntry, l int) float64 {
	if e.languages&(e.languages-1) == 0 {
		return math.Float64frombits(e.value)
	}
	return t.logs[e.value+uint64(popcount16(e.languages&(1<<l-1)))]
}

func pack(r0, r1, r2 rune) uint64 { return uint64(r0) | uint64(r1)<<21 | uint64(r2)<<42 }

// packCompact is compact(pack(r0, r1, r2)) for runes below
// 1<<tableRuneBits.
func packCompact(r0, r1, r2 rune) uint64 {
	return uint64(r0) | uint64(r1)<<tableRuneBits | uint64(r2)<<(2*tableRuneBits)
}

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
	index, probs, err := readNgrams(files)
	if err != nil {
		return nil, err
	}
	return newTable(index, probs)
}

// readNgrams reads the n-grams of the models of files: probs[index[key]][l]
// is language l's probability of the n-gram of key (pack; 0: absent).
func readNgrams(files fs.FS) (index map[uint64]uint32, probs [][numLanguages]float64, _ error) {
	// Read as lingua-go reads them: a later n-gram set overwrites an
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
				return nil, nil, fmt.Errorf("%w: %s: %v", ErrModel, path, err)
			}
			model, err := readModel(data)
			if err != nil {
				return nil, nil, fmt.Errorf("%w: %s: %v", ErrModel, path, err)
			}
			read = append(read, file{path, l, n + 1, model})
			for _, set := range model.NgramSets {
				ngrams += len(set.Ngrams)
			}
		}
	}
	index = make(map[uint64]uint32, ngrams)
	probs = make([][numLanguages]float64, 0, ngrams)
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
					return nil, nil, fmt.Errorf("%w: %s: n-gram %q is not %d letters", ErrModel, f.path, s, f.length)
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
	return index, probs, nil
}

// newTable is the table of the n-grams of index (a key of pack), whose
// probabilities by language are probs[index[key]].
func newTable(index map[uint64]uint32, probs [][numLanguages]float64) (*ngramTable, error) {
	size := 1
	for size < 2*len(probs) {
		size *= 2
	}
	// logs[0] is no language's: touch reads it for a slot of one language.
	t := &ngramTable{slots: make([]ngramSlot, size), shift: uint(64 - bits.TrailingZeros(uint(size))), logs: []float64{0}}
	for key, at := range index {
		ck, ok := compact(key)
		if !ok {
			return nil, fmt.Errorf("%w: n-gram %q holds a rune above U+%X", ErrModel, unpack(key), 1<<tableRuneBits-1)
		}
		var e ngramEntry
		var found [numLanguages]float64
		logs := found[:0]
		for l, p := range probs[at] {
			// lingua-go takes an n-gram as found when its probability is
			// above zero, and adds math.Log of it.
			if p > 0 {
				e.languages |= 1 << l
				logs = append(logs, math.Log(p))
			}
		}
		switch len(logs) {
		case 0:
			continue
		case 1:
			e.value = math.Float64bits(logs[0])
		default:
			e.value = uint64(len(t.logs))
			t.logs = append(t.logs, logs...)
		}
		t.insert(ck, e)
	}
	return t, nil
}

// unpack is the n-gram of a key of pack.
func unpack(key uint64) string {
	var rs []rune
	for ; key != 0; key >>= 21 {
		rs = append(rs, rune(key&(1<<21-1)))
	}
	return string(rs)
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
