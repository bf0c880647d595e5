//go:build !unix

package testenv

import "time"

// CPUTime is zero where getrusage is missing: ReportCPU's metrics are then
// meaningless, the wall time per operation stands.
func CPUTime() time.Duration { return 0 }
