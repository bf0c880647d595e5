package explain

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/outdir"
)

var (
	traceLinkRE = regexp.MustCompile(`class="trace-link">([^<]*)</a>`)
	upRE        = regexp.MustCompile(`<a href="([^"]*)" rel="up">`)
	pagerRE     = regexp.MustCompile(`<a href="([^"]*)" rel="(first|prev|next|last)">`)
)

// A set larger than IndexPer has an index in pages: index.html lists the
// first IndexPer traces, index-2.html the next, each with the whole set's
// heading and links to the first, previous, next and last pages; each
// trace's page goes back to the index page that lists it; every link opens
// a file of the set. Written again with fewer pages, the pages no longer
// needed go; a user's own index-2.html is refused by name, not replaced.
func TestIndexIsPagedAtIndexPer(t *testing.T) {
	ids := []string{"t5", "t1", "t7", "t3", "t2", "t6", "t4"}
	dir := writeRun(t, ids...)
	out := filepath.Join(t.TempDir(), "site")
	sum, err := Run(context.Background(), Config{Data: dir, IDs: ids, Out: out, IndexPer: 3})
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"index.html", "index-2.html", "index-3.html"}
	if sum.Indexes != 3 || sum.Index != filepath.Join(out, "index.html") || len(sum.Written) != len(ids)+3 {
		t.Fatalf("summary: %d index pages from %s, %d files", sum.Indexes, sum.Index, len(sum.Written))
	}
	for i, name := range names {
		if got := sum.Written[len(ids)+i]; got != filepath.Join(out, name) {
			t.Errorf("written %d: %s, want %s", len(ids)+i, got, name)
		}
	}
	read := func(name string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	var listed []string
	for p, name := range names {
		page := read(name)
		var here []string
		for _, m := range traceLinkRE.FindAllStringSubmatch(page, -1) {
			here = append(here, m[1])
		}
		if want := ids[p*3 : min(len(ids), p*3+3)]; !slices.Equal(here, want) {
			t.Errorf("%s lists %v, want %v", name, here, want)
		}
		listed = append(listed, here...)
		if !strings.Contains(page, "<h1>7 traces</h1>") || !strings.Contains(page, fmt.Sprintf("page %d of 3", p+1)) {
			t.Errorf("%s: no heading of the whole set or no page number", name)
		}
		rel := map[string]string{}
		for _, m := range pagerRE.FindAllStringSubmatch(page, -1) {
			rel[m[2]] = m[1]
		}
		want := map[string]string{}
		if p > 0 {
			want["first"], want["prev"] = "./index.html", "./"+names[p-1]
		}
		if p < 2 {
			want["next"], want["last"] = "./"+names[p+1], "./index-3.html"
		}
		if fmt.Sprint(rel) != fmt.Sprint(want) {
			t.Errorf("%s links %v, want %v", name, rel, want)
		}
		for _, u := range links(t, page) {
			if _, err := os.Stat(filepath.Join(out, strings.TrimPrefix(strings.SplitN(u, "?", 2)[0], "./"))); err != nil {
				t.Errorf("%s links %s: %v", name, u, err)
			}
		}
	}
	if !slices.Equal(listed, ids) {
		t.Errorf("the index pages list %v, want every trace once, in order: %v", listed, ids)
	}
	for k, id := range ids {
		m := upRE.FindStringSubmatch(read(pageName(id)))
		if want := "./" + names[k/3]; m == nil || m[1] != want {
			t.Errorf("%s's page goes back to %v, want %s", id, m, want)
		}
	}

	// One page now: index-2.html and index-3.html, datg's, go.
	sum, err = Run(context.Background(), Config{Data: dir, IDs: ids, Out: out})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Indexes != 1 || strings.Contains(read("index.html"), `rel="next"`) || len(traceLinkRE.FindAllString(read("index.html"), -1)) != len(ids) {
		t.Errorf("with the default, %d index pages; index.html: %d links", sum.Indexes, len(traceLinkRE.FindAllString(read("index.html"), -1)))
	}
	for _, name := range names[1:] {
		if _, err := os.Lstat(filepath.Join(out, name)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s is left: %v", name, err)
		}
	}

	// The user's own index-2.html: refused by name, kept as it was.
	mine := filepath.Join(out, "index-2.html")
	if err := os.WriteFile(mine, []byte("<h1>my notes</h1>"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), Config{Data: dir, IDs: ids, Out: out, IndexPer: 3})
	if !errors.Is(err, outdir.ErrNotOurs) || !strings.Contains(err.Error(), mine) {
		t.Errorf("over the user's index-2.html: %v, want ErrNotOurs naming it", err)
	}
	if b, err := os.ReadFile(mine); err != nil || string(b) != "<h1>my notes</h1>" {
		t.Errorf("the user's index-2.html: %q, %v", b, err)
	}

	if err := (Config{Data: dir, IndexPer: -1}).Validate(); !errors.Is(err, inputerr.ErrInvalidConfig) || !strings.Contains(err.Error(), "index-per") {
		t.Errorf("IndexPer -1: %v", err)
	}
}
