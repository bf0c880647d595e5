package mathverify

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

// The lexer's, normalize's and the parser's tables built on first use are
// the ones a fresh build gives.
func TestLazyTablesEqualFresh(t *testing.T) {
	if got, want := lexByFirst(), indexLexEntries(); !reflect.DeepEqual(got, want) {
		t.Errorf("lexByFirst: %d first runes, a fresh index %d, or their entries differ", len(got), len(want))
	}
	if got, want := trailingUnits(), buildUnitWords(); !reflect.DeepEqual(got, want) {
		t.Errorf("trailingUnits: %d words (longest %d runes), fresh %d (%d)", len(got.set), got.maxRunes, len(want.set), want.maxRunes)
	}
	// What they were when built at init: every unit, "s" and "es" added.
	w := trailingUnits()
	for _, u := range units {
		if !w.set[u] || !w.set[u+"s"] || !w.set[u+"es"] {
			t.Errorf("unit %q or a plural of it is missing", u)
		}
	}
	if len(w.set) > 3*len(units) || w.maxRunes < len("no change") {
		t.Errorf("%d unit words, longest %d runes", len(w.set), w.maxRunes)
	}
	greek := greekNames()
	for i := 0; i+1 < len(greekLetters); i += 2 {
		name := strings.TrimPrefix(greekLetters[i], `\`)
		if greek[greekLetters[i]] != name || greek[greekLetters[i+1]] != name {
			t.Errorf("greekNames: %q and %q are not %q", greekLetters[i], greekLetters[i+1], name)
		}
	}
	if len(greek) > len(greekLetters)+6 {
		t.Errorf("greekNames: %d names", len(greek))
	}
}

// The patterns compiled on first use (allPatterns, normalize's) are the
// ones a fresh compilation gives, instruction by instruction: being lazy
// changed when they are built, not what.
func TestLazyPatternsEqualFresh(t *testing.T) {
	fresh := sortedPatterns()
	lazy := allPatterns()
	if len(fresh) != len(lazy) {
		t.Fatalf("%d patterns compiled lazily, %d fresh", len(lazy), len(fresh))
	}
	for i := range fresh {
		f, l := fresh[i], lazy[i]
		if f.where != l.where || f.priority != l.priority || f.target != l.target {
			t.Fatalf("pattern %d: lazily %s/%d/%d, fresh %s/%d/%d", i, l.where, l.priority, l.target, f.where, f.priority, f.target)
		}
		comparePatterns(t, fmt.Sprintf("pattern %d (%s, %d)", i, f.where, f.priority), f.p, l.p)
	}
	for name, pair := range map[string][2]*pattern{
		"left":        {sizedDelim("left", leftDelims), reLeft()},
		"right":       {sizedDelim("right", rightDelims), reRight()},
		"permutation": {buildPermutation(), rePermutation()},
		"toRemove":    {buildToRemove(), reToRemove()},
		"replace":     {buildReplace(), reReplace()},
		"unitSup":     {buildUnitSup(), reUnitSup()},
	} {
		comparePatterns(t, name, pair[0], pair[1])
	}
	freshFixes, lazyFixes := buildMalformed(), reMalformed()
	if len(freshFixes) != len(lazyFixes) {
		t.Fatalf("%d malformed fixes lazily, %d fresh", len(lazyFixes), len(freshFixes))
	}
	for i := range freshFixes {
		if freshFixes[i].need != lazyFixes[i].need {
			t.Errorf("malformed fix %d needs %q lazily, %q fresh", i, lazyFixes[i].need, freshFixes[i].need)
		}
		comparePatterns(t, fmt.Sprintf("malformed fix %d", i), freshFixes[i].p, lazyFixes[i].p)
	}
}

// Every program's instructions were allocated at once: instCount counts
// exactly what emit adds. An instruction is 96 bytes (the one-byte fields
// together).
func TestProgramsAllocatedAtOnce(t *testing.T) {
	if size := unsafe.Sizeof(inst{}); size > 96 {
		t.Errorf("an instruction is %d bytes", size)
	}
	var check func(name string, p *program)
	check = func(name string, p *program) {
		if len(p.insts) != cap(p.insts) {
			t.Errorf("%s: %d instructions in a slice of %d", name, len(p.insts), cap(p.insts))
		}
		for pc, in := range p.insts {
			if in.sub != nil {
				check(fmt.Sprintf("%s, the lookahead at %d", name, pc), in.sub)
			}
		}
	}
	for i, p := range everyPattern() {
		check(fmt.Sprintf("pattern %d", i), p.prog)
	}
}

func comparePatterns(t *testing.T, name string, want, got *pattern) {
	t.Helper()
	if w, g := strings.Join(want.names, ","), strings.Join(got.names, ","); w != g {
		t.Errorf("%s: groups %s, want %s", name, g, w)
	}
	if (want.first == nil) != (got.first == nil) || (want.direct == nil) != (got.direct == nil) ||
		(want.starts == nil) != (got.starts == nil) || (want.startsIn == nil) != (got.startsIn == nil) ||
		(want.key == nil) != (got.key == nil) || want.keyWindow != got.keyWindow || string(want.word) != string(got.word) {
		t.Errorf("%s: its searches differ", name)
	}
	if want.first != nil && got.first != nil && dumpRuneSet(want.first) != dumpRuneSet(got.first) {
		t.Errorf("%s: first runes differ", name)
	}
	if want.key != nil && got.key != nil && dumpRuneSet(want.key) != dumpRuneSet(got.key) {
		t.Errorf("%s: keys differ", name)
	}
	if w, g := dumpProgram(want.prog), dumpProgram(got.prog); w != g {
		t.Errorf("%s: programs differ:\n%s\nwant\n%s", name, g, w)
	}
}

// probeRunes are the runes a class is read on to compare two of them:
// every ASCII rune and some of every kind the patterns tell apart.
var probeRunes = func() []rune {
	var rs []rune
	for r := rune(0); r < 128; r++ {
		rs = append(rs, r)
	}
	return append(rs, []rune("\u00a0\u2009\u3000éßΩπ≤≥−×÷√∞٣३१二二十答答案€£¥\u0301\ufeff\U0001d465")...)
}()

// dumpRuneSet writes a rune set out: its ASCII runes, its verdicts on the
// other probeRunes, its flags.
func dumpRuneSet(s *runeSet) string {
	var b strings.Builder
	for _, r := range probeRunes {
		in := false
		if r < utf8RuneSelf {
			in = s.ascii[r]
		} else if s.other != nil {
			in = s.other(r)
		}
		if in {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
	fmt.Fprintf(&b, " other %t all %t sparse %t planes %d", s.other != nil, s.all, s.sparse, s.planes)
	return b.String()
}

// dumpProgram writes a program out instruction by instruction, a class as
// its verdicts on probeRunes.
func dumpProgram(p *program) string {
	var b strings.Builder
	fmt.Fprintf(&b, "start %d memos %d looks %d\n", p.start, p.memos, p.looks)
	classOf := func(fn func(rune) bool) string {
		if fn == nil {
			return "-"
		}
		var c strings.Builder
		for _, r := range probeRunes {
			if fn(r) {
				c.WriteByte('1')
			} else {
				c.WriteByte('0')
			}
		}
		return c.String()
	}
	for pc, in := range p.insts {
		fmt.Fprintf(&b, "%d: op %d next %d alt %d class %s wide %d lit %q fold %t slot %d memo %d look %d lazy %t",
			pc, in.op, in.next, in.alt, classOf(in.class), in.wide, string(in.lit), in.fold, in.slot, in.memo, in.look, in.lazy)
		if in.scan != nil {
			fmt.Fprintf(&b, " scan %s", dumpRuneSet(&in.scan.stop))
		}
		if in.sub != nil {
			fmt.Fprintf(&b, " sub {\n%s}", dumpProgram(in.sub))
		}
		b.WriteByte('\n')
	}
	return b.String()
}
