// Package lingua is lingua-go's low-accuracy language detector (v1.4.0,
// github.com/pemistahl/lingua-go) re-implemented for the study's twelve
// languages, with the same decisions and about 100 times less work.
//
// lingua-go decides a text's language in three steps: rules (a word in a
// script only one language uses counts for it; a script shared by Chinese
// and Japanese goes by its characters), a filter (the languages of the
// text's most frequent script, narrowed by characters few languages use),
// then, when more than one language is left, sums of the logarithms of
// trigram probabilities (falling back to the bigram, then the unigram, of
// each trigram's first letters) compared through a softmax computed with
// arbitrary-precision decimals. This package follows the same steps on the
// same model files (embedded from lingua-go, see models/NOTICE), but reads
// the text once as runes, keeps the models in one hash table keyed by the
// n-gram's runes packed in an integer (one look-up gives every language's
// logarithm, computed once at load), and decides the softmax's winner from
// the sums alone, which is exact except when the two best sums are within
// the rounding of floating-point summation or the exponent of the best is
// subnormal; only then are lingua-go's decimals computed (see decide.go).
//
// Where lingua-go's own answer depends on Go's random map iteration order
// (two scripts equally frequent behind a third; two sums equal up to the
// order in which floating-point terms are added), it is not deterministic;
// this package then gives one of the answers lingua-go can give, always the
// same, and Detection.Ambiguous says so.
package lingua
