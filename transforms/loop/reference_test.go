package loop

import (
	"math/rand/v2"
	"sort"
	"strconv"
	"testing"
)

// The reference below recomputes Detect from the definitions, naively and
// differently: n-grams as printed string keys counted after sorting, the
// type count with a map, the motif by comparing every position of the
// three units, shortness with its own integer scaling. Only MathProgress is
// taken as given (it has its own tests); the texts used here have a known
// answer, checked in TestReferenceTexts.

func refRep(w []int, n int) float64 {
	if n < 1 || len(w) < n {
		return 0
	}
	var keys []string
	for i := 0; i+n <= len(w); i++ {
		var key []byte
		for _, x := range w[i : i+n] {
			key = strconv.AppendInt(key, int64(x), 10)
			key = append(key, ' ')
		}
		keys = append(keys, string(key))
	}
	sort.Strings(keys)
	repeats := 0
	for i := 1; i < len(keys); i++ {
		if keys[i] == keys[i-1] {
			repeats++ // every occurrence after the first of a key
		}
	}
	return float64(repeats) / float64(len(keys))
}

func refTTR(w []int) float64 {
	if len(w) == 0 {
		return 0
	}
	types := map[int]bool{}
	for _, x := range w {
		types[x] = true
	}
	return float64(len(types)) / float64(len(w))
}

func refMotif(t []int) int {
	n := len(t)
	for L := 4; L <= 32 && 3*L <= n; L++ {
		ok := true
		for k := 1; k <= L; k++ {
			a, b, c := t[n-k], t[n-k-L], t[n-k-2*L]
			if a != b || b != c {
				ok = false
				break
			}
		}
		if ok {
			return L
		}
	}
	return 0
}

func refDetect(tokens []int, text string, budget int, progress bool) Stats {
	c := 0
	if budget > 0 {
		c = budget / 4
	}
	w := tokens
	if len(w) > 256 {
		w = w[len(w)-256:]
	}
	s := Stats{Budget: budget, Checkpoint: c, Tokens: len(tokens)}
	s.Rep16, s.Rep32, s.TTR256 = refRep(w, 16), refRep(w, 32), refTTR(w)
	s.MotifLen = refMotif(tokens)
	s.Motif = s.MotifLen != 0
	s.SurfaceLoop = s.Rep16 >= 0.65 || s.Rep32 >= 0.30 || s.Motif || s.Rep16 >= 0.50 && s.TTR256 <= 0.16
	s.MathProgress = progress
	s.Boxed = containsAny(text, `\boxed{`, `\boxed `)
	s.Short = uint64(10*len(tokens)) < 8*uint64(c) // c < 2^61, so 8c fits
	s.Trigger = s.SurfaceLoop && !progress && !s.Boxed && !s.Short
	return s
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		for i := 0; i+len(sub) <= len(s); i++ {
			if s[i:i+len(sub)] == sub {
				return true
			}
		}
	}
	return false
}

var refTexts = []struct {
	text     string
	progress bool
}{
	{"", false},
	{swahiliLoop, false},
	{swahiliProgress, true},
	{swahiliBoxed, false},
}

func TestReferenceTexts(t *testing.T) {
	for i, rt := range refTexts {
		if got := MathProgress(rt.text); got != rt.progress {
			t.Errorf("text %d: MathProgress = %v, want %v", i, got, rt.progress)
		}
	}
}

// randomTrace draws token sequences that hit every condition: i.i.d. over a
// small alphabet, or a random start followed by a repeated unit, sometimes
// with a token changed, sometimes cut mid-unit.
func randomTrace(r *rand.Rand) []int {
	n := r.IntN(601)
	alphabet := []int{1, 2, 3, 4, 6, 12, 50, 1000}[r.IntN(8)]
	t := make([]int, n)
	for i := range t {
		t[i] = r.IntN(alphabet)
	}
	if n > 0 && r.IntN(3) > 0 {
		unit := 1 + r.IntN(40)
		from := r.IntN(n)
		for i := from; i < n; i++ {
			t[i] = t[from+(i-from)%unit]
		}
		if r.IntN(4) == 0 {
			t[r.IntN(n)] = r.IntN(alphabet)
		}
	}
	return t
}

func TestDetectMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(2026, 4))
	counts := map[string]int{}
	for i := range 6000 {
		tokens := randomTrace(r)
		budget := r.IntN(10*len(tokens)+20) - 8 // around 5n, so Short varies
		rt := refTexts[r.IntN(len(refTexts))]
		want := refDetect(tokens, rt.text, budget, rt.progress)
		got := Detect(tokens, rt.text, budget)
		want.Reason = got.Reason
		if got != want {
			t.Fatalf("case %d (len %d, budget %d):\n got %+v\nwant %+v\ntokens %v", i, len(tokens), budget, got, want, tokens)
		}
		for name, on := range map[string]bool{
			"rep16": got.Rep16 >= Rep16Loop, "rep32": got.Rep32 >= Rep32Loop, "motif": got.Motif,
			"soft": got.Rep16 >= Rep16Soft && got.TTR256 <= TTRSoft, "short": got.Short,
			"trigger": got.Trigger, "no loop": !got.SurfaceLoop,
		} {
			if on {
				counts[name]++
			}
		}
	}
	// The comparison only means something if every branch was exercised.
	for _, name := range []string{"rep16", "rep32", "motif", "soft", "short", "trigger", "no loop"} {
		if counts[name] < 50 {
			t.Errorf("only %d random cases with %s", counts[name], name)
		}
	}
	t.Logf("branch counts: %v", counts)
}

func TestRepRateMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for range 2000 {
		w := randomTrace(r)
		if len(w) > 300 {
			w = w[:r.IntN(300)]
		}
		n := 1 + r.IntN(40)
		if got, want := RepRate(w, n), refRep(w, n); got != want {
			t.Fatalf("RepRate(%v, %d) = %v, want %v", w, n, got, want)
		}
		if got, want := TTR(w), refTTR(w); got != want {
			t.Fatalf("TTR(%v) = %v, want %v", w, got, want)
		}
	}
}
