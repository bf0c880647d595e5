package sql_test

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

// TestControlMatchesAnIndependentComputation recomputes Table 3 (control)
// from the fixture's traces, answers and trials in Go and compares it with
// control.sql row by row: an example of a control is a controlled trace
// with its attempts (tokens over every attempt, the scaffold included;
// trials over the reasoning attempts only), Base is control-base (datg
// control --method base) and nothing else: the direction probe's base
// traces of the same examples are another design and stay out; lang 'all'
// averages the languages' accuracies and pools the rest.
func TestControlMatchesAnIndependentComputation(t *testing.T) {
	type trial struct {
		TraceID          string `json:"trace_id"`
		Phase            string `json:"phase"`
		Trial            int    `json:"trial"`
		CompletionTokens int64  `json:"completion_tokens"`
		ForcedAccept     bool   `json:"forced_accept"`
	}
	type attempts struct {
		tokens, trials int64
		forced         bool
	}
	correct := fixtureCorrect(t)
	perTrace := map[string]*attempts{}
	var scaffolds, forcedRows int
	for _, x := range fixtureRows[trial](t, "trials") {
		a := perTrace[x.TraceID]
		if a == nil {
			a = &attempts{}
			perTrace[x.TraceID] = a
		}
		a.tokens += x.CompletionTokens
		if x.Phase == "reasoning" {
			a.trials++
		} else if x.Phase == "scaffold" && x.Trial == 0 {
			scaffolds++
		}
		if x.ForcedAccept {
			a.forced = true
			forcedRows++
		}
	}
	traces := fixtureRows[fixtureTrace](t, "traces")
	cellOf := func(tr fixtureTrace) string {
		return fmt.Sprint(tr.Model, "|", tr.Direction, "|", tr.InputLang, "|", tr.ReasoningLang, "|", tr.Level, "|", tr.ProblemID, "|", tr.Seed)
	}

	// Examples: the traces of the control study's methods with their
	// attempts.
	type example struct {
		method, model, level, lang string
		correct                    bool
		tokens, trials             int64
		seed                       int64
		forced                     bool
	}
	var examples []example
	cells := map[string]bool{}
	methods := map[string]bool{}
	trialCounts := map[int64]bool{}
	for _, tr := range traces {
		if tr.Method != "loop-retry" && tr.Method != "formula-retry" && tr.Method != "control-base" {
			continue
		}
		a, ok := perTrace[tr.TraceID]
		if !ok {
			t.Fatalf("controlled trace %s has no trials in the fixture", tr.TraceID)
		}
		examples = append(examples, example{tr.Method, tr.Model, tr.Level, tr.lang(), correct[tr.TraceID], a.tokens, a.trials, tr.Seed, a.forced})
		cells[cellOf(tr)] = true
		methods[tr.Method] = true
		trialCounts[a.trials] = true
	}
	// The probe's traces of examples the controls ran: Table 3 must not
	// count them.
	probeOfControlled := 0
	for _, tr := range traces {
		if tr.probe() && cells[cellOf(tr)] {
			probeOfControlled++
		}
	}

	// The fixture must exercise what the table distinguishes.
	levels, langs := map[string]bool{}, map[string]bool{}
	for _, e := range examples {
		levels[e.level], langs[e.lang] = true, true
	}
	if len(methods) < 3 || !methods["control-base"] || len(levels) < 2 || len(langs) < 2 || !trialCounts[1] || !trialCounts[2] || !trialCounts[5] ||
		forcedRows == 0 || scaffolds == 0 || probeOfControlled == 0 {
		t.Fatalf("the fixture lacks a case of the control table: methods %v, levels %v, langs %v, trials %v, forced %d, scaffolds %d, probe traces of controlled examples %d",
			methods, levels, langs, trialCounts, forcedRows, scaffolds, probeOfControlled)
	}

	type agg struct {
		n, correct, tokens, retried, trials, forced int64
		accuracy, tokensPerSeed                     float64
		seeds                                       map[int64]bool
	}
	// A row per seed and the pooled row (seed "all"), each per language
	// and averaged over the languages (lang "all").
	perLang := map[[5]string]*agg{}
	for _, e := range examples {
		for _, seed := range []string{fmt.Sprint(e.seed), "all"} {
			k := [5]string{e.method, e.model, e.level, e.lang, seed}
			a := perLang[k]
			if a == nil {
				a = &agg{seeds: map[int64]bool{}}
				perLang[k] = a
			}
			a.n++
			a.seeds[e.seed] = true
			if e.correct {
				a.correct++
			}
			a.tokens += e.tokens
			a.trials += e.trials
			if e.trials > 1 {
				a.retried++
			}
			if e.forced {
				a.forced++
			}
		}
	}
	want := map[[5]string]*agg{}
	langCount := map[[5]string]int{}
	for k, a := range perLang {
		a.accuracy = 100 * float64(a.correct) / float64(a.n)
		a.tokensPerSeed = float64(a.tokens) / float64(len(a.seeds))
		want[k] = a
		all := [5]string{k[0], k[1], k[2], "all", k[4]}
		s := want[all]
		if s == nil {
			s = &agg{}
			want[all] = s
		}
		s.n += a.n
		s.tokens += a.tokens
		s.tokensPerSeed += a.tokensPerSeed
		s.retried += a.retried
		s.trials += a.trials
		s.forced += a.forced
		s.accuracy += a.accuracy
		langCount[all]++
	}
	for k, c := range langCount {
		want[k].accuracy /= float64(c)
	}

	seen := map[[5]string]bool{}
	for _, row := range tableRows(t, "control") {
		k := [5]string{fmt.Sprint(row["method"]), fmt.Sprint(row["model"]), fmt.Sprint(row["level"]), fmt.Sprint(row["lang"]), fmt.Sprint(row["seed"])}
		if seen[k] {
			t.Errorf("%v: two rows", k)
		}
		seen[k] = true
		w, ok := want[k]
		if !ok {
			t.Errorf("%v: a row the fixture does not give", k)
			continue
		}
		n := float64(w.n)
		for _, c := range []struct {
			col      string
			want     float64
			decimals int
		}{
			{"n", n, 0},
			{"accuracy", w.accuracy, 1},
			{"tokens_m", w.tokensPerSeed / 1e6, 3},
			{"tokens_total_m", float64(w.tokens) / 1e6, 3},
			{"retry_pct", 100 * float64(w.retried) / n, 1},
			{"retry_low", 100 * wilsonScore(w.retried, w.n, -1), 1},
			{"retry_high", 100 * wilsonScore(w.retried, w.n, +1), 1},
			{"trials", float64(w.trials) / n, 2},
			{"forced_pct", 100 * float64(w.forced) / n, 1},
		} {
			got, ok := number(row[c.col])
			if !ok {
				t.Errorf("%v %s: unexpected %T", k, c.col, row[c.col])
				continue
			}
			// The query rounds; the value must be the rounding of ours.
			if math.Abs(got-c.want) > 0.5*math.Pow(10, -float64(c.decimals))+1e-9 {
				t.Errorf("%v %s = %v, want %.4f", k, c.col, got, c.want)
			}
		}
	}
	var missing [][5]string
	for k := range want {
		if !seen[k] {
			missing = append(missing, k)
		}
	}
	slices.SortFunc(missing, func(a, b [5]string) int { return slices.Compare(a[:], b[:]) })
	if len(missing) > 0 {
		t.Errorf("control.sql lacks rows %v", missing)
	}
}

// number is a number of tableRows; ok is false for NULL.
func number(v any) (x float64, ok bool) {
	x, ok = v.(float64)
	return x, ok
}

// wilsonScore is a bound of the 95% Wilson score interval of k in n (sign
// -1 the lower, +1 the upper), from its textbook formula: the check on the
// query's use of the wilson macros (TestWilson checks the macros).
func wilsonScore(k, n int64, sign float64) float64 {
	const z = 1.959963984540054
	p, nf := float64(k)/float64(n), float64(n)
	centre := p + z*z/(2*nf)
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf))
	return math.Min(1, math.Max(0, (centre+sign*half)/(1+z*z/nf)))
}
