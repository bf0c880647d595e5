package testenv

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// PolyMathGolds is every distinct gold answer of the low, medium and high
// levels of the PolyMath copy, in the languages given (in every language
// when none is given), sorted. The graders' tests check each against
// itself and against PerturbGold of it.
func PolyMathGolds(t testing.TB, langs ...string) []string {
	t.Helper()
	dir := PolyMath(t)
	if len(langs) == 0 {
		langs = []string{"*"}
	}
	seen := map[string]bool{}
	var golds []string
	for _, lang := range langs {
		for _, level := range []string{"low", "medium", "high"} {
			files, err := filepath.Glob(filepath.Join(dir, lang, level+".jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			for _, path := range files {
				for _, gold := range readGolds(t, path) {
					if !seen[gold] {
						seen[gold] = true
						golds = append(golds, gold)
					}
				}
			}
		}
	}
	slices.Sort(golds)
	return golds
}

func readGolds(t testing.TB, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var golds []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		var row struct{ Answer string }
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatalf("%s:%d: %v", path, line, err)
		}
		golds = append(golds, row.Answer)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return golds
}

var lastInt = regexp.MustCompile(`\d+`)

// PerturbGold changes a gold answer's value: its last integer goes up by
// one, or, without digits, +1 is appended.
func PerturbGold(gold string) string {
	locs := lastInt.FindAllStringIndex(gold, -1)
	if len(locs) == 0 {
		return strings.TrimSuffix(strings.TrimSpace(gold), "$") + "+1"
	}
	l := locs[len(locs)-1]
	n, _ := strconv.Atoi(gold[l[0]:l[1]])
	return gold[:l[0]] + strconv.Itoa(n+1) + gold[l[1]:]
}
