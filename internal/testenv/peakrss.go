package testenv

import (
	"bufio"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

// ResetPeakRSS returns the memory the Go heap no longer uses to the
// system and makes the process's peak resident memory (Linux's VmHWM) its
// current one, by writing 5 to /proc/self/clear_refs, so that PeakRSS then
// measures what runs after it, not a benchmark's setup before. It reports
// whether the peak could be reset.
func ResetPeakRSS() bool {
	runtime.GC()
	debug.FreeOSMemory()
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
}

// PeakRSS is the process's peak resident memory in bytes since it started
// or since ResetPeakRSS (VmHWM in /proc/self/status), or 0 where it cannot
// be read.
func PeakRSS() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(s.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}

// ReportPeakRSS reports PeakRSS as peak_MB, when reset was true (the peak
// was reset before the measured runs) and it can be read.
func ReportPeakRSS(b *testing.B, reset bool) {
	if peak := PeakRSS(); reset && peak > 0 {
		b.ReportMetric(float64(peak)/(1<<20), "peak_MB")
	}
}

// LiveHeap is the Go heap still reachable after two collections: what the
// code under test holds, not the garbage not yet collected (the second
// collection frees what the first one's finalizers released).
func LiveHeap() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// HeapPer is how much more live heap n2 units hold than n1, per extra
// unit (a row, an alignment), when measure(n) returns the live heap held
// with n of them: what a test of memory flat in the run bounds.
func HeapPer(t testing.TB, unit string, n1, n2 int, measure func(n int) int64) int64 {
	t.Helper()
	h1, h2 := measure(n1), measure(n2)
	per := (h2 - h1) / int64(n2-n1)
	t.Logf("live heap: %d KB at %d, %d KB at %d: %d bytes per %s", h1>>10, n1, h2>>10, n2, per, unit)
	return per
}
