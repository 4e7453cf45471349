package app

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"sync"
	"time"
)

// LogBuffer holds log lines for a long-running server (the local one) and
// writes them out in one write every flush interval, instead of one write
// system call per line: the access log writes a line for every request,
// which was a tenth of a document GET's server CPU. A line at warning level
// or above is written at once, with everything before it; Close writes
// what is left. Not for Lambda, where the process may be frozen between
// invocations with lines still held.
type LogBuffer struct {
	mu   sync.Mutex
	w    *bufio.Writer
	stop chan struct{}
	done chan struct{}
}

// logBufferSize is how much a LogBuffer holds before it writes anyway.
const logBufferSize = 64 << 10

// NewLogBuffer buffers writes to w and flushes them every interval.
func NewLogBuffer(w io.Writer, interval time.Duration) *LogBuffer {
	b := &LogBuffer{w: bufio.NewWriterSize(w, logBufferSize), stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(b.done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				_ = b.Flush()
			case <-b.stop:
				return
			}
		}
	}()
	return b
}

// Write implements io.Writer; slog handlers write one whole line per call.
func (b *LogBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.w.Write(p)
}

// Flush writes out the lines held.
func (b *LogBuffer) Flush() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.w.Flush()
}

// Close stops the periodic flush and writes out the rest.
func (b *LogBuffer) Close() error {
	close(b.stop)
	<-b.done
	return b.Flush()
}

// Handler wraps h (writing to b) so that records at warning level or
// above are written out at once.
func (b *LogBuffer) Handler(h slog.Handler) slog.Handler {
	return urgentFlush{Handler: h, buf: b}
}

type urgentFlush struct {
	slog.Handler
	buf *LogBuffer
}

func (u urgentFlush) Handle(ctx context.Context, r slog.Record) error {
	err := u.Handler.Handle(ctx, r)
	if r.Level >= slog.LevelWarn {
		if ferr := u.buf.Flush(); err == nil {
			err = ferr
		}
	}
	return err
}

func (u urgentFlush) WithAttrs(attrs []slog.Attr) slog.Handler {
	return urgentFlush{Handler: u.Handler.WithAttrs(attrs), buf: u.buf}
}

func (u urgentFlush) WithGroup(name string) slog.Handler {
	return urgentFlush{Handler: u.Handler.WithGroup(name), buf: u.buf}
}
