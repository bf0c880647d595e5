package dagdraw

// placeRounds is how many sweeps down and up place makes.
const placeRounds = 8

// place gives every item its x (center): each layer packed left to right,
// then in sweeps down and up each item pulled to the mean x of its
// neighbours in the layer swept from, within its layer's order and gaps;
// finally the drawing is moved right to start at the margin.
func place(items []item, rows [][]int) {
	for _, row := range rows {
		x := 0.0
		for k, v := range row {
			if k > 0 {
				x += items[row[k-1]].w/2 + gap(&items[row[k-1]], &items[v]) + items[v].w/2
			}
			items[v].x = x
		}
	}
	for r := 0; r < placeRounds; r++ {
		for l := 1; l < len(rows); l++ {
			pull(items, rows[l], func(it *item) []int { return it.up })
		}
		for l := len(rows) - 2; l >= 0; l-- {
			pull(items, rows[l], func(it *item) []int { return it.down })
		}
	}
	left := 0.0
	first := true
	for _, it := range items {
		if first || it.x-it.w/2 < left {
			left, first = it.x-it.w/2, false
		}
	}
	for v := range items {
		items[v].x += margin - left
	}
}

// pull moves a layer's items as near as the gaps allow to their wished x
// (the mean x of their neighbours, or where they are), keeping their
// order: with s the least offset of each item from the first, the
// positions minus s must not decrease, and the closest such positions in
// the least-squares sense are the isotonic regression of the wishes
// minus s, which pool adjacent violators finds in linear time.
func pull(items []item, row []int, neighbours func(*item) []int) {
	if len(row) == 0 {
		return
	}
	offset := make([]float64, len(row))
	for k := 1; k < len(row); k++ {
		a, b := &items[row[k-1]], &items[row[k]]
		offset[k] = offset[k-1] + a.w/2 + gap(a, b) + b.w/2
	}
	type block struct {
		sum   float64
		count int
	}
	blocks := make([]block, 0, len(row))
	for k, v := range row {
		wish := items[v].x
		if ns := neighbours(&items[v]); len(ns) > 0 {
			sum := 0.0
			for _, u := range ns {
				sum += items[u].x
			}
			wish = sum / float64(len(ns))
		}
		blocks = append(blocks, block{wish - offset[k], 1})
		for len(blocks) > 1 {
			a, b := blocks[len(blocks)-2], blocks[len(blocks)-1]
			if a.sum/float64(a.count) <= b.sum/float64(b.count) {
				break
			}
			blocks = blocks[:len(blocks)-2]
			blocks = append(blocks, block{a.sum + b.sum, a.count + b.count})
		}
	}
	k := 0
	for _, b := range blocks {
		mean := b.sum / float64(b.count)
		for range b.count {
			items[row[k]].x = mean + offset[k]
			k++
		}
	}
}
