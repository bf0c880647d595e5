package duck

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// DuckDB's errors at its limits, as datg sql got them from DuckDB 1.4.1
// (the out-of-space one on a full 341 MB tmpfs), become one line naming
// the limit, without DuckDB's advice.
func TestLimitErrorsAreOneLine(t *testing.T) {
	db := &DB{Limits: Limits{MemoryLimit: 50_000_000, MaxTemp: 100_000_000}, tempDir: &privateDir{path: "/tmp/datg-duckdb-1"}}
	const advice = "\n\nPossible solutions:\n* Reducing the number of threads (SET threads=X)\n* Disabling insertion-order preservation (SET preserve_insertion_order=false)\n* Increasing the memory limit (SET memory_limit='...GB')\n\nSee also https://duckdb.org/docs/stable/guides/performance/how_to_tune_workloads"
	cases := []struct {
		duckdb string
		want   error
		said   string
	}{
		{"failed to execute the prepared arrow: Out of Memory Error: could not allocate block of size 256.0 KiB (49.7 MiB/50.0 MiB used)" + advice,
			ErrOutOfMemory, "out of memory: the query needs more than DuckDB's memory limit of 47.7 MiB (DuckDB: could not allocate block of size 256.0 KiB (49.7 MiB/50.0 MiB used))"},
		{"failed to execute the prepared arrow: Out of Memory Error: failed to offload data block of size 256.0 KiB (95.2 MiB/95.3 MiB used).\nThis limit was set by the 'max_temp_directory_size' setting.\nBy default, this setting utilizes the available disk space on the drive where the 'temp_directory' is located.\nYou can adjust this setting, by using (for example) PRAGMA max_temp_directory_size='10GiB'" + advice,
			ErrTempFull, "out of temporary disk space: the query's spill files would pass their limit of 95.4 MiB (DuckDB: failed to offload data block of size 256.0 KiB (95.2 MiB/95.3 MiB used))"},
		{`failed to execute the prepared arrow: IO Error: Could not write file "/tmp/datg-duckdb-1/duckdb_temp_storage_S192K-0.tmp": No space left on device`,
			ErrDiskFull, `out of disk space: the query's spill files filled the file system of /tmp/datg-duckdb-1 (DuckDB: IO Error: Could not write file "/tmp/datg-duckdb-1/duckdb_temp_storage_S192K-0.tmp": No space left on device)`},
	}
	for _, c := range cases {
		err := db.queryError(context.Background(), errors.New(c.duckdb))
		if !errors.Is(err, c.want) || err.Error() != c.said {
			t.Errorf("got %v\nwant %q", err, c.said)
		}
	}
	// Any other error keeps DuckDB's message, without go-duckdb's prefix.
	err := db.queryError(context.Background(), errors.New("failed to execute the prepared arrow: Binder Error: Referenced column \"x\" not found"))
	if err.Error() != `Binder Error: Referenced column "x" not found` || strings.Contains(err.Error(), "arrow") {
		t.Errorf("got %v", err)
	}
}
