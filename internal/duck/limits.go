package duck

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/datg/datg/internal/inputerr"
)

// Limits bound what a database may use: memory, temporary disk space (the
// spill files of a query larger than memory) and time. Left to DuckDB, a
// query may take 80% of the machine's memory whatever a cgroup allows (and
// be killed by the kernel rather than fail), fill 90% of the temporary
// directory's file system, and run forever.
type Limits struct {
	// MemoryLimit is DuckDB's memory_limit, in bytes: past it a query
	// spills to the temporary directory, and what cannot spill fails with
	// ErrOutOfMemory. 0: half the memory available to the process (the
	// machine's, or its cgroup's limit when lower), which leaves room for
	// what DuckDB allocates outside its limit and for datg itself.
	MemoryLimit int64
	// MaxTemp is DuckDB's max_temp_directory_size, in bytes: the most its
	// spill files may take; past it a query fails with ErrTempFull. 0:
	// DefaultMaxTemp or a fifth of the free space on the temporary
	// directory's file system, whichever is less.
	MaxTemp int64
	// Timeout bounds each query WriteQuery runs: past it the query is
	// interrupted and fails with ErrTimeout. 0: no limit.
	Timeout time.Duration
	// AllocatorFlush is DuckDB's allocator_flush_threshold, in bytes: a
	// thread whose allocations peaked above it hands what it freed back
	// to the allocator after each task, and the allocator's background
	// thread returns freed pages to the system (allocator_background_threads).
	// Memory DuckDB has freed is otherwise kept by its allocator, outside
	// memory_limit: a stage's resident memory then rose far past the cap
	// (score at ten times the paper's design: 664 MB under a 256 MiB cap).
	// 0: DuckDB's default (128 MiB, no background thread).
	AllocatorFlush int64
	// NoFileCache turns DuckDB's external file cache off
	// (enable_external_file_cache): the blocks of the run's Parquet files
	// a query read stay in memory for the next, up to memory_limit, and a
	// run's memory then grows with what it has read (tables at ten times
	// the paper's design kept 38 MB of them, 3 MB at the design). A
	// generation's files sit in the system's page cache anyway. false:
	// DuckDB's default (on).
	NoFileCache bool
}

// stageAllocatorFlush is StageLimits' AllocatorFlush.
const stageAllocatorFlush = 8 << 20

// DefaultMaxTemp caps the default MaxTemp.
const DefaultMaxTemp = 10_000_000_000 // 10 GB

// DefaultTimeout is the default Timeout: ample for any query of a run,
// and a bound on one that would never end.
const DefaultTimeout = 30 * time.Minute

// DefaultLimits is what Open uses: memory and temporary space sized to the
// machine when the database opens, and DefaultTimeout.
func DefaultLimits() Limits { return Limits{Timeout: DefaultTimeout} }

// StageLimits are the limits of a stage that reads a whole run into a few
// results (score, tables): DefaultLimits with DuckDB's memory capped at
// memory (half the available memory, when less). Left at half the
// machine's memory, DuckDB keeps what it reads and builds in memory while
// it fits (1.8 GB for score and 2.5 GB for tables at ten times the paper's
// design on a 24 GB machine), so the stage's memory grows with the run;
// capped, its joins, aggregates and sorts spill to the private temporary
// directory instead. Each stage sets a cap its largest query still runs
// under at ten times the paper's design (what cannot spill fails with
// ErrOutOfMemory). Its allocator gives freed memory back (AllocatorFlush),
// so that the resident memory follows the cap, and it keeps no blocks of
// the files it read (NoFileCache).
func StageLimits(memory int64) Limits {
	l := DefaultLimits()
	l.MemoryLimit = memory
	l.AllocatorFlush = stageAllocatorFlush
	l.NoFileCache = true
	if avail := availableMemory(); avail > 0 && avail/2 < l.MemoryLimit {
		l.MemoryLimit = avail / 2
	}
	return l
}

// Validate checks no limit is negative (0 means the default).
func (l Limits) Validate() error {
	var p inputerr.Problems
	if l.MemoryLimit < 0 {
		p.Add("MemoryLimit", "%d bytes: want a size above 0 (or 0 for the default)", l.MemoryLimit)
	}
	if l.MaxTemp < 0 {
		p.Add("MaxTemp", "%d bytes: want a size above 0 (or 0 for the default)", l.MaxTemp)
	}
	if l.Timeout < 0 {
		p.Add("Timeout", "%s: want a duration above 0 (or 0 for no limit)", l.Timeout)
	}
	if l.AllocatorFlush < 0 {
		p.Add("AllocatorFlush", "%d bytes: want a size above 0 (or 0 for DuckDB's default)", l.AllocatorFlush)
	}
	return p.Err()
}

// resolve fills in the defaults of MemoryLimit and MaxTemp, the temporary
// space's from the file system of tempDir.
func (l Limits) resolve(tempDir string) Limits {
	if l.MemoryLimit == 0 {
		if avail := availableMemory(); avail > 0 {
			l.MemoryLimit = avail / 2
		}
	}
	if l.MaxTemp == 0 {
		l.MaxTemp = DefaultMaxTemp
		if free, err := freeSpace(tempDir); err == nil && free/5 < l.MaxTemp {
			l.MaxTemp = max(free/5, 1)
		}
	}
	return l
}

// settings are the DuckDB SET statements of the limits (after resolve).
// A MemoryLimit of 0 (the memory could not be told) leaves DuckDB's.
func (l Limits) settings() []string {
	var s []string
	if l.MemoryLimit > 0 {
		s = append(s, fmt.Sprintf("SET memory_limit = '%dB'", l.MemoryLimit))
	}
	if l.AllocatorFlush > 0 {
		s = append(s, fmt.Sprintf("SET allocator_flush_threshold = '%dB'", l.AllocatorFlush),
			"SET allocator_background_threads = true")
	}
	if l.NoFileCache {
		s = append(s, "SET enable_external_file_cache = false")
	}
	return append(s, fmt.Sprintf("SET max_temp_directory_size = '%dB'", l.MaxTemp))
}

// sizeUnits are the units ParseSize reads, as DuckDB's memory_limit does:
// KB, MB, ... are powers of 1000, KiB, MiB, ... powers of 1024.
var sizeUnits = map[string]float64{
	"": 1, "b": 1,
	"kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
	"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
}

// ParseSize reads a size such as 512MB, 1.5GiB or 1000000 (bytes).
func ParseSize(s string) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	i := strings.IndexFunc(t, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	if i < 0 {
		i = len(t)
	}
	num, unit := t[:i], strings.TrimSpace(t[i:])
	mult, ok := sizeUnits[unit]
	n, err := strconv.ParseFloat(num, 64)
	if !ok || err != nil || num == "" {
		return 0, fmt.Errorf("%q is not a size (e.g. 512MB, 2GB, 1.5GiB; KB, MB, GB, TB are powers of 1000, KiB, MiB, GiB, TiB of 1024)", s)
	}
	bytes := n * mult
	if bytes >= math.MaxInt64 {
		return 0, fmt.Errorf("%q is too large", s)
	}
	return int64(bytes), nil
}

// FormatSize writes a size in binary units, as DuckDB's messages do.
func FormatSize(n int64) string {
	units := []string{"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"}
	v := float64(n)
	i := 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%.1f %s", v, units[i])
}

// MemoryLimitSet is the memory limit DuckDB itself reports for the
// database (which shows it as a size, such as "256.0 MiB"): what a stage's
// cap became, not what was asked for.
func (db *DB) MemoryLimitSet(ctx context.Context) (int64, error) {
	var shown string
	if err := db.QueryRowContext(ctx, "SELECT current_setting('memory_limit')::VARCHAR").Scan(&shown); err != nil {
		return 0, err
	}
	return ParseSize(strings.ReplaceAll(shown, " ", ""))
}
