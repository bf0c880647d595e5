//go:build !linux

package duck

import "golang.org/x/sys/unix"

// physicalMemory is the machine's memory in bytes (0 if it cannot be told).
func physicalMemory() int64 {
	for _, name := range []string{"hw.memsize", "hw.physmem"} { // macOS, the BSDs
		if n, err := unix.SysctlUint64(name); err == nil && n > 0 {
			return int64(n)
		}
	}
	return 0
}
