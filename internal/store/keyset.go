package store

import "crypto/sha256"

// KeyDigest stands for a row key in a writer's set of the keys it wrote:
// the first 16 bytes of the key's SHA-256. A writer keeps one per row until
// its table is committed, so at 10x the paper's scale (382,500 traces, two
// or three rows each in verify's and langcheck's tables) the keys
// themselves, a string and its header each, were tens of MB that grew with
// the run; a digest is 16 bytes whatever the key. Two keys share a digest
// with a probability of about n²/2¹²⁹ (1e-27 at a million rows), far
// below a disk's undetected error rate, so a duplicate is still refused
// and a replaced row still found.
type KeyDigest [16]byte

// DigestOf is key's digest: what a stage keeps of every key it has seen
// (a writer of its rows' keys, import of its traces' identities).
func DigestOf(key string) KeyDigest {
	sum := sha256.Sum256([]byte(key))
	return KeyDigest(sum[:16])
}

// keySet is the set of keys a writer has written, by digest.
type keySet map[KeyDigest]struct{}

// add adds key and reports whether it was already there.
func (s keySet) add(key string) (dup bool) {
	d := DigestOf(key)
	if _, dup = s[d]; !dup {
		s[d] = struct{}{}
	}
	return dup
}

func (s keySet) has(key string) bool {
	_, ok := s[DigestOf(key)]
	return ok
}
