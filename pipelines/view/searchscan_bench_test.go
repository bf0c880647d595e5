package view

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"testing"

	"github.com/datg/datg/internal/testenv"
)

// BenchmarkScanSearch is a search before the search index is open: the
// scan of every text (scanSearch), and DuckDB's regexp_matches scan it
// replaced (regexpScan, under the viewer's memory cap, with nothing
// beside it), over the run in $DATG_BENCH_RUN (scripts/scale.sh 1's,
// texts of real length), else over 8,192 internal/tracegen traces.
//
//	DATG_BENCH_RUN=/tmp/run go test -run '^$' -bench BenchmarkScanSearch -benchtime 3x ./pipelines/view
func BenchmarkScanSearch(b *testing.B) {
	dir := os.Getenv("DATG_BENCH_RUN")
	if dir == "" {
		dir = b.TempDir()
		writeDensityRun(b, dir, 8192)
	}
	ctx := context.Background()
	r, err := openRunDB(ctx, dir, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer r.close()
	for _, w := range []string{"the answer", "zzqx-nowhere"} {
		for _, how := range []string{"scan", "regexp"} {
			b.Run(fmt.Sprintf("traces=%d/q=%s/%s", r.rows.N, url.PathEscape(w), how), func(b *testing.B) {
				cpu := testenv.CPUTime()
				for b.Loop() {
					var err error
					if how == "scan" {
						_, err = r.scanSearch(ctx, w)
					} else {
						_, err = regexpScan(ctx, r, w)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				testenv.ReportCPU(b, cpu, 0)
			})
		}
	}
}
