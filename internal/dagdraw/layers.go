package dagdraw

import (
	"fmt"
	"slices"
)

// layers gives each node its layer: longest path from a root, then each
// node moved down as far as its children allow (so a root used only by
// the final node sits above it, not at the top with a long edge). It
// returns ErrCycle naming a node on a cycle.
func layers(n int, edges [][2]int, ids []string) ([]int, int, error) {
	children := make([][]int, n)
	parents := make([][]int, n)
	indeg := make([]int, n)
	for _, e := range edges {
		children[e[0]] = append(children[e[0]], e[1])
		parents[e[1]] = append(parents[e[1]], e[0])
		indeg[e[1]]++
	}
	// Kahn's order, roots in input order.
	order := make([]int, 0, n)
	for i := range n {
		if indeg[i] == 0 {
			order = append(order, i)
		}
	}
	for k := 0; k < len(order); k++ {
		for _, c := range children[order[k]] {
			if indeg[c]--; indeg[c] == 0 {
				order = append(order, c)
			}
		}
	}
	if len(order) < n {
		return nil, 0, fmt.Errorf("%w: through %q", ErrCycle, ids[onCycle(n, parents, indeg)])
	}
	layer := make([]int, n)
	top := 0
	for _, v := range order {
		for _, p := range parents[v] {
			layer[v] = max(layer[v], layer[p]+1)
		}
		top = max(top, layer[v])
	}
	for _, v := range slices.Backward(order) {
		if len(children[v]) == 0 {
			continue
		}
		lowest := layer[children[v][0]]
		for _, c := range children[v] {
			lowest = min(lowest, layer[c])
		}
		layer[v] = max(layer[v], lowest-1)
	}
	return layer, top + 1, nil
}

// onCycle is a node on a cycle, given the in-degrees Kahn's algorithm
// left (the nodes with some left are on a cycle or below one): walking up
// through such parents must come back to a node already seen.
func onCycle(n int, parents [][]int, indeg []int) int {
	start := 0
	for start < n && indeg[start] == 0 {
		start++
	}
	seen := make([]bool, n)
	v := start
	for !seen[v] {
		seen[v] = true
		for _, p := range parents[v] {
			if indeg[p] > 0 {
				v = p
				break
			}
		}
	}
	return v
}
