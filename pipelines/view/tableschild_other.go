//go:build !linux

package view

import "os/exec"

// stopChildGently leaves an ended context's kill (SIGKILL) to stop the
// tables' child: the parent-death signal and a portable SIGTERM are
// Linux's.
func stopChildGently(cmd *exec.Cmd) {}
