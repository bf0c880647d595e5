package view

import (
	"context"
	"errors"
	"runtime"
	"testing"

	"github.com/datg/datg/internal/testenv"
)

// TestGroupFilesHoldLittleARowGroup: what a generation keeps to read its
// traces' rows by row group (groupread.go) is, per row group, its key's
// range and its own footer without statistics, not parquet-go's decoded
// footer of the file (about 20 KB a group at the paper's design, 12.5 MB
// held for 382,500 traces, growing with the run). Two runs of the same
// design, 300 and 3,000 traces in row groups of 20 rows (4 traces): the
// Go heap the files hold once every table has been read may grow by at
// most 2 KB per extra row group. A structural bound, not a timing.
func TestGroupFilesHoldLittleARowGroup(t *testing.T) {
	if testing.Short() {
		t.Skip("writes runs of 300 and 3,000 traces")
	}
	held, groups := map[int]int64{}, map[int]int{}
	sizes := []int{300, 3000}
	for _, n := range sizes {
		dir, ids := writeGroupRun(t, groupRun{n: n, perGroup: 20, parts: 2, seed: 7})
		r := openGroupRun(t, dir)
		base := testenv.LiveHeap()
		for _, id := range []string{ids[0], ids[n/2], ids[n-1]} {
			rows, _ := readTraceRows(context.Background(), r, nil, nil)
			if err := errors.Join(rows.groupText(r.groups, id), rows.groupVerdicts(r.groups, id), rows.groupDetections(r.groups, id),
				rows.groupScores(r.groups, id), rows.groupEvents(r.groups, id)); err != nil {
				t.Fatal(err)
			}
		}
		held[n] = testenv.LiveHeap() - base
		for _, gt := range r.groups.tables {
			for _, f := range gt.files {
				groups[n] += len(f.ranges)
			}
		}
		runtime.KeepAlive(r)
		t.Logf("%d traces, %d row groups: the files hold %d KB of Go heap", n, groups[n], held[n]>>10)
	}
	per := float64(held[sizes[1]]-held[sizes[0]]) / float64(groups[sizes[1]]-groups[sizes[0]])
	if groups[sizes[1]] < 5*groups[sizes[0]] {
		t.Fatalf("the larger run has %d row groups, the smaller %d: the test proves nothing", groups[sizes[1]], groups[sizes[0]])
	}
	if per > 2048 {
		t.Errorf("the files read by row group hold %.0f bytes of Go heap per extra row group (%d KB for %d groups, %d KB for %d), want at most 2 KB",
			per, held[sizes[0]]>>10, groups[sizes[0]], held[sizes[1]]>>10, groups[sizes[1]])
	}
}
