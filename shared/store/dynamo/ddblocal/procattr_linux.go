package ddblocal

import (
	"os/exec"
	"syscall"
)

// configureProcess makes the kernel kill DynamoDB Local when the test binary
// dies (timeout panic, SIGKILL), so no JVM outlives a test run.
func configureProcess(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
