package view

import (
	"reflect"
	"testing"
)

// A URL's query is outside text: any of it is read or refused, never a
// panic, and a filter read from a URL is written back to a URL that reads
// as the same filter (so a shared link keeps its state).
func FuzzParseFilter(f *testing.F) {
	for _, s := range []string{"", "model=m&model=n&direction=en-x", "car_min=0.2&car_max=0.4&sort=har&desc=1&page=3&per=25",
		"q=%25_&problem=low-1&aligner=-", "page=0", "sort=;DROP", "car_min=NaN", "%zz", "a=1;b=2", "per=500&page=2147483647"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := queryOf(raw)
		if err != nil {
			return
		}
		got, err := parseFilter(q)
		if err != nil {
			return
		}
		back, err := queryOf(got.Query().Encode())
		if err != nil {
			t.Fatalf("%q: the filter's own URL does not parse: %v", raw, err)
		}
		again, err := parseFilter(back)
		if err != nil {
			t.Fatalf("%q: the filter's own URL is refused: %v", raw, err)
		}
		if !reflect.DeepEqual(got, again) {
			t.Fatalf("%q: round trip\n%+v\n%+v", raw, got, again)
		}
	})
}
