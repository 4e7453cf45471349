//go:build !linux

package testproc

import "os/exec"

// configureProcess has no parent-death signal outside Linux; the suites'
// cleanups stop the process on every normal exit.
func configureProcess(*exec.Cmd) {}
