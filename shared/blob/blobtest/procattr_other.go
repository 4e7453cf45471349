//go:build !linux

package blobtest

import "os/exec"

// configureProcess has no parent-death signal outside Linux; Cleanup and
// Main stop the process on every normal exit.
func configureProcess(*exec.Cmd) {}
