package jsonstr

import (
	"encoding/json"
	"testing"
)

// TestByByteIsJSON: where ByByte reads a string, encoding/json reads the
// same one, ending at the same byte; and it refuses what the fast readers
// must leave to encoding/json or to an error.
func TestByByteIsJSON(t *testing.T) {
	for _, c := range []struct {
		in string
		ok bool
	}{
		{`"plain"`, true},
		{`""`, true},
		{`"a\"b\\c\/d\be\ff\ng\rh\ti"`, true},
		{`"é中😀 $\\boxed{1}$"`, true},
		{`"x",`, true},
		{`"\u00e9"`, false}, // a \u escape: encoding/json's
		{`"\q"`, false},
		{`"\`, false},
		{`"open`, false},
		{"\"a\x00b\"", false},
		{"\"a\x1fb\"", false},
		{"\"\xc3\"", false},
		{"\"\xed\xa0\x80\"", false},
		{"\"\xf5\x80\x80\x80\"", false},
		{`x"a"`, false},
	} {
		s, next, ok := ByByte([]byte(c.in), 0)
		if ok != c.ok {
			t.Errorf("ByByte(%q) ok = %v, want %v", c.in, ok, c.ok)
			continue
		}
		if !ok {
			continue
		}
		var want string
		if err := json.Unmarshal([]byte(c.in[:next]), &want); err != nil || s != want {
			t.Errorf("ByByte(%q) = %q to %d; encoding/json: %q, %v", c.in, s, next, want, err)
		}
	}
}
