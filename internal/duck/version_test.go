package duck

import (
	"context"
	"regexp"
	"testing"
)

// Version is DuckDB's own answer, the one `SELECT version()` gives (DuckDB's
// documented utility function), with the source id.
func TestVersion(t *testing.T) {
	got, err := Version(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	db := open(t, t.TempDir())
	var want string
	if err := db.QueryRow("SELECT version()").Scan(&want); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^`+regexp.QuoteMeta(want)+` \([0-9a-f]{7,}\)$`).MatchString(got) || !regexp.MustCompile(`^v\d+\.\d+\.\d+`).MatchString(want) {
		t.Fatalf("Version() = %q; SELECT version() = %q", got, want)
	}
}

func BenchmarkVersion(b *testing.B) {
	for b.Loop() {
		if _, err := Version(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}
