package view

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
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
			if err := errors.Join(rows.groupTexts(r.groups, []string{id}), rows.groupVerdicts(r.groups, []string{id}), rows.groupDetections(r.groups, []string{id}),
				rows.groupScores(r.groups, []string{id}), rows.groupEvents(r.groups, []string{id})); err != nil {
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

// TestOneGroupFileReadsAcrossItsEnd: a row group's file is the file's bytes
// and then its own footer; a read anywhere, across the seam or past the
// end, gets those bytes (io.EOF where they run out), as a file's ReadAt.
func TestOneGroupFileReadsAcrossItsEnd(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	body := []byte("0123456789")
	if err := os.WriteFile(path, body, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	footer := []byte("footer")
	o := newOneGroupFile(f, int64(len(body)), footer)
	whole := append(append(append([]byte{}, body...), footer...), 6, 0, 0, 0, 'P', 'A', 'R', '1')
	if o.size != int64(len(whole)) {
		t.Fatalf("size %d, want %d", o.size, len(whole))
	}
	for off := 0; off <= len(whole)+2; off++ {
		for n := 0; n <= len(whole)+2; n++ {
			p := make([]byte, n)
			got, err := o.ReadAt(p, int64(off))
			want := max(0, min(n, len(whole)-off))
			if got != want || string(p[:got]) != string(whole[min(off, len(whole)):min(off, len(whole))+want]) {
				t.Fatalf("ReadAt(%d bytes, %d) = %d %q, want %d bytes", n, off, got, p[:got], want)
			}
			if (err == io.EOF) != (want < n) || (err != nil && err != io.EOF) {
				t.Fatalf("ReadAt(%d bytes, %d): error %v", n, off, err)
			}
		}
	}
}
