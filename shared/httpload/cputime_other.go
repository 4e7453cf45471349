//go:build !unix

package httpload

// ProcessCPU is 0 where the process's CPU time is not available.
func ProcessCPU() int64 { return 0 }
