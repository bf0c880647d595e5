package lingua

import "slices"

// sortKeys sorts keys in increasing order (as slices.Sort) and returns them
// sorted, with spare, an array as long, to pass again as spare. The sums
// read the trigrams in this order, so any correct sort gives the same sums.
//
// A segment holds about 150 trigram keys; slices.Sort's comparisons on them
// mispredict about half the time (a tenth of langcheck's cycles). This is a
// least-significant-digit radix sort by bytes, skipping the bytes that are
// the same in every key: a segment's characters share their high bits, so
// a segment of one script needs 4 to 6 of the 8 passes.
func sortKeys(keys, spare []uint64) (sorted, spareOut []uint64) {
	if len(keys) < radixMin {
		slices.Sort(keys)
		return keys, spare
	}
	and, or := ^uint64(0), uint64(0)
	for _, k := range keys {
		and &= k
		or |= k
	}
	varying := and ^ or
	spare = slices.Grow(spare[:0], len(keys))[:len(keys)]
	src, dst := keys, spare
	var count [256]int32
	for shift := uint(0); shift < 64; shift += 8 {
		if varying>>shift&0xff == 0 {
			continue
		}
		// Every key's byte holds the bits all keys share (and) and no bit
		// none has (or), so it lies between the two: only those counts
		// are cleared and summed (about 30 of the 256 for a segment's
		// letters; the sum over 256 was most of the sort).
		lo, hi := and>>shift&0xff, or>>shift&0xff
		digits := count[lo : hi+1]
		clear(digits)
		for _, k := range src {
			count[k>>shift&0xff]++
		}
		sum := int32(0)
		for i, c := range digits {
			digits[i] = sum
			sum += c
		}
		for _, k := range src {
			d := k >> shift & 0xff
			dst[count[d]] = k
			count[d]++
		}
		src, dst = dst, src
	}
	return src, dst
}

// radixMin: below this many keys slices.Sort (an insertion sort up to 12)
// is cheaper than the radix sort's passes over its 256 counts.
const radixMin = 48
