// Package storetest is the conformance suite every store.Store
// implementation must pass, so that the embedded and the cloud backends
// behave the same for every caller.
//
// The suite is backend-neutral: it assumes nothing about sequence values
// beyond "positive and strictly increasing per database", sleeps about one
// second in total, and only uses fixed-width sort keys and plain ASCII ids so
// that any order-preserving key encoding passes.
package storetest

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/store"
)

// Run runs the conformance suite. Each subtest calls open for a fresh, empty
// store and closes it when the subtest ends (open may register its own
// cleanups for temp dirs or tables; they run after Close).
func Run(t *testing.T, open func(t *testing.T) store.Store) {
	t.Helper()
	tests := []struct {
		name string
		fn   func(t *testing.T, s store.Store)
	}{
		{"CreateDB", testCreateDB},
		{"MissingDB", testMissingDB},
		{"CRUD", testCRUD},
		{"Recreate", testRecreate},
		{"TooLarge", testTooLarge},
		{"Seq", testSeq},
		{"ConcurrentUpdate", testConcurrentUpdate},
		{"ConcurrentCreate", testConcurrentCreate},
		{"List", testList},
		{"ListPaging", testListPaging},
		{"ListPrefixPaging", testListPrefixPaging},
		{"ListMoves", testListMoves},
		{"Resort", testResort},
		{"AllDocs", testAllDocs},
		{"Changes", testChanges},
		{"ChangesFollow", testChangesFollow},
		{"ChangesMaxBytes", testChangesMaxBytes},
		{"Isolation", testIsolation},
		{"Records", testRecords},
		{"RecordIfAbsent", testRecordIfAbsent},
		{"TakeRecord", testTakeRecord},
		{"Incr", testIncr},
		{"Expiry", testExpiry},
		{"TombstoneBody", testTombstoneBody},
		{"Transact", testTransact},
		{"TransactConditions", testTransactConditions},
		{"TransactConcurrent", testTransactConcurrent},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := open(t)
			t.Cleanup(func() {
				if err := s.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			})
			tc.fn(t, s)
		})
	}
}

// ---- helpers ----

func createDB(t *testing.T, s store.Store, db string) {
	t.Helper()
	if err := s.CreateDB(t.Context(), db); err != nil {
		t.Fatalf("CreateDB(%q): %v", db, err)
	}
}

func put(t *testing.T, s store.Store, db string, d store.Doc) store.Doc {
	t.Helper()
	got, err := s.Put(t.Context(), db, d)
	if err != nil {
		t.Fatalf("Put(%q, %q rev %q): %v", db, d.ID, d.Rev, err)
	}
	return got
}

func del(t *testing.T, s store.Store, db, id, rev string) store.Doc {
	t.Helper()
	got, err := s.Delete(t.Context(), db, id, rev)
	if err != nil {
		t.Fatalf("Delete(%q, %q rev %q): %v", db, id, rev, err)
	}
	return got
}

func get(t *testing.T, s store.Store, db, id string) store.Doc {
	t.Helper()
	got, err := s.Get(t.Context(), db, id)
	if err != nil {
		t.Fatalf("Get(%q, %q): %v", db, id, err)
	}
	return got
}

func info(t *testing.T, s store.Store, db string) store.DBInfo {
	t.Helper()
	got, err := s.DBInfo(t.Context(), db)
	if err != nil {
		t.Fatalf("DBInfo(%q): %v", db, err)
	}
	return got
}

// changes reads the feed with and without IncludeDocs, checks that both
// give the same rows (ID, Rev, Seq, Deleted) and returns the full ones.
func changes(t *testing.T, s store.Store, db string, q store.ChangesQuery) []store.Doc {
	t.Helper()
	q.IncludeDocs = false
	heads, err := s.Changes(t.Context(), db, q)
	if err != nil {
		t.Fatalf("Changes(%q, %+v): %v", db, q, err)
	}
	q.IncludeDocs = true
	got, err := s.Changes(t.Context(), db, q)
	if err != nil {
		t.Fatalf("Changes(%q, %+v): %v", db, q, err)
	}
	if len(heads) != len(got) {
		t.Fatalf("Changes(%q, %+v): %d rows with docs, %d without", db, q, len(got), len(heads))
	}
	for i, h := range heads {
		if g := got[i]; h.ID != g.ID || h.Rev != g.Rev || h.Seq != g.Seq || h.Deleted != g.Deleted {
			t.Fatalf("Changes(%q, %+v) row %d:\n with docs    %s\n without docs %s", db, q, i, fmtDoc(g), fmtDoc(h))
		}
	}
	return got
}

func wantErr(t *testing.T, what string, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("%s: err = %v, want %v", what, err, want)
	}
}

func wantInfo(t *testing.T, s store.Store, db string, want store.DBInfo) {
	t.Helper()
	if got := info(t, s, db); got != want {
		t.Fatalf("DBInfo(%q) = %+v, want %+v", db, got, want)
	}
}

// sameDoc compares every field of a stored revision.
func sameDoc(t *testing.T, what string, got, want store.Doc) {
	t.Helper()
	if got.ID != want.ID || got.Rev != want.Rev || got.Seq != want.Seq || got.Deleted != want.Deleted ||
		got.Klass != want.Klass || got.SortKey != want.SortKey || !bytes.Equal(got.Body, want.Body) {
		t.Fatalf("%s:\n got  %s\n want %s", what, fmtDoc(got), fmtDoc(want))
	}
}

// sameTombstone compares what a tombstone is defined by (its klass and sort
// key are not part of the contract).
func sameTombstone(t *testing.T, what string, got, want store.Doc) {
	t.Helper()
	if got.ID != want.ID || got.Rev != want.Rev || got.Seq != want.Seq || !got.Deleted || len(got.Body) != 0 {
		t.Fatalf("%s:\n got  %s\n want tombstone %s", what, fmtDoc(got), fmtDoc(want))
	}
}

func fmtDoc(d store.Doc) string {
	body := string(d.Body)
	if len(body) > 80 {
		body = body[:80] + "…"
	}
	return fmt.Sprintf("{ID:%q Rev:%q Seq:%d Deleted:%v Klass:%q SortKey:%q Body:%s}",
		d.ID, d.Rev, d.Seq, d.Deleted, d.Klass, d.SortKey, body)
}

func ids(docs []store.Doc) []string {
	out := make([]string, len(docs))
	for i, d := range docs {
		out[i] = d.ID
	}
	return out
}

func wantIDs(t *testing.T, what string, docs []store.Doc, want []string) {
	t.Helper()
	if got := ids(docs); !slices.Equal(got, want) {
		t.Fatalf("%s: ids = %q, want %q", what, got, want)
	}
}

func jsonBody(format string, args ...any) []byte {
	return []byte(fmt.Sprintf(format, args...))
}

// bodyOfSize returns a JSON object of exactly n bytes.
func bodyOfSize(n int) []byte {
	const prefix, suffix = `{"x":"`, `"}`
	return []byte(prefix + strings.Repeat("a", n-len(prefix)-len(suffix)) + suffix)
}

// ---- databases ----

func testCreateDB(t *testing.T, s store.Store) {
	ctx := t.Context()
	createDB(t, s, "main")
	// An empty database has sequence 0, so Changes(Since: UpdateSeq) is
	// empty and Changes(Since: 0) returns every write.
	wantInfo(t, s, "main", store.DBInfo{Name: "main"})
	wantErr(t, "CreateDB twice", s.CreateDB(ctx, "main"), store.ErrDBExists)

	d := put(t, s, "main", store.Doc{ID: "a", Body: []byte(`{"a":1}`)})
	wantErr(t, "CreateDB over a db with docs", s.CreateDB(ctx, "main"), store.ErrDBExists)
	sameDoc(t, "Get after failed CreateDB", get(t, s, "main", "a"), d)
	wantInfo(t, s, "main", store.DBInfo{Name: "main", DocCount: 1, UpdateSeq: d.Seq})

	// A name that extends an existing one is a different database.
	createDB(t, s, "main2")
	wantInfo(t, s, "main2", store.DBInfo{Name: "main2"})
	if got := changes(t, s, "main2", store.ChangesQuery{}); len(got) != 0 {
		t.Fatalf("Changes(main2) = %d rows, want 0", len(got))
	}
}

func testMissingDB(t *testing.T, s store.Store) {
	ctx := t.Context()
	createDB(t, s, "other") // a store with some db must still say "not found" for another
	const db = "nodb"
	rev := store.NextRev("", false, []byte(`{}`))
	ops := []struct {
		name string
		call func() error
	}{
		{"DBInfo", func() error { _, err := s.DBInfo(ctx, db); return err }},
		{"Get", func() error { _, err := s.Get(ctx, db, "x"); return err }},
		{"Put create", func() error { _, err := s.Put(ctx, db, store.Doc{ID: "x", Body: []byte(`{}`)}); return err }},
		{"Put update", func() error { _, err := s.Put(ctx, db, store.Doc{ID: "x", Rev: rev, Body: []byte(`{}`)}); return err }},
		{"Delete", func() error { _, err := s.Delete(ctx, db, "x", rev); return err }},
		{"List", func() error { _, err := s.List(ctx, db, store.ListQuery{Klass: "k"}); return err }},
		{"AllDocs", func() error { _, err := s.AllDocs(ctx, db, store.AllDocsQuery{}); return err }},
		{"Changes", func() error { _, err := s.Changes(ctx, db, store.ChangesQuery{}); return err }},
	}
	for _, op := range ops {
		wantErr(t, op.name+" on a missing db", op.call(), store.ErrDBNotFound)
	}
	// Writes to a missing database must not create it.
	_, err := s.DBInfo(ctx, db)
	wantErr(t, "DBInfo after writes to a missing db", err, store.ErrDBNotFound)
	wantInfo(t, s, "other", store.DBInfo{Name: "other"})
}

// ---- documents ----

func testCRUD(t *testing.T, s store.Store) {
	ctx := t.Context()
	const db = "crud"
	createDB(t, s, db)

	_, err := s.Get(ctx, db, "doc1")
	wantErr(t, "Get never-written id", err, store.ErrNotFound)

	body1 := []byte(`{"title":"one"}`)
	d1 := put(t, s, db, store.Doc{ID: "doc1", Klass: "task", SortKey: "2024-01-01", Body: body1})
	if !store.ValidRev(d1.Rev) || store.RevGeneration(d1.Rev) != 1 {
		t.Fatalf("created rev %q, want 1-<32 hex>", d1.Rev)
	}
	if d1.Seq == 0 {
		t.Fatalf("created Seq = 0, want > 0")
	}
	sameDoc(t, "Put result", d1, store.Doc{ID: "doc1", Rev: store.NextRev("", false, body1), Seq: d1.Seq,
		Klass: "task", SortKey: "2024-01-01", Body: body1})
	sameDoc(t, "Get after create", get(t, s, db, "doc1"), d1)

	body2 := []byte(`{"title":"two","done":true}`)
	d2 := put(t, s, db, store.Doc{ID: "doc1", Rev: d1.Rev, Klass: "task", SortKey: "2024-01-02", Body: body2})
	if d2.Seq <= d1.Seq {
		t.Fatalf("update Seq %d <= create Seq %d", d2.Seq, d1.Seq)
	}
	sameDoc(t, "Put update result", d2, store.Doc{ID: "doc1", Rev: store.NextRev(d1.Rev, false, body2), Seq: d2.Seq,
		Klass: "task", SortKey: "2024-01-02", Body: body2})
	if store.RevGeneration(d2.Rev) != 2 {
		t.Fatalf("updated rev %q, want generation 2", d2.Rev)
	}
	sameDoc(t, "Get after update", get(t, s, db, "doc1"), d2)
	before := store.DBInfo{Name: db, DocCount: 1, UpdateSeq: d2.Seq}
	wantInfo(t, s, db, before)

	// Every wrong revision conflicts and writes nothing.
	bad := []struct {
		name string
		doc  store.Doc
	}{
		{"create over live doc", store.Doc{ID: "doc1", Body: []byte(`{"x":1}`)}},
		{"stale rev", store.Doc{ID: "doc1", Rev: d1.Rev, Body: []byte(`{"x":1}`)}},
		{"bogus rev same gen", store.Doc{ID: "doc1", Rev: "2-" + strings.Repeat("0", 32), Body: []byte(`{"x":1}`)}},
		{"future rev", store.Doc{ID: "doc1", Rev: store.NextRev(d2.Rev, false, body2), Body: []byte(`{"x":1}`)}},
		{"malformed rev", store.Doc{ID: "doc1", Rev: "garbage", Body: []byte(`{"x":1}`)}},
		{"rev with suffix", store.Doc{ID: "doc1", Rev: d2.Rev + "0", Body: []byte(`{"x":1}`)}},
		{"stale rev tombstone", store.Doc{ID: "doc1", Rev: d1.Rev, Deleted: true}},
	}
	for _, b := range bad {
		_, err := s.Put(ctx, db, b.doc)
		wantErr(t, "Put "+b.name, err, store.ErrConflict)
	}
	for _, rev := range []string{"", d1.Rev, "2-" + strings.Repeat("f", 32)} {
		_, err := s.Delete(ctx, db, "doc1", rev)
		wantErr(t, fmt.Sprintf("Delete with rev %q", rev), err, store.ErrConflict)
	}
	sameDoc(t, "Get after conflicts", get(t, s, db, "doc1"), d2)
	wantInfo(t, s, db, before)
	if rows := changes(t, s, db, store.ChangesQuery{}); len(rows) != 1 {
		t.Fatalf("Changes after conflicts: %d rows, want 1", len(rows))
	} else {
		sameDoc(t, "Changes row after conflicts", rows[0], d2)
	}

	tomb := del(t, s, db, "doc1", d2.Rev)
	if tomb.Seq <= d2.Seq {
		t.Fatalf("delete Seq %d <= update Seq %d", tomb.Seq, d2.Seq)
	}
	sameTombstone(t, "Delete result", tomb, store.Doc{ID: "doc1", Rev: store.NextRev(d2.Rev, true, nil), Seq: tomb.Seq})
	if store.RevGeneration(tomb.Rev) != 3 {
		t.Fatalf("tombstone rev %q, want generation 3", tomb.Rev)
	}
	got, err := s.Get(ctx, db, "doc1")
	wantErr(t, "Get after Delete", err, store.ErrDeleted)
	sameTombstone(t, "Get tombstone", got, tomb)
	wantInfo(t, s, db, store.DBInfo{Name: db, DelCount: 1, UpdateSeq: tomb.Seq})

	// The pre-delete revision no longer applies.
	_, err = s.Put(ctx, db, store.Doc{ID: "doc1", Rev: d2.Rev, Body: body2})
	wantErr(t, "Put with pre-delete rev", err, store.ErrConflict)
	_, err = s.Delete(ctx, db, "doc1", d2.Rev)
	wantErr(t, "Delete with pre-delete rev", err, store.ErrConflict)
	wantInfo(t, s, db, store.DBInfo{Name: db, DelCount: 1, UpdateSeq: tomb.Seq})

	// Put with Deleted set is a delete too.
	b := []byte(`{"b":1}`)
	e1 := put(t, s, db, store.Doc{ID: "doc2", Klass: "task", SortKey: "2024-01-03", Body: b})
	e2 := put(t, s, db, store.Doc{ID: "doc2", Rev: e1.Rev, Deleted: true})
	sameTombstone(t, "Put Deleted result", e2, store.Doc{ID: "doc2", Rev: store.NextRev(e1.Rev, true, nil), Seq: e2.Seq})
	got, err = s.Get(ctx, db, "doc2")
	wantErr(t, "Get after Put Deleted", err, store.ErrDeleted)
	sameTombstone(t, "Get tombstone from Put Deleted", got, e2)
	wantInfo(t, s, db, store.DBInfo{Name: db, DelCount: 2, UpdateSeq: e2.Seq})
}

func testRecreate(t *testing.T, s store.Store) {
	ctx := t.Context()
	const db = "re"
	createDB(t, s, db)

	// Rev "" over a tombstone: the generation continues (2-x → 3-y).
	a1 := put(t, s, db, store.Doc{ID: "a", Klass: "k", SortKey: "1", Body: []byte(`{"v":1}`)})
	at := del(t, s, db, "a", a1.Rev)
	if store.RevGeneration(at.Rev) != 2 {
		t.Fatalf("tombstone rev %q, want generation 2", at.Rev)
	}
	body := []byte(`{"v":"again"}`)
	a3 := put(t, s, db, store.Doc{ID: "a", Klass: "k", SortKey: "2", Body: body})
	sameDoc(t, "re-create with empty rev", a3, store.Doc{ID: "a", Rev: store.NextRev(at.Rev, false, body), Seq: a3.Seq,
		Klass: "k", SortKey: "2", Body: body})
	if store.RevGeneration(a3.Rev) != 3 || a3.Seq <= at.Seq {
		t.Fatalf("re-created rev %q seq %d after tombstone seq %d", a3.Rev, a3.Seq, at.Seq)
	}
	sameDoc(t, "Get re-created", get(t, s, db, "a"), a3)

	// The tombstone's own rev is accepted too (CouchDB does the same).
	b1 := put(t, s, db, store.Doc{ID: "b", Body: []byte(`{"v":1}`)})
	bt := del(t, s, db, "b", b1.Rev)
	_, err := s.Put(ctx, db, store.Doc{ID: "b", Rev: b1.Rev, Body: body})
	wantErr(t, "re-create with pre-delete rev", err, store.ErrConflict)
	b3 := put(t, s, db, store.Doc{ID: "b", Rev: bt.Rev, Body: body})
	sameDoc(t, "re-create with tombstone rev", b3, store.Doc{ID: "b", Rev: store.NextRev(bt.Rev, false, body), Seq: b3.Seq, Body: body})

	wantInfo(t, s, db, store.DBInfo{Name: db, DocCount: 2, UpdateSeq: b3.Seq})
	rows := changes(t, s, db, store.ChangesQuery{})
	if len(rows) != 2 {
		t.Fatalf("Changes: %d rows, want 2", len(rows))
	}
	sameDoc(t, "Changes row a", rows[0], a3)
	sameDoc(t, "Changes row b", rows[1], b3)
	page, err := s.List(ctx, db, store.ListQuery{Klass: "k"})
	if err != nil {
		t.Fatal(err)
	}
	wantIDs(t, "List after re-create", page.Docs, []string{"a"})
}

func testTooLarge(t *testing.T, s store.Store) {
	ctx := t.Context()
	const db = "big"
	createDB(t, s, db)

	_, err := s.Put(ctx, db, store.Doc{ID: "x", Body: bodyOfSize(store.MaxDocBytes + 1)})
	wantErr(t, "Put MaxDocBytes+1", err, store.ErrTooLarge)
	_, err = s.Get(ctx, db, "x")
	wantErr(t, "Get after ErrTooLarge", err, store.ErrNotFound)
	wantInfo(t, s, db, store.DBInfo{Name: db})

	exact := bodyOfSize(store.MaxDocBytes)
	d := put(t, s, db, store.Doc{ID: "x", Klass: "k", SortKey: "s", Body: exact})
	sameDoc(t, "Get MaxDocBytes body", get(t, s, db, "x"), d)
	if !bytes.Equal(d.Body, exact) {
		t.Fatalf("stored body differs from the %d bytes written", len(exact))
	}

	_, err = s.Put(ctx, db, store.Doc{ID: "x", Rev: d.Rev, Body: bodyOfSize(store.MaxDocBytes + 100)})
	wantErr(t, "update with too large body", err, store.ErrTooLarge)
	sameDoc(t, "Get after failed large update", get(t, s, db, "x"), d)
	wantInfo(t, s, db, store.DBInfo{Name: db, DocCount: 1, UpdateSeq: d.Seq})
}

func testSeq(t *testing.T, s store.Store) {
	ctx := t.Context()
	const db = "seq"
	createDB(t, s, db)
	revs := map[string]string{}
	steps := []struct {
		op         string // create, update, delete, recreate, conflict
		id         string
		docs, dels int64
	}{
		{"create", "a", 1, 0},
		{"create", "b", 2, 0},
		{"update", "a", 2, 0},
		{"conflict", "a", 2, 0},
		{"create", "c", 3, 0},
		{"delete", "b", 2, 1},
		{"conflict", "b", 2, 1},
		{"update", "c", 2, 1},
		{"delete", "a", 1, 2},
		{"recreate", "b", 2, 1},
		{"delete", "c", 1, 2},
		{"update", "b", 1, 2},
		{"recreate", "a", 2, 1},
	}
	var last uint64
	for i, st := range steps {
		body := jsonBody(`{"step":%d}`, i)
		var d store.Doc
		var err error
		switch st.op {
		case "create", "recreate":
			d, err = s.Put(ctx, db, store.Doc{ID: st.id, Body: body})
		case "update":
			d, err = s.Put(ctx, db, store.Doc{ID: st.id, Rev: revs[st.id], Body: body})
		case "delete":
			d, err = s.Delete(ctx, db, st.id, revs[st.id])
		case "conflict":
			_, err = s.Put(ctx, db, store.Doc{ID: st.id, Rev: "1-" + strings.Repeat("a", 32), Body: body})
			wantErr(t, fmt.Sprintf("step %d conflict", i), err, store.ErrConflict)
			wantInfo(t, s, db, store.DBInfo{Name: db, DocCount: st.docs, DelCount: st.dels, UpdateSeq: last})
			continue
		}
		if err != nil {
			t.Fatalf("step %d %s %s: %v", i, st.op, st.id, err)
		}
		if d.Seq <= last {
			t.Fatalf("step %d %s %s: Seq %d not > previous %d", i, st.op, st.id, d.Seq, last)
		}
		last = d.Seq
		revs[st.id] = d.Rev
		wantInfo(t, s, db, store.DBInfo{Name: db, DocCount: st.docs, DelCount: st.dels, UpdateSeq: last})
	}
}

func testConcurrentUpdate(t *testing.T, s store.Store) {
	ctx := t.Context()
	const db, n = "hot", 50
	createDB(t, s, db)
	put(t, s, db, store.Doc{ID: "hot", Body: []byte(`{"n":-1}`)})

	type result struct {
		read string
		body []byte
		got  store.Doc
		err  error
	}
	results := make([]result, n)
	start := make(chan struct{})
	done := make(chan int)
	for i := range n {
		go func() {
			defer func() { done <- i }()
			<-start
			cur, err := s.Get(ctx, db, "hot")
			if err != nil {
				results[i].err = fmt.Errorf("get: %w", err)
				return
			}
			body := jsonBody(`{"n":%d}`, i)
			got, err := s.Put(ctx, db, store.Doc{ID: "hot", Rev: cur.Rev, Body: body})
			results[i] = result{read: cur.Rev, body: body, got: got, err: err}
		}()
	}
	close(start)
	for range n {
		<-done
	}

	final := get(t, s, db, "hot")
	gens := map[int]string{}
	seqs := map[uint64]bool{}
	var lastWin store.Doc
	for i, r := range results {
		switch {
		case r.err == nil:
			if want := store.NextRev(r.read, false, r.body); r.got.Rev != want {
				t.Fatalf("goroutine %d: Put on %s returned rev %s, want %s", i, r.read, r.got.Rev, want)
			}
			g := store.RevGeneration(r.got.Rev)
			if other, dup := gens[g]; dup {
				t.Fatalf("generation %d written twice: %s and %s", g, other, r.got.Rev)
			}
			gens[g] = r.got.Rev
			if seqs[r.got.Seq] {
				t.Fatalf("Seq %d returned to two writers", r.got.Seq)
			}
			seqs[r.got.Seq] = true
			if r.got.Seq > lastWin.Seq {
				lastWin = r.got
			}
		case errors.Is(r.err, store.ErrConflict):
		default:
			t.Fatalf("goroutine %d: %v", i, r.err)
		}
	}
	if len(gens) == 0 {
		t.Fatalf("no Put succeeded")
	}
	if len(gens) != store.RevGeneration(final.Rev)-1 {
		t.Fatalf("%d successful updates but final rev %s: an update was lost", len(gens), final.Rev)
	}
	for g := 2; g <= store.RevGeneration(final.Rev); g++ {
		if gens[g] == "" {
			t.Fatalf("no successful Put produced generation %d", g)
		}
	}
	sameDoc(t, "final doc is the last successful write", final, lastWin)
	rows := changes(t, s, db, store.ChangesQuery{})
	if len(rows) != 1 {
		t.Fatalf("Changes: %d rows, want 1", len(rows))
	}
	sameDoc(t, "Changes row", rows[0], final)
	wantInfo(t, s, db, store.DBInfo{Name: db, DocCount: 1, UpdateSeq: final.Seq})
}

func testConcurrentCreate(t *testing.T, s store.Store) {
	ctx := t.Context()
	const db, n = "many", 50
	createDB(t, s, db)

	created := make([]store.Doc, n)
	errs := make([]error, n)
	start := make(chan struct{})
	done := make(chan struct{})
	for i := range n {
		go func() {
			defer func() { done <- struct{}{} }()
			<-start
			created[i], errs[i] = s.Put(ctx, db, store.Doc{ID: fmt.Sprintf("d%02d", i), Klass: "k",
				SortKey: fmt.Sprintf("%02d", n-i), Body: jsonBody(`{"i":%d}`, i)})
		}()
	}
	close(start)
	for range n {
		<-done
	}
	var maxSeq uint64
	seqs := map[uint64]bool{}
	want := make([]string, n)
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("create d%02d: %v", i, errs[i])
		}
		want[i] = fmt.Sprintf("d%02d", i)
		sameDoc(t, "Get concurrently created doc", get(t, s, db, want[i]), created[i])
		if seqs[created[i].Seq] {
			t.Fatalf("Seq %d given twice", created[i].Seq)
		}
		seqs[created[i].Seq] = true
		maxSeq = max(maxSeq, created[i].Seq)
	}
	all, err := s.AllDocs(ctx, db, store.AllDocsQuery{})
	if err != nil {
		t.Fatal(err)
	}
	wantIDs(t, "AllDocs", all, want)
	page, err := s.List(ctx, db, store.ListQuery{Klass: "k", Descending: true})
	if err != nil {
		t.Fatal(err)
	}
	wantIDs(t, "List by descending sort key", page.Docs, want)
	rows := changes(t, s, db, store.ChangesQuery{})
	if len(rows) != n {
		t.Fatalf("Changes: %d rows, want %d", len(rows), n)
	}
	for i := 1; i < n; i++ {
		if rows[i].Seq <= rows[i-1].Seq {
			t.Fatalf("Changes not in Seq order at row %d: %d after %d", i, rows[i].Seq, rows[i-1].Seq)
		}
	}
	wantInfo(t, s, db, store.DBInfo{Name: db, DocCount: n, UpdateSeq: maxSeq})

	// Concurrent creates of one id: exactly one wins.
	const racers = 20
	wins := make(chan store.Doc, racers)
	for i := range racers {
		go func() {
			d, err := s.Put(ctx, db, store.Doc{ID: "same", Body: jsonBody(`{"racer":%d}`, i)})
			switch {
			case err == nil:
				wins <- d
			case errors.Is(err, store.ErrConflict):
				wins <- store.Doc{}
			default:
				t.Errorf("racer %d: %v", i, err)
				wins <- store.Doc{}
			}
		}()
	}
	var winner store.Doc
	for range racers {
		if d := <-wins; d.ID != "" {
			if winner.ID != "" {
				t.Fatalf("two creates of the same id succeeded: %s and %s", winner.Rev, d.Rev)
			}
			winner = d
		}
	}
	if winner.ID == "" {
		t.Fatalf("no create of the contended id succeeded")
	}
	sameDoc(t, "Get contended id", get(t, s, db, "same"), winner)
}

// ---- list by klass ----

type listed struct{ id, klass, sortKey string }

func putAll(t *testing.T, s store.Store, db string, docs []listed) map[string]store.Doc {
	t.Helper()
	out := map[string]store.Doc{}
	for _, d := range docs {
		out[d.id] = put(t, s, db, store.Doc{ID: d.id, Klass: d.klass, SortKey: d.sortKey, Body: jsonBody(`{"id":%q}`, d.id)})
	}
	return out
}

func list(t *testing.T, s store.Store, db string, q store.ListQuery) store.Page {
	t.Helper()
	p, err := s.List(t.Context(), db, q)
	if err != nil {
		t.Fatalf("List(%q, %+v): %v", db, q, err)
	}
	return p
}

func testList(t *testing.T, s store.Store) {
	const db = "list"
	createDB(t, s, db)
	stored := putAll(t, s, db, []listed{
		{"t3", "task", "2024-02"},
		{"n2", "note", "2024-05"},
		{"t1", "task", "2024-03"},
		{"x1", "", "2024-01"}, // no klass: never listed
		{"t5", "task", "2024-02"},
		{"t2", "task", "2024-01"},
		{"n1", "note", "2024-01"},
		{"t4", "task", "2024-01"},
		{"tk", "taskx", "2024-01"}, // a klass that extends another is a different klass
	})
	cases := []struct {
		q    store.ListQuery
		want []string
	}{
		{store.ListQuery{Klass: "task"}, []string{"t2", "t4", "t3", "t5", "t1"}},
		{store.ListQuery{Klass: "task", Descending: true}, []string{"t1", "t5", "t3", "t4", "t2"}},
		{store.ListQuery{Klass: "note"}, []string{"n1", "n2"}},
		{store.ListQuery{Klass: "note", Descending: true}, []string{"n2", "n1"}},
		{store.ListQuery{Klass: "taskx"}, []string{"tk"}},
		{store.ListQuery{Klass: "task", Limit: 100}, []string{"t2", "t4", "t3", "t5", "t1"}},
		{store.ListQuery{Klass: "nothing"}, nil},
		{store.ListQuery{Klass: "nothing", Descending: true, Limit: 3}, nil},
		// Prefix narrows to sort keys that start with it, in order.
		{store.ListQuery{Klass: "task", Prefix: "2024-01"}, []string{"t2", "t4"}},
		{store.ListQuery{Klass: "task", Prefix: "2024-01", Descending: true}, []string{"t4", "t2"}},
		{store.ListQuery{Klass: "task", Prefix: "2024-02", Descending: true}, []string{"t5", "t3"}},
		{store.ListQuery{Klass: "task", Prefix: "2024-0", Descending: true}, []string{"t1", "t5", "t3", "t4", "t2"}},
		{store.ListQuery{Klass: "task", Prefix: "2024-04"}, nil},
		{store.ListQuery{Klass: "task", Prefix: "2025", Descending: true}, nil},
		{store.ListQuery{Klass: "note", Prefix: "2024-05"}, []string{"n2"}},
	}
	for _, c := range cases {
		p := list(t, s, db, c.q)
		wantIDs(t, fmt.Sprintf("List %+v", c.q), p.Docs, c.want)
		if p.Next != "" {
			t.Fatalf("List %+v: Next = %q on the only page, want \"\"", c.q, p.Next)
		}
		for _, d := range p.Docs {
			sameDoc(t, "listed doc", d, stored[d.ID])
		}
	}
}

// listAll follows Next cursors page by page and returns every doc.
func listAll(t *testing.T, s store.Store, db string, q store.ListQuery) []store.Doc {
	t.Helper()
	var out []store.Doc
	for range 100 {
		p := list(t, s, db, q)
		out = append(out, p.Docs...)
		if p.Next == "" {
			return out
		}
		q.After = p.Next
	}
	t.Fatalf("List %+v: more than 100 pages", q)
	return nil
}

func testListPrefixPaging(t *testing.T, s store.Store) {
	const db = "prefixpaging"
	createDB(t, s, db)
	var docs []listed
	for i := range 12 {
		group := []string{"open#", "closed#", "openish#"}[i%3]
		docs = append(docs, listed{fmt.Sprintf("d%02d", i), "ticket", fmt.Sprintf("%s2024-%02d", group, 12-i)})
	}
	putAll(t, s, db, docs)
	for _, desc := range []bool{false, true} {
		for _, limit := range []int{1, 2, 3, 10} {
			got := listAll(t, s, db, store.ListQuery{Klass: "ticket", Prefix: "open#", Descending: desc, Limit: limit})
			want := []string{"d09", "d06", "d03", "d00"} // sort keys open#2024-03 … open#2024-12
			if desc {
				slices.Reverse(want)
			}
			wantIDs(t, fmt.Sprintf("prefix pages of %d, descending %v", limit, desc), got, want)
		}
	}
}

func testListPaging(t *testing.T, s store.Store) {
	const db, n = "paging", 23
	createDB(t, s, db)
	var docs []listed
	for i := range n {
		// Five sort keys, many ties, inserted out of order.
		j := (i * 7) % n
		docs = append(docs, listed{fmt.Sprintf("p%02d", j), "page", fmt.Sprintf("2024-0%d", j%5)})
	}
	docs = append(docs, listed{"q00", "other", "2024-00"})
	putAll(t, s, db, docs)
	asc := make([]listed, 0, n)
	for _, d := range docs {
		if d.klass == "page" {
			asc = append(asc, d)
		}
	}
	slices.SortFunc(asc, func(a, b listed) int {
		return cmpOr(strings.Compare(a.sortKey, b.sortKey), strings.Compare(a.id, b.id))
	})
	var wantAsc []string
	for _, d := range asc {
		wantAsc = append(wantAsc, d.id)
	}
	wantDesc := slices.Clone(wantAsc)
	slices.Reverse(wantDesc)

	for _, desc := range []bool{false, true} {
		want := wantAsc
		if desc {
			want = wantDesc
		}
		for _, limit := range []int{1, 2, 5, 7, 22, 23, 24, 100} {
			var got []string
			after := ""
			pages := 0
			for {
				p := list(t, s, db, store.ListQuery{Klass: "page", Descending: desc, Limit: limit, After: after})
				pages++
				if len(p.Docs) > limit {
					t.Fatalf("desc=%v limit=%d: page of %d docs", desc, limit, len(p.Docs))
				}
				got = append(got, ids(p.Docs)...)
				if p.Next == "" {
					break
				}
				if len(p.Docs) != limit {
					t.Fatalf("desc=%v limit=%d: short page (%d docs) with a Next cursor", desc, limit, len(p.Docs))
				}
				if pages > n+1 {
					t.Fatalf("desc=%v limit=%d: paging does not end", desc, limit)
				}
				after = p.Next
			}
			if !slices.Equal(got, want) {
				t.Fatalf("desc=%v limit=%d: walked %q, want %q", desc, limit, got, want)
			}
			// No trailing empty page: the last page carries the last docs.
			if wantPages := (n + limit - 1) / limit; pages != wantPages {
				t.Fatalf("desc=%v limit=%d: %d pages, want %d", desc, limit, pages, wantPages)
			}
		}
	}

	// A cursor stays valid when the doc it points at is deleted meanwhile.
	p1 := list(t, s, db, store.ListQuery{Klass: "page", Limit: 3})
	last := p1.Docs[2]
	del(t, s, db, last.ID, last.Rev)
	var rest []string
	for after := p1.Next; after != ""; {
		p := list(t, s, db, store.ListQuery{Klass: "page", Limit: 4, After: after})
		rest = append(rest, ids(p.Docs)...)
		after = p.Next
	}
	if !slices.Equal(rest, wantAsc[3:]) {
		t.Fatalf("after deleting the cursor doc: walked %q, want %q", rest, wantAsc[3:])
	}
	// Same for a descending cursor.
	p1 = list(t, s, db, store.ListQuery{Klass: "page", Descending: true, Limit: 2})
	last = p1.Docs[1]
	del(t, s, db, last.ID, last.Rev)
	p2 := list(t, s, db, store.ListQuery{Klass: "page", Descending: true, Limit: 2, After: p1.Next})
	wantIDs(t, "descending page after deleting the cursor doc", p2.Docs, wantDesc[2:4])
}

// cmpOr returns the first non-zero comparison.
func cmpOr(cs ...int) int {
	for _, c := range cs {
		if c != 0 {
			return c
		}
	}
	return 0
}

func testListMoves(t *testing.T, s store.Store) {
	const db = "moves"
	createDB(t, s, db)
	d := putAll(t, s, db, []listed{
		{"a", "task", "2024-01"},
		{"b", "task", "2024-02"},
		{"c", "task", "2024-03"},
		{"d", "task", "2024-04"},
		{"m", "note", "2024-02"},
	})
	check := func(what string, klass string, want ...string) {
		t.Helper()
		wantIDs(t, what+" (asc)", list(t, s, db, store.ListQuery{Klass: klass}).Docs, want)
		rev := slices.Clone(want)
		slices.Reverse(rev)
		wantIDs(t, what+" (desc)", list(t, s, db, store.ListQuery{Klass: klass, Descending: true}).Docs, rev)
	}
	check("initial", "task", "a", "b", "c", "d")

	del(t, s, db, "b", d["b"].Rev)
	check("after delete", "task", "a", "c", "d")

	a2 := put(t, s, db, store.Doc{ID: "a", Rev: d["a"].Rev, Klass: "task", SortKey: "2024-09", Body: []byte(`{"moved":1}`)})
	check("after sort key change", "task", "c", "d", "a")
	p := list(t, s, db, store.ListQuery{Klass: "task"})
	sameDoc(t, "moved doc in list", p.Docs[2], a2)

	put(t, s, db, store.Doc{ID: "c", Rev: d["c"].Rev, Klass: "note", SortKey: "2024-01", Body: []byte(`{"moved":2}`)})
	check("task after klass change", "task", "d", "a")
	check("note after klass change", "note", "c", "m")

	put(t, s, db, store.Doc{ID: "d", Rev: d["d"].Rev, Body: []byte(`{"unlisted":true}`)})
	check("after klass removed", "task", "a")

	put(t, s, db, store.Doc{ID: "b", Klass: "task", SortKey: "2024-00", Body: []byte(`{"back":true}`)})
	check("after re-create", "task", "b", "a")
}

// testResort: Resort moves a live document within its klass's order in
// place — the same revision and seq, nothing in the feed — and refuses a
// stale revision, a tombstone and a missing document.
func testResort(t *testing.T, s store.Store) {
	rs, ok := s.(store.Resorter)
	if !ok {
		t.Fatal("the store does not implement store.Resorter (docs.rekey needs it)")
	}
	ctx := t.Context()
	const db = "resort"
	createDB(t, s, db)
	d := putAll(t, s, db, []listed{
		{"a", "task", "2024-01"},
		{"b", "task", "2024-02"},
		{"c", "task", "2024-03"},
	})
	big := put(t, s, db, store.Doc{ID: "z", Klass: "task", SortKey: "2024-04", Body: bodyOfSize(6000)})
	before := info(t, s, db)

	if err := rs.Resort(ctx, db, "a", d["a"].Rev, "2024-09"); err != nil {
		t.Fatalf("Resort a: %v", err)
	}
	if err := rs.Resort(ctx, db, "z", big.Rev, "2024-00"); err != nil {
		t.Fatalf("Resort z: %v", err)
	}
	wantIDs(t, "after resort", list(t, s, db, store.ListQuery{Klass: "task"}).Docs, []string{"z", "b", "c", "a"})
	wantIDs(t, "after resort (desc)", list(t, s, db, store.ListQuery{Klass: "task", Descending: true}).Docs, []string{"a", "c", "b", "z"})
	moved := d["a"]
	moved.SortKey = "2024-09"
	sameDoc(t, "resorted doc", get(t, s, db, "a"), moved)
	big.SortKey = "2024-00"
	sameDoc(t, "resorted large doc", list(t, s, db, store.ListQuery{Klass: "task", Limit: 1}).Docs[0], big)
	wantInfo(t, s, db, before)
	if got := changes(t, s, db, store.ChangesQuery{Since: before.UpdateSeq}); len(got) != 0 {
		t.Fatalf("resort made changes: %v", ids(got))
	}

	wantErr(t, "stale rev", rs.Resort(ctx, db, "b", "1-stale", "2024-10"), store.ErrConflict)
	wantErr(t, "missing doc", rs.Resort(ctx, db, "nope", "1-x", "2024-10"), store.ErrNotFound)
	gone := del(t, s, db, "c", d["c"].Rev)
	wantErr(t, "tombstone", rs.Resort(ctx, db, "c", gone.Rev, "2024-10"), store.ErrNotFound)
	wantIDs(t, "after refusals", list(t, s, db, store.ListQuery{Klass: "task"}).Docs, []string{"z", "b", "a"})

	// A write after a resort replaces the moved entry, not the old one.
	put(t, s, db, store.Doc{ID: "a", Rev: d["a"].Rev, Klass: "task", SortKey: "2023-12", Body: []byte(`{"again":1}`)})
	wantIDs(t, "write after resort", list(t, s, db, store.ListQuery{Klass: "task"}).Docs, []string{"a", "z", "b"})
}

// ---- all docs ----

func testAllDocs(t *testing.T, s store.Store) {
	ctx := t.Context()
	const db = "all"
	createDB(t, s, db)
	stored := putAll(t, s, db, []listed{
		{"d", "k", "1"}, {"a", "", ""}, {"f", "k", "2"}, {"cc", "", ""}, {"c", "", ""}, {"b", "k", "3"}, {"e", "", ""},
	})
	del(t, s, db, "cc", stored["cc"].Rev)
	cases := []struct {
		q    store.AllDocsQuery
		want []string
	}{
		{store.AllDocsQuery{}, []string{"a", "b", "c", "d", "e", "f"}},
		{store.AllDocsQuery{StartKey: "b"}, []string{"b", "c", "d", "e", "f"}},
		{store.AllDocsQuery{EndKey: "d"}, []string{"a", "b", "c", "d"}},
		{store.AllDocsQuery{StartKey: "b", EndKey: "d"}, []string{"b", "c", "d"}},
		{store.AllDocsQuery{StartKey: "bb", EndKey: "dd"}, []string{"c", "d"}},
		{store.AllDocsQuery{StartKey: "c", EndKey: "c"}, []string{"c"}},
		{store.AllDocsQuery{StartKey: "c", EndKey: "d"}, []string{"c", "d"}}, // tombstone cc excluded
		{store.AllDocsQuery{StartKey: "d", EndKey: "b"}, nil},
		{store.AllDocsQuery{StartKey: "g"}, nil},
		{store.AllDocsQuery{Descending: true}, []string{"f", "e", "d", "c", "b", "a"}},
		{store.AllDocsQuery{Descending: true, StartKey: "d"}, []string{"d", "c", "b", "a"}},
		{store.AllDocsQuery{Descending: true, StartKey: "dd"}, []string{"d", "c", "b", "a"}},
		{store.AllDocsQuery{Descending: true, StartKey: "d", EndKey: "b"}, []string{"d", "c", "b"}},
		{store.AllDocsQuery{Descending: true, EndKey: "e"}, []string{"f", "e"}},
		{store.AllDocsQuery{Descending: true, StartKey: "b", EndKey: "d"}, nil},
		{store.AllDocsQuery{Limit: 2}, []string{"a", "b"}},
		{store.AllDocsQuery{Skip: 2}, []string{"c", "d", "e", "f"}},
		{store.AllDocsQuery{Skip: 1, Limit: 2}, []string{"b", "c"}},
		{store.AllDocsQuery{StartKey: "c", Skip: 1, Limit: 1}, []string{"d"}}, // the tombstone is not skipped over
		{store.AllDocsQuery{Descending: true, Skip: 1, Limit: 2}, []string{"e", "d"}},
		{store.AllDocsQuery{Descending: true, StartKey: "e", EndKey: "b", Skip: 1, Limit: 10}, []string{"d", "c", "b"}},
		{store.AllDocsQuery{Skip: 6}, nil},
		{store.AllDocsQuery{Skip: 10, Limit: 1}, nil},
	}
	for _, c := range cases {
		got, err := s.AllDocs(ctx, db, c.q)
		if err != nil {
			t.Fatalf("AllDocs %+v: %v", c.q, err)
		}
		wantIDs(t, fmt.Sprintf("AllDocs %+v", c.q), got, c.want)
		for _, d := range got {
			sameDoc(t, "AllDocs row", d, stored[d.ID])
		}
	}
}

// ---- changes ----

func testChanges(t *testing.T, s store.Store) {
	const db = "feed"
	createDB(t, s, db)
	a1 := put(t, s, db, store.Doc{ID: "a", Klass: "k", SortKey: "1", Body: []byte(`{"a":1}`)})
	b1 := put(t, s, db, store.Doc{ID: "b", Body: []byte(`{"b":1}`)})
	c1 := put(t, s, db, store.Doc{ID: "c", Body: []byte(`{"c":1}`)})
	a2 := put(t, s, db, store.Doc{ID: "a", Rev: a1.Rev, Klass: "k", SortKey: "2", Body: []byte(`{"a":2}`)})
	bt := del(t, s, db, "b", b1.Rev)
	d1 := put(t, s, db, store.Doc{ID: "d", Body: []byte(`{"d":1}`)})

	byID := map[string]store.Doc{"a": a2, "b": bt, "c": c1, "d": d1}
	cases := []struct {
		q    store.ChangesQuery
		want []string
	}{
		{store.ChangesQuery{}, []string{"c", "a", "b", "d"}},
		{store.ChangesQuery{Since: c1.Seq}, []string{"a", "b", "d"}},
		{store.ChangesQuery{Since: c1.Seq - 1}, []string{"c", "a", "b", "d"}},
		{store.ChangesQuery{Since: a2.Seq}, []string{"b", "d"}},
		{store.ChangesQuery{Since: d1.Seq}, nil},
		{store.ChangesQuery{Since: d1.Seq + 1000}, nil},
		{store.ChangesQuery{Limit: 2}, []string{"c", "a"}},
		{store.ChangesQuery{Since: c1.Seq, Limit: 1}, []string{"a"}},
		{store.ChangesQuery{Limit: 10}, []string{"c", "a", "b", "d"}},
		{store.ChangesQuery{Descending: true}, []string{"d", "b", "a", "c"}},
		{store.ChangesQuery{Descending: true, Since: c1.Seq}, []string{"d", "b", "a"}},
		{store.ChangesQuery{Descending: true, Limit: 2}, []string{"d", "b"}},
		{store.ChangesQuery{Descending: true, Since: a2.Seq, Limit: 5}, []string{"d", "b"}},
		{store.ChangesQuery{Descending: true, Since: d1.Seq}, nil},
	}
	for _, c := range cases {
		rows := changes(t, s, db, c.q)
		wantIDs(t, fmt.Sprintf("Changes %+v", c.q), rows, c.want)
		for _, r := range rows {
			if r.Deleted {
				sameTombstone(t, "Changes tombstone row", r, byID[r.ID])
			} else {
				sameDoc(t, "Changes row", r, byID[r.ID])
			}
		}
	}
	if rows := changes(t, s, db, store.ChangesQuery{}); !rows[2].Deleted {
		t.Fatalf("Changes row for the deleted doc is not Deleted: %s", fmtDoc(rows[2]))
	}
}

// testChangesMaxBytes: with documents, an answer stops once its bodies
// reach MaxBytes (the row that reaches it included, one row at least), so
// a store need not read the documents beyond; without documents, or with no
// bound, nothing changes. Followed by last seq, the pages hold every row.
func testChangesMaxBytes(t *testing.T, s store.Store) {
	const db = "bounded"
	createDB(t, s, db)
	var all []string
	for i := range 10 {
		d := put(t, s, db, store.Doc{ID: fmt.Sprintf("d%02d", i), Body: bodyOfSize(1000)})
		all = append(all, d.ID)
	}
	cases := []struct {
		maxBytes int
		want     int // rows
	}{{1, 1}, {1000, 1}, {1001, 2}, {2500, 3}, {10000, 10}, {0, 10}}
	for _, c := range cases {
		rows, err := s.Changes(t.Context(), db, store.ChangesQuery{IncludeDocs: true, MaxBytes: c.maxBytes})
		if err != nil {
			t.Fatal(err)
		}
		wantIDs(t, fmt.Sprintf("MaxBytes %d", c.maxBytes), rows, all[:c.want])
		heads, err := s.Changes(t.Context(), db, store.ChangesQuery{MaxBytes: c.maxBytes})
		if err != nil || len(heads) != len(all) {
			t.Fatalf("MaxBytes %d without documents: %d rows, %v", c.maxBytes, len(heads), err)
		}
	}
	var got []string
	var since uint64
	for range len(all) + 1 {
		rows, err := s.Changes(t.Context(), db, store.ChangesQuery{Since: since, IncludeDocs: true, MaxBytes: 2500, Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) == 0 {
			break
		}
		for _, r := range rows {
			got = append(got, r.ID)
			since = r.Seq
		}
	}
	if !slices.Equal(got, all) {
		t.Fatalf("followed by pages of 2,500 bytes: %v", got)
	}
}

// testChangesFollow is a client following the feed CouchDB's way (since =
// the last seq it saw) while many writers commit: when the writers are done
// and the follower has caught up, it has seen every document's latest
// revision. A feed whose seqs can commit out of order loses rows here for
// good: the follower has already moved past them.
func testChangesFollow(t *testing.T, s store.Store) { FollowFeed(t, []store.Store{s}, 32, 20) }

// FollowFeed is testChangesFollow with the writers spread over several
// stores on the same data, as several processes (Lambda instances) are;
// the first store creates the database and follows the feed. Each of the
// writers creates, updates and sometimes deletes perWriter documents.
func FollowFeed(t *testing.T, stores []store.Store, writers, perWriter int) {
	ctx := t.Context()
	const db = "follow"
	s := stores[0]
	createDB(t, s, db)

	type seen struct {
		rev string
		seq uint64
	}
	var (
		last     uint64
		got      = map[string]seen{}
		pollErr  error
		writing  = make(chan struct{})
		followed = make(chan struct{})
	)
	follow := func() (int, error) {
		rows, err := s.Changes(ctx, db, store.ChangesQuery{Since: last, Limit: 25})
		if err != nil {
			return 0, err
		}
		for _, r := range rows {
			if r.Seq <= last {
				return 0, fmt.Errorf("row %s at seq %d, not after since=%d", r.ID, r.Seq, last)
			}
			last = r.Seq
			got[r.ID] = seen{rev: r.Rev, seq: r.Seq}
		}
		return len(rows), nil
	}
	go func() {
		defer close(followed)
		for {
			select {
			case <-writing:
				// The writers are done: catch up, then stop.
				for {
					n, err := follow()
					if err != nil || n == 0 {
						pollErr = err
						return
					}
				}
			default:
			}
			if _, err := follow(); err != nil {
				pollErr = err
				return
			}
		}
	}()

	final := make([]map[string]store.Doc, writers)
	errs := make(chan error, writers)
	for w := range writers {
		final[w] = map[string]store.Doc{}
		go func() {
			for i := range perWriter {
				id := fmt.Sprintf("w%02d-%02d", w, i)
				ws := stores[w%len(stores)]
				d, err := ws.Put(ctx, db, store.Doc{ID: id, Body: jsonBody(`{"v":1}`)})
				if err == nil {
					d, err = ws.Put(ctx, db, store.Doc{ID: id, Rev: d.Rev, Body: jsonBody(`{"v":2}`)})
				}
				if err == nil && i%8 == 0 {
					d, err = ws.Delete(ctx, db, id, d.Rev)
				}
				if err != nil {
					errs <- fmt.Errorf("writer %d, doc %s: %w", w, id, err)
					return
				}
				final[w][id] = d
			}
			errs <- nil
		}()
	}
	for range writers {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	close(writing)
	<-followed
	if t.Failed() {
		t.FailNow()
	}
	if pollErr != nil {
		t.Fatalf("follower: %v", pollErr)
	}
	missed := 0
	var example string
	for w := range writers {
		for id, d := range final[w] {
			if g := got[id]; g.rev != d.Rev || g.seq != d.Seq {
				if missed == 0 {
					example = fmt.Sprintf("%s: saw rev %q seq %d, latest is rev %q seq %d", id, g.rev, g.seq, d.Rev, d.Seq)
				}
				missed++
			}
		}
	}
	if missed > 0 {
		t.Fatalf("the follower missed the latest revision of %d of %d documents (e.g. %s)", missed, writers*perWriter, example)
	}
	deleted := int64(writers * ((perWriter + 7) / 8))
	wantInfo(t, s, db, store.DBInfo{Name: db, DocCount: int64(writers*perWriter) - deleted, DelCount: deleted, UpdateSeq: last})
}

// ---- isolation ----

func testIsolation(t *testing.T, s store.Store) {
	ctx := t.Context()
	createDB(t, s, "alpha")
	createDB(t, s, "alpha2")
	body := []byte(`{"same":true}`)
	x1 := put(t, s, "alpha", store.Doc{ID: "x", Klass: "k", SortKey: "1", Body: body})
	y1 := put(t, s, "alpha2", store.Doc{ID: "x", Klass: "k", SortKey: "1", Body: body})
	if x1.Rev != y1.Rev {
		t.Fatalf("same write in two dbs gave revs %s and %s", x1.Rev, y1.Rev)
	}
	only := put(t, s, "alpha", store.Doc{ID: "only", Klass: "k", SortKey: "2", Body: []byte(`{"only":1}`)})

	x2 := put(t, s, "alpha", store.Doc{ID: "x", Rev: x1.Rev, Klass: "k", SortKey: "1", Body: []byte(`{"alpha":2}`)})
	sameDoc(t, "alpha2/x untouched by alpha's update", get(t, s, "alpha2", "x"), y1)
	yt := del(t, s, "alpha2", "x", y1.Rev)
	sameDoc(t, "alpha/x untouched by alpha2's delete", get(t, s, "alpha", "x"), x2)
	_, err := s.Put(ctx, "alpha2", store.Doc{ID: "x", Rev: x2.Rev, Body: body})
	wantErr(t, "Put with the other db's rev", err, store.ErrConflict)
	_, err = s.Get(ctx, "alpha2", "only")
	wantErr(t, "Get doc of the other db", err, store.ErrNotFound)

	wantInfo(t, s, "alpha", store.DBInfo{Name: "alpha", DocCount: 2, UpdateSeq: x2.Seq})
	wantInfo(t, s, "alpha2", store.DBInfo{Name: "alpha2", DelCount: 1, UpdateSeq: yt.Seq})

	wantIDs(t, "Changes alpha", changes(t, s, "alpha", store.ChangesQuery{}), []string{"only", "x"})
	rows := changes(t, s, "alpha2", store.ChangesQuery{})
	wantIDs(t, "Changes alpha2", rows, []string{"x"})
	sameTombstone(t, "alpha2 change row", rows[0], yt)
	wantIDs(t, "List alpha", list(t, s, "alpha", store.ListQuery{Klass: "k"}).Docs, []string{"x", "only"})
	wantIDs(t, "List alpha2", list(t, s, "alpha2", store.ListQuery{Klass: "k"}).Docs, nil)
	all, err := s.AllDocs(ctx, "alpha2", store.AllDocsQuery{})
	if err != nil {
		t.Fatal(err)
	}
	wantIDs(t, "AllDocs alpha2", all, nil)
	all, err = s.AllDocs(ctx, "alpha", store.AllDocsQuery{})
	if err != nil {
		t.Fatal(err)
	}
	wantIDs(t, "AllDocs alpha", all, []string{"only", "x"})
	sameDoc(t, "AllDocs alpha row", all[0], only)
}

// ---- records ----

func getRecord(t *testing.T, s store.Store, kind, key string) store.Record {
	t.Helper()
	r, err := s.GetRecord(t.Context(), kind, key)
	if err != nil {
		t.Fatalf("GetRecord(%q, %q): %v", kind, key, err)
	}
	return r
}

func putRecord(t *testing.T, s store.Store, r store.Record, ifAbsent bool) {
	t.Helper()
	if err := s.PutRecord(t.Context(), r, ifAbsent); err != nil {
		t.Fatalf("PutRecord(%q, %q, ifAbsent=%v): %v", r.Kind, r.Key, ifAbsent, err)
	}
}

// sameRecord compares records; expiry must survive with millisecond precision.
func sameRecord(t *testing.T, what string, got, want store.Record) {
	t.Helper()
	d := got.ExpiresAt.Sub(want.ExpiresAt)
	if got.Kind != want.Kind || got.Key != want.Key || !bytes.Equal(got.Value, want.Value) ||
		got.ExpiresAt.IsZero() != want.ExpiresAt.IsZero() || d <= -time.Millisecond || d >= time.Millisecond {
		t.Fatalf("%s: got {%q %q %q %v}, want {%q %q %q %v}", what,
			got.Kind, got.Key, got.Value, got.ExpiresAt, want.Kind, want.Key, want.Value, want.ExpiresAt)
	}
}

func wantNoRecord(t *testing.T, s store.Store, what, kind, key string) {
	t.Helper()
	_, err := s.GetRecord(t.Context(), kind, key)
	wantErr(t, what, err, store.ErrNotFound)
}

func testRecords(t *testing.T, s store.Store) {
	ctx := t.Context()
	wantNoRecord(t, s, "GetRecord never written", "session", "abc")

	r := store.Record{Kind: "session", Key: "abc", Value: []byte("v1")}
	putRecord(t, s, r, false)
	sameRecord(t, "GetRecord", getRecord(t, s, "session", "abc"), r)

	// Kind and key together are the identity.
	wantNoRecord(t, s, "same key, other kind", "token", "abc")
	wantNoRecord(t, s, "same kind, other key", "session", "abcd")
	other := store.Record{Kind: "token", Key: "abc", Value: []byte("v2")}
	putRecord(t, s, other, false)
	prefixed := store.Record{Kind: "sessio", Key: "nabc", Value: []byte("v3")}
	putRecord(t, s, prefixed, false)
	sameRecord(t, "first kind", getRecord(t, s, "session", "abc"), r)
	sameRecord(t, "second kind", getRecord(t, s, "token", "abc"), other)
	sameRecord(t, "kind/key split elsewhere", getRecord(t, s, "sessio", "nabc"), prefixed)

	// Overwrite, with expiry.
	r2 := store.Record{Kind: "session", Key: "abc", Value: []byte(`{"user":"u1"}`), ExpiresAt: time.Now().Add(time.Hour)}
	putRecord(t, s, r2, false)
	sameRecord(t, "overwritten", getRecord(t, s, "session", "abc"), r2)
	// And back to no expiry.
	putRecord(t, s, r, false)
	sameRecord(t, "overwritten without expiry", getRecord(t, s, "session", "abc"), r)

	if err := s.DeleteRecord(ctx, "session", "abc"); err != nil {
		t.Fatalf("DeleteRecord: %v", err)
	}
	wantNoRecord(t, s, "after DeleteRecord", "session", "abc")
	sameRecord(t, "other kind survives delete", getRecord(t, s, "token", "abc"), other)
	if err := s.DeleteRecord(ctx, "session", "abc"); err != nil {
		t.Fatalf("DeleteRecord twice: %v", err)
	}
	if err := s.DeleteRecord(ctx, "never", "written"); err != nil {
		t.Fatalf("DeleteRecord never written: %v", err)
	}

	// Already expired reads as absent.
	putRecord(t, s, store.Record{Kind: "session", Key: "old", Value: []byte("x"), ExpiresAt: time.Now().Add(-time.Second)}, false)
	wantNoRecord(t, s, "expired record", "session", "old")

	// Empty value round-trips.
	empty := store.Record{Kind: "marker", Key: "m"}
	putRecord(t, s, empty, false)
	sameRecord(t, "empty value", getRecord(t, s, "marker", "m"), empty)
}

func testRecordIfAbsent(t *testing.T, s store.Store) {
	ctx := t.Context()
	r := store.Record{Kind: "claim", Key: "email:a@b.c", Value: []byte("u1")}
	putRecord(t, s, r, true)
	sameRecord(t, "claimed", getRecord(t, s, "claim", "email:a@b.c"), r)

	err := s.PutRecord(ctx, store.Record{Kind: "claim", Key: "email:a@b.c", Value: []byte("u2")}, true)
	wantErr(t, "ifAbsent over live record", err, store.ErrExists)
	sameRecord(t, "value after ErrExists", getRecord(t, s, "claim", "email:a@b.c"), r)

	live := store.Record{Kind: "claim", Key: "soon", Value: []byte("l1"), ExpiresAt: time.Now().Add(time.Hour)}
	putRecord(t, s, live, true)
	err = s.PutRecord(ctx, store.Record{Kind: "claim", Key: "soon", Value: []byte("l2")}, true)
	wantErr(t, "ifAbsent over live expiring record", err, store.ErrExists)
	sameRecord(t, "expiring value after ErrExists", getRecord(t, s, "claim", "soon"), live)

	putRecord(t, s, store.Record{Kind: "claim", Key: "gone", Value: []byte("e1"), ExpiresAt: time.Now().Add(-time.Minute)}, false)
	fresh := store.Record{Kind: "claim", Key: "gone", Value: []byte("e2")}
	putRecord(t, s, fresh, true)
	sameRecord(t, "ifAbsent over expired record", getRecord(t, s, "claim", "gone"), fresh)

	if err := s.DeleteRecord(ctx, "claim", "email:a@b.c"); err != nil {
		t.Fatal(err)
	}
	again := store.Record{Kind: "claim", Key: "email:a@b.c", Value: []byte("u3")}
	putRecord(t, s, again, true)
	sameRecord(t, "ifAbsent after delete", getRecord(t, s, "claim", "email:a@b.c"), again)

	// Concurrent claims: exactly one wins.
	const n = 20
	errs := make(chan error, n)
	for i := range n {
		go func() {
			errs <- s.PutRecord(ctx, store.Record{Kind: "claim", Key: "race", Value: jsonBody("%d", i)}, true)
		}()
	}
	wins := 0
	for range n {
		switch err := <-errs; {
		case err == nil:
			wins++
		case errors.Is(err, store.ErrExists):
		default:
			t.Fatalf("concurrent claim: %v", err)
		}
	}
	if wins != 1 {
		t.Fatalf("%d concurrent ifAbsent claims succeeded, want 1", wins)
	}
}

func testTakeRecord(t *testing.T, s store.Store) {
	ctx := t.Context()
	_, err := s.TakeRecord(ctx, "token", "none")
	wantErr(t, "TakeRecord never written", err, store.ErrNotFound)

	r := store.Record{Kind: "token", Key: "t1", Value: []byte("secret"), ExpiresAt: time.Now().Add(time.Hour)}
	putRecord(t, s, r, false)
	got, err := s.TakeRecord(ctx, "token", "t1")
	if err != nil {
		t.Fatalf("TakeRecord: %v", err)
	}
	sameRecord(t, "taken", got, r)
	wantNoRecord(t, s, "GetRecord after take", "token", "t1")
	_, err = s.TakeRecord(ctx, "token", "t1")
	wantErr(t, "TakeRecord twice", err, store.ErrNotFound)

	putRecord(t, s, store.Record{Kind: "token", Key: "old", Value: []byte("x"), ExpiresAt: time.Now().Add(-time.Second)}, false)
	_, err = s.TakeRecord(ctx, "token", "old")
	wantErr(t, "TakeRecord expired", err, store.ErrNotFound)

	const n = 20
	for round := range 3 {
		r := store.Record{Kind: "token", Key: "race", Value: jsonBody("round-%d", round)}
		putRecord(t, s, r, false)
		type res struct {
			r   store.Record
			err error
		}
		out := make(chan res, n)
		start := make(chan struct{})
		for range n {
			go func() {
				<-start
				got, err := s.TakeRecord(ctx, "token", "race")
				out <- res{got, err}
			}()
		}
		close(start)
		wins := 0
		for range n {
			x := <-out
			switch {
			case x.err == nil:
				wins++
				sameRecord(t, "concurrently taken", x.r, r)
			case errors.Is(x.err, store.ErrNotFound):
			default:
				t.Fatalf("concurrent take: %v", x.err)
			}
		}
		if wins != 1 {
			t.Fatalf("round %d: %d takers got the record, want exactly 1", round, wins)
		}
		wantNoRecord(t, s, "after concurrent take", "token", "race")
	}
}

func incr(t *testing.T, s store.Store, kind, key string, delta int64, ttl time.Duration) int64 {
	t.Helper()
	v, err := s.Incr(t.Context(), kind, key, delta, ttl)
	if err != nil {
		t.Fatalf("Incr(%q, %q, %d, %v): %v", kind, key, delta, ttl, err)
	}
	return v
}

func wantIncr(t *testing.T, s store.Store, kind, key string, delta int64, ttl time.Duration, want int64) {
	t.Helper()
	if got := incr(t, s, kind, key, delta, ttl); got != want {
		t.Fatalf("Incr(%q, %q, %d) = %d, want %d", kind, key, delta, got, want)
	}
}

func testIncr(t *testing.T, s store.Store) {
	ctx := t.Context()
	wantIncr(t, s, "count", "a", 1, 0, 1)
	wantIncr(t, s, "count", "a", 5, 0, 6)
	wantIncr(t, s, "count", "a", -2, 0, 4)
	wantIncr(t, s, "count", "b", 10, 0, 10)
	wantIncr(t, s, "other", "a", 7, 0, 7)
	wantIncr(t, s, "count", "a", 0, 0, 4)
	// A counter reads back as a record whose value is the decimal number.
	sameRecord(t, "counter record", getRecord(t, s, "count", "a"), store.Record{Kind: "count", Key: "a", Value: []byte("4")})
	wantIncr(t, s, "count", "neg", -3, 0, -3)
	sameRecord(t, "negative counter", getRecord(t, s, "count", "neg"), store.Record{Kind: "count", Key: "neg", Value: []byte("-3")})

	// The first hit fixes the window.
	before := time.Now()
	wantIncr(t, s, "throttle", "ip", 1, time.Hour, 1)
	after := time.Now()
	first := getRecord(t, s, "throttle", "ip")
	if first.ExpiresAt.Before(before.Add(time.Hour).Add(-time.Millisecond)) || first.ExpiresAt.After(after.Add(time.Hour).Add(time.Millisecond)) {
		t.Fatalf("counter expires at %v, want now+1h (%v..%v)", first.ExpiresAt, before.Add(time.Hour), after.Add(time.Hour))
	}
	wantIncr(t, s, "throttle", "ip", 1, 2*time.Hour, 2)
	wantIncr(t, s, "throttle", "ip", 1, 0, 3)
	sameRecord(t, "counter keeps its first expiry", getRecord(t, s, "throttle", "ip"),
		store.Record{Kind: "throttle", Key: "ip", Value: []byte("3"), ExpiresAt: first.ExpiresAt})

	// An expired counter restarts from 0 with a new expiry.
	putRecord(t, s, store.Record{Kind: "throttle", Key: "old", Value: []byte("41"), ExpiresAt: time.Now().Add(-time.Second)}, false)
	before = time.Now()
	wantIncr(t, s, "throttle", "old", 1, time.Minute, 1)
	if got := getRecord(t, s, "throttle", "old"); got.ExpiresAt.Before(before.Add(time.Minute - time.Millisecond)) {
		t.Fatalf("restarted counter expires at %v, want about %v", got.ExpiresAt, before.Add(time.Minute))
	}

	// DeleteRecord resets a counter.
	if err := s.DeleteRecord(ctx, "count", "b"); err != nil {
		t.Fatal(err)
	}
	wantIncr(t, s, "count", "b", 1, 0, 1)

	// Concurrent increments are all counted, each seeing a distinct value.
	const n = 20
	out := make(chan int64, n)
	for range n {
		go func() {
			v, err := s.Incr(ctx, "count", "race", 1, time.Hour)
			if err != nil {
				t.Errorf("concurrent Incr: %v", err)
			}
			out <- v
		}()
	}
	var got []int64
	for range n {
		got = append(got, <-out)
	}
	slices.Sort(got)
	for i, v := range got {
		if v != int64(i+1) {
			t.Fatalf("concurrent Incr results %v, want 1..%d each once", got, n)
		}
	}
}

// testExpiry is the only test that sleeps (about a second).
func testExpiry(t *testing.T, s store.Store) {
	ctx := t.Context()
	const ttl = 700 * time.Millisecond
	exp := time.Now().Add(ttl)
	r := store.Record{Kind: "session", Key: "short", Value: []byte("v"), ExpiresAt: exp}
	putRecord(t, s, r, false)
	keep := store.Record{Kind: "session", Key: "long", Value: []byte("w"), ExpiresAt: time.Now().Add(time.Hour)}
	putRecord(t, s, keep, false)
	wantIncr(t, s, "throttle", "win", 1, ttl, 1)
	wantIncr(t, s, "throttle", "win", 1, ttl, 2)
	sameRecord(t, "before expiry", getRecord(t, s, "session", "short"), r)

	time.Sleep(time.Until(exp) + 300*time.Millisecond)

	wantNoRecord(t, s, "GetRecord after expiry", "session", "short")
	_, err := s.TakeRecord(ctx, "session", "short")
	wantErr(t, "TakeRecord after expiry", err, store.ErrNotFound)
	sameRecord(t, "unexpired record", getRecord(t, s, "session", "long"), keep)
	before := time.Now()
	wantIncr(t, s, "throttle", "win", 1, ttl, 1)
	if got := getRecord(t, s, "throttle", "win"); got.ExpiresAt.Before(before.Add(ttl - time.Millisecond)) {
		t.Fatalf("restarted window expires at %v, want about %v", got.ExpiresAt, before.Add(ttl))
	}
	again := store.Record{Kind: "session", Key: "short", Value: []byte("v2")}
	putRecord(t, s, again, true)
	sameRecord(t, "ifAbsent after expiry", getRecord(t, s, "session", "short"), again)
}

// ---- tombstones with a body ----

// testTombstoneBody: a delete written through Put keeps its body, so the
// change stream can tell who deleted a document and when.
func testTombstoneBody(t *testing.T, s store.Store) {
	ctx := t.Context()
	const db = "tomb"
	createDB(t, s, db)
	d1 := put(t, s, db, store.Doc{ID: "a", Klass: "task", SortKey: "2024-01-01", Body: []byte(`{"title":"x"}`)})
	body := []byte(`{"klass":"task","updated_at":"2024-01-02T00:00:00.000Z","updated_by":{"_id":"u1","label":"Ana"}}`)
	tomb := put(t, s, db, store.Doc{ID: "a", Rev: d1.Rev, Deleted: true, Klass: "task", SortKey: "2024-01-01", Body: body})
	if !tomb.Deleted || tomb.Rev != store.NextRev(d1.Rev, true, body) || tomb.Seq <= d1.Seq || !bytes.Equal(tomb.Body, body) {
		t.Fatalf("Put tombstone with body = %s", fmtDoc(tomb))
	}
	got, err := s.Get(ctx, db, "a")
	wantErr(t, "Get tombstone with body", err, store.ErrDeleted)
	if got.Rev != tomb.Rev || got.Seq != tomb.Seq || !got.Deleted || !bytes.Equal(got.Body, body) {
		t.Fatalf("Get tombstone = %s, want body %s", fmtDoc(got), body)
	}
	rows := changes(t, s, db, store.ChangesQuery{})
	if len(rows) != 1 || !rows[0].Deleted || !bytes.Equal(rows[0].Body, body) {
		t.Fatalf("Changes rows %d, first %s; want the tombstone with its body", len(rows), fmtDoc(rows[0]))
	}
	page, err := s.List(ctx, db, store.ListQuery{Klass: "task"})
	if err != nil {
		t.Fatal(err)
	}
	wantIDs(t, "List after tombstone with body", page.Docs, nil)
	wantInfo(t, s, db, store.DBInfo{Name: db, DelCount: 1, UpdateSeq: tomb.Seq})

	// It revives like any tombstone.
	again := put(t, s, db, store.Doc{ID: "a", Klass: "task", SortKey: "2024-01-03", Body: []byte(`{"title":"y"}`)})
	if store.RevGeneration(again.Rev) != 3 {
		t.Fatalf("revived rev %q, want generation 3", again.Rev)
	}
}

// ---- record transactions ----

func transact(t *testing.T, s store.Store, writes ...store.RecordWrite) {
	t.Helper()
	if err := s.Transact(t.Context(), writes); err != nil {
		t.Fatalf("Transact(%d writes): %v", len(writes), err)
	}
}

func testTransact(t *testing.T, s store.Store) {
	ctx := t.Context()
	if err := s.Transact(ctx, nil); err != nil {
		t.Fatalf("empty Transact: %v", err)
	}

	// Unconditional puts, with and without expiry, and an empty value.
	exp := time.Now().Add(time.Hour)
	a := store.Record{Kind: "tx", Key: "a", Value: []byte("1")}
	b := store.Record{Kind: "tx", Key: "b", Value: []byte(`{"n":2}`), ExpiresAt: exp}
	c := store.Record{Kind: "tx2", Key: "a"}
	transact(t, s, store.RecordWrite{Record: a}, store.RecordWrite{Record: b}, store.RecordWrite{Record: c})
	sameRecord(t, "a", getRecord(t, s, "tx", "a"), a)
	sameRecord(t, "b", getRecord(t, s, "tx", "b"), b)
	sameRecord(t, "c", getRecord(t, s, "tx2", "a"), c)

	// A put replaces the record, expiry included; a delete removes it.
	a2 := store.Record{Kind: "tx", Key: "a", Value: []byte("2"), ExpiresAt: exp}
	transact(t, s, store.RecordWrite{Record: a2}, store.RecordWrite{Record: store.Record{Kind: "tx", Key: "b"}, Delete: true},
		store.RecordWrite{Record: store.Record{Kind: "tx", Key: "never"}, Delete: true})
	sameRecord(t, "a replaced", getRecord(t, s, "tx", "a"), a2)
	wantNoRecord(t, s, "b deleted", "tx", "b")

	// The largest transaction.
	var many []store.RecordWrite
	for i := range store.MaxTransactWrites {
		many = append(many, store.RecordWrite{Record: store.Record{Kind: "many", Key: fmt.Sprint(i), Value: jsonBody("%d", i)}, ExpectAbsent: true})
	}
	transact(t, s, many...)
	for i := range store.MaxTransactWrites {
		sameRecord(t, "many", getRecord(t, s, "many", fmt.Sprint(i)), many[i].Record)
	}

	// Calls no backend can run are refused before anything is written.
	too := append(slices.Clone(many), store.RecordWrite{Record: store.Record{Kind: "many", Key: "x"}})
	wantErr(t, "Transact over the limit", s.Transact(ctx, too), store.ErrBadTransact)
	wantNoRecord(t, s, "after refused Transact", "many", "x")
	dup := []store.RecordWrite{{Record: store.Record{Kind: "d", Key: "k", Value: []byte("1")}}, {Record: store.Record{Kind: "d", Key: "k", Value: []byte("2")}}}
	wantErr(t, "Transact writing one record twice", s.Transact(ctx, dup), store.ErrBadTransact)
	wantNoRecord(t, s, "after duplicate Transact", "d", "k")
	both := []store.RecordWrite{{Record: store.Record{Kind: "d", Key: "k"}, Expect: []byte("1"), ExpectAbsent: true}}
	wantErr(t, "Transact expecting a value and absence", s.Transact(ctx, both), store.ErrBadTransact)
}

func testTransactConditions(t *testing.T, s store.Store) {
	ctx := t.Context()
	cur := store.Record{Kind: "cas", Key: "cur", Value: []byte(`{"v":1}`)}
	putRecord(t, s, cur, false)
	putRecord(t, s, store.Record{Kind: "cas", Key: "old", Value: []byte("x"), ExpiresAt: time.Now().Add(-time.Second)}, false)
	putRecord(t, s, store.Record{Kind: "cas", Key: "empty"}, false)
	wantIncr(t, s, "cas", "counter", 3, 0, 3)

	other := store.Record{Kind: "cas", Key: "other", Value: []byte("side effect")}
	bad := []struct {
		name string
		w    store.RecordWrite
	}{
		{"ExpectAbsent over a live record", store.RecordWrite{Record: store.Record{Kind: "cas", Key: "cur", Value: []byte("n")}, ExpectAbsent: true}},
		{"Expect another value", store.RecordWrite{Record: store.Record{Kind: "cas", Key: "cur", Value: []byte("n")}, Expect: []byte(`{"v":2}`)}},
		{"Expect a prefix of the value", store.RecordWrite{Record: store.Record{Kind: "cas", Key: "cur", Value: []byte("n")}, Expect: []byte(`{"v":`)}},
		{"Expect a missing record", store.RecordWrite{Record: store.Record{Kind: "cas", Key: "none", Value: []byte("n")}, Expect: []byte("x")}},
		{"Expect an expired record", store.RecordWrite{Record: store.Record{Kind: "cas", Key: "old", Value: []byte("n")}, Expect: []byte("x")}},
		{"Expect empty of a non-empty record", store.RecordWrite{Record: store.Record{Kind: "cas", Key: "cur", Value: []byte("n")}, Expect: []byte{}}},
		{"Expect another counter value", store.RecordWrite{Record: store.Record{Kind: "cas", Key: "counter", Value: []byte("9")}, Expect: []byte("4")}},
		{"conditional delete of another value", store.RecordWrite{Record: store.Record{Kind: "cas", Key: "cur"}, Delete: true, Expect: []byte("x")}},
	}
	for _, b := range bad {
		err := s.Transact(ctx, []store.RecordWrite{{Record: other}, b.w})
		wantErr(t, b.name, err, store.ErrConflict)
		wantNoRecord(t, s, b.name+": the unconditional write of the same transaction", "cas", "other")
		sameRecord(t, b.name+": current record unchanged", getRecord(t, s, "cas", "cur"), cur)
	}
	wantNoRecord(t, s, "no record created by failed Expect", "cas", "none")

	good := []struct {
		name string
		w    store.RecordWrite
	}{
		{"Expect the current value", store.RecordWrite{Record: store.Record{Kind: "cas", Key: "cur", Value: []byte(`{"v":2}`)}, Expect: []byte(`{"v":1}`)}},
		{"ExpectAbsent of a missing record", store.RecordWrite{Record: store.Record{Kind: "cas", Key: "new", Value: []byte("n")}, ExpectAbsent: true}},
		{"ExpectAbsent of an expired record", store.RecordWrite{Record: store.Record{Kind: "cas", Key: "old", Value: []byte("n")}, ExpectAbsent: true}},
		{"Expect an empty value", store.RecordWrite{Record: store.Record{Kind: "cas", Key: "empty", Value: []byte("e")}, Expect: []byte{}}},
		{"Expect a counter's value", store.RecordWrite{Record: store.Record{Kind: "cas", Key: "counter", Value: []byte("4")}, Expect: []byte("3")}},
	}
	for _, g := range good {
		transact(t, s, g.w)
		sameRecord(t, g.name, getRecord(t, s, g.w.Kind, g.w.Key), g.w.Record)
	}
	transact(t, s, store.RecordWrite{Record: store.Record{Kind: "cas", Key: "cur"}, Delete: true, Expect: []byte(`{"v":2}`)})
	wantNoRecord(t, s, "conditional delete", "cas", "cur")
	transact(t, s, store.RecordWrite{Record: store.Record{Kind: "cas", Key: "cur"}, Delete: true, ExpectAbsent: true})
	err := s.Transact(ctx, []store.RecordWrite{{Record: store.Record{Kind: "cas", Key: "new"}, Delete: true, ExpectAbsent: true}})
	wantErr(t, "delete expecting absence of a live record", err, store.ErrConflict)
}

// testTransactConcurrent: read-modify-write loops with Expect lose no
// update, which is what exact counters rely on.
func testTransactConcurrent(t *testing.T, s store.Store) {
	ctx := t.Context()
	const workers, rounds = 8, 5
	errs := make(chan error, workers)
	for w := range workers {
		go func() {
			for range rounds {
				for attempt := 0; ; attempt++ {
					var write store.RecordWrite
					r, err := s.GetRecord(ctx, "cas", "sum")
					switch {
					case errors.Is(err, store.ErrNotFound):
						write = store.RecordWrite{Record: store.Record{Kind: "cas", Key: "sum", Value: []byte("1")}, ExpectAbsent: true}
					case err != nil:
						errs <- err
						return
					default:
						var n int
						fmt.Sscan(string(r.Value), &n)
						write = store.RecordWrite{Record: store.Record{Kind: "cas", Key: "sum", Value: jsonBody("%d", n+1)}, Expect: r.Value}
					}
					mine := store.RecordWrite{Record: store.Record{Kind: "cas", Key: fmt.Sprintf("w%d-%d", w, attempt), Value: []byte("x")}}
					err = s.Transact(ctx, []store.RecordWrite{write, mine})
					if errors.Is(err, store.ErrConflict) {
						continue
					}
					if err != nil {
						errs <- err
						return
					}
					break
				}
			}
			errs <- nil
		}()
	}
	for range workers {
		if err := <-errs; err != nil {
			t.Fatalf("concurrent Transact: %v", err)
		}
	}
	sameRecord(t, "sum", getRecord(t, s, "cas", "sum"), store.Record{Kind: "cas", Key: "sum", Value: jsonBody("%d", workers*rounds)})
}
