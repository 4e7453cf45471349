package bolt

import (
	"errors"
	"fmt"
	"testing"

	"github.com/oficina/oficina/shared/store"
)

func TestPutDocCommitsRecordsAndNumberWithTheDocument(t *testing.T) {
	ctx := t.Context()
	s, _ := openTemp(t)
	defer s.Close()
	if err := s.CreateDB(ctx, "db"); err != nil {
		t.Fatal(err)
	}
	link := func(key, value string) store.RecordWrite {
		return store.RecordWrite{Record: store.Record{Kind: "link", Key: key, Value: []byte(value)}}
	}
	counter := func() string {
		r, err := s.GetRecord(ctx, "seq", "db/tickets")
		if errors.Is(err, store.ErrNotFound) {
			return ""
		}
		if err != nil {
			t.Fatal(err)
		}
		return string(r.Value)
	}
	number := func() *store.Numbering { return &store.Numbering{Kind: "seq", Key: "db/tickets", Field: "number"} }

	commits := s.CommitStats().Commits
	n := number()
	a, err := s.PutDoc(ctx, "db", store.DocWrite{Doc: store.Doc{ID: "a", Klass: "t", Body: []byte(`{"title":"one"}`)}, Records: []store.RecordWrite{link("a", "to a")}, Number: n})
	if err != nil {
		t.Fatal(err)
	}
	if c := s.CommitStats().Commits - commits; c != 1 {
		t.Fatalf("a document, its record and its number took %d commits", c)
	}
	if string(a.Body) != `{"number":1,"title":"one"}` || n.Value != 1 || counter() != "1" {
		t.Fatalf("first number: body %s, value %d, counter %q", a.Body, n.Value, counter())
	}
	got, err := s.Get(ctx, "db", "a")
	if err != nil {
		t.Fatal(err)
	}
	sameDoc(t, "stored", got, a)
	if r, err := s.GetRecord(ctx, "link", "a"); err != nil || string(r.Value) != "to a" {
		t.Fatalf("record: %v %q", err, r.Value)
	}

	// Refused writes take no number and write nothing: a stale revision, a
	// failed record condition, a missing database.
	absent := store.RecordWrite{Record: store.Record{Kind: "link", Key: "a", Value: []byte("x")}, ExpectAbsent: true}
	outbox := len(readOutbox(t, s))
	for _, tt := range []struct {
		name string
		db   string
		w    store.DocWrite
		want error
	}{
		{"stale revision", "db", store.DocWrite{Doc: store.Doc{ID: "a", Rev: "1-stale", Body: []byte(`{}`)}, Number: number()}, store.ErrConflict},
		{"existing document without revision", "db", store.DocWrite{Doc: store.Doc{ID: "a", Body: []byte(`{}`)}, Records: []store.RecordWrite{link("b", "to b")}, Number: number()}, store.ErrConflict},
		{"record condition", "db", store.DocWrite{Doc: store.Doc{ID: "b", Body: []byte(`{}`)}, Records: []store.RecordWrite{absent}, Number: number()}, store.ErrConflict},
		{"missing database", "nodb", store.DocWrite{Doc: store.Doc{ID: "b", Body: []byte(`{}`)}, Records: []store.RecordWrite{link("b", "to b")}, Number: number()}, store.ErrDBNotFound},
		{"too many records", "db", store.DocWrite{Doc: store.Doc{ID: "b", Body: []byte(`{}`)}, Records: manyLinks(store.MaxTransactWrites + 1)}, store.ErrBadTransact},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := s.PutDoc(ctx, tt.db, tt.w); !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			if tt.w.Number != nil && tt.w.Number.Value != 0 {
				t.Fatalf("a refused write took number %d", tt.w.Number.Value)
			}
			if counter() != "1" {
				t.Fatalf("counter moved to %s", counter())
			}
			if _, err := s.Get(ctx, "db", "b"); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("document b: %v", err)
			}
			if _, err := s.GetRecord(ctx, "link", "b"); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("record b: %v", err)
			}
			if n := len(readOutbox(t, s)); n != outbox {
				t.Fatalf("outbox grew from %d to %d", outbox, n)
			}
		})
	}

	// An update with a delete among its records; the next create is number 2.
	a2, err := s.PutDoc(ctx, "db", store.DocWrite{Doc: store.Doc{ID: "a", Rev: a.Rev, Klass: "t", Body: a.Body},
		Records: []store.RecordWrite{{Record: store.Record{Kind: "link", Key: "a"}, Delete: true}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetRecord(ctx, "link", "a"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("deleted record: %v", err)
	}
	b, err := s.PutDoc(ctx, "db", store.DocWrite{Doc: store.Doc{ID: "b", Klass: "t", Body: []byte(`{}`)}, Number: number()})
	if err != nil {
		t.Fatal(err)
	}
	if string(b.Body) != `{"number":2}` || a2.Rev == a.Rev {
		t.Fatalf("second number: %s (update rev %s)", b.Body, a2.Rev)
	}
}

func manyLinks(n int) []store.RecordWrite {
	out := make([]store.RecordWrite, n)
	for i := range out {
		out[i] = store.RecordWrite{Record: store.Record{Kind: "link", Key: fmt.Sprint(i), Value: []byte("v")}}
	}
	return out
}
