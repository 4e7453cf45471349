// Package apptest runs the whole product in a test — every module wired as
// in production by shared/app, the real auth service, the real write path —
// on either store: bbolt in a temp dir, or DynamoDB Local (started by the
// tests, never skipped). Module tests use it to prove each rule on both
// stores and through every write route, the change stream's counters exact
// under replay, and tenant isolation.
//
//	func TestMain(m *testing.M) { os.Exit(apptest.Main(m)) }
//
//	func TestSomething(t *testing.T) {
//		apptest.Each(t, func(t *testing.T, e *apptest.Env) {
//			ana := e.SignUp("ana@example.com")
//			db := e.Group(ana, "Oficina da Ana")
//			res := ana.Do("POST", "/api/"+db, map[string]any{"klass": "Customer", "name": "Bia"})
//			res.Expect(t, 201)
//			e.Drain()          // history and counters, as the stream would
//			e.CheckCounts(db)  // counters equal a recount
//		})
//	}
package apptest

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/oficina/oficina/shared/app"
	"github.com/oficina/oficina/shared/app/standalone"
	"github.com/oficina/oficina/shared/auth"
	"github.com/oficina/oficina/shared/blob"
	"github.com/oficina/oficina/shared/blob/blobtest"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/mail"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/store/bolt"
	"github.com/oficina/oficina/shared/store/dynamo"
	"github.com/oficina/oficina/shared/store/dynamo/ddblocal"
	"github.com/oficina/oficina/shared/stream"
	"github.com/oficina/oficina/shared/stream/streamtest"
)

// Backend names a store the product runs on.
type Backend string

const (
	Bolt   Backend = "bolt"
	Dynamo Backend = "dynamo"
)

// Backends are both stores, in the order Each runs them.
var Backends = []Backend{Bolt, Dynamo}

// BaseURL is the product's public URL in tests (links in mail, QR codes).
const BaseURL = "https://app.oficina.test"

// Main runs a test binary with one shared DynamoDB Local; use it from TestMain.
func Main(m *testing.M) int { return ddblocal.Main(m) }

// Each runs fn as a subtest on each backend, each with a fresh product.
func Each(t *testing.T, fn func(t *testing.T, e *Env), opts ...Option) {
	t.Helper()
	for _, b := range Backends {
		t.Run(string(b), func(t *testing.T) { fn(t, New(t, b, opts...)) })
	}
}

// Option adjusts the product's configuration before it is wired. It is a
// plain function type (an alias), so helpers below apptest, such as
// billing/billingtest, can hand one out without importing apptest.
type Option = func(*config.Config)

// S3Blobs keeps the drive's contents in a fresh versioned bucket of the S3
// test server (blob/blobtest's gateway, started for tb) instead of the
// filesystem store every Env has by default.
func S3Blobs(tb testing.TB) Option {
	tb.Helper()
	client, bucket := blobtest.StartS3(tb)
	endpoint := aws.ToString(client.Options().BaseEndpoint)
	return func(c *config.Config) { c.Blobs, c.Bucket, c.S3Endpoint = "s3", bucket, endpoint }
}

// S3Backups keeps the backups in a fresh bucket of their own with Object
// Lock on, as the stack does, on the S3Blobs server (give it after S3Blobs).
func S3Backups(tb testing.TB) Option {
	tb.Helper()
	return func(c *config.Config) {
		if c.S3Endpoint == "" {
			tb.Fatal("apptest: S3Backups needs S3Blobs before it")
		}
		bucket := blobtest.BucketName(tb)
		if err := blobtest.CreateLockedBucket(tb.Context(), blobtest.NewClient(c.S3Endpoint), bucket); err != nil {
			tb.Fatal(err)
		}
		c.BackupBucket = bucket
	}
}

// Env is one running product.
type Env struct {
	T       testing.TB
	Backend Backend
	App     *app.App
	Store   store.Store
	// Blobs is the drive's blob store: the filesystem under the Env's temp
	// data dir, or S3 with the S3Blobs option.
	Blobs  blob.Store
	Clock  *Clock
	Outbox string // the mail outbox folder
	// Meter adds up the capacity units the store consumes (DynamoDB only;
	// nil on bolt): benchmarks print RCU per operation from it.
	Meter *ddblocal.Meter
	// Dynamo and Table are the DynamoDB Local client and the Env's table
	// (DynamoDB only), for code that keeps its own items next to the store's.
	Dynamo *dynamodb.Client
	Table  string
	// DynamoEndpoint is DynamoDB Local's address (DynamoDB only): a test that
	// wants writes counted by AWS's rules sets Meter.Rules with a client of it.
	DynamoEndpoint string

	consumer *stream.Consumer
	follow   func(ctx context.Context) ([]store.Change, error) // new committed changes
	ack      func(ctx context.Context) error

	mu      sync.Mutex
	applied []store.Change // every change Drain applied, for Replay
}

// New wires the product on backend b.
func New(t testing.TB, b Backend, opts ...Option) *Env {
	t.Helper()
	return NewWithWorker(t, b, nil, opts...)
}

// NewWithWorker wires the product on backend b as the stack's api is:
// what only the worker function may do (backups) goes through worker.
func NewWithWorker(t testing.TB, b Backend, worker func(ctx context.Context, payload []byte) ([]byte, error), opts ...Option) *Env {
	t.Helper()
	dir := t.TempDir()
	cfg, err := config.Load([]string{"--data", dir, "--base-url", BaseURL, "--log-level", "error"}, func(string) string { return "" }, config.Local)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range opts {
		o(&cfg)
	}
	e := &Env{T: t, Backend: b, Clock: &Clock{t: time.Now().UTC().Truncate(time.Millisecond)}, Outbox: filepath.Join(dir, "outbox")}
	quiet := slog.New(slog.DiscardHandler)
	ctx := context.Background()
	switch b {
	case Bolt:
		st, err := bolt.Open(filepath.Join(dir, "oficina.db"), bolt.Options{})
		if err != nil {
			t.Fatal(err)
		}
		e.Store = st
		e.follow, e.ack = boltFollower(st)
	case Dynamo:
		endpoint, _ := ddblocal.Start(t)
		e.Meter = &ddblocal.Meter{}
		e.DynamoEndpoint = endpoint
		client := ddblocal.NewClient(endpoint, func(o *dynamodb.Options) { o.APIOptions = append(o.APIOptions, e.Meter.Middleware) })
		table := ddblocal.TableName(t)
		cctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		if err := dynamo.CreateTable(cctx, client, table); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			_, _ = client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(table)})
		})
		reader, err := ddblocal.NewStreamReader(cctx, endpoint, client, table)
		if err != nil {
			t.Fatal(err)
		}
		e.Store = dynamo.New(client, table)
		e.Dynamo, e.Table = client, table
		e.follow, e.ack = dynamoFollower(reader), func(context.Context) error { return nil }
	default:
		t.Fatalf("apptest: unknown backend %q", b)
	}
	var blobs, backups blob.Store
	if cfg.Blobs == "s3" {
		// The test server's dummy credentials, never the machine's.
		blobs = blob.NewS3(blobtest.NewClient(cfg.S3Endpoint), cfg.Bucket, nil)
		// With a worker, the api reaches no backups store: the worker does.
		if cfg.BackupBucket != "" && worker == nil {
			backups = blob.NewS3(blobtest.NewClient(cfg.S3Endpoint), cfg.BackupBucket, nil)
		}
	}
	a, err := standalone.OpenWith(ctx, cfg, quiet, standalone.Overrides{
		Store:   e.Store,
		Blobs:   blobs,
		Backups: backups,
		Mail:    mail.NewOutbox(e.Outbox, "Oficina <no-reply@oficina.test>", quiet).WithClock(e.Clock.Now),
		Now:     e.Clock.Now,
		Argon2:  &auth.Argon2Params{MemoryKiB: 64, Time: 1, Threads: 1},
		Worker:  worker,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	e.App = a
	e.Blobs = a.Blobs
	e.consumer = a.Consumer()
	return e
}

// boltFollower reads the embedded store's outbox; ack removes what was applied.
func boltFollower(st *bolt.Store) (func(context.Context) ([]store.Change, error), func(context.Context) error) {
	var pending []uint64
	follow := func(ctx context.Context) ([]store.Change, error) {
		es, err := st.ReadOutbox(ctx, 0)
		if err != nil {
			return nil, err
		}
		pending = pending[:0]
		out := make([]store.Change, len(es))
		for i, en := range es {
			out[i] = en.Change
			pending = append(pending, en.Key)
		}
		return out, nil
	}
	ack := func(ctx context.Context) error { return st.AckOutbox(ctx, pending) }
	return follow, ack
}

// dynamoFollower reads DynamoDB Local's stream, decoded as the stream
// function decodes it on AWS.
func dynamoFollower(r *ddblocal.StreamReader) func(context.Context) ([]store.Change, error) {
	return func(ctx context.Context) ([]store.Change, error) {
		recs, err := r.Read(ctx)
		if err != nil {
			return nil, err
		}
		var out []store.Change
		for _, rec := range recs {
			ch, ok, err := dynamo.ChangeOf(rec)
			if err != nil {
				return nil, err
			}
			if ok {
				out = append(out, ch)
			}
		}
		return out, nil
	}
}

// Drain applies every committed change to history, counters and the
// modules' reactions, as the change stream does in production, until
// nothing is left (reactions may write more).
func (e *Env) Drain() {
	e.T.Helper()
	ctx := context.Background()
	for range 50 {
		changes, err := e.follow(ctx)
		if err != nil {
			e.T.Fatal(err)
		}
		if len(changes) == 0 {
			return
		}
		if err := e.consumer.Apply(ctx, changes); err != nil {
			e.T.Fatalf("stream: %v", err)
		}
		if err := e.ack(ctx); err != nil {
			e.T.Fatal(err)
		}
		e.mu.Lock()
		e.applied = append(e.applied, changes...)
		e.mu.Unlock()
	}
	e.T.Fatal("apptest: the stream did not settle after 50 rounds")
}

// Applied returns every change Drain has applied so far, in order.
func (e *Env) Applied() []store.Change {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.applied)
}

// Replay applies every change drained so far once more, shuffled (seeded),
// as a redelivering, reordering stream would: counters and history must
// not move. It drains first.
func (e *Env) Replay(seed uint64) {
	e.T.Helper()
	e.Drain()
	e.mu.Lock()
	all := slices.Clone(e.applied)
	e.mu.Unlock()
	r := rand.New(rand.NewPCG(seed, seed^0x5bd1e995))
	r.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	for i := 0; i < len(all); {
		n := 1 + r.IntN(100)
		if err := e.consumer.Apply(context.Background(), all[i:min(i+n, len(all))]); err != nil {
			e.T.Fatalf("replay: %v", err)
		}
		i += n
	}
}

// Counts returns db's counters as the views read them (drain first).
func (e *Env) Counts(db string) stream.Counts {
	e.T.Helper()
	c, err := stream.Read(context.Background(), e.Store, db)
	if err != nil {
		e.T.Fatal(err)
	}
	return c
}

// CheckCounts drains and fails unless db's counters equal a recount of
// its documents with every module's tallies.
func (e *Env) CheckCounts(db string) stream.Counts {
	e.T.Helper()
	e.Drain()
	return streamtest.CheckCounts(e.T, e.consumer, e.Store, db)
}

// UpdateSeq is db's update sequence, read straight from the store: a
// refused write must leave it where it was.
func (e *Env) UpdateSeq(db string) uint64 {
	e.T.Helper()
	info, err := e.Store.DBInfo(context.Background(), db)
	if err != nil {
		e.T.Fatal(err)
	}
	return info.UpdateSeq
}

// Doc reads a document straight from the store, with _id and _rev; nil
// when it does not exist or is deleted.
func (e *Env) Doc(db, id string) map[string]any {
	e.T.Helper()
	d, err := e.Store.Get(context.Background(), db, id)
	if err != nil {
		return nil
	}
	var m map[string]any
	if err := json.Unmarshal(docs.WithMeta(d), &m); err != nil {
		e.T.Fatal(err)
	}
	return m
}

// SetPlan moves a Group's confirmed plan as the billing webhook would: a
// server write of its confirmed-plan adjustment (clients cannot write it).
func (e *Env) SetPlan(db, plan string) {
	e.T.Helper()
	ctx := context.Background()
	page, err := e.Store.List(ctx, db, store.ListQuery{Klass: "Adjustment"})
	if err != nil {
		e.T.Fatal(err)
	}
	for _, d := range page.Docs {
		body, err := docs.Decode(d.Body)
		if err != nil || body["key"] != "confirmed-plan" {
			continue
		}
		body["value"] = plan
		raw, err := json.Marshal(body)
		if err != nil {
			e.T.Fatal(err)
		}
		if _, err := e.Store.Put(ctx, db, store.Doc{ID: d.ID, Rev: d.Rev, Klass: d.Klass, SortKey: d.SortKey, Body: raw}); err != nil {
			e.T.Fatal(err)
		}
		if got, err := e.App.Accounts.Plan(ctx, db); err != nil || got != plan {
			e.T.Fatalf("plan = %q (%v), want %q", got, err, plan)
		}
		return
	}
	e.T.Fatalf("no confirmed-plan adjustment in %s", db)
}

// Unchanged runs fn and fails if it moved db's update sequence: the check
// that a refused request wrote nothing.
func (e *Env) Unchanged(db string, fn func()) {
	e.T.Helper()
	before := e.UpdateSeq(db)
	fn()
	if after := e.UpdateSeq(db); after != before {
		e.T.Fatalf("%s: update_seq moved from %d to %d", db, before, after)
	}
}

// Clock is the product's clock in tests: it starts at the real time (the
// store expires records by its own clock) and only moves forward.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// Now returns the current test time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock forward.
func (c *Clock) Advance(d time.Duration) {
	if d < 0 {
		panic(fmt.Sprintf("apptest: the clock only moves forward, not by %v", d))
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// LambdaTable starts (or joins) DynamoDB Local, creates a table of the
// product's shape for t, and sets the AWS environment a function's wiring
// reads to DynamoDB Local's dummies (it keeps tables per key and region):
// the functions' tests wire them as on AWS, from the environment.
func LambdaTable(t *testing.T) (endpoint, table string) {
	t.Helper()
	endpoint, client := ddblocal.Start(t)
	table = ddblocal.TableName(t)
	if err := dynamo.CreateTable(t.Context(), client, table); err != nil {
		t.Fatal(err)
	}
	LambdaEnv(t)
	return endpoint, table
}

// LambdaEnv sets the AWS environment a function's wiring reads to DynamoDB
// Local's dummies (it keeps tables per key and region).
func LambdaEnv(t *testing.T) {
	t.Setenv("AWS_ACCESS_KEY_ID", ddblocal.AccessKey)
	t.Setenv("AWS_SECRET_ACCESS_KEY", ddblocal.SecretKey)
	t.Setenv("AWS_REGION", ddblocal.Region)
}
