package coldstart

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/store/dynamo"
	"github.com/oficina/oficina/shared/store/dynamo/ddblocal"
)

func TestMain(m *testing.M) { os.Exit(ddblocal.Main(m)) }

// function is a Lambda function the benchmark starts: its package, the
// settings infra-cdk gives it (on DynamoDB Local), and an event it must
// answer (with a function error containing fails, when set). functions/api
// also has a benchmark of its own that breaks its start down. A new
// function gets an entry.
type function struct {
	name     string
	settings map[string]string
	event    string
	fails    string
}

func functions(tb testing.TB) []function {
	event := func(name string) string {
		raw, err := os.ReadFile(filepath.Join("..", "..", "..", "events", name))
		if err != nil {
			tb.Fatal(err)
		}
		return string(raw)
	}
	return []function{
		// GOGC and GOMEMLIMIT as the stack sets them (infra-cdk/lib/oficina-stack.ts API_GC).
		{name: "api", settings: map[string]string{"OFICINA_MAIL": "outbox", "OFICINA_COOKIE_SECURE": "true", "GOGC": "400", "GOMEMLIMIT": "768MiB"},
			event: event("apigw-v2-get-root.json")},
		{name: "stream", event: `{"Records":[]}`},
		{name: "schedule", settings: map[string]string{"OFICINA_JOBS_QUEUE_URL": "https://sqs.us-east-1.amazonaws.com/123456789012/oficina-jobs"},
			event: `{"id":"x","detail-type":"Scheduled Event","source":"aws.events","time":"2026-05-04T09:00:00Z","detail":{"job":"nobody.registered"}}`,
			fails: "unknown job"},
		// GOGC as the stack sets it (infra-cdk/lib/schedules.ts WORKER_GOGC).
		{name: "worker", settings: map[string]string{"OFICINA_MAIL": "outbox", "GOGC": "200"},
			event: `{"Records":[{"messageId":"m1","eventSource":"aws:sqs","body":"not a task"}]}`},
		// $disconnect posts nothing to the management endpoint, which is
		// not there.
		{name: "live", settings: map[string]string{"OFICINA_MAIL": "outbox", "OFICINA_LIVE_ENDPOINT": "http://127.0.0.1:9/live"},
			event: event("apigw-websocket-disconnect.json")},
	}
}

// env is a DynamoDB Local table that has seen a first start (the system
// databases exist, as on a deployed table) and the functions' binaries.
type env struct {
	dir, endpoint, table string
}

func setup(tb testing.TB) env {
	tb.Helper()
	endpoint, client := ddblocal.Start(tb)
	e := env{dir: tb.TempDir(), endpoint: endpoint, table: ddblocal.TableName(tb)}
	if err := dynamo.CreateTable(context.Background(), client, e.table); err != nil {
		tb.Fatal(err)
	}
	return e
}

func (e env) start(tb testing.TB, f function) (*Process, error) {
	tb.Helper()
	return e.startBin(tb, f, Build(tb, e.dir, filepath.Join("..", "..", f.name), f.name))
}

func (e env) startBin(tb testing.TB, f function, bin string) (*Process, error) {
	tb.Helper()
	settings := map[string]string{
		"OFICINA_STORE": "dynamo", "OFICINA_TABLE": e.table, "OFICINA_DYNAMO_ENDPOINT": e.endpoint,
		"OFICINA_DATA": filepath.Join(e.dir, "data"), "OFICINA_BASE_URL": "https://app.oficina.example",
		"OFICINA_LOG_FORMAT": "json", "OFICINA_MAIL_FROM": "Oficina <no-reply@oficina.example>",
	}
	for k, v := range f.settings {
		settings[k] = v
	}
	arn := "arn:aws:lambda:us-east-1:123456789012:function:oficina-" + f.name
	return Start(bin, nil, arn, func(api string) []string { return Environ(api, "oficina-"+f.name, bin, settings) })
}

// TestColdStarts starts each function as Lambda does and has it answer
// one event: it initialises on the table and speaks the Runtime API.
func TestColdStarts(t *testing.T) {
	e := setup(t)
	for _, f := range functions(t) {
		t.Run(f.name, func(t *testing.T) {
			p, err := e.start(t, f)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Stop()
			t.Logf("init %v", p.Init)
			res, err := p.Invoke([]byte(f.event))
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case f.fails == "" && res.Err != nil:
				t.Fatalf("%s: %+v\n%s", f.name, res.Err, p.Output())
			case f.fails != "" && (res.Err == nil || !strings.Contains(res.Err.Message, f.fails)):
				t.Fatalf("%s: want an error with %q, got %+v %s", f.name, f.fails, res.Err, res.Payload)
			}
			if errs := p.Emu.ProtocolErrors(); len(errs) > 0 {
				t.Errorf("runtime protocol errors: %v", errs)
			}
		})
	}
}

// BenchmarkColdStart measures b.N cold starts of each function's built
// binary on DynamoDB Local: init (process start to the first next
// request) and the first event's latency. ns/op is the whole life of one
// environment. make bench runs it; the target is init ≤ 15 ms.
//
// With COLDSTART_COMPARE=<dir> it also starts <dir>/bootstrap-<name>
// (another build of the same functions, e.g. of an older commit, built as
// Build does) in the same loop, one start of each in turn, and reports
// its figures as <name>/compared: a comparison valid on a busy machine.
//
// log-bytes-per-event is what the function itself writes to its log for
// the event (the stack keeps Lambda's own START, END and REPORT lines out
// of CloudWatch: infra-cdk/lib/go-function.ts), which the cost model
// prices (shared/capacity).
func BenchmarkColdStart(b *testing.B) {
	e := setup(b)
	compare := os.Getenv("COLDSTART_COMPARE")
	for _, f := range functions(b) {
		b.Run(f.name, func(b *testing.B) {
			bins := []string{Build(b, e.dir, filepath.Join("..", "..", f.name), f.name)}
			if compare != "" {
				bins = append(bins, filepath.Join(compare, "bootstrap-"+f.name))
			}
			// A first start with its event makes the system databases, as
			// on a deployed table (the worker makes them at its first
			// event, the api at its start).
			for _, bin := range bins {
				warm, err := e.startBin(b, f, bin)
				if err != nil {
					b.Fatal(err)
				}
				_, err = warm.Invoke([]byte(f.event))
				warm.Stop()
				if err != nil {
					b.Fatal(err)
				}
			}
			inits, firsts := make([][]time.Duration, len(bins)), make([][]time.Duration, len(bins))
			logged := 0
			for b.Loop() {
				for i, bin := range bins {
					p, err := e.startBin(b, f, bin)
					if err != nil {
						b.Fatal(err)
					}
					before := len(p.Output())
					res, err := p.Invoke([]byte(f.event))
					if i == 0 {
						logged += len(p.Output()) - before
					}
					p.Stop()
					if err != nil {
						b.Fatal(err)
					}
					inits[i] = append(inits[i], p.Init)
					firsts[i] = append(firsts[i], res.Latency())
				}
			}
			if compare != "" {
				b.Logf("%s/compared (%s): init p50 %.1f ms, max %.1f ms; first event p50 %.1f ms",
					f.name, bins[1], Pct(inits[1], 50), Pct(inits[1], 100), Pct(firsts[1], 50))
				b.ReportMetric(Pct(inits[1], 50), "compared-init-ms-p50")
			}
			b.ReportMetric(Pct(inits[0], 50), "init-ms-p50")
			b.ReportMetric(Pct(inits[0], 100), "init-ms-max")
			b.ReportMetric(Pct(firsts[0], 50), "first-event-ms-p50")
			b.ReportMetric(float64(logged)/float64(len(firsts[0])), "log-bytes-per-event")
		})
	}
}
