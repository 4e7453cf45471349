package testproc

import (
	"os/exec"
	"syscall"
)

// configureProcess makes the kernel kill the server when the test binary
// dies (timeout panic, SIGKILL), so none outlives a test run.
func configureProcess(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
