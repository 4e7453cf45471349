package bolt

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/store/storetest"
)

func openTemp(t testing.TB) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "data", "oficina.db")
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return s, path
}

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		s, _ := openTemp(t)
		return s
	})
}

func TestFileMode(t *testing.T) {
	s, path := openTemp(t)
	defer s.Close()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if mode := fi.Mode().Perm(); mode != 0o600 {
		t.Fatalf("file mode %o, want 600", mode)
	}
	if s.db.NoSync {
		t.Fatalf("NoSync is set: writes would not be durable")
	}
}

func mustPut(t *testing.T, s *Store, db string, d store.Doc) store.Doc {
	t.Helper()
	out, err := s.Put(t.Context(), db, d)
	if err != nil {
		t.Fatalf("Put %s/%s: %v", db, d.ID, err)
	}
	return out
}

func readOutbox(t *testing.T, s *Store) []OutboxEntry {
	t.Helper()
	es, err := s.ReadOutbox(t.Context(), 0)
	if err != nil {
		t.Fatalf("ReadOutbox: %v", err)
	}
	return es
}

func sameDoc(t *testing.T, what string, got, want store.Doc) {
	t.Helper()
	if got.ID != want.ID || got.Rev != want.Rev || got.Seq != want.Seq || got.Deleted != want.Deleted ||
		got.Klass != want.Klass || got.SortKey != want.SortKey || !bytes.Equal(got.Body, want.Body) {
		t.Fatalf("%s:\n got  %+v\n want %+v", what, got, want)
	}
}

func TestOutbox(t *testing.T) {
	ctx := t.Context()
	s, _ := openTemp(t)
	defer s.Close()
	for _, db := range []string{"a", "b"} {
		if err := s.CreateDB(ctx, db); err != nil {
			t.Fatal(err)
		}
	}
	if es := readOutbox(t, s); len(es) != 0 {
		t.Fatalf("outbox after CreateDB: %d entries, want 0", len(es))
	}

	d1 := mustPut(t, s, "a", store.Doc{ID: "x", Klass: "task", SortKey: "1", Body: []byte(`{"v":1}`)})
	d2 := mustPut(t, s, "a", store.Doc{ID: "x", Rev: d1.Rev, Klass: "task", SortKey: "2", Body: []byte(`{"v":2}`)})
	e1 := mustPut(t, s, "b", store.Doc{ID: "x", Body: []byte(`{"other":1}`)})

	// Failed writes leave no entry: the entry is in the document's transaction.
	if _, err := s.Put(ctx, "a", store.Doc{ID: "x", Rev: d1.Rev, Body: []byte(`{}`)}); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("stale Put: %v, want ErrConflict", err)
	}
	if _, err := s.Put(ctx, "a", store.Doc{ID: "y", Body: make([]byte, store.MaxDocBytes+1)}); !errors.Is(err, store.ErrTooLarge) {
		t.Fatalf("large Put: %v, want ErrTooLarge", err)
	}
	if _, err := s.Put(ctx, "nodb", store.Doc{ID: "y", Body: []byte(`{}`)}); !errors.Is(err, store.ErrDBNotFound) {
		t.Fatalf("Put to missing db: %v, want ErrDBNotFound", err)
	}
	tomb, err := s.Delete(ctx, "a", "x", d2.Rev)
	if err != nil {
		t.Fatal(err)
	}
	// Records never reach the outbox.
	if _, err := s.Incr(ctx, "c", "k", 1, 0); err != nil {
		t.Fatal(err)
	}

	es := readOutbox(t, s)
	if len(es) != 4 {
		t.Fatalf("outbox: %d entries, want 4", len(es))
	}
	want := []struct {
		db       string
		old, new store.Doc
		hasOld   bool
	}{
		{"a", store.Doc{}, d1, false},
		{"a", d1, d2, true},
		{"b", store.Doc{}, e1, false},
		{"a", d2, tomb, true},
	}
	for i, w := range want {
		e := es[i]
		if i > 0 && e.Key <= es[i-1].Key {
			t.Fatalf("outbox keys not increasing: %d after %d", e.Key, es[i-1].Key)
		}
		if e.Change.DB != w.db {
			t.Fatalf("entry %d: DB %q, want %q", i, e.Change.DB, w.db)
		}
		if (e.Change.Old != nil) != w.hasOld {
			t.Fatalf("entry %d: Old = %+v, want present=%v", i, e.Change.Old, w.hasOld)
		}
		if w.hasOld {
			sameDoc(t, fmt.Sprintf("entry %d Old", i), *e.Change.Old, w.old)
		}
		sameDoc(t, fmt.Sprintf("entry %d New", i), e.Change.New, w.new)
	}

	// Partial reads return the oldest; acks remove exactly what they name.
	first, err := s.ReadOutbox(ctx, 2)
	if err != nil || len(first) != 2 || first[0].Key != es[0].Key || first[1].Key != es[1].Key {
		t.Fatalf("ReadOutbox(2) = %d entries, %v", len(first), err)
	}
	if err := s.AckOutbox(ctx, []uint64{es[0].Key, es[2].Key}); err != nil {
		t.Fatal(err)
	}
	left := readOutbox(t, s)
	if len(left) != 2 || left[0].Key != es[1].Key || left[1].Key != es[3].Key {
		t.Fatalf("after ack: %+v", left)
	}
	if err := s.AckOutbox(ctx, []uint64{es[0].Key, es[1].Key, es[3].Key}); err != nil {
		t.Fatal(err)
	}
	if left := readOutbox(t, s); len(left) != 0 {
		t.Fatalf("after acking everything: %d entries", len(left))
	}

	// Keys keep increasing after the outbox was emptied.
	mustPut(t, s, "b", store.Doc{ID: "z", Body: []byte(`{}`)})
	if es2 := readOutbox(t, s); len(es2) != 1 || es2[0].Key <= es[3].Key {
		t.Fatalf("new entry after drain: %+v", es2)
	}
}

func TestOutboxConcurrentWrites(t *testing.T) {
	ctx := t.Context()
	s, _ := openTemp(t)
	defer s.Close()
	if err := s.CreateDB(ctx, "db"); err != nil {
		t.Fatal(err)
	}
	cur := mustPut(t, s, "db", store.Doc{ID: "hot", Body: []byte(`{}`)})
	const n = 40
	var wins atomic.Int64
	done := make(chan struct{})
	for i := range n {
		go func() {
			defer func() { done <- struct{}{} }()
			// Half contend on one doc (many conflicts in shared batches),
			// half create their own.
			if i%2 == 0 {
				_, err := s.Put(ctx, "db", store.Doc{ID: "hot", Rev: cur.Rev, Body: []byte(fmt.Sprintf(`{"i":%d}`, i))})
				if err == nil {
					wins.Add(1)
				} else if !errors.Is(err, store.ErrConflict) {
					t.Errorf("Put: %v", err)
				}
				return
			}
			if _, err := s.Put(ctx, "db", store.Doc{ID: fmt.Sprintf("d%d", i), Body: []byte(`{}`)}); err != nil {
				t.Errorf("Put: %v", err)
			} else {
				wins.Add(1)
			}
		}()
	}
	for range n {
		<-done
	}
	if got := wins.Load(); got != n/2+1 {
		t.Fatalf("%d successful writes, want %d", got, n/2+1)
	}
	// One entry per successful write (plus the initial create), nothing from conflicts.
	es := readOutbox(t, s)
	if len(es) != n/2+2 {
		t.Fatalf("outbox: %d entries, want %d", len(es), n/2+2)
	}
	info, err := s.DBInfo(ctx, "db")
	if err != nil {
		t.Fatal(err)
	}
	if es[len(es)-1].Change.New.Seq != info.UpdateSeq {
		t.Fatalf("last outbox entry seq %d, db update seq %d", es[len(es)-1].Change.New.Seq, info.UpdateSeq)
	}
}

func TestReopen(t *testing.T) {
	ctx := t.Context()
	s, path := openTemp(t)
	if err := s.CreateDB(ctx, "db"); err != nil {
		t.Fatal(err)
	}
	d := mustPut(t, s, "db", store.Doc{ID: "a", Klass: "k", SortKey: "1", Body: []byte(`{"a":1}`)})
	b1 := mustPut(t, s, "db", store.Doc{ID: "b", Body: []byte(`{"b":1}`)})
	tomb, err := s.Delete(ctx, "db", "b", b1.Rev)
	if err != nil {
		t.Fatal(err)
	}
	rec := store.Record{Kind: "session", Key: "s1", Value: []byte("u1"), ExpiresAt: time.Now().Add(time.Hour).Round(0)}
	if err := s.PutRecord(ctx, rec, false); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s, err = Open(path, Options{})
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer s.Close()
	got, err := s.Get(ctx, "db", "a")
	if err != nil {
		t.Fatal(err)
	}
	sameDoc(t, "doc after reopen", got, d)
	if got, err := s.Get(ctx, "db", "b"); !errors.Is(err, store.ErrDeleted) || got.Rev != tomb.Rev {
		t.Fatalf("tombstone after reopen: %+v %v", got, err)
	}
	info, err := s.DBInfo(ctx, "db")
	if err != nil {
		t.Fatal(err)
	}
	if want := (store.DBInfo{Name: "db", DocCount: 1, DelCount: 1, UpdateSeq: tomb.Seq}); info != want {
		t.Fatalf("DBInfo after reopen = %+v, want %+v", info, want)
	}
	page, err := s.List(ctx, "db", store.ListQuery{Klass: "k"})
	if err != nil || len(page.Docs) != 1 || page.Docs[0].ID != "a" {
		t.Fatalf("List after reopen: %+v %v", page, err)
	}
	r, err := s.GetRecord(ctx, "session", "s1")
	if err != nil || string(r.Value) != "u1" || !r.ExpiresAt.Equal(rec.ExpiresAt) {
		t.Fatalf("record after reopen: %+v %v", r, err)
	}
	if es := readOutbox(t, s); len(es) != 3 {
		t.Fatalf("outbox after reopen: %d entries, want 3 (unacked entries survive)", len(es))
	}
	// The sequence continues where it was.
	d2 := mustPut(t, s, "db", store.Doc{ID: "a", Rev: d.Rev, Body: []byte(`{"a":2}`)})
	if d2.Seq != tomb.Seq+1 {
		t.Fatalf("seq after reopen %d, want %d", d2.Seq, tomb.Seq+1)
	}
	if err := s.CreateDB(ctx, "db"); !errors.Is(err, store.ErrDBExists) {
		t.Fatalf("CreateDB after reopen: %v", err)
	}
}

func TestOpenLocked(t *testing.T) {
	s, path := openTemp(t)
	defer s.Close()
	start := time.Now()
	_, err := Open(path, Options{OpenTimeout: 100 * time.Millisecond})
	if err == nil {
		t.Fatalf("second Open of a locked file succeeded")
	}
	if time.Since(start) > 5*time.Second {
		t.Fatalf("second Open took %v", time.Since(start))
	}
}

func TestSweep(t *testing.T) {
	ctx := t.Context()
	s, _ := openTemp(t)
	defer s.Close()
	past := time.Now().Add(-time.Minute)
	// More than one sweep chunk, written in one transaction through the
	// same code path as PutRecord (2,500 fsyncs would only slow the test).
	err := s.db.Update(func(tx *bbolt.Tx) error {
		for i := range 2500 {
			rk := recordKey("old", fmt.Sprint(i))
			if err := putRecordTx(tx, rk, nil, expiryNanos(past), []byte("x")); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetRecord(ctx, "old", "1"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("expired record before Sweep: %v", err)
	}
	keep := []store.Record{
		{Kind: "keep", Key: "forever", Value: []byte("f")},
		{Kind: "keep", Key: "later", Value: []byte("l"), ExpiresAt: time.Now().Add(time.Hour)},
	}
	for _, r := range keep {
		if err := s.PutRecord(ctx, r, false); err != nil {
			t.Fatal(err)
		}
	}
	// Overwritten before expiring: the old index entry must not delete it.
	if err := s.PutRecord(ctx, store.Record{Kind: "keep", Key: "renewed", Value: []byte("a"), ExpiresAt: past}, false); err != nil {
		t.Fatal(err)
	}
	if err := s.PutRecord(ctx, store.Record{Kind: "keep", Key: "renewed", Value: []byte("b"), ExpiresAt: time.Now().Add(time.Hour)}, false); err != nil {
		t.Fatal(err)
	}

	n, err := s.Sweep(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n != 2500 {
		t.Fatalf("Sweep removed %d, want 2500", n)
	}
	err = s.db.View(func(tx *bbolt.Tx) error {
		if got := tx.Bucket(bucketRecords).Stats().KeyN; got != 3 {
			return fmt.Errorf("%d records left, want 3", got)
		}
		if got := tx.Bucket(bucketExpiry).Stats().KeyN; got != 2 {
			return fmt.Errorf("%d expiry index entries left, want 2", got)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"forever", "later", "renewed"} {
		if _, err := s.GetRecord(ctx, "keep", k); err != nil {
			t.Fatalf("keep/%s after Sweep: %v", k, err)
		}
	}
	if n, err := s.Sweep(ctx); n != 0 || err != nil {
		t.Fatalf("second Sweep: %d, %v", n, err)
	}
	// Deleted and taken records leave no index entries behind.
	if err := s.DeleteRecord(ctx, "keep", "later"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.TakeRecord(ctx, "keep", "renewed"); err != nil {
		t.Fatal(err)
	}
	err = s.db.View(func(tx *bbolt.Tx) error {
		if got := tx.Bucket(bucketExpiry).Stats().KeyN; got != 0 {
			return fmt.Errorf("%d expiry index entries left, want 0", got)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestNotifier(t *testing.T) {
	ctx := t.Context()
	s, _ := openTemp(t)
	for _, db := range []string{"a", "b"} {
		if err := s.CreateDB(ctx, db); err != nil {
			t.Fatal(err)
		}
	}
	chA, chB := s.Changed("a"), s.Changed("b")
	if s.Changed("a") != chA {
		t.Fatalf("two waiters on one db got different channels")
	}
	outbox := s.OutboxSignal()
	assertOpen := func(what string, ch <-chan struct{}) {
		t.Helper()
		select {
		case <-ch:
			t.Fatalf("%s: closed, want open", what)
		default:
		}
	}
	assertClosed := func(what string, ch <-chan struct{}) {
		t.Helper()
		select {
		case <-ch:
		case <-time.After(time.Second):
			t.Fatalf("%s: still open", what)
		}
	}
	assertOpen("a before any write", chA)
	assertOpen("outbox before any write", outbox)

	// A failed write wakes nobody.
	if _, err := s.Put(ctx, "a", store.Doc{ID: "x", Rev: "1-" + fmt.Sprintf("%032x", 0), Body: []byte(`{}`)}); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("conflicting Put: %v", err)
	}
	assertOpen("a after a conflict", chA)

	d := mustPut(t, s, "a", store.Doc{ID: "x", Body: []byte(`{}`)})
	assertClosed("a after a write", chA)
	assertClosed("outbox after a write", outbox)
	assertOpen("b after a write to a", chB)

	// Each channel fires once: the next one waits for the next write.
	chA2, outbox2 := s.Changed("a"), s.OutboxSignal()
	assertOpen("new waiter on a", chA2)
	assertOpen("new outbox signal", outbox2)
	go func() {
		time.Sleep(20 * time.Millisecond)
		_, _ = s.Delete(ctx, "a", "x", d.Rev)
	}()
	assertClosed("a after a delete", chA2)
	assertClosed("outbox after a delete", outbox2)

	// Close wakes everyone and later calls do not block.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	assertClosed("b after Close", chB)
	assertClosed("Changed after Close", s.Changed("a"))
	assertClosed("OutboxSignal after Close", s.OutboxSignal())
}

func TestCorruptCursor(t *testing.T) {
	ctx := t.Context()
	s, _ := openTemp(t)
	defer s.Close()
	if err := s.CreateDB(ctx, "db"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.List(ctx, "db", store.ListQuery{Klass: "k", After: "!!not base64"}); err == nil {
		t.Fatalf("List with a malformed cursor succeeded")
	}
}

func TestKeyEncodingOrder(t *testing.T) {
	// Sort keys and klasses with NUL bytes and shared prefixes must keep
	// tuple order (sort key, then id) and never leak across klasses.
	type k struct{ klass, sortKey, id string }
	ordered := []k{
		{"a", "", "z"},
		{"a", "x", "a"},
		{"a", "x", "b"},
		{"a", "x\x00", "a"},
		{"a", "x\x00\x00", "a"},
		{"a", "x\x01", "a"},
		{"a", "xa", "a"},
		{"a\x00", "", "a"},
		{"ab", "", "a"},
	}
	for i := 1; i < len(ordered); i++ {
		p, q := ordered[i-1], ordered[i]
		if bytes.Compare(klassKey(p.klass, p.sortKey, p.id), klassKey(q.klass, q.sortKey, q.id)) >= 0 {
			t.Fatalf("klassKey(%q) >= klassKey(%q)", p, q)
		}
	}
	for _, x := range ordered {
		for _, other := range []string{"a", "a\x00", "ab"} {
			has := bytes.HasPrefix(klassKey(x.klass, x.sortKey, x.id), klassPrefix(other))
			if has != (x.klass == other) {
				t.Fatalf("klassKey(%q) has prefix of klass %q = %v", x, other, has)
			}
		}
	}
}

func BenchmarkGet(b *testing.B) {
	ctx := b.Context()
	s, _ := openTemp(b)
	defer s.Close()
	if err := s.CreateDB(ctx, "db"); err != nil {
		b.Fatal(err)
	}
	body := bytes.Repeat([]byte("x"), 1024)
	body = append(append([]byte(`{"t":"`), body...), `"}`...)
	const n = 1000
	for i := range n {
		if _, err := s.Put(ctx, "db", store.Doc{ID: fmt.Sprintf("doc%04d", i), Klass: "k", SortKey: fmt.Sprint(i), Body: body}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			if _, err := s.Get(ctx, "db", fmt.Sprintf("doc%04d", i%n)); err != nil {
				b.Error(err)
				return
			}
			i++
		}
	})
}

func TestKeyTooLong(t *testing.T) {
	ctx := t.Context()
	s, _ := openTemp(t)
	defer s.Close()
	if err := s.CreateDB(ctx, "db"); err != nil {
		t.Fatal(err)
	}
	long := string(bytes.Repeat([]byte("k"), bbolt.MaxKeySize))
	if _, err := s.Put(ctx, "db", store.Doc{ID: "x", Klass: "k", SortKey: long, Body: []byte(`{}`)}); !errors.Is(err, errKeyTooBig) {
		t.Fatalf("Put with an oversized sort key: %v", err)
	}
	if err := s.PutRecord(ctx, store.Record{Kind: "k", Key: long}, false); !errors.Is(err, errRecordKey) {
		t.Fatalf("PutRecord with an oversized key: %v", err)
	}
	if err := s.CreateDB(ctx, long+"x"); !errors.Is(err, errDBName) {
		t.Fatalf("CreateDB with an oversized name: %v", err)
	}
	if es := readOutbox(t, s); len(es) != 0 {
		t.Fatalf("outbox after rejected writes: %d entries", len(es))
	}
}

// BenchmarkPut is one writer: the latency of a single durable write
// (batch delay + fsync).
func BenchmarkPut(b *testing.B) {
	ctx := b.Context()
	s, _ := openTemp(b)
	defer s.Close()
	if err := s.CreateDB(ctx, "db"); err != nil {
		b.Fatal(err)
	}
	body := []byte(`{"title":"a task","status":"open","priority":2}`)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		id := fmt.Sprintf("doc%08d", i)
		if _, err := s.Put(ctx, "db", store.Doc{ID: id, Klass: "task", SortKey: id, Body: body}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPutParallel(b *testing.B) {
	ctx := b.Context()
	s, _ := openTemp(b)
	defer s.Close()
	if err := s.CreateDB(ctx, "db"); err != nil {
		b.Fatal(err)
	}
	body := []byte(`{"title":"a task","status":"open","priority":2}`)
	var next atomic.Int64
	b.SetParallelism(16) // writers wait on fsync, not CPU
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			id := fmt.Sprintf("doc%08d", next.Add(1))
			if _, err := s.Put(ctx, "db", store.Doc{ID: id, Klass: "task", SortKey: id, Body: body}); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// TestPackedBodies: a body of packMin bytes or more is stored compressed —
// in the docs bucket, the klass index's covering copy and the outbox —
// and every read path gives back the JSON as written; a smaller one, such
// as a 1.5 KB customer record, is stored verbatim and covered by the klass
// index, so that _find over records decompresses nothing.
func TestPackedBodies(t *testing.T) {
	s, _ := openTemp(t)
	ctx := t.Context()
	if err := s.CreateDB(ctx, "db"); err != nil {
		t.Fatal(err)
	}
	big := []byte(`{"content":"` + strings.Repeat("<p>Notícia do dia: a oficina abre às 8h. </p>", 70) + `","klass":"ReaderItem"}`)
	small := []byte(`{"klass":"ReaderItem","title":"curto"}`)
	record := []byte(`{"klass":"ReaderItem","notes":"` + strings.Repeat("Cliente desde 2019, prefere contato por telefone. ", 30) + `"}`)
	if len(record) < 1400 {
		t.Fatalf("the record body is %d bytes", len(record))
	}
	for id, body := range map[string][]byte{"big": big, "small": small, "record": record} {
		mustPut(t, s, "db", store.Doc{ID: id, Klass: "ReaderItem", SortKey: "2026", Body: body})
	}
	err := s.view(func(tx *bbolt.Tx) error {
		b := dbBucket(tx, "db")
		for id, want := range map[string]bool{"big": true, "small": false, "record": false} {
			raw := b.Bucket(bucketDocs).Get([]byte(id))
			h, err := parseDoc(raw)
			if err != nil {
				return err
			}
			if h.packed != want {
				t.Errorf("%s: packed %v, want %v", id, h.packed, want)
			}
			if want && len(raw) > len(big)/3 {
				t.Errorf("%s: %d bytes stored for a %d-byte body", id, len(raw), len(big))
			}
			// The klass index covers a small document; a packed one is looked up.
			if v := b.Bucket(bucketKlass).Get(klassKey("ReaderItem", "2026", id)); (len(v) == 0) != want {
				t.Errorf("%s: klass index value of %d bytes", id, len(v))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]byte{"big": big, "small": small, "record": record}
	check := func(what string, d store.Doc) {
		t.Helper()
		if !bytes.Equal(d.Body, want[d.ID]) {
			t.Fatalf("%s %s: body differs", what, d.ID)
		}
	}
	for id := range want {
		d, err := s.Get(ctx, "db", id)
		if err != nil {
			t.Fatal(err)
		}
		check("Get", d)
	}
	page, err := s.List(ctx, "db", store.ListQuery{Klass: "ReaderItem"})
	if err != nil || len(page.Docs) != len(want) {
		t.Fatalf("List: %d, %v", len(page.Docs), err)
	}
	for _, d := range page.Docs {
		check("List", d)
	}
	rows, err := s.Changes(ctx, "db", store.ChangesQuery{IncludeDocs: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range rows {
		check("Changes", d)
	}
	err = s.ScanKlass(ctx, "db", "ReaderItem", func(d store.Doc) error { check("ScanKlass", d); return nil })
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range readOutbox(t, s) {
		check("outbox", e.Change.New)
	}
}
