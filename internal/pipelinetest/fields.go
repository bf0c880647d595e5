package pipelinetest

import "testing"

// Check is one field of a row, as a test found it and as it should be.
type Check struct {
	name      string
	got, want any
}

// Field makes a Check of the field name. got and want are of one type, so
// a check cannot fail for comparing an int32 column with an int, or a
// string column with a typed study constant (convert it: string(...)).
func Field[T comparable](name string, got, want T) Check { return Check{name, got, want} }

// CheckFields reports each field of what (a row, a summary) that differs,
// naming it, instead of printing the whole row: a failure says which field
// was wrong. It reports whether every field matched.
func CheckFields(tb testing.TB, what string, checks ...Check) bool {
	tb.Helper()
	ok := true
	for _, c := range checks {
		if c.got != c.want {
			tb.Errorf("%s: %s %v, want %v", what, c.name, c.got, c.want)
			ok = false
		}
	}
	return ok
}
