package lingua

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
	"testing/fstest"
)

// TestTableHoldsTheModels looks up every n-gram of the models in the table
// and checks it has the languages whose probability is above zero, each
// with math.Log of its probability to the bit (inline for one language,
// in logs for several); then that keys no model holds find nothing: each
// n-gram with a rune moved by one, by 1<<(tableRuneBits-1) (the top bit of a compact rune), by 1<<tableRuneBits (a rune too wide to
// compact, which must not alias the narrow one) and by 1<<20, and random
// keys over every rune range.
func TestTableHoldsTheModels(t *testing.T) {
	index, probs, err := readNgrams(modelFiles)
	if err != nil {
		t.Fatal(err)
	}
	table, err := newTable(index, probs)
	if err != nil {
		t.Fatal(err)
	}
	single, several := 0, 0
	for key, at := range index {
		e := table.lookUp(key)
		for l, p := range probs[at] {
			if has := e.languages&(1<<l) != 0; has != (p > 0) {
				t.Fatalf("%q: language %s in the table %v, probability %g", unpack(key), codes[l], has, p)
			}
			if p > 0 && math.Float64bits(table.logOf(e, l)) != math.Float64bits(math.Log(p)) {
				t.Fatalf("%q: %s's logarithm %v, want %v", unpack(key), codes[l], table.logOf(e, l), math.Log(p))
			}
		}
		if e.languages&(e.languages-1) == 0 {
			single++
		} else {
			several++
		}
	}
	t.Logf("%d n-grams: %d in one language, %d in several", len(index), single, several)
	if single == 0 || several == 0 {
		t.Fatalf("the models should hold n-grams of one language and of several")
	}
	absent := func(key uint64) {
		t.Helper()
		if _, ok := index[key]; ok {
			return
		}
		if e := table.lookUp(key); e.languages != 0 {
			t.Fatalf("%x (%q): in no model, found %+v", key, unpack(key), e)
		}
	}
	for key := range index {
		for r := range 3 {
			shift := 21 * uint(r)
			if key>>shift&(1<<21-1) == 0 {
				continue // a shorter n-gram
			}
			for _, d := range []uint64{1, 1 << (tableRuneBits - 1), 1 << tableRuneBits, 1 << 20} {
				absent(key + d<<shift)
				absent(key - min(d, key>>shift&(1<<21-1)-1)<<shift)
			}
		}
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 300_000 {
		var rs [3]rune
		for i := range rs {
			rs[i] = 1 + rng.Int32N([]int32{0x7f, 0x800, 1 << tableRuneBits, 1<<21 - 1}[rng.IntN(4)])
		}
		absent(pack(rs[0], rs[1], rs[2]))
		absent(pack(rs[0], rs[1], 0))
		absent(pack(rs[0], 0, 0))
	}
}

// TestWideRuneModelIsAnError: a model's rune wider than tableRuneBits
// cannot be compacted, and is ErrModel naming the n-gram.
func TestWideRuneModelIsAnError(t *testing.T) {
	wide := string(rune(1 << tableRuneBits))
	_, err := loadModels(fstest.MapFS{"models/sw/trigrams.pb.bin.zip": {Data: zipped(t, 0.25, "ab"+wide)}})
	if !errors.Is(err, ErrModel) {
		t.Fatalf("a rune above the compact keys': %v, want ErrModel", err)
	}
}
