package explain

import (
	"context"
	"errors"
	"html"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
)

// writeMixedRun is writeRun's traces t1..t4, t3 and t4 of another model.
func writeMixedRun(t *testing.T) string {
	t.Helper()
	dir := writeRun(t, "t1", "t2", "t3", "t4")
	traces, err := store.ReadAll(dir, schema.Traces)
	if err != nil {
		t.Fatal(err)
	}
	for i := range traces {
		if traces[i].TraceID == "t3" || traces[i].TraceID == "t4" {
			traces[i].Model = "other"
		}
	}
	if err := store.WriteAll(dir, schema.Traces, store.Meta{}, traces); err != nil {
		t.Fatal(err)
	}
	return dir
}

var linkRE = regexp.MustCompile(`(?:href|src)="([^"]*)"`)

// links are a page's links to files (not its own anchors or data:).
func links(t *testing.T, page string) []string {
	t.Helper()
	var out []string
	for _, m := range linkRE.FindAllStringSubmatch(page, -1) {
		u := html.UnescapeString(m[1])
		if strings.HasPrefix(u, "#") || strings.HasPrefix(u, "data:") {
			continue
		}
		out = append(out, u)
	}
	return out
}

// A filter (datg view's URL parameters) exports its traces only, in the
// filter's order: each page is datg view's trace page, its previous and
// next are the set's neighbours, every link is relative and opens a file
// of the set, and the index summarizes the set.
func TestExportByFilter(t *testing.T) {
	dir := writeMixedRun(t)
	out := filepath.Join(t.TempDir(), "site")
	sum, err := Run(context.Background(), Config{Data: dir, Filter: "model=other&sort=id&desc=1", Out: out})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(out, pageName("t4")), filepath.Join(out, pageName("t3")), filepath.Join(out, "index.html")}
	if !slices.Equal(sum.Written, want) {
		t.Fatalf("wrote %v, want %v", sum.Written, want)
	}
	for _, path := range sum.Written {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		page := string(b)
		for _, l := range links(t, page) {
			u, err := url.Parse(l)
			if err != nil || u.IsAbs() || strings.HasPrefix(u.Path, "/") || u.Host != "" {
				t.Errorf("%s: link %q is not relative to the page", filepath.Base(path), l)
				continue
			}
			name, _ := url.PathUnescape(u.Path)
			if _, err := os.Stat(filepath.Join(out, name)); err != nil {
				t.Errorf("%s: link %q opens nothing: %v", filepath.Base(path), l, err)
			}
		}
		if strings.Contains(page, pageName("t1")) || strings.Contains(page, pageName("t2")) {
			t.Errorf("%s links a trace outside the filter", filepath.Base(path))
		}
	}
	first, _ := os.ReadFile(want[0])
	for _, w := range []string{`<h1 class="trace-id">t4</h1>`, `rel="next" id="next"`, `href="./` + pageName("t3") + `"`, `href="./index.html" rel="up"`, "trace 1 of 2"} {
		if !strings.Contains(string(first), w) {
			t.Errorf("t4's page lacks %s", w)
		}
	}
	index, _ := os.ReadFile(want[2])
	if !strings.Contains(string(index), "n = 2.") || !strings.Contains(string(index), "model=other") {
		t.Errorf("the index does not summarize the filter's 2 traces:\n%s", index)
	}

	// A list of ids exports those, in their order.
	sum, err = Run(context.Background(), Config{Data: dir, IDs: []string{"t2", "t1"}, Out: filepath.Join(t.TempDir(), "ids")})
	if err != nil || len(sum.Written) != 3 || filepath.Base(sum.Written[0]) != pageName("t2") {
		t.Fatalf("by ids: %v, %v", sum.Written, err)
	}
	if _, err := Run(context.Background(), Config{Data: dir, IDs: []string{"t1", "nope"}, Out: t.TempDir()}); !errors.Is(err, ErrNoTrace) {
		t.Errorf("an unknown id in the list: %v", err)
	}
	if _, err := Run(context.Background(), Config{Data: dir, Filter: "model=nosuch", Out: t.TempDir()}); !errors.Is(err, ErrNoTraces) {
		t.Errorf("a filter matching nothing: %v", err)
	}
	if _, err := Run(context.Background(), Config{Data: dir, Filter: "per=0", Out: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "per") {
		t.Errorf("a bad filter: %v", err)
	}
}
