package datg

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestEdgeKey(t *testing.T) {
	for _, c := range []struct {
		edge Edge
		key  string
	}{
		{Edge{"n1", "n2"}, "n1>n2"}, // the old form, unchanged for ids without > or \
		{Edge{"a", "b>c"}, `a>b\>c`},
		{Edge{"a>b", "c"}, `a\>b>c`},
		{Edge{`x\`, "y"}, `x\\>y`},
		{Edge{`\>`, `>\`}, `\\\>>\>\\`},
		{Edge{"", ""}, ">"},
	} {
		if got := c.edge.Key(); got != c.key {
			t.Errorf("%+v.Key() = %q, want %q", c.edge, got, c.key)
		}
		if got, err := ParseEdgeKey(c.key); err != nil || got != c.edge {
			t.Errorf("ParseEdgeKey(%q) = %+v, %v; want %+v", c.key, got, err, c.edge)
		}
	}
	for _, bad := range []string{"n1", "a>b>c", `a\b>c`, `a>b\`, ""} {
		if _, err := ParseEdgeKey(bad); !errors.Is(err, ErrEdgeKey) {
			t.Errorf("ParseEdgeKey(%q): %v, want ErrEdgeKey", bad, err)
		}
	}
	want := []Edge{{"a", "b>c"}, {"a>b", "c"}}
	if diff := cmp.Diff(want, LegacyEdgeKeyReadings("a>b>c")); diff != "" {
		t.Errorf("old readings of a>b>c (-want +got):\n%s", diff)
	}
}

// Two edges never share a key: ParseEdgeKey inverts Key for any ids.
func FuzzEdgeKey(f *testing.F) {
	f.Add("a", "b>c")
	f.Add("a>b", "c")
	f.Add(`\`, `\>>`)
	f.Fuzz(func(t *testing.T, parent, child string) {
		e := Edge{parent, child}
		got, err := ParseEdgeKey(e.Key())
		if err != nil || got != e {
			t.Fatalf("ParseEdgeKey(%q) = %+v, %v; want %+v", e.Key(), got, err, e)
		}
	})
}
