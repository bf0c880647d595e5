package answer

import "testing"

// A function name glued to its argument is read as the longest name that
// fits, every time: "\coshx" is cosh(x), never cos(h x). Map order once
// decided it, so each case is read many times.
func TestGluedFunctionLongestName(t *testing.T) {
	cases := []struct{ glued, spaced string }{
		{`\coshx`, `\cosh x`},
		{`\sinhx`, `\sinh x`},
		{`\tanhx`, `\tanh x`},
		{`\cothx`, `\coth x`},
		{`coshx`, `\cosh(x)`},
		{`sinhx`, `\sinh(x)`},
		{`\cosecx`, `\csc x`},
	}
	for _, c := range cases {
		want := Parse(c.spaced)
		if want.Err != nil {
			t.Fatalf("%s: %v", c.spaced, want.Err)
		}
		for i := 0; i < 64; i++ {
			if ok, _ := Equal(want, Parse(c.glued)); !ok {
				t.Fatalf("read %d of %s is not %s", i, c.glued, c.spaced)
			}
		}
	}
}
