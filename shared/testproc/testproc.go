// Package testproc runs the real servers the tests start themselves
// (DynamoDB Local, the S3 gateway): a child process on a free loopback
// port, its output's tail kept for errors, ready when a probe answers,
// killed by the kernel if the test binary dies, and the repository's root
// to find the binaries in.
package testproc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"time"
)

// Process is one running server.
type Process struct {
	cmd     *exec.Cmd
	out     *tailBuffer
	done    chan struct{} // closed when the process has exited
	waitErr error         // valid after done
	stop    sync.Once
}

// Start runs cmd with its output captured (the last 64 KB).
func Start(cmd *exec.Cmd) (*Process, error) {
	p := &Process{cmd: cmd, out: &tailBuffer{max: 64 << 10}, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = p.out, p.out
	// The process starts from a goroutine locked to its OS thread for the
	// life of the process: the Linux parent-death signal (procattr_linux.go)
	// fires when the forking thread exits, so that thread must outlive it.
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		configureProcess(cmd)
		if err := cmd.Start(); err != nil {
			started <- err
			runtime.UnlockOSThread()
			return
		}
		started <- nil
		p.waitErr = cmd.Wait()
		close(p.done)
		// Leaving the goroutine locked lets the runtime retire the thread.
	}()
	if err := <-started; err != nil {
		return nil, fmt.Errorf("start %s: %w", cmd.Path, err)
	}
	return p, nil
}

// WaitReady waits until addr accepts connections and probe succeeds, the
// process exits, or timeout passes.
func (p *Process) WaitReady(addr string, timeout time.Duration, probe func(ctx context.Context) error) error {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if err := p.Exited(); err != nil {
			return err
		}
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			conn.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			err = probe(ctx)
			cancel()
			if err == nil {
				return nil
			}
		}
		select {
		case <-p.done:
		case <-time.After(25 * time.Millisecond):
		}
	}
	return fmt.Errorf("not ready after %v", timeout)
}

// Exited returns an error once the process is gone.
func (p *Process) Exited() error {
	select {
	case <-p.done:
		if p.waitErr != nil {
			return fmt.Errorf("process exited: %w", p.waitErr)
		}
		return errors.New("process exited")
	default:
		return nil
	}
}

// Output is the tail of what the process wrote.
func (p *Process) Output() string { return p.out.String() }

// Kill stops the process at once (test servers keep nothing worth
// flushing) and waits for it.
func (p *Process) Kill() {
	_ = p.cmd.Process.Kill()
	<-p.done
}

// Stop kills the process once, then runs cleanup (its temp directory).
func (p *Process) Stop(cleanup func()) {
	p.stop.Do(func() {
		p.Kill()
		if cleanup != nil {
			cleanup()
		}
	})
}

// FreePort asks the kernel for a free loopback port.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// FindBinary finds a test server's binary: the path in $env when set, else
// <repo>/bin/<name>. what names the server and hint how to install it, for
// the error that says it is missing.
func FindBinary(env, name, what, hint string) (string, error) {
	if p := os.Getenv(env); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%s=%s: %w", env, p, err)
		}
		return p, nil
	}
	root, err := RepoRoot()
	if err != nil {
		return "", err
	}
	p := filepath.Join(root, "bin", name)
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("%s is missing (%s): %s; or set %s", what, p, hint, env)
	}
	return p, nil
}

// RepoRoot walks up from the working directory to the first go.mod.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("working directory: %w", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory: cannot find the repository root")
		}
		dir = parent
	}
}

// tailBuffer keeps the last max bytes of the process output for errors.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf bytes.Buffer
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf.Write(p)
	if over := t.buf.Len() - t.max; over > 0 {
		t.buf.Next(over)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.String()
}
