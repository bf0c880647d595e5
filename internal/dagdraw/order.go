package dagdraw

import (
	"cmp"
	"slices"
)

// sweeps is how many barycenter sweeps (down and up alternately) order
// tries; it keeps the best order seen.
const sweeps = 16

// order reorders each layer by barycenter sweeps to reduce crossings,
// keeping the order with the fewest. Ties keep the current order, so the
// result is deterministic.
func order(items []item, rows [][]int) {
	best := crossings(items, rows)
	saved := snapshot(rows)
	key := make([]float64, len(items))
	for s := 0; s < sweeps && best > 0; s++ {
		if s%2 == 0 {
			for l := 1; l < len(rows); l++ {
				sortByBarycenter(items, key, rows[l], func(it *item) []int { return it.up })
			}
		} else {
			for l := len(rows) - 2; l >= 0; l-- {
				sortByBarycenter(items, key, rows[l], func(it *item) []int { return it.down })
			}
		}
		if c := crossings(items, rows); c < best {
			best, saved = c, snapshot(rows)
		}
	}
	for l := range rows {
		copy(rows[l], saved[l])
		for k, v := range rows[l] {
			items[v].pos = k
		}
	}
}

func snapshot(rows [][]int) [][]int {
	out := make([][]int, len(rows))
	for l, r := range rows {
		out[l] = slices.Clone(r)
	}
	return out
}

// sortByBarycenter orders a layer by the mean position of each item's
// neighbours in the layer swept from; an item without any keeps its
// position as its key. key is scratch, one per item.
func sortByBarycenter(items []item, key []float64, row []int, neighbours func(*item) []int) {
	for _, v := range row {
		ns := neighbours(&items[v])
		if len(ns) == 0 {
			key[v] = float64(items[v].pos)
			continue
		}
		sum := 0.0
		for _, u := range ns {
			sum += float64(items[u].pos)
		}
		key[v] = sum / float64(len(ns))
	}
	slices.SortStableFunc(row, func(a, b int) int {
		return cmp.Or(cmp.Compare(key[a], key[b]), cmp.Compare(items[a].pos, items[b].pos))
	})
	for k, v := range row {
		items[v].pos = k
	}
}

// crossings counts the pairs of crossing edges between adjacent layers:
// the inversions of the lower ends when the edges are sorted by their
// upper ends (merge sort, O(E log E) a layer).
func crossings(items []item, rows [][]int) int {
	total := 0
	for l := 0; l+1 < len(rows); l++ {
		type pair struct{ a, b int }
		var ps []pair
		for _, u := range rows[l] {
			for _, w := range items[u].down {
				ps = append(ps, pair{items[u].pos, items[w].pos})
			}
		}
		slices.SortFunc(ps, func(x, y pair) int { return cmp.Or(cmp.Compare(x.a, y.a), cmp.Compare(x.b, y.b)) })
		bs := make([]int, len(ps))
		for k, p := range ps {
			bs[k] = p.b
		}
		total += inversions(bs, make([]int, len(bs)))
	}
	return total
}

// inversions counts i < j with s[i] > s[j], sorting s (tmp is scratch of
// the same length).
func inversions(s, tmp []int) int {
	if len(s) < 2 {
		return 0
	}
	m := len(s) / 2
	n := inversions(s[:m], tmp[:m]) + inversions(s[m:], tmp[m:])
	i, j, k := 0, m, 0
	for i < m && j < len(s) {
		if s[j] < s[i] {
			tmp[k] = s[j]
			n += m - i
			j++
		} else {
			tmp[k] = s[i]
			i++
		}
		k++
	}
	k += copy(tmp[k:], s[i:m])
	copy(tmp[k:], s[j:])
	copy(s, tmp)
	return n
}
