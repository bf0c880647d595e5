package langdetect

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"
)

// TestParseProfileIsEncodingJSON reads every embedded profile with
// parseProfile and with encoding/json (as buildModel did before): the same
// name, n_words and grams of 1 to 3 characters with their counts, each
// gram once.
func TestParseProfileIsEncodingJSON(t *testing.T) {
	files, err := profileFiles.ReadDir("profiles")
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, f := range files {
		name := "profiles/" + f.Name()
		data, err := gunzipProfile(profileFiles, name)
		if err != nil {
			t.Fatal(err)
		}
		p, err := parseProfile(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := sameAsJSON(p, data); err != "" {
			t.Fatalf("%s: %s", name, err)
		}
		total += len(p.grams)
	}
	if total < 150_000 {
		t.Fatalf("%d grams in %d profiles", total, len(files))
	}
}

// sameAsJSON compares a parsed profile with encoding/json's reading of
// data; it returns what differs ("" when nothing does).
func sameAsJSON(p *parsedProfile, data []byte) string {
	var want profileJSON
	if err := json.Unmarshal(data, &want); err != nil {
		return "encoding/json: " + err.Error()
	}
	if p.name != want.Name {
		return "name " + p.name + ", encoding/json " + want.Name
	}
	if !slices.Equal(p.nWords, want.NWords) || (p.nWords == nil) != (want.NWords == nil) {
		return "n_words differ"
	}
	wantGrams := map[string]int64{}
	for w, n := range want.Freq {
		if c := utf8.RuneCountInString(w); c >= 1 && c <= 3 {
			wantGrams[w] = n
		}
	}
	got := map[string]int64{}
	for _, g := range p.grams {
		rs := unpackGram(g.gram)
		if len(rs) != g.runes || packGram(rs) != g.gram {
			return "a gram packs badly: " + string(rs)
		}
		if _, twice := got[string(rs)]; twice {
			return "gram " + string(rs) + " twice"
		}
		got[string(rs)] = g.freq
	}
	if !maps.Equal(got, wantGrams) {
		return "the grams differ"
	}
	return ""
}

// profileSeeds are profiles of every shape parseProfile reads or rejects.
var profileSeeds = []string{
	`{"freq":{"a":1,"ab":2,"abc":3,"abcd":4},"n_words":[1,2,3],"name":"xx"}`,
	` { "name" : "xx" , "n_words" : [ 0 , -1 ] , "freq" : { } } `,
	`{"freq":{"\u0061":5,"\"":1,"\\x":2,"é":3,"\ud83d\ude00":4},"n_words":[],"name":"\u0078"}`,
	"{\"freq\":{\"\xff\":1,\"a\xffb\":2},\"name\":\"\xfe\"}",
	`{"freq":{"a\u0000":1,"a":2},"name":"x"}`,
	`{"freq":{"a":01},"name":"x"}`,
	`{"freq":{"a":1.0},"name":"x"}`,
	`{"freq":{"a":1e3},"name":"x"}`,
	`{"freq":{"a":-0},"name":"x"}`,
	`{"freq":{"a":9223372036854775808},"name":"x"}`,
	`{"freq":{"a":1,"a":2},"name":"x"}`,
	`{"freq":{"a":1},"name":"x","name":"y"}`,
	`{"freq":{"a":1},"Name":"x"}`,
	`{"freq":{"a":1},"other":1}`,
	`{"freq":null,"name":"x"}`,
	`{"freq":{"a":1},"name":"x"} x`,
	`{"freq":{"a":1,},"name":"x"}`,
	`{"name":"a\tb"}`,
	"{\"name\":\"a\tb\"}",
	`{"name":"a\qb"}`,
	`{}`,
	`{"n_words":[1,2,3]}`,
}

// FuzzParseProfile: whatever parseProfile accepts, encoding/json reads
// the same (parseProfile may refuse what encoding/json would accept, such as
// a member it does not know).
func FuzzParseProfile(f *testing.F) {
	for _, s := range profileSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := parseProfile(data)
		if err != nil {
			return
		}
		if diff := sameAsJSONAllowingDuplicates(p, data); diff != "" {
			t.Fatalf("%q: %s", data, diff)
		}
	})
}

// TestParseProfileSeeds checks the seeds: parseProfile reads those it
// accepts as encoding/json does, and accepts those it must.
func TestParseProfileSeeds(t *testing.T) {
	accepted := 0
	for _, s := range profileSeeds {
		p, err := parseProfile([]byte(s))
		if err != nil {
			continue
		}
		accepted++
		if diff := sameAsJSONAllowingDuplicates(p, []byte(s)); diff != "" {
			t.Errorf("%q: %s", s, diff)
		}
	}
	// The first five are profiles (escapes, invalid UTF-8, U+0000); -0, a
	// gram given twice (which buildModel refuses), an escaped tab, {} and a
	// profile of n_words alone parse too.
	if accepted != 10 {
		t.Errorf("%d of the seeds parsed, want 10", accepted)
	}
}

// sameAsJSONAllowingDuplicates is sameAsJSON where a gram given twice is
// read as encoding/json reads it: the last one counts.
func sameAsJSONAllowingDuplicates(p *parsedProfile, data []byte) string {
	last := map[uint64]int{}
	for i, g := range p.grams {
		last[g.gram] = i
	}
	q := *p
	q.grams = nil
	for i, g := range p.grams {
		if last[g.gram] == i {
			q.grams = append(q.grams, g)
		}
	}
	return sameAsJSON(&q, data)
}

// TestBuildModelRefusesBadProfiles: a profile listing a gram twice
// (encoding/json kept the last count silently), a count below 0, a gram
// without its n_words, or a profile named for another language is bad
// data, named with its file.
func TestBuildModelRefusesBadProfiles(t *testing.T) {
	good := `{"freq":{"a":1,"ab":2},"n_words":[1,1,1],"name":"yy"}`
	for _, bad := range []string{
		`{"freq":{"a":1,"\u0061":2},"n_words":[1,1,1],"name":"xx"}`,
		`{"freq":{"a":-1},"n_words":[1,1,1],"name":"xx"}`,
		`{"freq":{"abc":1},"n_words":[1,1],"name":"xx"}`,
		`{"freq":{"ab":1},"n_words":[1,0,1],"name":"xx"}`,
		`{"freq":{"a":1},"n_words":[1,1,1],"name":"zz"}`,
		`{"freq":{"a":1},"n_words":[1,1,1],"name":"xx"`,
	} {
		files := fstest.MapFS{"profiles/xx.json.gz": gzipped(t, bad), "profiles/yy.json.gz": gzipped(t, good)}
		_, err := buildModelFrom(files)
		if !errors.Is(err, ErrBadProfile) || !strings.Contains(err.Error(), "profiles/xx.json.gz") {
			t.Errorf("%s: %v", bad, err)
		}
	}
	files := fstest.MapFS{"profiles/xx.json.gz": gzipped(t, strings.ReplaceAll(good, "yy", "xx")), "profiles/yy.json.gz": gzipped(t, good)}
	if _, err := buildModelFrom(files); err != nil {
		t.Fatal(err)
	}
}

func gzipped(t *testing.T, s string) *fstest.MapFile {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return &fstest.MapFile{Data: b.Bytes()}
}

// TestModelHoldsEveryGramsEntries compares the model's grams with the
// reference's (read by encoding/json), the grams no text can reach
// included: the same entries for each gram, as a multiset of entry lists
// (ids differ: the reference numbers grams in map order), and the dense
// grams exactly those held by denseMinLangs languages or more.
func TestModelHoldsEveryGramsEntries(t *testing.T) {
	d, rm := newBoth(t, Options{})
	m := d.m
	lists := func(start []int32, entries []entry) map[string]int {
		out := map[string]int{}
		for g := range len(start) - 1 {
			out[fmt.Sprint(entries[start[g]:start[g+1]])]++
		}
		return out
	}
	if got, want := lists(m.start, m.entries), lists(rm.start, rm.entries); !maps.Equal(got, want) {
		t.Fatalf("the grams' entries differ from the reference's (%d and %d distinct lists)", len(got), len(want))
	}
	for g := range int32(len(m.start) - 1) {
		if dense := m.start[g+1]-m.start[g] >= denseMinLangs; dense != (g < m.nDense) {
			t.Fatalf("gram %d of %d entries: dense %v, below nDense (%d) %v", g, m.start[g+1]-m.start[g], dense, m.nDense, g < m.nDense)
		}
	}
}
