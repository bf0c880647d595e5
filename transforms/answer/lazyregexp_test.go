package answer

import (
	"regexp"
	"testing"
)

// Every regular expression compiled on first use compiles, and is the
// one regexp.MustCompile gives for its expression (what it was at init).
func TestEveryRegexpCompiles(t *testing.T) {
	if len(lazyRegexps) < 26 {
		t.Fatalf("%d lazy regular expressions, want the package's 26", len(lazyRegexps))
	}
	for i, re := range lazyRegexps {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("regular expression %d does not compile: %v", i, r)
				}
			}()
			got := re()
			if want := regexp.MustCompile(got.String()); got.String() != want.String() || got.NumSubexp() != want.NumSubexp() {
				t.Errorf("regular expression %d: %s", i, got)
			}
			if re() != got {
				t.Errorf("regular expression %d compiled twice", i)
			}
		}()
	}
	if got := textCmdPrefixRe().String(); got != "^"+textCmdRe().String() {
		t.Errorf("textCmdPrefixRe is %s", got)
	}
}
