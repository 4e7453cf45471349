package main

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	ddbtypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"

	"github.com/oficina/oficina/shared/app"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/mail"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/store/dynamo"
	"github.com/oficina/oficina/shared/store/dynamo/ddblocal"
	"github.com/oficina/oficina/shared/stream"
	"github.com/oficina/oficina/shared/stream/streamtest"
	"github.com/oficina/oficina/shared/ticket"
)

func TestMain(m *testing.M) { os.Exit(ddblocal.Main(m)) }

const db = "acc-4f1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e"

// batchSize is the event source's batch size (infra-cdk STREAM_SOURCE).
const batchSize = 100

// newTable creates a table from table.json in the shared DynamoDB Local.
func newTable(t *testing.T) (endpoint string, client *dynamodb.Client, table string) {
	t.Helper()
	endpoint, client = ddblocal.Start(t)
	table = ddblocal.TableName(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := dynamo.CreateTable(ctx, client, table); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(table)})
	})
	return endpoint, client, table
}

// readStream reads every record of the table's stream from the start,
// shard by shard, converted into Lambda's event records.
func readStream(t *testing.T, endpoint string, client *dynamodb.Client, table string) []events.DynamoDBEventRecord {
	t.Helper()
	r, err := ddblocal.NewStreamReader(t.Context(), endpoint, client, table)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := r.Read(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// feed delivers records to the handler in event-source batches, through
// JSON as Lambda does, and fails on any reported failure.
func feed(t *testing.T, h *Handler, recs []events.DynamoDBEventRecord) {
	t.Helper()
	for i := 0; i < len(recs); i += batchSize {
		raw, err := json.Marshal(events.DynamoDBEvent{Records: recs[i:min(i+batchSize, len(recs))]})
		if err != nil {
			t.Fatal(err)
		}
		var ev events.DynamoDBEvent
		if err := json.Unmarshal(raw, &ev); err != nil {
			t.Fatal(err)
		}
		resp, err := h.Handle(t.Context(), ev)
		if err != nil || len(resp.BatchItemFailures) > 0 {
			t.Fatalf("Handle: %v, %d failures", err, len(resp.BatchItemFailures))
		}
	}
}

// meter adds up the capacity DynamoDB Local reports for every call.
type meter struct {
	mu          sync.Mutex
	read, write float64
	calls       int
}

func (m *meter) middleware(stack *middleware.Stack) error {
	return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("meter",
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			const rc = ddbtypes.ReturnConsumedCapacityTotal
			switch p := in.Parameters.(type) {
			case *dynamodb.GetItemInput:
				p.ReturnConsumedCapacity = rc
			case *dynamodb.PutItemInput:
				p.ReturnConsumedCapacity = rc
			case *dynamodb.UpdateItemInput:
				p.ReturnConsumedCapacity = rc
			case *dynamodb.TransactWriteItemsInput:
				p.ReturnConsumedCapacity = rc
			}
			out, md, err := next.HandleInitialize(ctx, in)
			var ccs []ddbtypes.ConsumedCapacity
			write := true
			switch r := out.Result.(type) {
			case *dynamodb.GetItemOutput:
				write = false
				if r.ConsumedCapacity != nil {
					ccs = append(ccs, *r.ConsumedCapacity)
				}
			case *dynamodb.PutItemOutput:
				if r.ConsumedCapacity != nil {
					ccs = append(ccs, *r.ConsumedCapacity)
				}
			case *dynamodb.UpdateItemOutput:
				if r.ConsumedCapacity != nil {
					ccs = append(ccs, *r.ConsumedCapacity)
				}
			case *dynamodb.TransactWriteItemsOutput:
				ccs = r.ConsumedCapacity
			}
			m.mu.Lock()
			m.calls++
			for _, cc := range ccs {
				if write {
					m.write += aws.ToFloat64(cc.CapacityUnits)
				} else {
					m.read += aws.ToFloat64(cc.CapacityUnits)
				}
			}
			m.mu.Unlock()
			return out, md, err
		}), middleware.After)
}

// TestStreamFromDynamoDBLocal writes documents through the DynamoDB store,
// reads DynamoDB Local's stream, feeds it to the handler and checks the
// stream's equalities: counters equal a recount, one history entry per
// change, and a replay (also of the consumer's own writes) changes nothing.
func TestStreamFromDynamoDBLocal(t *testing.T) {
	endpoint, client, table := newTable(t)
	st := dynamo.New(client, table)
	newConsumer(st) // notes the writes, as the API's consumer does
	w := streamtest.NewWriter(t, st, db)
	w.RandomMix(11, 400)

	recs := readStream(t, endpoint, client, table)
	docs := 0
	for _, r := range recs {
		if _, ok, _ := dynamo.ChangeOf(r); ok {
			docs++
		}
	}
	if docs != len(w.Changes) {
		t.Fatalf("the stream holds %d document changes, the writer made %d", docs, len(w.Changes))
	}

	var m meter
	metered := dynamo.New(ddblocal.NewClient(endpoint, func(o *dynamodb.Options) {
		o.Credentials, o.Region = client.Options().Credentials, client.Options().Region
		o.APIOptions = append(o.APIOptions, m.middleware)
	}), table)
	h := NewHandler(newConsumer(metered), nil)
	start := time.Now()
	feed(t, h, recs)
	took := time.Since(start)
	t.Logf("%d stream records (%d document changes) in %v; DynamoDB Local metered %.1f WCU and %.1f RCU: %.2f WCU and %.2f RCU per change, %d calls",
		len(recs), docs, took, m.write, m.read, m.write/float64(docs), m.read/float64(docs), m.calls)

	streamtest.CheckCounts(t, newConsumer(st), st, db)
	streamtest.CheckHistory(t, st, db, w.Changes)
	snap := streamtest.Take(t, st, db, w.IDs())

	feed(t, h, recs)
	streamtest.Take(t, st, db, w.IDs()).Equal(t, "the same records again", snap)

	// The stream now also carries the consumer's own writes (history
	// entries, contributions, counters): replaying all of it is a no-op.
	all := readStream(t, endpoint, client, table)
	if len(all) <= len(recs) {
		t.Fatalf("stream has %d records after the consumer ran, want more than %d", len(all), len(recs))
	}
	feed(t, h, all)
	streamtest.Take(t, st, db, w.IDs()).Equal(t, "the whole stream again", snap)
}

// failing fails Apply for changes of one document.
type failing struct {
	bad   string
	calls [][]store.Change
}

func (f *failing) Apply(_ context.Context, chs []store.Change) error {
	f.calls = append(f.calls, chs)
	for _, ch := range chs {
		if ch.New.ID == f.bad {
			return errors.New("boom")
		}
	}
	return nil
}

// flaky fails the first call only: a batch that fails as a whole but whose
// records all pass one by one.
type flaky struct{ n int }

func (f *flaky) Apply(context.Context, []store.Change) error {
	f.n++
	if f.n == 1 {
		return errors.New("throttled")
	}
	return nil
}

// TestPartialFailure: the failing record and every later record are
// reported, none before it.
func TestPartialFailure(t *testing.T) {
	ev := sampleEvent(t, "dynamodb-stream-batch.json")
	ev.Records = append(ev.Records, sampleEvent(t, "dynamodb-stream-delete.json").Records...)
	var seqs []string
	for _, r := range ev.Records {
		seqs = append(seqs, r.Change.SequenceNumber)
	}

	// The ticket's first change (the first record) fails: every record
	// comes back.
	f := &failing{bad: "tik-0a1b2c3d4e5f60718293a4b5c6d7e8f9"}
	resp, err := NewHandler(f, nil).Handle(t.Context(), ev)
	if err != nil {
		t.Fatal(err)
	}
	if got := failed(resp); !slices.Equal(got, seqs) {
		t.Fatalf("failures %v, want every record: %v", got, seqs)
	}

	// With the first two records about another ticket, only the deletion
	// (the fourth record) fails: it and the three after it come back.
	ev2 := sampleEvent(t, "dynamodb-stream-batch.json")
	ev2.Records = append(ev2.Records, sampleEvent(t, "dynamodb-stream-delete.json").Records...)
	other := events.NewStringAttribute("D#tik-00000000000000000000000000000000")
	ev2.Records[0].Change.NewImage["SK"] = other
	ev2.Records[1].Change.NewImage["SK"] = other
	ev2.Records[1].Change.OldImage["SK"] = other
	resp, err = NewHandler(f, nil).Handle(t.Context(), ev2)
	if err != nil {
		t.Fatal(err)
	}
	if got := failed(resp); !slices.Equal(got, seqs[3:]) {
		t.Fatalf("failures %v, want %v", got, seqs[3:])
	}

	// A batch that fails whole but passes record by record is a success.
	resp, err = NewHandler(&flaky{}, nil).Handle(t.Context(), ev)
	if err != nil || len(resp.BatchItemFailures) != 0 {
		t.Fatalf("flaky batch: %v, %d failures", err, len(resp.BatchItemFailures))
	}
}

func failed(resp events.DynamoDBEventResponse) []string {
	var ids []string
	for _, b := range resp.BatchItemFailures {
		ids = append(ids, b.ItemIdentifier)
	}
	return ids
}

func sampleEvent(t *testing.T, name string) events.DynamoDBEvent {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "events", name))
	if err != nil {
		t.Fatal(err)
	}
	var ev events.DynamoDBEvent
	if err := json.Unmarshal(raw, &ev); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return ev
}

// TestSampleEvents runs the sample batches of events/ through the handler
// on a DynamoDB Local table: everything in them that is not a document
// write (a TTL expiry, the consumer's own writes, the db meta item, log
// rows) is skipped, and the ticket's create, update and deletion — here
// committed through the store first, as the API does, so the table's log
// holds them with their notes — end as three history entries and no
// counted records.
func TestSampleEvents(t *testing.T) {
	_, client, table := newTable(t)
	st := dynamo.New(client, table)
	h := NewHandler(newConsumer(st), nil)
	if err := st.CreateDB(t.Context(), db); err != nil {
		t.Fatal(err)
	}
	batch := sampleEvent(t, "dynamodb-stream-batch.json")
	del := sampleEvent(t, "dynamodb-stream-delete.json")

	var changes []store.Change
	for _, ev := range []events.DynamoDBEvent{batch, del} {
		for _, r := range ev.Records {
			ch, ok, err := dynamo.ChangeOf(r)
			if err != nil {
				t.Fatalf("record %s: %v", r.EventID, err)
			}
			if ok {
				changes = append(changes, ch)
			}
		}
	}
	// INSERT, MODIFY, tombstone MODIFY, and the history entry's INSERT (a
	// document, in the layout before the log).
	if len(changes) != 4 || changes[0].Old != nil || changes[1].Old == nil || !changes[2].New.Deleted || changes[3].New.Klass != "DocumentChange" {
		t.Fatalf("changes from the samples: %+v", changes)
	}
	ticket := changes[0].New.ID
	rev := ""
	for _, ch := range changes[:3] {
		d := ch.New
		d.Rev = rev
		saved, err := st.Put(t.Context(), db, d)
		if err != nil {
			t.Fatal(err)
		}
		rev = saved.Rev
	}

	for _, ev := range []events.DynamoDBEvent{batch, del} {
		resp, err := h.Handle(t.Context(), ev)
		if err != nil || len(resp.BatchItemFailures) > 0 {
			t.Fatalf("Handle: %v %+v", err, resp)
		}
	}
	counts, err := stream.Read(t.Context(), st, db)
	if err != nil {
		t.Fatal(err)
	}
	if len(counts.Klass) != 0 || len(counts.Tallies) != 0 {
		t.Fatalf("counts after the deletion: %+v", counts)
	}
	entries, err := stream.HistoryOf(t.Context(), st, db, ticket)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, d := range slices.Backward(entries) {
		var hist stream.History
		if err := json.Unmarshal(d.Body, &hist); err != nil {
			t.Fatal(err)
		}
		if hist.Whodunnit == nil || hist.Whodunnit.Label != "Ana" {
			t.Fatalf("history without who: %s", d.Body)
		}
		kinds = append(kinds, hist.Events...)
	}
	if want := []string{"create", "update", "status", "destroy"}; !slices.Equal(kinds, want) {
		t.Fatalf("events %v, want %v", kinds, want)
	}
	snap := streamtest.Take(t, st, db, []string{ticket})
	for _, ev := range []events.DynamoDBEvent{batch, del} {
		if _, err := h.Handle(t.Context(), ev); err != nil {
			t.Fatal(err)
		}
	}
	streamtest.Take(t, st, db, []string{ticket}).Equal(t, "samples again", snap)
}

// TestWire builds the function as main does, from the environment, against
// DynamoDB Local, and runs a sample batch through it.
func TestWire(t *testing.T) {
	endpoint, client, table := newTable(t)
	creds, err := client.Options().Credentials.Retrieve(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	// The SDK's default chain reads these; DynamoDB Local keeps tables per
	// access key and region, so they must be ddblocal's.
	t.Setenv("AWS_ACCESS_KEY_ID", creds.AccessKeyID)
	t.Setenv("AWS_SECRET_ACCESS_KEY", creds.SecretAccessKey)
	t.Setenv("AWS_REGION", client.Options().Region)
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(t.TempDir(), "none"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(t.TempDir(), "none"))
	env := map[string]string{"OFICINA_TABLE": table, "OFICINA_DYNAMO_ENDPOINT": endpoint}
	h, err := wire(t.Context(), func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	writer := dynamo.New(client, table)
	newConsumer(writer)
	if err := writer.CreateDB(t.Context(), db); err != nil {
		t.Fatal(err)
	}
	ev := sampleEvent(t, "dynamodb-stream-batch.json")
	// The sample's ticket, committed as the API would (the log holds it).
	ch, _, err := dynamo.ChangeOf(ev.Records[0])
	if err != nil {
		t.Fatal(err)
	}
	ch.New.Rev = ""
	if _, err := writer.Put(t.Context(), db, ch.New); err != nil {
		t.Fatal(err)
	}
	resp, err := h.Handle(t.Context(), ev)
	if err != nil || len(resp.BatchItemFailures) > 0 {
		t.Fatalf("Handle: %v %+v", err, resp)
	}
	counts, err := stream.Read(t.Context(), dynamo.New(client, table), db)
	if err != nil || counts.Tally(ticket.TallyOpenByPriority)["high"] != 1 {
		t.Fatalf("counts through the wired function: %+v, %v", counts, err)
	}
}

// newConsumer is the consumer with the ticket module's tallies and event
// types, which the sample batches' tickets exercise.
func newConsumer(st store.Store) *stream.Consumer {
	return stream.New(st, stream.Options{
		Tallies: ticket.Tallies(),
		Events:  map[string][]stream.EventRule{ticket.KlassTicket: {ticket.CloseOpenEvents}},
	})
}

// gate holds back the first document write that creates id (a Put of its
// item conditioned on its absence), as a slow network would, until release
// is closed; arrived is closed when it is held.
type gate struct {
	id      string
	once    sync.Once
	arrived chan struct{}
	release chan struct{}
}

func (g *gate) createsID(in any) bool {
	isCreate := func(item map[string]ddbtypes.AttributeValue, cond *string) bool {
		sk, _ := item["SK"].(*ddbtypes.AttributeValueMemberS)
		return sk != nil && sk.Value == "D#"+g.id && cond != nil && aws.ToString(cond) != "" &&
			!strings.Contains(aws.ToString(cond), "rev")
	}
	switch p := in.(type) {
	case *dynamodb.PutItemInput:
		return isCreate(p.Item, p.ConditionExpression)
	case *dynamodb.TransactWriteItemsInput:
		for _, it := range p.TransactItems {
			if it.Put != nil && isCreate(it.Put.Item, it.Put.ConditionExpression) {
				return true
			}
		}
	}
	return false
}

func (g *gate) middleware(stack *middleware.Stack) error {
	return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("gate",
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			if g.createsID(in.Parameters) {
				held := false
				g.once.Do(func() { held = true })
				if held {
					close(g.arrived)
					<-g.release
				}
			}
			return next.HandleInitialize(ctx, in)
		}), middleware.Before)
}

// TestDelayedCreateAfterDelete is the race of a create whose write reaches
// DynamoDB late: meanwhile another client creates the same id and deletes
// it. The late create then revives the tombstone, and that revival must be
// the document's newest change (a higher seq than the delete), or the
// stream consumer, which orders a document's changes by seq, takes it for
// an old one and the counters say the live document is gone.
func TestDelayedCreateAfterDelete(t *testing.T) {
	endpoint, client, table := newTable(t)
	const id = "tic-00000000000000000000000000000001"
	fast := dynamo.New(client, table)
	g := &gate{id: id, arrived: make(chan struct{}), release: make(chan struct{})}
	slow := dynamo.New(ddblocal.NewClient(endpoint, func(o *dynamodb.Options) {
		o.Credentials, o.Region = client.Options().Credentials, client.Options().Region
		o.APIOptions = append(o.APIOptions, g.middleware)
	}), table)
	newConsumer(slow) // both note their writes, as the API's stores do
	h := NewHandler(newConsumer(fast), nil)
	ctx := t.Context()
	if err := fast.CreateDB(ctx, db); err != nil {
		t.Fatal(err)
	}
	body := func(v string) []byte {
		return []byte(`{"klass":"Ticket","priority":"high","status":"open","title":"` + v + `"}`)
	}
	type result struct {
		d   store.Doc
		err error
	}
	late := make(chan result, 1)
	go func() {
		d, err := slow.Put(ctx, db, store.Doc{ID: id, Klass: "Ticket", SortKey: "2026", Body: body("late")})
		late <- result{d, err}
	}()
	select {
	case <-g.arrived:
	case r := <-late:
		t.Fatalf("the gated create finished without being held: %+v", r)
	}
	first, err := fast.Put(ctx, db, store.Doc{ID: id, Klass: "Ticket", SortKey: "2026", Body: body("first")})
	if err != nil {
		t.Fatal(err)
	}
	tomb, err := fast.Delete(ctx, db, id, first.Rev)
	if err != nil {
		t.Fatal(err)
	}
	close(g.release)
	r := <-late
	if r.err != nil {
		t.Fatalf("late create: %v", r.err)
	}
	if r.d.Seq <= tomb.Seq {
		t.Errorf("the late create revived the document at seq %d, below its delete's seq %d", r.d.Seq, tomb.Seq)
	}
	info, err := fast.DBInfo(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	// The revival's history entry takes the seq after it.
	if info.DocCount != 1 || info.DelCount != 0 || info.UpdateSeq != r.d.Seq+1 {
		t.Errorf("DBInfo = %+v, want 1 doc, 0 deleted, update_seq %d", info, r.d.Seq+1)
	}

	feed(t, h, readStream(t, endpoint, client, table))
	counts := streamtest.CheckCounts(t, newConsumer(fast), fast, db)
	if open := counts.Tally(ticket.TallyOpenByPriority); open["high"] != 1 {
		t.Fatalf("open high tickets = %d, want 1 (%+v)", open["high"], counts)
	}
}

// iamActions records the IAM actions the DynamoDB calls made through a
// client need (a transaction is authorised per item).
type iamActions struct {
	mu   sync.Mutex
	seen map[string]bool
}

func (a *iamActions) middleware(stack *middleware.Stack) error {
	return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("iam",
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			var need []string
			switch p := in.Parameters.(type) {
			case *dynamodb.TransactWriteItemsInput:
				for _, it := range p.TransactItems {
					switch {
					case it.Put != nil:
						need = append(need, "PutItem")
					case it.Update != nil:
						need = append(need, "UpdateItem")
					case it.Delete != nil:
						need = append(need, "DeleteItem")
					case it.ConditionCheck != nil:
						need = append(need, "ConditionCheckItem")
					}
				}
			default:
				need = append(need, middleware.GetOperationName(ctx))
			}
			a.mu.Lock()
			for _, n := range need {
				a.seen["dynamodb:"+n] = true
			}
			a.mu.Unlock()
			return next.HandleInitialize(ctx, in)
		}), middleware.After)
}

// TestStreamNeedsOnlyGrantedActions wires the product as the stream
// function does (every module's tallies, event types and reactions), runs a
// realistic stream through the handler and checks that every DynamoDB
// action it needed, wiring included, is one the stack grants the stream
// function (infra-cdk/lib/table-access.ts), so least privilege cannot drift
// from what the code does.
func TestStreamNeedsOnlyGrantedActions(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "infra-cdk", "lib", "table-access.ts"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)export const STREAM_TABLE_ACTIONS = \[(.*?)\]`).FindSubmatch(src)
	if m == nil {
		t.Fatal("STREAM_TABLE_ACTIONS not found in table-access.ts")
	}
	granted := map[string]bool{}
	for _, a := range regexp.MustCompile(`'(dynamodb:[A-Za-z]+)'`).FindAllSubmatch(m[1], -1) {
		granted[string(a[1])] = true
	}

	endpoint, client, table := newTable(t)
	st := dynamo.New(client, table)
	newConsumer(st)
	w := streamtest.NewWriter(t, st, db)
	w.RandomMix(5, 120)
	recs := readStream(t, endpoint, client, table)

	used := &iamActions{seen: map[string]bool{}}
	recorded := dynamo.New(ddblocal.NewClient(endpoint, func(o *dynamodb.Options) {
		o.Credentials, o.Region = client.Options().Credentials, client.Options().Region
		o.APIOptions = append(o.APIOptions, used.middleware)
	}), table)
	cfg, err := config.Load(nil, func(string) string { return "" }, config.Lambda)
	if err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.DiscardHandler)
	a, err := app.OpenWith(t.Context(), cfg, quiet, app.Overrides{
		Store: recorded, Mail: mail.NewOutbox(t.TempDir(), "Oficina <no-reply@oficina.test>", quiet),
	})
	if err != nil {
		t.Fatal(err)
	}
	feed(t, NewHandler(a.Consumer(), nil), recs)
	streamtest.CheckCounts(t, a.Consumer(), st, db)
	if len(used.seen) == 0 {
		t.Fatal("no DynamoDB call recorded")
	}
	for a := range used.seen {
		if !granted[a] {
			t.Errorf("the stream function needs %s, which the stack does not grant (granted: %v)", a, slices.Sorted(maps.Keys(granted)))
		}
	}
	t.Logf("used %v", slices.Sorted(maps.Keys(used.seen)))
}
