// Package streamtest holds the checks shared by the change-stream tests of
// both deliveries (the embedded outbox and DynamoDB Streams): a writer of
// realistic documents that records every store.Change it causes, a seeded
// random workload, and the equalities the stream must reach — counters
// equal to a recount, one history entry per change, and nothing moving
// when a batch is delivered again.
package streamtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/stream"
)

// Writer writes documents into one database the way the write path does
// (klass, server stamps, tombstones naming who deleted) and keeps the
// change of every write, as the outbox or DynamoDB Streams delivers it.
type Writer struct {
	T       testing.TB
	St      store.Store
	DB      string
	Changes []store.Change

	cur   map[string]store.Doc // id → current revision, tombstones included
	clock time.Time
	rnd   *rand.Rand
}

// NewWriter creates db and returns a writer for it.
func NewWriter(t testing.TB, st store.Store, db string) *Writer {
	t.Helper()
	if err := st.CreateDB(context.Background(), db); err != nil {
		t.Fatalf("CreateDB %s: %v", db, err)
	}
	return &Writer{
		T: t, St: st, DB: db,
		cur:   map[string]store.Doc{},
		clock: time.Date(2026, 5, 4, 12, 0, 0, 0, time.UTC),
		rnd:   rand.New(rand.NewPCG(1, 2)),
	}
}

var users = []map[string]any{
	{"_id": "usr-11111111111111111111111111111111", "label": "Ana"},
	{"_id": "usr-22222222222222222222222222222222", "label": "Bruno"},
}

func (w *Writer) tick() string {
	w.clock = w.clock.Add(time.Second)
	return w.clock.Format("2006-01-02T15:04:05.000Z")
}

// Put creates or updates (or revives) id with fields, stamping it.
func (w *Writer) Put(id string, fields map[string]any) store.Doc {
	w.T.Helper()
	old, had := w.cur[id]
	body := maps.Clone(fields)
	now, by := w.tick(), users[w.rnd.IntN(len(users))]
	klass, _ := body["klass"].(string)
	created := now
	if had && !old.Deleted {
		var ob map[string]any
		_ = json.Unmarshal(old.Body, &ob)
		if c, ok := ob["created_at"].(string); ok {
			created = c
		}
	}
	body["created_at"], body["created_by"] = created, by
	body["updated_at"], body["updated_by"] = now, by
	raw, err := json.Marshal(body)
	if err != nil {
		w.T.Fatal(err)
	}
	rev := ""
	if had && !old.Deleted {
		rev = old.Rev
	}
	d, err := w.St.Put(context.Background(), w.DB, store.Doc{ID: id, Rev: rev, Klass: klass, SortKey: created, Body: raw})
	if err != nil {
		w.T.Fatalf("Put %s/%s: %v", w.DB, id, err)
	}
	w.record(id, had, old, d)
	return d
}

// Delete writes id's tombstone with who deleted it and when.
func (w *Writer) Delete(id string) store.Doc {
	w.T.Helper()
	old, had := w.cur[id]
	if !had || old.Deleted {
		w.T.Fatalf("Delete %s: not live", id)
	}
	raw, _ := json.Marshal(map[string]any{"klass": old.Klass, "updated_at": w.tick(), "updated_by": users[w.rnd.IntN(len(users))]})
	d, err := w.St.Put(context.Background(), w.DB, store.Doc{ID: id, Rev: old.Rev, Deleted: true, Klass: old.Klass, SortKey: old.SortKey, Body: raw})
	if err != nil {
		w.T.Fatalf("Delete %s/%s: %v", w.DB, id, err)
	}
	w.record(id, true, old, d)
	return d
}

func (w *Writer) record(id string, had bool, old, d store.Doc) {
	ch := store.Change{DB: w.DB, New: d}
	if had {
		o := old
		ch.Old = &o
	}
	w.Changes = append(w.Changes, ch)
	w.cur[id] = d
}

// IDs returns every id written, sorted.
func (w *Writer) IDs() []string { return slices.Sorted(maps.Keys(w.cur)) }

// Live reports whether id is currently a live document.
func (w *Writer) Live(id string) bool { d, ok := w.cur[id]; return ok && !d.Deleted }

var (
	priorities = []any{"low", "medium", "high", nil}
	statuses   = []string{"open", "block", "doing", "review", "done", "cancel"}
	// kinds are the klasses of the workload with their id prefixes; the
	// mix covers counted records, tickets, money and uncounted subrecords.
	kinds = []struct{ klass, prefix string }{
		{"Ticket", "tik"}, {"Ticket", "tik"}, {"Ticket", "tik"},
		{"Customer", "cus"}, {"Income", "inc"}, {"Outgo", "out"},
		{"Category", "ctg"}, {"Comment", "cmt"}, {"Adjustment", "adj"}, {"Membership", "mem"},
	}
)

// fieldsFor returns a random body for klass.
func (w *Writer) fieldsFor(klass string, r *rand.Rand) map[string]any {
	f := map[string]any{"klass": klass}
	switch klass {
	case "Ticket":
		if p := priorities[r.IntN(len(priorities))]; p != nil {
			f["priority"] = p
		}
		f["status"] = statuses[r.IntN(len(statuses))]
		f["title"] = fmt.Sprintf("ticket %d", r.IntN(1000))
	case "Income", "Outgo":
		f["confirmed"] = r.IntN(2) == 0
		f["value"] = r.IntN(100000)
		f["description"] = fmt.Sprintf("entry %d", r.IntN(1000))
	case "Membership":
		f["bookmark"] = r.IntN(2) == 0
		f["status"] = []string{"pending", "accepted"}[r.IntN(2)]
	case "Adjustment":
		f["key"], f["label"], f["value"] = "billing-email", "billing-email", fmt.Sprintf("b%d@example.com", r.IntN(10))
	default:
		f["name"] = fmt.Sprintf("%s %d", klass, r.IntN(1000))
	}
	// Bodies of different sizes, so that bytes per klass are exercised.
	f["notes"] = string(bytes.Repeat([]byte("x"), r.IntN(300)))
	return f
}

// RandomMix performs n seeded creates, updates, deletes and revivals.
func (w *Writer) RandomMix(seed uint64, n int) {
	w.T.Helper()
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var ids []string
	klassOf := map[string]string{}
	for range n {
		op := r.IntN(100)
		switch {
		case len(ids) == 0 || op < 35:
			k := kinds[r.IntN(len(kinds))]
			id := fmt.Sprintf("%s-%016x%016x", k.prefix, r.Uint64(), r.Uint64())
			ids = append(ids, id)
			klassOf[id] = k.klass
			w.Put(id, w.fieldsFor(k.klass, r))
		default:
			id := ids[r.IntN(len(ids))]
			switch {
			case !w.Live(id):
				w.Put(id, w.fieldsFor(klassOf[id], r)) // revive
			case op < 85:
				w.Put(id, w.fieldsFor(klassOf[id], r))
			default:
				w.Delete(id)
			}
		}
	}
}

// Snapshot is everything the stream writes for one database.
type Snapshot struct {
	Counts    string
	Contribs  map[string]string
	History   map[string]string // id → rev and body
	UpdateSeq uint64
	DocCount  int64
}

// Take reads the snapshot of db; ids are the documents whose contribution
// records are included.
func Take(t testing.TB, st store.Store, db string, ids []string) Snapshot {
	t.Helper()
	ctx := context.Background()
	s := Snapshot{Contribs: map[string]string{}, History: map[string]string{}}
	if r, err := st.GetRecord(ctx, stream.KindCounters, db); err == nil {
		s.Counts = string(r.Value)
	} else if !errors.Is(err, store.ErrNotFound) {
		t.Fatal(err)
	}
	for _, id := range ids {
		r, err := st.GetRecord(ctx, stream.KindContrib, db+"\x00"+id)
		switch {
		case err == nil:
			s.Contribs[id] = string(r.Value)
		case !errors.Is(err, store.ErrNotFound):
			t.Fatal(err)
		}
	}
	for _, d := range history(t, st, db) {
		s.History[d.ID] = d.Rev + " " + string(d.Body)
	}
	info, err := st.DBInfo(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	s.UpdateSeq, s.DocCount = info.UpdateSeq, info.DocCount
	return s
}

// Equal fails t when two snapshots differ.
func (s Snapshot) Equal(t testing.TB, what string, o Snapshot) {
	t.Helper()
	switch {
	case s.Counts != o.Counts:
		t.Fatalf("%s: counters changed:\n%s\n%s", what, s.Counts, o.Counts)
	case !maps.Equal(s.Contribs, o.Contribs):
		t.Fatalf("%s: contributions changed", what)
	case !maps.Equal(s.History, o.History):
		t.Fatalf("%s: history changed: %d entries, then %d", what, len(s.History), len(o.History))
	case s.UpdateSeq != o.UpdateSeq || s.DocCount != o.DocCount:
		t.Fatalf("%s: db moved from seq %d (%d docs) to seq %d (%d docs)", what, s.UpdateSeq, s.DocCount, o.UpdateSeq, o.DocCount)
	}
}

func history(t testing.TB, st store.Store, db string) []store.Doc {
	t.Helper()
	out, err := stream.HistoryOf(context.Background(), st, db, "")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// CheckCounts fails t unless db's counters equal a recount of its documents
// by c (whose tallies the counters were kept with).
func CheckCounts(t testing.TB, c *stream.Consumer, st store.Store, db string) stream.Counts {
	t.Helper()
	got, err := stream.Read(context.Background(), st, db)
	if err != nil {
		t.Fatal(err)
	}
	want, err := c.Recount(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := json.Marshal(got)
	wt, _ := json.Marshal(want)
	if !bytes.Equal(g, wt) {
		t.Fatalf("counters of %s differ from a recount:\n got  %s\n want %s", db, g, wt)
	}
	return got
}

// CheckHistory fails t unless db holds exactly one history entry per
// tracked change, each naming its document, revision and base event.
func CheckHistory(t testing.TB, st store.Store, db string, changes []store.Change) {
	t.Helper()
	want := map[string]store.Change{}
	for _, ch := range changes {
		if ch.DB == db && stream.Tracked(ch) {
			want[stream.HistoryID(db, ch.New.ID, ch.New.Rev, ch.New.Seq)] = ch
		}
	}
	got := history(t, st, db)
	if len(got) != len(want) {
		t.Fatalf("%s: %d history entries, want %d", db, len(got), len(want))
	}
	for _, d := range got {
		ch, ok := want[d.ID]
		if !ok {
			t.Fatalf("%s: unexpected history entry %s", db, d.ID)
		}
		var h stream.History
		if err := json.Unmarshal(d.Body, &h); err != nil {
			t.Fatal(err)
		}
		event := stream.EventUpdate
		switch {
		case ch.New.Deleted:
			event = stream.EventDestroy
		case ch.Old == nil || ch.Old.Deleted || store.RevGeneration(ch.New.Rev) == 1:
			event = stream.EventCreate
		}
		if h.ItemID != ch.New.ID || h.Rev != ch.New.Rev || h.Seq != ch.New.Seq || h.Event != event || h.Whodunnit == nil || h.CreatedAt == "" {
			t.Fatalf("%s: history entry %s = %s for change of %s rev %s (%s)", db, d.ID, d.Body, ch.New.ID, ch.New.Rev, event)
		}
	}
}
