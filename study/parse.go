package study

import "fmt"

// parse returns the value of vs that s names, or err wrapped with s and the
// known values.
func parse[T ~string](s string, vs []T, err error) (T, error) {
	for _, v := range vs {
		if string(v) == s {
			return v, nil
		}
	}
	return "", fmt.Errorf("%w %q (known: %v)", err, s, vs)
}

// Strings converts values of the vocabulary to the strings that configs,
// flags and table columns hold.
func Strings[T ~string](vs ...T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}
