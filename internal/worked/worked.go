// Package worked writes synthetic worked solutions and weaves them into
// synthetic traces, for scripts/scale.sh and the benchmarks of symbolic
// alignment: a solution is a chain of 5 to 11 arithmetic steps, each
// using the result before it (and now and then an earlier one), ending
// in the problem's answer when it is a whole number; a trace writes most
// of its problem's steps in order, some with a wrong result (and some of
// those corrected later), as a model's reasoning repeats and misses a
// reference's intermediate results. Nothing comes from the paper's text:
// the numbers are drawn from a seed and the answer.
package worked

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Steps of a solution, fewest and most.
const (
	MinSteps = 5
	MaxSteps = 11
)

// Solution is a worked solution's steps ("a + b = c" in LaTeX, as
// datg simulate --solutions reads them), drawn from seed, the last one
// ending in answer when answer is a whole number (commas allowed).
func Solution(seed uint64, answer string) []string {
	rng := rand.New(rand.NewPCG(seed, 0x50107))
	n := MinSteps + rng.IntN(MaxSteps-MinSteps+1)
	var results []int64
	var steps []string
	add := func(a int64, op string, b, c int64) {
		steps = append(steps, fmt.Sprintf("%d %s %d = %d", a, op, b, c))
		results = append(results, c)
	}
	a, b := 2+rng.Int64N(98), 2+rng.Int64N(98)
	add(a, `\times`, b, a*b)
	gold, whole := wholeNumber(answer)
	for len(steps) < n {
		prev := results[len(results)-1]
		if len(steps) == n-1 && whole {
			switch d := gold - prev; {
			case d > 0:
				add(prev, "+", d, gold)
			case d < 0:
				add(prev, "-", -d, gold)
			default:
				add(prev, `\times`, 1, gold)
			}
			continue
		}
		// The other operand: an earlier result now and then (a node
		// with two parents), else a new number.
		other := 2 + rng.Int64N(48)
		if len(results) > 1 && rng.IntN(3) == 0 {
			other = results[rng.IntN(len(results)-1)]
		}
		switch op := rng.IntN(4); {
		case op == 0 && prev*other < 1_000_000:
			add(prev, `\times`, other, prev*other)
		case op == 1 && other > 1 && prev%other == 0:
			add(prev, `\div`, other, prev/other)
		case op == 2 && prev > other:
			add(prev, "-", other, prev-other)
		default:
			add(prev, "+", other, prev+other)
		}
	}
	return steps
}

// wholeNumber reads an answer such as "18" or "140,892".
func wholeNumber(answer string) (int64, bool) {
	s := strings.ReplaceAll(strings.TrimSpace(answer), ",", "")
	v, err := strconv.ParseInt(s, 10, 64)
	return v, err == nil && v >= 0 && v < 1e12
}

// Rates at which a trace writes its problem's steps.
const (
	writeRate   = 0.75 // a step is written at all
	wrongRate   = 0.12 // a written step has a wrong result
	correctRate = 0.5  // a wrong step is followed later by the right one
)

// Weave writes the steps of a solution into a trace's reasoning, in
// order and spread over it, each as inline math on its own line at a
// paragraph break ("\n\n"): most of them, some wrong. The reasoning ends
// at the first "</think>" (or with the text, a trace cut at its budget).
func Weave(text string, steps []string, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 0x3ea7e))
	var lines []string
	for _, s := range steps {
		if rng.Float64() >= writeRate {
			continue
		}
		if rng.Float64() < wrongRate {
			if wrong, ok := wrongResult(s, rng); ok {
				lines = append(lines, wrong)
				if rng.Float64() >= correctRate {
					continue
				}
			}
		}
		lines = append(lines, s)
	}
	end := len(text)
	if i := strings.Index(text, "</think>"); i >= 0 {
		end = i
	}
	var b strings.Builder
	b.Grow(len(text) + 32*len(lines))
	at := 0
	for k, line := range lines {
		// After the first paragraph break past an even share of the
		// reasoning; the lines left when the breaks run out go last.
		want := at
		if share := end * (k + 1) / (len(lines) + 1); share > want {
			want = share
		}
		i := strings.Index(text[want:end], "\n\n")
		if i < 0 {
			i = end - want
		} else {
			i += 2
		}
		b.WriteString(text[at : want+i])
		at = want + i
		b.WriteString("$" + line + "$\n\n")
	}
	b.WriteString(text[at:])
	return b.String()
}

// wrongResult is a step with its result changed.
func wrongResult(step string, rng *rand.Rand) (string, bool) {
	lhs, rhs, ok := strings.Cut(step, " = ")
	v, err := strconv.ParseInt(rhs, 10, 64)
	if !ok || err != nil {
		return "", false
	}
	d := 1 + rng.Int64N(9)
	if rng.IntN(2) == 0 && v > d {
		d = -d
	}
	return lhs + " = " + strconv.FormatInt(v+d, 10), true
}
