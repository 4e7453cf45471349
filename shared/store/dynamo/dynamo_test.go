package dynamo_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/store/dynamo"
	"github.com/oficina/oficina/shared/store/dynamo/ddblocal"
	"github.com/oficina/oficina/shared/store/storetest"
)

// One DynamoDB Local serves the whole test binary; each test gets a table.
func TestMain(m *testing.M) { os.Exit(ddblocal.Main(m)) }

// newTable creates a fresh table in the shared DynamoDB Local and drops it
// when the test ends, keeping the in-memory database small.
func newTable(tb testing.TB) (*dynamodb.Client, string) {
	tb.Helper()
	_, client := ddblocal.Start(tb)
	table := ddblocal.TableName(tb)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := dynamo.CreateTable(ctx, client, table); err != nil {
		tb.Fatalf("CreateTable: %v", err)
	}
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if _, err := client.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(table)}); err != nil {
			tb.Errorf("DeleteTable %s: %v", table, err)
		}
	})
	return client, table
}

func open(t *testing.T) store.Store {
	client, table := newTable(t)
	return dynamo.New(client, table)
}

func TestConformance(t *testing.T) {
	storetest.Run(t, open)
}

// TestChangesFollowAcrossProcesses runs the feed-following check with the
// writers spread over four stores on one table, as four Lambda instances:
// their writes to one db race for its seq through the meta item's
// condition instead of queueing in one process.
func TestChangesFollowAcrossProcesses(t *testing.T) {
	client, table := newTable(t)
	stores := make([]store.Store, 4)
	for i := range stores {
		stores[i] = dynamo.New(client, table)
	}
	storetest.FollowFeed(t, stores, 16, 10)
}

func TestCreateTableTwice(t *testing.T) {
	client, table := newTable(t)
	err := dynamo.CreateTable(t.Context(), client, table)
	if err == nil {
		t.Fatal("CreateTable on an existing table succeeded")
	}
}

// TestDocFromItem reads back the items the store wrote, as the change
// stream consumer will read stream images.
func TestDocFromItem(t *testing.T) {
	client, table := newTable(t)
	s := dynamo.New(client, table)
	ctx := t.Context()
	if err := s.CreateDB(ctx, "main"); err != nil {
		t.Fatal(err)
	}
	live, err := s.Put(ctx, "main", store.Doc{ID: "a", Klass: "task", SortKey: "2024", Body: []byte(`{"x":1}`)})
	if err != nil {
		t.Fatal(err)
	}
	tomb, err := s.Put(ctx, "main", store.Doc{ID: "b", Body: []byte(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	if tomb, err = s.Delete(ctx, "main", "b", tomb.Rev); err != nil {
		t.Fatal(err)
	}
	if err := s.PutRecord(ctx, store.Record{Kind: "k", Key: "x", Value: []byte("v")}, false); err != nil {
		t.Fatal(err)
	}
	out, err := client.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]store.Doc{}
	others := 0
	for _, item := range out.Items {
		db, d, ok := dynamo.DocFromItem(item)
		if !ok {
			others++
			continue
		}
		if db != "main" {
			t.Fatalf("DocFromItem db = %q, want main", db)
		}
		got[d.ID] = d
	}
	if others != 5 { // the db meta item, the record and the three writes' log rows
		t.Fatalf("%d non-doc items, want 5", others)
	}
	if d := got["a"]; d.Rev != live.Rev || d.Seq != live.Seq || d.Klass != "task" || d.SortKey != "2024" || string(d.Body) != `{"x":1}` || d.Deleted {
		t.Fatalf("DocFromItem(a) = %+v, want %+v", d, live)
	}
	if d := got["b"]; d.Rev != tomb.Rev || d.Seq != tomb.Seq || !d.Deleted || len(d.Body) != 0 {
		t.Fatalf("DocFromItem(b) = %+v, want %+v", d, tomb)
	}
}

// TestKeysCannotCollide covers the names that would make keys ambiguous.
func TestKeysCannotCollide(t *testing.T) {
	client, table := newTable(t)
	s := dynamo.New(client, table)
	ctx := t.Context()
	if err := s.CreateDB(ctx, "a#b"); err == nil {
		t.Fatal(`CreateDB("a#b") succeeded`)
	}
	if err := s.CreateDB(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Put(ctx, "a", store.Doc{ID: "x", Klass: "b#c", Body: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	// Without the check, db "a#b" klass "c" would read db "a" klass "b#c".
	if _, err := s.List(ctx, "a#b", store.ListQuery{Klass: "c"}); !errors.Is(err, store.ErrDBNotFound) {
		t.Fatalf("List on db a#b: %v, want ErrDBNotFound", err)
	}
	if err := s.PutRecord(ctx, store.Record{Kind: "k#x", Key: "y"}, false); err == nil {
		t.Fatal("PutRecord with '#' in kind succeeded")
	}
	if err := s.PutRecord(ctx, store.Record{Kind: "k", Key: "x#y", Value: []byte("1")}, false); err != nil {
		t.Fatalf("'#' in a record key: %v", err)
	}
}

// TestListCursorScope checks that a cursor cannot leave its db and klass.
func TestListCursorScope(t *testing.T) {
	client, table := newTable(t)
	s := dynamo.New(client, table)
	ctx := t.Context()
	for _, db := range []string{"one", "two"} {
		if err := s.CreateDB(ctx, db); err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{"a", "b", "c"} {
			if _, err := s.Put(ctx, db, store.Doc{ID: id, Klass: "k", SortKey: "1", Body: []byte(`{}`)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	p, err := s.List(ctx, "one", store.ListQuery{Klass: "k", Limit: 1})
	if err != nil || p.Next == "" {
		t.Fatalf("List: %v, next %q", err, p.Next)
	}
	p2, err := s.List(ctx, "two", store.ListQuery{Klass: "k", Limit: 10, After: p.Next})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range p2.Docs {
		if d.ID == "a" {
			t.Fatalf("cursor from db one positioned db two's list at the start: %v", p2.Docs)
		}
	}
	if _, err := s.List(ctx, "one", store.ListQuery{Klass: "k", After: "not a cursor!"}); err == nil {
		t.Fatal("List with a garbage cursor succeeded")
	}
}

// TestIncrEdges covers the Incr paths the conformance suite does not reach.
func TestIncrEdges(t *testing.T) {
	client, table := newTable(t)
	s := dynamo.New(client, table)
	ctx := t.Context()

	// A plain record holding a number counts from it, keeping its expiry.
	exp := time.Now().Add(time.Hour)
	if err := s.PutRecord(ctx, store.Record{Kind: "c", Key: "seeded", Value: []byte("41"), ExpiresAt: exp}, false); err != nil {
		t.Fatal(err)
	}
	if v, err := s.Incr(ctx, "c", "seeded", 1, time.Minute); err != nil || v != 42 {
		t.Fatalf("Incr on a record holding 41: %d, %v", v, err)
	}
	if v, err := s.Incr(ctx, "c", "seeded", 1, 0); err != nil || v != 43 {
		t.Fatalf("second Incr: %d, %v", v, err)
	}
	r, err := s.GetRecord(ctx, "c", "seeded")
	if err != nil || string(r.Value) != "43" || !r.ExpiresAt.Equal(time.Unix(0, exp.UnixNano())) {
		t.Fatalf("seeded counter = %+v, %v; want 43 expiring at %v", r, err, exp)
	}

	// A record that is not a number is not a counter.
	if err := s.PutRecord(ctx, store.Record{Kind: "c", Key: "text", Value: []byte("hello")}, false); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Incr(ctx, "c", "text", 1, 0); err == nil {
		t.Fatal("Incr on a text record succeeded")
	}

	// A counter without expiry does not gain one from a later ttl.
	if v, err := s.Incr(ctx, "c", "forever", 5, 0); err != nil || v != 5 {
		t.Fatalf("Incr forever: %d, %v", v, err)
	}
	if v, err := s.Incr(ctx, "c", "forever", 1, time.Millisecond); err != nil || v != 6 {
		t.Fatalf("Incr forever with ttl: %d, %v", v, err)
	}
	time.Sleep(5 * time.Millisecond)
	if r, err := s.GetRecord(ctx, "c", "forever"); err != nil || string(r.Value) != "6" || !r.ExpiresAt.IsZero() {
		t.Fatalf("forever counter = %+v, %v; want 6 without expiry", r, err)
	}

	// PutRecord over a counter replaces it.
	if err := s.PutRecord(ctx, store.Record{Kind: "c", Key: "forever", Value: []byte("x")}, false); err != nil {
		t.Fatal(err)
	}
	if r, err := s.GetRecord(ctx, "c", "forever"); err != nil || string(r.Value) != "x" {
		t.Fatalf("record over counter = %+v, %v", r, err)
	}
}

// TestExpiryRoundTrip checks that expiry keeps full precision, also far out.
func TestExpiryRoundTrip(t *testing.T) {
	client, table := newTable(t)
	s := dynamo.New(client, table)
	ctx := t.Context()
	for _, at := range []time.Time{
		time.Now().Add(time.Hour),
		time.Date(3000, 1, 2, 3, 4, 5, 123456789, time.UTC),
	} {
		if err := s.PutRecord(ctx, store.Record{Kind: "e", Key: "k", ExpiresAt: at}, false); err != nil {
			t.Fatal(err)
		}
		r, err := s.GetRecord(ctx, "e", "k")
		if err != nil || !r.ExpiresAt.Equal(at) {
			t.Fatalf("ExpiresAt %v round-tripped as %v (%v)", at, r.ExpiresAt, err)
		}
	}
}

// TestRacingIdenticalWrites: writers in several store instances (several
// processes) update one document from the same revision with the same
// body — so with the same new revision — at once. Exactly one is told it
// succeeded; every other gets ErrConflict, as CouchDB answers. (Matching
// the stored revision alone would tell the losers they had written it.)
func TestRacingIdenticalWrites(t *testing.T) {
	client, table := newTable(t)
	ctx := t.Context()
	stores := make([]*dynamo.Store, 4)
	for i := range stores {
		stores[i] = dynamo.New(client, table)
	}
	if err := stores[0].CreateDB(ctx, "race"); err != nil {
		t.Fatal(err)
	}
	cur, err := stores[0].Put(ctx, "race", store.Doc{ID: "x", Body: []byte(`{"n":0}`)})
	if err != nil {
		t.Fatal(err)
	}
	const writers = 8
	for round := 1; round <= 5; round++ {
		body := []byte(fmt.Sprintf(`{"n":%d}`, round))
		start := make(chan struct{})
		type result struct {
			d   store.Doc
			err error
		}
		results := make(chan result, writers)
		for w := range writers {
			go func() {
				<-start
				d, err := stores[w%len(stores)].Put(ctx, "race", store.Doc{ID: "x", Rev: cur.Rev, Body: body})
				results <- result{d, err}
			}()
		}
		close(start)
		var won []store.Doc
		for range writers {
			r := <-results
			switch {
			case r.err == nil:
				won = append(won, r.d)
			case !errors.Is(r.err, store.ErrConflict):
				t.Fatalf("round %d: %v", round, r.err)
			}
		}
		if len(won) != 1 {
			t.Fatalf("round %d: %d writers were told they wrote %s, want 1", round, len(won), body)
		}
		now, err := stores[0].Get(ctx, "race", "x")
		if err != nil || now.Rev != won[0].Rev || now.Seq != won[0].Seq {
			t.Fatalf("round %d: stored %+v, the winner was told %+v (%v)", round, now, won[0], err)
		}
		cur = now
	}
}

// TestIncludeDocsReadsWithinTheByteBound: a _changes page with documents
// stops reading documents at the byte bound, whatever its row limit (the
// log rows say each body's size): 200 documents of 4 KB, a limit of 1,001
// and a 16 KB bound read about four documents, not 200.
func TestIncludeDocsReadsWithinTheByteBound(t *testing.T) {
	endpoint, _ := ddblocal.Start(t)
	m := &ddblocal.Meter{}
	client := ddblocal.NewClient(endpoint, func(o *dynamodb.Options) { o.APIOptions = append(o.APIOptions, m.Middleware) })
	_, table := newTable(t)
	s := dynamo.New(client, table)
	ctx := t.Context()
	if err := s.CreateDB(ctx, "big"); err != nil {
		t.Fatal(err)
	}
	body := []byte(`{"x":"` + strings.Repeat("abcdefghij", 400) + `"}`)
	var wg sync.WaitGroup
	for i := range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := s.Put(ctx, "big", store.Doc{ID: fmt.Sprintf("d%03d", i), Body: body}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	m.Reset()
	rows, err := s.Changes(ctx, "big", store.ChangesQuery{Limit: 1001, IncludeDocs: true, MaxBytes: 16 << 10})
	if err != nil {
		t.Fatal(err)
	}
	read, _, _ := m.Totals()
	if len(rows) != 5 || read > 12 {
		t.Fatalf("%d rows for %.0f RCU; want 5 rows (4,006-byte bodies up to 16 KB) and no more than a dozen RCU", len(rows), read)
	}
}
