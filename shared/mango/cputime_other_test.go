//go:build !unix

package mango

func cpuTime() int64 { return 0 }
