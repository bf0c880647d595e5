package view

import (
	"encoding/json"
	"fmt"
	"html/template"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// mark is a located span of the trace to highlight, in byte offsets: a
// node's evidence (Kind commit, attempt or error, for the nodes Keys name)
// or a harmful action (Kind harmful, Harm its row in the page's list).
type mark struct {
	Start, End int
	Kind       string
	Keys       []string
	Harm       int
	Title      string
}

// strength orders the kinds when spans overlap: the strongest shows.
var strength = map[string]int{"harmful": 4, "error": 3, "commit": 2, "attempt": 1}

// textView is a trace's text as the page shows it.
type textView struct {
	HTML          template.HTML
	Folded        int // runs of repeats folded
	FoldedBytes   int
	MathSpans     int
	Unlocated     int // marks whose offsets fell outside the text
	RenderFailure int // math spans the renderer refused (shown as source)
}

// runeOffsets maps the rune offsets of a text (the tables' start_char and
// end_char count characters) to byte offsets.
type runeOffsets []int

func newRuneOffsets(text string) runeOffsets {
	out := make(runeOffsets, 0, utf8.RuneCountInString(text)+1)
	for i := range text {
		out = append(out, i)
	}
	return append(out, len(text))
}

// byteAt is the byte offset of rune offset r, clamped to the text.
func (o runeOffsets) byteAt(r int) int {
	return o[max(0, min(r, len(o)-1))]
}

// renderText is the HTML of a trace's text: prose escaped, math rendered,
// the marks highlighted, and runs of repeats folded behind their count
// (<details>, so nothing of the text is lost and the page's script opens
// one to show evidence inside it).
func renderText(text string, marks []mark, m mathRenderer) textView {
	var tv textView
	spans := validSpans(m.Spans(text), len(text))
	tv.MathSpans = len(spans)
	snapDown := func(p int) int { // a cut inside math moves to its start
		if s, ok := inside(spans, p); ok {
			return s.Start
		}
		return p
	}
	snapUp := func(p int) int { // or to its end
		if s, ok := inside(spans, p); ok {
			return s.End
		}
		return p
	}
	var reps []repeat
	last := 0
	for _, r := range findRepeats(text) {
		r.Start, r.UnitEnd, r.End = snapDown(r.Start), snapUp(r.UnitEnd), snapUp(r.End)
		if r.Start < last || r.Start >= r.UnitEnd || r.UnitEnd >= r.End {
			continue
		}
		reps = append(reps, r)
		last = r.End
		tv.Folded++
		tv.FoldedBytes += r.End - r.UnitEnd
	}
	var ms []mark
	for _, mk := range marks {
		mk.Start, mk.End = snapDown(max(0, min(mk.Start, len(text)))), snapUp(max(0, min(mk.End, len(text))))
		if mk.Start >= mk.End {
			tv.Unlocated++
			continue
		}
		ms = append(ms, mk)
	}
	cuts := []int{0, len(text)}
	blocks := blockStarts(text, reps, spans)
	cuts = append(cuts, blocks...)
	for _, r := range reps {
		cuts = append(cuts, r.Start, r.UnitEnd, r.End)
	}
	for _, mk := range ms {
		cuts = append(cuts, mk.Start, mk.End)
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].Start < ms[j].Start })

	var b strings.Builder
	b.Grow(len(text) + len(text)/4)
	var active []mark
	next, rep, span, block := 0, 0, 0, 0
	harmSeen := map[int]bool{}
	b.WriteString(`<div class="block">`)
	for k := 0; k+1 < len(cuts); k++ {
		x, y := cuts[k], cuts[k+1]
		if block < len(blocks) && x == blocks[block] {
			b.WriteString(`</div><div class="block">`)
			block++
		}
		active = slices.DeleteFunc(active, func(mk mark) bool { return mk.End <= x })
		for next < len(ms) && ms[next].Start <= x {
			if ms[next].End > x {
				active = append(active, ms[next])
			}
			next++
		}
		if rep < len(reps) && x == reps[rep].UnitEnd {
			fmt.Fprintf(&b, `<details class="repeat"><summary>repeated %s more times (%s characters folded)</summary>`,
				count(reps[rep].Copies-1), count(utf8.RuneCountInString(text[reps[rep].UnitEnd:reps[rep].End])))
		}
		open := writeMarkOpen(&b, active, harmSeen)
		span = writeProse(&b, text, x, y, spans, span, m, &tv)
		if open {
			b.WriteString(`</span>`)
		}
		if rep < len(reps) && y == reps[rep].End {
			b.WriteString(`</details>`)
			rep++
		}
	}
	b.WriteString(`</div>`)
	tv.HTML = template.HTML(b.String())
	return tv
}

// blockBytes is about how much text one block of the trace holds. A
// block is a formatting context of its own that the browser lays out
// only when it is near the screen (view.css: content-visibility), and
// KaTeX's output is costly to lay out: a 96 KB trace with 1,467 rendered
// math spans took seconds to lay out as one block, and any change to it
// (a math span rendered, a fold opened) laid all of it out again.
const blockBytes = 2048

// blockStarts are where the trace's text is cut into blocks: just after a
// line break once the block holds blockBytes, so every block starts a line
// and the text reads as one (a block's closing line break ends its last
// line, as it did inside the one block). Never inside math nor inside a
// folded repeat (a <details> stays whole in its block).
func blockStarts(text string, reps []repeat, spans []mathSpan) []int {
	var out []int
	rep := 0
	for want := blockBytes; want < len(text); {
		nl := strings.IndexByte(text[want-1:], '\n')
		if nl < 0 {
			break
		}
		p := want + nl // just after that line break
		for rep < len(reps) && reps[rep].End <= p {
			rep++
		}
		if rep < len(reps) && reps[rep].UnitEnd < p && p < reps[rep].End {
			want = reps[rep].End // the next line break after the fold
			continue
		}
		if s, ok := inside(spans, p); ok {
			want = s.End
			continue
		}
		if p >= len(text) {
			break
		}
		out = append(out, p)
		want = p + blockBytes
	}
	return out
}

// writeMarkOpen opens the highlight of a piece covered by the active marks
// (none: no element): the strongest kind, the nodes it is evidence for,
// the harmful actions it shows (the first piece of each gets its anchor:
// the element's id, or an empty element's before it when several start
// on one piece).
func writeMarkOpen(b *strings.Builder, active []mark, harmSeen map[int]bool) bool {
	if len(active) == 0 {
		return false
	}
	kind := ""
	var keys, titles []string
	var harms []string
	anchor := -1
	var extra []int // harms first seen here beyond the one the element's id names
	for _, mk := range active {
		if strength[mk.Kind] > strength[kind] {
			kind = mk.Kind
		}
		for _, k := range mk.Keys {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
		if mk.Kind == "harmful" {
			harms = append(harms, strconv.Itoa(mk.Harm))
			switch {
			case harmSeen[mk.Harm]:
			case anchor < 0:
				harmSeen[mk.Harm], anchor = true, mk.Harm
			default:
				harmSeen[mk.Harm] = true
				extra = append(extra, mk.Harm)
			}
		}
		if mk.Title != "" && !slices.Contains(titles, mk.Title) {
			titles = append(titles, mk.Title)
		}
	}
	// An element has one id: every other action starting here gets an
	// empty anchor of its own just before it, so its link has a target.
	for _, h := range extra {
		fmt.Fprintf(b, `<span id="harm-%d"></span>`, h)
	}
	b.WriteString(`<span class="ev ` + kind + `"`)
	if len(keys) > 0 {
		// A JSON list: node ids are model text, spaces and all.
		ids, _ := json.Marshal(keys)
		b.WriteString(` data-nodes="` + template.HTMLEscapeString(string(ids)) + `" tabindex="0"`)
	}
	if len(harms) > 0 {
		b.WriteString(` data-harm="` + strings.Join(harms, " ") + `"`)
	}
	if anchor >= 0 {
		fmt.Fprintf(b, ` id="harm-%d"`, anchor)
	}
	b.WriteString(` title="` + template.HTMLEscapeString(strings.Join(titles, "; ")) + `">`)
	return true
}

// writeProse writes text[x:y], escaping prose and rendering the math spans
// inside it (from spans[i] on; pieces are never cut inside math), and
// returns the first span past y.
func writeProse(b *strings.Builder, text string, x, y int, spans []mathSpan, i int, m mathRenderer, tv *textView) int {
	for x < y {
		for i < len(spans) && spans[i].End <= x {
			i++
		}
		if i >= len(spans) || spans[i].Start >= y {
			template.HTMLEscape(b, []byte(text[x:y]))
			return i
		}
		s := spans[i]
		template.HTMLEscape(b, []byte(text[x:s.Start]))
		src := text[s.Start:s.End]
		html, err := m.Render(s)
		if err != nil {
			tv.RenderFailure++
			html = template.HTML(`<code class="math-src" title="not rendered">` + template.HTMLEscapeString(src) + `</code>`)
		}
		b.WriteString(string(html))
		x = s.End
		i++
	}
	return i
}

// validSpans keeps the spans that are in order, inside the text and not
// overlapping (a renderer's spans are checked, not trusted).
func validSpans(spans []mathSpan, n int) []mathSpan {
	out := spans[:0:0]
	last := 0
	for _, s := range spans {
		if s.Start < last || s.End <= s.Start || s.End > n {
			continue
		}
		out = append(out, s)
		last = s.End
	}
	return out
}

// inside is the span that p falls strictly inside, if any.
func inside(spans []mathSpan, p int) (mathSpan, bool) {
	i := sort.Search(len(spans), func(i int) bool { return spans[i].End > p })
	if i < len(spans) && spans[i].Start < p {
		return spans[i], true
	}
	return mathSpan{}, false
}

// count writes n with thousands separators.
func count(n int) string {
	s := strconv.Itoa(n)
	if len(s) <= 3 {
		return s
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
