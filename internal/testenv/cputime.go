package testenv

import (
	"testing"
	"time"
)

// ReportCPU adds the CPU time per operation since start (a CPUTime), and
// the bytes per CPU second, to a benchmark: on a machine shared with other
// jobs the wall time per operation counts the time others had the core,
// the CPU time does not.
func ReportCPU(b *testing.B, start time.Duration, bytes int64) {
	cpu := CPUTime() - start
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	if bytes > 0 {
		b.ReportMetric(float64(bytes)*float64(b.N)/cpu.Seconds()/1e6, "MB/cpu-s")
	}
}
