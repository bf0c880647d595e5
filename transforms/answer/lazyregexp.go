package answer

import (
	"regexp"
	"sync"
)

// lazyRegexp is a regular expression compiled on first use, not at init:
// this package's 26 took 270 KB and 2,000 allocations at the start of
// every datg process, though only the multilingual grader uses them. A
// bad expression panics on first use, as regexp.MustCompile did at init:
// TestEveryRegexpCompiles compiles every one (lazyRegexps).
func lazyRegexp(expr string) func() *regexp.Regexp {
	re := sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
	lazyRegexps = append(lazyRegexps, re)
	return re
}

// lazyRegexps is every lazyRegexp of the package.
var lazyRegexps []func() *regexp.Regexp
