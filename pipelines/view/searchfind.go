package view

import "bytes"

// A candidate's window is searched for the folded query by the query's
// rarest byte in this generation's texts, not by its first: bytes.Index
// looks for the first byte (IndexByte) and compares at each one, so a
// query starting with a common letter ("the answer", "let", `\boxed{`)
// stops every few bytes, while the query's rarest byte ("w", "x", "{")
// lets IndexByte run over tens to hundreds of bytes at a time. Each
// place the rare byte is found is a start to compare at; the second
// rarest byte is compared before the whole query.

// byteCounts are how many times each byte was seen in a sample of the
// texts: the first sampleBytes of each piece the checksum pass reads (a
// MB), so a sample spread over the whole file at no extra read.
type byteCounts [256]uint32

const sampleBytes = 4 << 10

func (c *byteCounts) sample(b []byte) {
	for _, v := range b[:min(len(b), sampleBytes)] {
		c[v]++
	}
}

// finder finds one folded query in windows of text.
type finder struct {
	q         []byte
	rare, alt int // where q's rarest byte is, and its second rarest (another place; = rare when q is 1 byte)
}

// newFinder is q's finder by the counts c (rarest first; of equals, the
// later in q, as it ends a compare earlier at no cost).
func newFinder(q []byte, c *byteCounts) finder {
	f := finder{q: q}
	for i := range q {
		if c[q[i]] <= c[q[f.rare]] {
			f.rare = i
		}
	}
	f.alt = f.rare
	for i := range q {
		if i != f.rare && (f.alt == f.rare || c[q[i]] <= c[q[f.alt]]) {
			f.alt = i
		}
	}
	return f
}

// in reports whether s holds q: bytes.Contains(s, q), found by q's rarest
// byte. Like bytes.Index it turns to bytes.Index once the rare byte's
// places fail more than one in eight bytes searched (a rare byte that is
// common in s; q long and s repetitive), so its worst case is
// bytes.Index's.
func (f *finder) in(s []byte) bool {
	m := len(f.q)
	if m == 0 {
		return true
	}
	if len(s) < m {
		return false
	}
	rb := f.q[f.rare]
	last := len(s) - m + f.rare // the last place the rare byte of a match can be
	fails := 0
	for i := f.rare; i <= last; {
		j := bytes.IndexByte(s[i:last+1], rb)
		if j < 0 {
			return false
		}
		i += j
		at := i - f.rare
		if s[at+f.alt] == f.q[f.alt] && bytes.Equal(s[at:at+m], f.q) {
			return true
		}
		i++
		if fails++; fails > (i+16)/8 {
			// Every start before i-f.rare is ruled out.
			return bytes.Index(s[i-f.rare:], f.q) >= 0
		}
	}
	return false
}
