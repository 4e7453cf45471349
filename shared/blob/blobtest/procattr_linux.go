package blobtest

import (
	"os/exec"
	"syscall"
)

// configureProcess makes the kernel kill the gateway when the test binary
// dies (timeout panic, SIGKILL), so no server outlives a test run.
func configureProcess(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
