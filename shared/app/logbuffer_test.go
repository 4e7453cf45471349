package app_test

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/app"
)

// lockedBuffer is what the LogBuffer writes to, read by the test.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func TestLogBuffer(t *testing.T) {
	var out lockedBuffer
	// An interval the test never reaches: only Flush, a warning and Close write.
	logs := app.NewLogBuffer(&out, time.Hour)
	log := slog.New(logs.Handler(slog.NewTextHandler(logs, nil))).With("app", "test")

	log.Info("request", "path", "/api/a")
	if got := out.String(); got != "" {
		t.Fatalf("an info line was written at once: %q", got)
	}
	log.Warn("slow", "path", "/api/b")
	got := out.String()
	if !strings.Contains(got, "path=/api/a") || !strings.Contains(got, "path=/api/b") {
		t.Fatalf("a warning did not write out the lines before it and itself: %q", got)
	}
	log.Info("request", "path", "/api/c")
	if strings.Contains(out.String(), "/api/c") {
		t.Fatal("the info line after the warning was written at once")
	}
	if err := logs.Close(); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); !strings.Contains(got, "app=test path=/api/c") {
		t.Fatalf("Close did not write out the last line: %q", got)
	}
}

func TestLogBufferFlushesByInterval(t *testing.T) {
	var out lockedBuffer
	logs := app.NewLogBuffer(&out, time.Millisecond)
	defer logs.Close()
	slog.New(slog.NewTextHandler(logs, nil)).Info("request")
	for !strings.Contains(out.String(), "msg=request") {
		time.Sleep(time.Millisecond) // the test's own timeout bounds this
	}
}
