//go:build unix

package httpload

import "syscall"

// ProcessCPU is the process's user and system CPU time so far, in
// nanoseconds: per-operation CPU time is what benchmarks report besides
// wall time, since a shared, overloaded machine distorts it less.
func ProcessCPU() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
