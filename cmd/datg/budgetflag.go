package main

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/datg/datg/pipelines/dags"
)

// budgetFlag is datg dags --budget LEVEL=NODES/CHARS/PARENTS,...: the DAG
// size guidance of the levels named (the others keep their defaults).
type budgetFlag map[string]dags.Budget

func (f budgetFlag) String() string {
	var parts []string
	for _, level := range slices.Sorted(maps.Keys(f)) {
		b := f[level]
		parts = append(parts, fmt.Sprintf("%s=%d/%d/%d", level, b.Nodes, b.DescChars, b.Parents))
	}
	return strings.Join(parts, ",")
}

func (f budgetFlag) Set(s string) error {
	var items listFlag
	if err := items.Set(s); err != nil {
		return err
	}
	for _, item := range items {
		level, spec, ok := strings.Cut(item, "=")
		nums := strings.Split(spec, "/")
		if !ok || len(nums) != 3 {
			return fmt.Errorf("%q is not LEVEL=NODES/CHARS/PARENTS (e.g. low=8/60/3)", item)
		}
		var v [3]int
		for i, n := range nums {
			x, err := strconv.Atoi(strings.TrimSpace(n))
			if err != nil {
				return fmt.Errorf("%q: %q is not an integer", item, n)
			}
			v[i] = x
		}
		f[strings.TrimSpace(level)] = dags.Budget{Nodes: v[0], DescChars: v[1], Parents: v[2]}
	}
	return nil
}
