package langcheck

import (
	"syscall"
	"testing"
	"time"
)

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU adds the CPU time per operation, and the bytes per CPU second,
// to a benchmark: on a machine shared with other jobs the wall time per
// operation counts the time others had the core, the CPU time does not.
func reportCPU(b *testing.B, start time.Duration, bytes int64) {
	cpu := cpuTime() - start
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	if bytes > 0 {
		b.ReportMetric(float64(bytes)*float64(b.N)/cpu.Seconds()/1e6, "MB/cpu-s")
	}
}
