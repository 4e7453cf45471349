// Package coldstart runs a built Lambda bootstrap the way Lambda does — a
// fresh process whose AWS_LAMBDA_RUNTIME_API points at an emulated
// Runtime API (functions/internal/runtimeapi) — and times its
// initialisation: process start to the runtime's first GET
// …/invocation/next, as Lambda counts it. The functions' cold-start
// benchmarks (make bench) and tests use it; it is never part of a
// function.
package coldstart

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/oficina/oficina/functions/internal/runtimeapi"
	"github.com/oficina/oficina/shared/store/dynamo/ddblocal"
)

const (
	// InitTimeout bounds one initialisation; generous for busy machines
	// (timings are measured, never asserted).
	InitTimeout   = 60 * time.Second
	invokeTimeout = 30 * time.Second
)

// Build builds the function package pkg (e.g. "./functions/stream", or
// "." from its own directory) as make lambdas does, but for the host
// (CGO_ENABLED=0, -tags lambda.norpc, -trimpath, -ldflags=-s -w), into
// dir/bootstrap-<name>, and returns the binary's path.
func Build(tb testing.TB, dir, pkg, name string) string {
	tb.Helper()
	bin := filepath.Join(dir, "bootstrap-"+name)
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	build := exec.Command("go", "build", "-tags", "lambda.norpc", "-trimpath", "-buildvcs=false", "-ldflags=-s -w", "-o", bin, pkg)
	build.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+runtime.GOOS, "GOARCH="+runtime.GOARCH)
	if out, err := build.CombinedOutput(); err != nil {
		tb.Fatalf("go build %s: %v\n%s", pkg, err, out)
	}
	return bin
}

// Environ is the environment Lambda gives a provided.al2023 function named
// name whose binary is bin, on DynamoDB Local's credentials and region,
// with the shared AWS config files pointed away (no setting of the
// machine can reach a real account), plus settings; nothing is inherited
// from the test's environment. An empty value in settings removes a
// variable.
func Environ(runtimeAPI, name, bin string, settings map[string]string) []string {
	dir := filepath.Dir(bin)
	m := map[string]string{
		"AWS_LAMBDA_RUNTIME_API":          runtimeAPI,
		"AWS_LAMBDA_FUNCTION_NAME":        name,
		"AWS_LAMBDA_FUNCTION_VERSION":     "$LATEST",
		"AWS_LAMBDA_FUNCTION_MEMORY_SIZE": "1024",
		"AWS_LAMBDA_LOG_GROUP_NAME":       "/aws/lambda/" + name,
		"AWS_LAMBDA_LOG_STREAM_NAME":      "2026/05/04/[$LATEST]0123456789abcdef0123456789abcdef",
		"AWS_LAMBDA_INITIALIZATION_TYPE":  "on-demand",
		"AWS_REGION":                      ddblocal.Region,
		"AWS_DEFAULT_REGION":              ddblocal.Region,
		"AWS_ACCESS_KEY_ID":               ddblocal.AccessKey, // DynamoDB Local keeps tables per key and region
		"AWS_SECRET_ACCESS_KEY":           ddblocal.SecretKey,
		"AWS_SESSION_TOKEN":               "ddblocal",
		"AWS_CONFIG_FILE":                 filepath.Join(dir, "no-aws-config"),
		"AWS_SHARED_CREDENTIALS_FILE":     filepath.Join(dir, "no-aws-credentials"),
		"AWS_EC2_METADATA_DISABLED":       "true",
		"LAMBDA_TASK_ROOT":                dir,
		"LAMBDA_RUNTIME_DIR":              dir,
		"_HANDLER":                        "bootstrap",
		"LANG":                            "en_US.UTF-8",
		"TZ":                              ":UTC",
		"PATH":                            "/usr/local/bin:/usr/bin/:/bin:/opt/bin",
	}
	for k, v := range settings {
		if v == "" {
			delete(m, k)
		} else {
			m[k] = v
		}
	}
	out := make([]string, 0, len(m))
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	slices.Sort(out)
	return out
}

// Process is one execution environment: a process and its Runtime API.
type Process struct {
	cmd     *exec.Cmd
	Emu     *runtimeapi.Emulator
	out     *syncBuffer // stdout and stderr
	Started time.Time   // just before fork/exec
	ReadyAt time.Time   // the first next request
	Init    time.Duration
	Exited  chan struct{}
	waitErr error // valid once Exited is closed
	once    sync.Once
}

// Start runs bin with the environment environ returns for the emulator's
// address and waits for the end of initialisation: the first next
// request. It fails with the reported error if the runtime posts to
// /init/error, and with the exit status and output if the process exits
// first; the process is gone when it returns an error.
func Start(bin string, args []string, functionARN string, environ func(runtimeAPI string) []string) (*Process, error) {
	emu := runtimeapi.New(runtimeapi.Options{FunctionARN: functionARN, Timeout: 25 * time.Second})
	cmd := exec.Command(bin, args...)
	cmd.Env = environ(emu.Addr())
	cmd.Dir = filepath.Dir(bin)
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	p := &Process{cmd: cmd, Emu: emu, out: out, Exited: make(chan struct{})}

	p.Started = time.Now()
	if err := cmd.Start(); err != nil {
		emu.Close()
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	go func() {
		p.waitErr = cmd.Wait()
		close(p.Exited)
	}()

	var err error
	timer := time.NewTimer(InitTimeout)
	defer timer.Stop()
	select {
	case <-emu.Ready():
	case <-emu.InitFailed():
		err = fmt.Errorf("init error reported to the Runtime API: %v", emu.InitError())
	case <-p.Exited:
		select {
		case <-emu.Ready(): // it did ask for work, then died: not an init failure
		default:
			if rep := emu.InitError(); rep != nil {
				err = fmt.Errorf("init error reported to the Runtime API: %v (then %v)", rep, p.waitErr)
			} else {
				err = fmt.Errorf("process exited during init: %v", p.waitErr)
			}
		}
	case <-timer.C:
		err = fmt.Errorf("no next request within %v", InitTimeout)
	}
	if err != nil {
		p.Stop()
		return nil, fmt.Errorf("%w\n--- function output ---\n%s", err, out.String())
	}
	p.ReadyAt = emu.ReadyAt()
	p.Init = p.ReadyAt.Sub(p.Started)
	return p, nil
}

// Stop kills the process, as Lambda does when it reclaims an environment.
func (p *Process) Stop() {
	p.once.Do(func() {
		p.cmd.Process.Kill()
		<-p.Exited
		p.Emu.Close()
	})
}

// WaitErr is how the process ended (once Exited is closed).
func (p *Process) WaitErr() error { return p.waitErr }

// Output is what the process wrote so far.
func (p *Process) Output() string { return p.out.String() }

// Invoke sends one event and waits for its outcome; it gives up when the
// process dies.
func (p *Process) Invoke(payload []byte) (*runtimeapi.Result, error) {
	ctx, cancel := context.WithTimeout(context.Background(), invokeTimeout)
	defer cancel()
	go func() {
		select {
		case <-p.Exited:
			cancel()
		case <-ctx.Done():
		}
	}()
	res, err := p.Emu.Invoke(ctx, payload)
	if err != nil {
		select {
		case <-p.Exited:
			err = fmt.Errorf("%w (process exited: %v)", err, p.waitErr)
		default:
		}
		return nil, fmt.Errorf("%w\n--- function output ---\n%s", err, p.out.String())
	}
	return res, nil
}

// Pct is the nearest-rank percentile q of ds, in milliseconds.
func Pct(ds []time.Duration, q float64) float64 {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(math.Ceil(q/100*float64(len(s)))) - 1
	i = max(0, min(i, len(s)-1))
	return float64(s[i]) / float64(time.Millisecond)
}

// syncBuffer collects a process's output.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}
