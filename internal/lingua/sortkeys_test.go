package lingua

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortKeysIsSlicesSort compares sortKeys with slices.Sort on keys of
// every size up to 600, packed from characters of one alphabet, of several,
// of the whole range, with repeats and with every key the same, reusing the
// spare array as trigramSums does.
func TestSortKeysIsSlicesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var spare []uint64
	alphabets := [][2]rune{{'a', 'z'}, {0x430, 0x44f}, {0x4e00, 0x9fff}, {0, 1<<21 - 1}, {'a', 'c'}}
	for n := range 600 {
		for _, mix := range []int{1, 2, 5} {
			keys := make([]uint64, n)
			for i := range keys {
				var rs [3]rune
				for j := range rs {
					a := alphabets[rng.IntN(mix)]
					rs[j] = a[0] + rng.Int32N(a[1]-a[0]+1)
				}
				keys[i] = pack(rs[0], rs[1], rs[2])
			}
			if n > 0 && n%7 == 0 {
				for i := range keys {
					keys[i] = keys[0]
				}
			}
			want := slices.Clone(keys)
			slices.Sort(want)
			var got []uint64
			got, spare = sortKeys(keys, spare)
			if !slices.Equal(got, want) {
				t.Fatalf("%d keys (%d alphabets): sorted wrong", n, mix)
			}
			if n > 0 && cap(spare) > 0 && &got[0] == &spare[:1][0] {
				t.Fatalf("%d keys: the spare array is the sorted one", n)
			}
		}
	}
}

// TestSortKeysOneBitApart sorts keys that differ in one bit, at each of
// the 64 places (a byte whose only varying bit is its highest must not be
// skipped).
func TestSortKeysOneBitApart(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for bit := range 64 {
		base := rng.Uint64() &^ (1 << bit)
		keys := make([]uint64, 100)
		for i := range keys {
			keys[i] = base | uint64(rng.IntN(2))<<bit
		}
		want := slices.Clone(keys)
		slices.Sort(want)
		if got, _ := sortKeys(keys, nil); !slices.Equal(got, want) {
			t.Fatalf("keys differing in bit %d: sorted wrong", bit)
		}
	}
}

// FuzzSortKeys compares sortKeys with slices.Sort on any keys.
func FuzzSortKeys(f *testing.F) {
	f.Add([]byte("the quick brown fox jumps over the lazy dog, then again and again"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var keys []uint64
		for i := 0; i+8 <= len(data); i += 8 {
			var k uint64
			for _, b := range data[i : i+8] {
				k = k<<8 | uint64(b)
			}
			keys = append(keys, k)
		}
		for len(keys) < radixMin && len(keys) > 0 {
			keys = append(keys, keys...)
		}
		want := slices.Clone(keys)
		slices.Sort(want)
		got, _ := sortKeys(keys, nil)
		if !slices.Equal(got, want) {
			t.Fatalf("%x: sorted wrong", keys)
		}
	})
}
