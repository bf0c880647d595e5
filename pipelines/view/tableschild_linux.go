package view

import (
	"os/exec"
	"syscall"
)

// stopChildGently makes an ended context stop the tables' child with
// SIGTERM (it interrupts its query, removes its DuckDB's temporary files
// and exits), and makes the child die with the viewer: SIGKILL when the
// thread that started it ends (the viewer killed, or crashed).
func stopChildGently(cmd *exec.Cmd) {
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
