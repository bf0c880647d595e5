package view

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A looping trace repeats a phrase, a line or a paragraph hundreds of times
// up to its token budget. The trace page shows the first copy of such a run
// and folds the others behind a count, so a 16,384-token loop reads as one
// sentence and "repeated 212 more times".
//
// A run is a maximal stretch of the text whose tokens repeat with a period
// p: token i equals token i-p all along it. For each period up to a bound
// one pass over the token ids finds every run of that period, so finding
// them costs periods x tokens steps: linear in the text. Runs of different
// periods overlap (a run of period p also has period 2p); the runs shown
// are the set of non-overlapping runs that hide the most text, which one
// more pass over the tokens finds (weighted interval scheduling, with the
// runs bucketed by their first token). Runs are looked for twice: over
// words (tokens; a phrase) and over lines (a paragraph too long for the
// word periods), both as token intervals, so the two compete in one choice.

// repeat is a run of copies of one unit of text, in byte offsets: the
// first copy [Start, UnitEnd) is shown, [UnitEnd, End) is folded.
type repeat struct {
	Start, UnitEnd, End int
	Copies              int // copies of the unit in [Start, End), at least minCopies
}

const (
	// maxWordPeriod is the longest unit, in tokens, a run of words may
	// have (a long sentence); maxLinePeriod, in lines (a paragraph of a
	// few dozen lines).
	maxWordPeriod = 256
	maxLinePeriod = 64
	// minCopies is the fewest copies that make a run: twice is how text
	// quotes itself, three times is a loop.
	minCopies = 3
	// minFolded is the fewest bytes a run must fold, so a repeated "1, 1,
	// 1" stays as it is.
	minFolded = 80
	// maxChunk bounds a token of letters, in runes: scripts written
	// without spaces (Japanese, Chinese, Thai) have no words to split,
	// and fixed chunks from the start of a run of letters keep a
	// repetition periodic in tokens.
	maxChunk = 8
	// workBudget bounds the steps of a search (periods x tokens): a text
	// longer than the budget allows at the full period is searched with
	// shorter periods, so a hostile text costs at most this.
	workBudget = 64 << 20
)

// token is a word, a chunk of letters or a punctuation mark of the text.
type token struct{ start, end int }

// tokenize cuts text into tokens: runs of letters and digits (at most
// maxChunk runes each) and single other non-space runes.
func tokenize(text string) []token {
	var out []token
	i := 0
	for i < len(text) {
		r, n := utf8.DecodeRuneInString(text[i:])
		switch {
		case unicode.IsSpace(r):
			i += n
		case isWordRune(r):
			start, runes := i, 0
			for i < len(text) && runes < maxChunk {
				r, n := utf8.DecodeRuneInString(text[i:])
				if !isWordRune(r) {
					break
				}
				i += n
				runes++
			}
			out = append(out, token{start, i})
		default:
			out = append(out, token{i, i + n})
			i += n
		}
	}
	return out
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

// candidate is a run found for some period, as token indexes: [start, end)
// holds copies of [start, unitEnd).
type candidate struct {
	start, unitEnd, end int
	copies              int
	next                int // the next candidate starting at the same token (-1: none)
}

// repeatFinder gathers the runs of a text's tokens and counts its steps
// (the tests hold the work linear).
type repeatFinder struct {
	text   string
	toks   []token
	cands  []candidate
	heads  []int // per token, the first candidate starting there (-1: none)
	steps  int
	budget int
}

// findRepeats is the text's folded runs, in order, not overlapping.
func findRepeats(text string) []repeat {
	f := newRepeatFinder(text)
	return f.choose()
}

func newRepeatFinder(text string) *repeatFinder {
	return newRepeatFinderWith(text, (*repeatFinder).runs)
}

// runSearch finds the runs of ids: repeatFinder.runs (the tests compare
// it with a search at every position).
type runSearch func(f *repeatFinder, ids []int32, maxPeriod int, startsUnit func(int) bool, toTokens func(start, unitEnd, end int) (int, int, int))

func newRepeatFinderWith(text string, runs runSearch) *repeatFinder {
	f := &repeatFinder{text: text, toks: tokenize(text), budget: workBudget}
	f.heads = make([]int, len(f.toks)+1)
	for i := range f.heads {
		f.heads[i] = -1
	}
	if len(f.toks) < minCopies {
		return f
	}
	// Words: ids of the tokens' text.
	ids := intern(len(f.toks), func(i int) string { return text[f.toks[i].start:f.toks[i].end] })
	runs(f, ids, maxWordPeriod, f.startsSentence, func(s, u, e int) (int, int, int) { return s, u, e })
	// Lines: ids of each line's tokens, and where each line's tokens start.
	firstTok, lineText := f.lines()
	lineIDs := intern(len(lineText), func(i int) string { return lineText[i] })
	runs(f, lineIDs, maxLinePeriod, nil, func(s, u, e int) (int, int, int) {
		return firstTok[s], firstTok[u], firstTok[e]
	})
	return f
}

// startsSentence says whether token i begins a sentence or a line: the
// first token, one after a line break, or one after a sentence's end
// (Latin, CJK and Indic full stops, "!" and "?").
func (f *repeatFinder) startsSentence(i int) bool {
	if i == 0 || strings.ContainsRune(f.text[f.toks[i-1].end:f.toks[i].start], '\n') {
		return true
	}
	switch f.text[f.toks[i-1].start:f.toks[i-1].end] {
	case ".", "!", "?", "。", "！", "？", "।", "॥":
		return true
	}
	return false
}

// intern gives each distinct string an int id, in one pass.
func intern(n int, at func(int) string) []int32 {
	seen := make(map[string]int32, n/4+1)
	ids := make([]int32, n)
	for i := range n {
		s := at(i)
		id, ok := seen[s]
		if !ok {
			id = int32(len(seen))
			seen[s] = id
		}
		ids[i] = id
	}
	return ids
}

// lines are, for each line of the text, the index of its first token (the
// next line's when it has none; len(toks) past the last) and its tokens'
// text (the line with its outer space trimmed, so indentation does not
// tell copies apart). firstTok has one more entry, for the end.
func (f *repeatFinder) lines() (firstTok []int, text []string) {
	lineStart, k := 0, 0
	for lineStart <= len(f.text) {
		end := lineStart
		for end < len(f.text) && f.text[end] != '\n' {
			end++
		}
		for k < len(f.toks) && f.toks[k].start < lineStart {
			k++
		}
		first := k
		last := first
		for last < len(f.toks) && f.toks[last].start < end {
			last++
		}
		firstTok = append(firstTok, first)
		if first < last {
			text = append(text, f.text[f.toks[first].start:f.toks[last-1].end])
		} else {
			text = append(text, "")
		}
		k = last
		lineStart = end + 1
		f.steps++
	}
	return append(firstTok, len(f.toks)), text
}

// runs finds every run of ids with a period up to maxPeriod (fewer when
// the text is long: the work budget), giving each as token indexes through
// toTokens.
//
// A run of period p is a maximal stretch of positions i where ids[i] ==
// ids[i-p]; it makes minCopies copies when it is at least (minCopies-1)p
// long, and so holds a multiple of p. So for each period only the
// multiples of p are compared, and a match there is widened both ways to
// its stretch: about tokens/p steps a period, not tokens (the steps over
// every period were half an export's CPU at real lengths), plus the
// stretches themselves. The runs, and their order, are the ones a
// comparison at every position finds (runsAtEveryPosition in the tests).
//
// A run's first copy may begin anywhere in the unit: "check. Wait, check.
// Wait, check." has period 3 from its first "." on. startsUnit (nil: any
// id) says where a copy reads as one (after a sentence's end), and the
// run starts at the first such id within its first unit, if enough copies
// follow: else the fold began at a "." and left the run's last "." after
// it ("repeated 19 more times" followed by a stray ".").
func (f *repeatFinder) runs(ids []int32, maxPeriod int, startsUnit func(int) bool, toTokens func(start, unitEnd, end int) (int, int, int)) {
	m := len(ids)
	if m == 0 {
		return
	}
	periods := min(maxPeriod, m/minCopies, max(1, f.budget/(2*m)))
	for p := 1; p <= periods; p++ {
		for i := p; i < m; i += p {
			f.steps++
			if ids[i] != ids[i-p] {
				continue
			}
			// Widen the match at i to its stretch [lo, hi) of matches.
			lo, hi := i, i+1
			for lo > p && ids[lo-1] == ids[lo-1-p] {
				lo--
			}
			for hi < m && ids[hi] == ids[hi-p] {
				hi++
			}
			f.steps += hi - lo
			if run := hi - lo; run >= (minCopies-1)*p {
				f.found(p, hi, run, startsUnit, toTokens)
			}
			// The next multiple of p past the stretch.
			i = hi / p * p
		}
	}
}

// found adds the run of period p whose stretch of matches, run long, ends
// at i: [i-run-p, i) has period p.
func (f *repeatFinder) found(p, i, run int, startsUnit func(int) bool, toTokens func(start, unitEnd, end int) (int, int, int)) {
	start := i - run - p
	for r := start; startsUnit != nil && r < start+p && (i-r)/p >= minCopies; r++ {
		f.steps++
		if startsUnit(r) {
			start = r
			break
		}
	}
	copies := (i - start) / p
	s, u, e := toTokens(start, start+p, start+copies*p)
	f.add(s, u, e, copies)
}

// add keeps a run that folds enough text.
func (f *repeatFinder) add(start, unitEnd, end, copies int) {
	if unitEnd >= end || start >= unitEnd || f.folded(unitEnd, end) < minFolded {
		return
	}
	f.cands = append(f.cands, candidate{start: start, unitEnd: unitEnd, end: end, copies: copies, next: f.heads[start]})
	f.heads[start] = len(f.cands) - 1
}

// folded is the bytes of tokens [unitEnd, end) of the text.
func (f *repeatFinder) folded(unitEnd, end int) int {
	return f.toks[end-1].end - f.toks[unitEnd].start
}

// choose is the set of non-overlapping runs folding the most bytes: best[i]
// is the most that runs within tokens [i, n) fold, from the last token
// back; then the runs that make best[0] are read forward.
func (f *repeatFinder) choose() []repeat {
	n := len(f.toks)
	if len(f.cands) == 0 {
		return nil
	}
	best := make([]int, n+1)
	pick := make([]int, n+1) // the candidate best[i] takes at i (-1: none)
	pick[n] = -1
	for i := n - 1; i >= 0; i-- {
		best[i], pick[i] = best[i+1], -1
		for c := f.heads[i]; c >= 0; c = f.cands[c].next {
			f.steps++
			cand := f.cands[c]
			if w := f.folded(cand.unitEnd, cand.end) + best[cand.end]; w > best[i] {
				best[i], pick[i] = w, c
			}
		}
	}
	var out []repeat
	for i := 0; i < n; {
		c := pick[i]
		if c < 0 {
			i++
			continue
		}
		cand := f.cands[c]
		out = append(out, repeat{
			Start:   f.toks[cand.start].start,
			UnitEnd: f.toks[cand.unitEnd].start,
			End:     f.toks[cand.end-1].end,
			Copies:  cand.copies,
		})
		i = cand.end
	}
	return out
}
