package main

// Cold starts of the built bootstrap binary, run the way Lambda runs it: a
// fresh process whose AWS_LAMBDA_RUNTIME_API points at an emulated Runtime
// API (internal/runtimeapi), on DynamoDB Local. Init is process start to the
// runtime's first GET .../invocation/next, as Lambda counts it.

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/oficina/oficina/functions/internal/coldstart"
	"github.com/oficina/oficina/functions/internal/runtimeapi"
	"github.com/oficina/oficina/shared/auth"
	"github.com/oficina/oficina/shared/store/dynamo"
	"github.com/oficina/oficina/shared/store/dynamo/ddblocal"
)

const (
	functionName = "oficina-api"
	functionARN  = "arn:aws:lambda:us-east-1:123456789012:function:" + functionName
	testUserID   = "usr-5e0c7d1e2f3a4b5c6d7e8f9a0b1c2d3e" // the user of events/apigw-v2-register.json

	// helperEnv makes the test binary act as a function runtime (see
	// TestRuntimeHelperProcess).
	helperEnv = "OFICINA_COLDSTART_HELPER"
)

// coldStartEnv is what every cold start shares: the binary, built once per
// test binary, and a DynamoDB Local table that has seen a first start.
type coldStartEnv struct {
	dir      string // temp dir: the binary and the outbox
	bin      string
	endpoint string // DynamoDB Local
	table    string
	cookie   string // AuthSession=… of the user registered by the warm-up

	firstInit time.Duration // init of the very first start, on an empty table
}

var coldStart struct {
	mu  sync.Mutex
	dir string
	env *coldStartEnv
}

// removeColdStartBuild deletes the binary and data; TestMain calls it.
func removeColdStartBuild() {
	coldStart.mu.Lock()
	defer coldStart.mu.Unlock()
	if coldStart.dir != "" {
		os.RemoveAll(coldStart.dir)
	}
	coldStart.dir, coldStart.env = "", nil
}

// setupColdStart builds the binary as `make lambdas` does, but for the host
// (CGO_ENABLED=0, -tags lambda.norpc, -trimpath, -ldflags=-s -w), starts
// DynamoDB Local, creates a table, and runs a warm-up start that creates the
// system databases (the steady state of a deployed table), registers a user
// and signs in.
func setupColdStart(tb testing.TB) *coldStartEnv {
	tb.Helper()
	coldStart.mu.Lock()
	defer coldStart.mu.Unlock()
	if coldStart.env != nil {
		return coldStart.env
	}
	if coldStart.dir == "" {
		dir, err := os.MkdirTemp("", "oficina-coldstart-")
		if err != nil {
			tb.Fatal(err)
		}
		coldStart.dir = dir
	}
	env := &coldStartEnv{dir: coldStart.dir, bin: filepath.Join(coldStart.dir, "bootstrap")}
	if runtime.GOOS == "windows" {
		env.bin += ".exe"
	}
	if _, err := os.Stat(env.bin); err != nil {
		build := exec.Command("go", "build", "-tags", "lambda.norpc", "-trimpath", "-buildvcs=false",
			"-ldflags=-s -w", "-o", env.bin, ".")
		build.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+runtime.GOOS, "GOARCH="+runtime.GOARCH)
		if out, err := build.CombinedOutput(); err != nil {
			tb.Fatalf("go build: %v\n%s", err, out)
		}
	}

	var client *dynamodb.Client
	env.endpoint, client = ddblocal.Start(tb)
	env.table = ddblocal.TableName(tb)
	if err := dynamo.CreateTable(context.Background(), client, env.table); err != nil {
		tb.Fatal(err)
	}

	p, err := env.start(nil)
	if err != nil {
		tb.Fatalf("warm-up start: %v", err)
	}
	defer p.stop()
	env.firstInit = p.Init
	if _, err := p.expect(readEventJSON(tb, "apigw-v2-register.json", nil), 201, `"id":"`+testUserID+`"`); err != nil {
		tb.Fatalf("register: %v", err)
	}
	login, err := p.expect(readEventJSON(tb, "apigw-v2-login.json", nil), 200, `"name":"`+testUserID+`"`)
	if err != nil {
		tb.Fatalf("login: %v", err)
	}
	for _, c := range login.Cookies {
		if strings.HasPrefix(c, "AuthSession=") {
			env.cookie, _, _ = strings.Cut(c, ";")
		}
	}
	if env.cookie == "" {
		tb.Fatalf("login set no session cookie: %q", login.Cookies)
	}
	coldStart.env = env
	return env
}

// environ is the process environment: what Lambda sets for a provided.al2023
// function (coldstart.Environ), the OFICINA_* settings of infra-cdk's API
// function, but on DynamoDB Local and the mail outbox. extra overrides
// it; an empty value removes a variable.
func (env *coldStartEnv) environ(runtimeAPI string, extra map[string]string) []string {
	m := map[string]string{
		"OFICINA_STORE":           "dynamo",
		"OFICINA_TABLE":           env.table,
		"OFICINA_DYNAMO_ENDPOINT": env.endpoint,
		"OFICINA_MAIL":            "outbox", // the SES adapter has its own tests
		"OFICINA_DATA":            filepath.Join(env.dir, "data"),
		"OFICINA_BASE_URL":        "https://app.oficina.example",
		"OFICINA_LOG_FORMAT":      "json",
		"OFICINA_COOKIE_SECURE":   "true",
		"OFICINA_SERVER_ADMINS":   "admin@oficina.example",
		// The collector as the stack sets it (infra-cdk/lib/oficina-stack.ts API_GC).
		"GOGC": "400", "GOMEMLIMIT": "768MiB",
	}
	maps.Copy(m, extra)
	return coldstart.Environ(runtimeAPI, functionName, env.bin, m)
}

// start cold-starts the API binary (coldstart.Start).
func (env *coldStartEnv) start(extra map[string]string) (*lambdaProcess, error) {
	p, err := coldstart.Start(env.bin, nil, functionARN, func(api string) []string { return env.environ(api, extra) })
	if err != nil {
		return nil, err
	}
	return &lambdaProcess{p}, nil
}

// lambdaProcess is one execution environment of the API function.
type lambdaProcess struct{ *coldstart.Process }

func startLambda(bin string, args []string, environ func(runtimeAPI string) []string) (*lambdaProcess, error) {
	p, err := coldstart.Start(bin, args, functionARN, environ)
	if err != nil {
		return nil, err
	}
	return &lambdaProcess{p}, nil
}

func (p *lambdaProcess) stop() { p.Stop() }

func (p *lambdaProcess) invoke(payload []byte) (*runtimeapi.Result, error) { return p.Invoke(payload) }

// expect invokes with an API Gateway v2 event and checks the outcome is an
// APIGatewayV2HTTPResponse with the status and a body containing want.
func (p *lambdaProcess) expect(payload []byte, status int, want string) (*apiResponse, error) {
	res, err := p.invoke(payload)
	if err != nil {
		return nil, err
	}
	r, err := decodeResponse(res)
	if err != nil {
		return nil, fmt.Errorf("%w\n--- function output ---\n%s", err, p.Output())
	}
	if r.StatusCode != status || !strings.Contains(r.Body, want) {
		return r, fmt.Errorf("got %d %s, want %d with %s", r.StatusCode, r.Body, status, want)
	}
	if ct := r.Headers["Content-Type"]; ct != "application/json" {
		return r, fmt.Errorf("content type %q", ct)
	}
	return r, nil
}

type apiResponse struct {
	events.APIGatewayV2HTTPResponse
	Result *runtimeapi.Result
}

// decodeResponse checks the payload is exactly an APIGatewayV2HTTPResponse
// (no unknown fields, one JSON value, a real status) and decodes a base64
// body.
func decodeResponse(res *runtimeapi.Result) (*apiResponse, error) {
	if res.Err != nil {
		return nil, fmt.Errorf("invocation %s failed: %w", res.RequestID, res.Err)
	}
	dec := json.NewDecoder(bytes.NewReader(res.Payload))
	dec.DisallowUnknownFields()
	r := &apiResponse{Result: res}
	if err := dec.Decode(&r.APIGatewayV2HTTPResponse); err != nil {
		return nil, fmt.Errorf("response is not an APIGatewayV2HTTPResponse: %v: %s", err, res.Payload)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("response has data after the JSON object: %s", res.Payload)
	}
	if r.StatusCode < 100 || r.StatusCode > 599 {
		return nil, fmt.Errorf("response status %d: %s", r.StatusCode, res.Payload)
	}
	if r.IsBase64Encoded {
		b, err := base64.StdEncoding.DecodeString(r.Body)
		if err != nil {
			return nil, fmt.Errorf("base64 body: %v", err)
		}
		r.Body = string(b)
	}
	return r, nil
}

// readEventJSON reads a sample event from events/, optionally edited.
func readEventJSON(tb testing.TB, name string, edit func(*events.APIGatewayV2HTTPRequest)) []byte {
	tb.Helper()
	ev := readEvent(tb, name)
	if edit != nil {
		edit(&ev)
	}
	b, err := json.Marshal(ev)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// probes are the two requests of every cold start: GET /api/ (no store
// access) and GET /api/_session with a session cookie (the session is read
// from DynamoDB), with what each must answer.
type probe struct {
	name    string
	payload []byte
	status  int
	want    string
}

func (env *coldStartEnv) probes(tb testing.TB) (root, session probe) {
	root = probe{"GET /api/", readEventJSON(tb, "apigw-v2-get-root.json", nil), 200, `"couchdb":"Welcome"`}
	session = probe{"GET /api/_session (signed in)", readEventJSON(tb, "apigw-v2-get-session-anonymous.json",
		func(ev *events.APIGatewayV2HTTPRequest) { ev.Cookies = []string{env.cookie} }),
		200, `"name":"` + testUserID + `"`}
	return root, session
}

func (p *lambdaProcess) run(pr probe) (*apiResponse, error) {
	r, err := p.expect(pr.payload, pr.status, pr.want)
	if err != nil {
		return r, fmt.Errorf("%s: %w", pr.name, err)
	}
	return r, nil
}

// TestColdStart starts the built binary once under the emulated Runtime API
// and checks the protocol end to end: init reaches next, API Gateway events
// get APIGatewayV2HTTPResponse payloads on /response, a malformed event gets
// an /error report, and the process keeps serving after it.
func TestColdStart(t *testing.T) {
	env := setupColdStart(t)
	p, err := env.start(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.stop()
	t.Logf("init %v (first start on an empty table: %v)", p.Init, env.firstInit)

	root, session := env.probes(t)
	anonymous := probe{"GET /api/_session (anonymous)", readEventJSON(t, "apigw-v2-get-session-anonymous.json", nil), 401, `"error":"unauthorized"`}
	for _, pr := range []probe{root, anonymous, session} {
		r, err := p.run(pr)
		if err != nil {
			t.Fatal(err)
		}
		if r.Result.RequestID == "" || r.Result.Latency() <= 0 {
			t.Errorf("%s: result %+v", pr.name, r.Result)
		}
	}

	// An event the handler cannot decode fails that invocation only.
	res, err := p.invoke([]byte(`"not an API Gateway event"`))
	if err != nil {
		t.Fatal(err)
	}
	if res.Err == nil || res.Err.Type != "UnmarshalTypeError" || !strings.Contains(res.Err.Message, "cannot unmarshal string") {
		t.Fatalf("malformed event: error %+v, payload %s", res.Err, res.Payload)
	}
	if _, err := p.run(root); err != nil {
		t.Fatalf("after a failed invocation: %v", err)
	}
	if errs := p.Emu.ProtocolErrors(); len(errs) > 0 {
		t.Errorf("runtime protocol errors: %v", errs)
	}
	select {
	case <-p.Exited:
		t.Fatalf("process exited: %v\n%s", p.WaitErr(), p.Output())
	default:
	}
}

// TestColdStartInitFailure checks that a failed initialisation fails the
// start with the function's own message, both when the process exits (what
// functions/api does on a bad configuration) and when a runtime reports it
// on /init/error.
func TestColdStartInitFailure(t *testing.T) {
	t.Run("exit", func(t *testing.T) {
		env := setupColdStart(t)
		p, err := env.start(map[string]string{"OFICINA_STORE": "nope"})
		if err == nil {
			p.stop()
			t.Fatal("started with OFICINA_STORE=nope")
		}
		for _, want := range []string{"process exited during init", "exit status 1", `store "nope": must be bolt or dynamo`} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error lacks %q:\n%v", want, err)
			}
		}
	})
	t.Run("init/error", func(t *testing.T) {
		p, err := startLambda(os.Args[0], []string{"-test.run=^TestRuntimeHelperProcess$"}, func(api string) []string {
			return append(os.Environ(), "AWS_LAMBDA_RUNTIME_API="+api, helperEnv+"=init-error")
		})
		if err == nil {
			p.stop()
			t.Fatal("helper runtime started")
		}
		for _, want := range []string{"init error reported to the Runtime API", "Runtime.ConfigError", "table is missing"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error lacks %q:\n%v", want, err)
			}
		}
	})
}

// TestRuntimeHelperProcess is not a test: TestColdStartInitFailure runs the
// test binary as a runtime that reports an init error, as a runtime other
// than aws-lambda-go's may, and BenchmarkColdStart runs it to time auth.New
// in a fresh process.
func TestRuntimeHelperProcess(t *testing.T) {
	switch os.Getenv(helperEnv) {
	case "init-error":
		url := "http://" + os.Getenv("AWS_LAMBDA_RUNTIME_API") + "/" + runtimeapi.APIVersion + "/runtime/init/error"
		req, _ := http.NewRequest(http.MethodPost, url,
			strings.NewReader(`{"errorMessage":"the table is missing","errorType":"Runtime.ConfigError"}`))
		req.Header.Set("Lambda-Runtime-Function-Error-Type", "Runtime.ConfigError")
		if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != http.StatusAccepted {
			fmt.Fprintln(os.Stderr, "init/error:", err, res)
		}
		os.Exit(1)
	case "auth-new":
		t0 := time.Now()
		auth.New(nil, nil, auth.Config{})
		fmt.Printf("auth.New %d\n", time.Since(t0))
		os.Exit(0)
	}
}

// BenchmarkColdStart measures b.N cold starts of the built binary: init
// (process start to the first next request) and the latency of the first
// two requests, GET /api/ and a signed-in GET /api/_session (event handed
// out to response received). ns/op is the whole life of one environment.
//
// After the timed loop, up to five traced starts break init down:
// GODEBUG=inittrace=1 gives the package init time (pkg-init), and a relay
// in front of DynamoDB Local times the calls made during init by
// auth.EnsureSystemDBs (pre-ddb: process start to the first call; ddb-init:
// first call to last response) and counts those of the session request.
// The relay adds a little to those starts, so their init is reported apart
// (traced-init). auth-new is auth.New timed in a fresh process: it hashes a
// dummy password (argon2id) at every start, within pre-ddb.
func BenchmarkColdStart(b *testing.B) {
	env := setupColdStart(b)
	root, session := env.probes(b)

	var inits, firsts, sessions []time.Duration
	for b.Loop() {
		p, err := env.start(nil)
		if err != nil {
			b.Fatal(err)
		}
		r1, err := p.run(root)
		if err != nil {
			p.stop()
			b.Fatal(err)
		}
		r2, err := p.run(session)
		p.stop()
		if err != nil {
			b.Fatal(err)
		}
		inits = append(inits, p.Init)
		firsts = append(firsts, r1.Result.Latency())
		sessions = append(sessions, r2.Result.Latency())
	}
	b.ReportMetric(pct(inits, 50), "init-ms-p50")
	b.ReportMetric(pct(inits, 100), "init-ms-max")
	b.ReportMetric(pct(firsts, 50), "first-req-ms-p50")
	b.ReportMetric(pct(firsts, 100), "first-req-ms-max")
	b.ReportMetric(pct(sessions, 50), "session-req-ms-p50")

	tr := traceColdStarts(b, env, root, session, min(b.N, 5))
	b.ReportMetric(pct(tr.init, 50), "traced-init-ms-p50")
	b.ReportMetric(pct(tr.pkgInit, 50), "pkg-init-ms-p50")
	b.ReportMetric(pct(tr.beforeDDB, 50), "pre-ddb-ms-p50")
	b.ReportMetric(pct(tr.ddb, 50), "ddb-init-ms-p50")
	b.ReportMetric(float64(tr.ddbCalls), "ddb-init-calls")
	b.ReportMetric(float64(tr.sessionCalls), "ddb-session-calls")

	// Part of the time before the first DynamoDB call: auth.New hashes a
	// dummy password (argon2id) at every start. Timed in fresh processes
	// (the test binary as a helper), as its 19 MiB are new memory there.
	var authNew []time.Duration
	for range min(b.N, 5) {
		d, err := timeAuthNewInFreshProcess()
		if err != nil {
			b.Fatal(err)
		}
		authNew = append(authNew, d)
	}
	b.ReportMetric(pct(authNew, 50), "auth-new-ms-p50")

	b.Logf("init p50 %.1f ms over %d starts; traced: packages init %.1f ms, start to first DynamoDB call %.1f ms "+
		"(of which auth.New ≈ %.1f ms), %d DynamoDB calls at init (%s) %.1f ms, last call to next %.1f ms; "+
		"session request: %d calls (%s)",
		pct(inits, 50), len(inits), pct(tr.pkgInit, 50), pct(tr.beforeDDB, 50), pct(authNew, 50),
		tr.ddbCalls, tr.ddbOps, pct(tr.ddb, 50), pct(tr.afterDDB, 50), tr.sessionCalls, tr.sessionOps)
}

type coldStartTrace struct {
	init, pkgInit, beforeDDB, ddb, afterDDB []time.Duration
	ddbCalls, sessionCalls                  int
	ddbOps, sessionOps                      string
}

// traceColdStarts runs n starts with GODEBUG=inittrace=1 and DynamoDB
// behind a timing relay.
func traceColdStarts(b *testing.B, env *coldStartEnv, root, session probe, n int) coldStartTrace {
	b.Helper()
	relay, err := newDDBRelay(strings.TrimPrefix(env.endpoint, "http://"))
	if err != nil {
		b.Fatal(err)
	}
	defer relay.close()
	var tr coldStartTrace
	for range n {
		from := relay.mark()
		p, err := env.start(map[string]string{
			"OFICINA_DYNAMO_ENDPOINT": "http://" + relay.addr(),
			"GODEBUG":                 "inittrace=1",
		})
		if err != nil {
			b.Fatal(err)
		}
		atInit := relay.calls(from)
		if _, err := p.run(root); err != nil {
			p.stop()
			b.Fatal(err)
		}
		beforeSession := relay.mark()
		_, err = p.run(session)
		p.stop()
		if err != nil {
			b.Fatal(err)
		}
		sessionCalls := relay.calls(beforeSession)

		tr.init = append(tr.init, p.Init)
		tr.pkgInit = append(tr.pkgInit, packageInitTime(p.Output()))
		var initCalls []ddbCall
		for _, c := range atInit {
			if c.start.Before(p.ReadyAt) {
				initCalls = append(initCalls, c)
			}
		}
		tr.ddbCalls, tr.ddbOps = len(initCalls), opList(initCalls)
		if len(initCalls) > 0 {
			first, last := initCalls[0], initCalls[len(initCalls)-1]
			tr.beforeDDB = append(tr.beforeDDB, first.start.Sub(p.Started))
			tr.ddb = append(tr.ddb, last.end.Sub(first.start))
			tr.afterDDB = append(tr.afterDDB, p.ReadyAt.Sub(last.end))
		}
		tr.sessionCalls, tr.sessionOps = len(sessionCalls), opList(sessionCalls)
	}
	return tr
}

// timeAuthNewInFreshProcess times auth.New in a new process.
func timeAuthNewInFreshProcess() (time.Duration, error) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestRuntimeHelperProcess$")
	cmd.Env = append(os.Environ(), helperEnv+"=auth-new")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return 0, fmt.Errorf("auth.New helper: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`auth\.New (\d+)`).FindSubmatch(out)
	if m == nil {
		return 0, fmt.Errorf("auth.New helper printed %q", out)
	}
	ns, _ := strconv.ParseInt(string(m[1]), 10, 64)
	return time.Duration(ns), nil
}

var initLine = regexp.MustCompile(`(?m)^init \S+ @([0-9.]+) ms, ([0-9.]+) ms clock`)

// packageInitTime is when the last package init ended, from the runtime's
// start, per GODEBUG=inittrace=1.
func packageInitTime(out string) time.Duration {
	var end float64
	for _, m := range initLine.FindAllStringSubmatch(out, -1) {
		at, _ := strconv.ParseFloat(m[1], 64)
		took, _ := strconv.ParseFloat(m[2], 64)
		end = math.Max(end, at+took)
	}
	return time.Duration(end * float64(time.Millisecond))
}

// pct is the nearest-rank percentile q of ds, in milliseconds.
func pct(ds []time.Duration, q float64) float64 { return coldstart.Pct(ds, q) }

func opList(calls []ddbCall) string {
	ops := make([]string, len(calls))
	for i, c := range calls {
		ops[i] = c.op
	}
	return strings.Join(ops, ",")
}

// ddbRelay is a TCP relay in front of DynamoDB Local that times each
// request: from the first byte of a request (recognised by its
// X-Amz-Target header) to the last byte of the response before the next
// request on that connection.
type ddbRelay struct {
	ln     net.Listener
	target string
	wg     sync.WaitGroup

	mu    sync.Mutex
	log   []ddbCall
	conns map[net.Conn]bool
}

type ddbCall struct {
	op         string
	start, end time.Time
}

func newDDBRelay(target string) (*ddbRelay, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	r := &ddbRelay{ln: ln, target: target, conns: map[net.Conn]bool{}}
	r.wg.Add(1)
	go r.accept()
	return r, nil
}

func (r *ddbRelay) addr() string { return r.ln.Addr().String() }

// mark is the position of the next call in the log.
func (r *ddbRelay) mark() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.log)
}

// calls are the calls logged from mark on, as they stand.
func (r *ddbRelay) calls(from int) []ddbCall {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.log[from:])
}

func (r *ddbRelay) close() {
	r.ln.Close()
	r.mu.Lock()
	for c := range r.conns {
		c.Close()
	}
	r.mu.Unlock()
	r.wg.Wait()
}

func (r *ddbRelay) accept() {
	defer r.wg.Done()
	for {
		down, err := r.ln.Accept()
		if err != nil {
			return
		}
		up, err := net.Dial("tcp", r.target)
		if err != nil {
			down.Close()
			continue
		}
		r.mu.Lock()
		r.conns[down], r.conns[up] = true, true
		r.mu.Unlock()
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			r.pipe(down, up)
		}()
	}
}

var targetHeader = []byte("X-Amz-Target: DynamoDB_20120810.")

// pipe copies both ways; the current call of a connection is the last
// request seen on it (HTTP/1.1 does one at a time per connection).
func (r *ddbRelay) pipe(down, up net.Conn) {
	current := -1
	var cmu sync.Mutex
	done := make(chan struct{})
	go func() { // responses
		defer close(done)
		buf := make([]byte, 32<<10)
		for {
			n, err := up.Read(buf)
			if n > 0 {
				now := time.Now()
				cmu.Lock()
				if current >= 0 {
					r.mu.Lock()
					if current < len(r.log) {
						r.log[current].end = now
					}
					r.mu.Unlock()
				}
				cmu.Unlock()
				if _, werr := down.Write(buf[:n]); werr != nil {
					break
				}
			}
			if err != nil {
				break
			}
		}
		down.Close()
	}()
	buf := make([]byte, 32<<10)
	for {
		n, err := down.Read(buf)
		if n > 0 {
			if i := bytes.Index(buf[:n], targetHeader); i >= 0 {
				op := buf[i+len(targetHeader) : n]
				if j := bytes.IndexByte(op, '\r'); j >= 0 {
					op = op[:j]
				}
				r.mu.Lock()
				r.log = append(r.log, ddbCall{op: string(op), start: time.Now()})
				idx := len(r.log) - 1
				r.mu.Unlock()
				cmu.Lock()
				current = idx
				cmu.Unlock()
			}
			if _, werr := up.Write(buf[:n]); werr != nil {
				break
			}
		}
		if err != nil {
			break
		}
	}
	up.Close()
	<-done
	r.mu.Lock()
	delete(r.conns, down)
	delete(r.conns, up)
	r.mu.Unlock()
}
