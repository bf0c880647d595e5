package testenv

import (
	"runtime"
	"testing"
)

// The peak follows a large allocation, and a reset brings it back down.
func TestPeakRSS(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("VmHWM and clear_refs are Linux's")
	}
	if !ResetPeakRSS() {
		t.Skip("cannot write /proc/self/clear_refs here")
	}
	before := PeakRSS()
	if before <= 0 {
		t.Fatalf("PeakRSS %d", before)
	}
	big := make([]byte, 200<<20)
	for i := range big {
		big[i] = 1
	}
	during := PeakRSS()
	if during < before+150<<20 {
		t.Fatalf("peak %d MB after touching 200 MB, from %d MB", during>>20, before>>20)
	}
	runtime.KeepAlive(big)
	big = nil
	if !ResetPeakRSS() {
		t.Fatal("reset failed")
	}
	if after := PeakRSS(); after > during-100<<20 {
		t.Fatalf("peak %d MB after a reset, was %d MB", after>>20, during>>20)
	}
}
