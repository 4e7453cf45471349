//go:build pprof

package main

// Built with -tags pprof (never by make run or the Lambda builds), the
// local server also serves net/http/pprof on OFICINA_PPROF_ADDR (default
// 127.0.0.1:6060), with block and mutex profiling on, for profiling the
// real binary under load:
//
//	go build -tags pprof -o build/oficina-pprof ./functions/local
//	go tool pprof 'http://127.0.0.1:6060/debug/pprof/profile?seconds=8'

import (
	"log/slog"
	"net/http"
	_ "net/http/pprof" // registers /debug/pprof on http.DefaultServeMux
	"os"
	"runtime"
)

func init() {
	addr := os.Getenv("OFICINA_PPROF_ADDR")
	if addr == "" {
		addr = "127.0.0.1:6060"
	}
	runtime.SetBlockProfileRate(10_000) // one sample per 10 µs blocked
	runtime.SetMutexProfileFraction(10)
	go func() {
		if err := http.ListenAndServe(addr, nil); err != nil {
			slog.Error("pprof listener", "addr", addr, "err", err)
		}
	}()
}
