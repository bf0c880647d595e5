// Package utf8lead holds the tables that decode and validate UTF-8 a byte
// class at a time: the grader's rune decoder (transforms/mathverify) and
// answers check's JSON reader (pipelines/verify) read texts of hundreds of
// KB through them, where utf8.DecodeRune's call per rune shows.
package utf8lead

// Lead is, for each byte that leads a well-formed UTF-8 sequence of two
// to four bytes, its length (the low three bits) and which of Second
// bounds the sequence's second byte (the high four); 0 for every other
// byte. Those bounds rule out overlong forms, surrogates and runes past
// U+10FFFF, as utf8.DecodeRune and utf8.Valid do.
var Lead = func() (t [256]uint8) {
	for c := 0xc2; c <= 0xdf; c++ {
		t[c] = 1<<4 | 2
	}
	for c := 0xe0; c <= 0xef; c++ {
		t[c] = 1<<4 | 3
	}
	t[0xe0], t[0xed] = 2<<4|3, 3<<4|3
	for c := 0xf0; c <= 0xf4; c++ {
		t[c] = 1<<4 | 4
	}
	t[0xf0], t[0xf4] = 4<<4|4, 5<<4|4
	return t
}()

// Second are the bounds of a sequence's second byte, by its lead (Lead's
// high four bits; the first is unused). Every later byte is a
// continuation byte, 0x80 to 0xbf. Sixteen entries, the unused ones
// empty, so that indexing by a byte's high four bits needs no bounds
// check.
var Second = [16]struct{ Lo, Hi byte }{{}, {0x80, 0xbf}, {0xa0, 0xbf}, {0x80, 0x9f}, {0x90, 0xbf}, {0x80, 0x8f}}
