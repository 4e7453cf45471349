package bolt

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	bbolt "go.etcd.io/bbolt"

	"github.com/oficina/oficina/shared/store"
)

// testNoter notes every write with a history entry "h-<seq>-<id>" whose
// body says how it was noted, and a counter delta saying the same.
type testNoter struct{}

func (testNoter) Note(ch store.Change) (store.ChangeNotes, error) {
	return noteOf(ch, "in the transaction", ch.New.Seq), nil
}

func (testNoter) HistorySeq(id string) (uint64, bool) {
	rest, ok := strings.CutPrefix(id, "h-")
	if !ok {
		return 0, false
	}
	digits, _, _ := strings.Cut(rest, "-")
	seq, err := strconv.ParseUint(digits, 10, 64)
	return seq, err == nil
}

// preparingNoter also prepares notes before the transaction.
type preparingNoter struct{ testNoter }

func (preparingNoter) PrepareNote(ch store.Change) (store.PreparedNote, error) {
	if ch.New.Seq != 0 {
		return nil, errors.New("prepared with a seq")
	}
	return func(seq uint64, written store.Doc) store.ChangeNotes {
		ch.New.Rev = written.Rev
		return noteOf(ch, "prepared", seq)
	}, nil
}

func noteOf(ch store.Change, how string, seq uint64) store.ChangeNotes {
	old := ""
	if ch.Old != nil {
		old = ch.Old.Rev
	}
	body := fmt.Sprintf(`{"seq":%d,"item_id":%q,"rev":%q,"old":%q,"how":%q}`, seq, ch.New.ID, ch.New.Rev, old, how)
	return store.ChangeNotes{
		History: &store.Doc{ID: fmt.Sprintf("h-%d-%s", seq, ch.New.ID), Klass: "DocumentChange", SortKey: strconv.FormatUint(seq, 10), Body: []byte(body)},
		Counts:  []byte(strconv.Quote(how)),
	}
}

// TestChangeLog: the embedded store keeps each write's notes in its log
// (store.ChangeLog), and serves the history entries as DynamoDB does: by
// document (newest first, bounded), for the whole database, by id, and in
// the changes feed right after the write they describe; across a restart.
func TestChangeLog(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "log.db")
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CreateDB(ctx, "db"); err != nil {
		t.Fatal(err)
	}
	put := func(d store.Doc) store.Doc {
		t.Helper()
		out, err := s.Put(ctx, "db", d)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}

	// A write made before any Noter is logged as unnoted.
	put(store.Doc{ID: "early", Body: []byte(`{"n":0}`)})
	s.SetNoter(preparingNoter{})
	a1 := put(store.Doc{ID: "a", Klass: "Thing", Body: []byte(`{"n":1}`)})
	a2 := put(store.Doc{ID: "a", Rev: a1.Rev, Klass: "Thing", Body: []byte(`{"n":2}`)})
	b1 := put(store.Doc{ID: "b", Klass: "Thing", Body: []byte(`{"n":1}`)})
	a3, err := s.Delete(ctx, "db", "a", a2.Rev)
	if err != nil {
		t.Fatal(err)
	}

	entries, err := s.ReadLog(ctx, "db", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := []string{}
	for _, e := range entries {
		got = append(got, fmt.Sprintf("%d-%d %v %s", e.Seq, e.Last, e.Noted, e.Counts))
	}
	want := []string{`1-1 false `, `2-3 true "prepared"`, `4-5 true "prepared"`, `6-7 true "prepared"`, `8-9 true "prepared"`}
	if !slices.Equal(got, want) {
		t.Fatalf("log: %q, want %q", got, want)
	}
	if e, _ := s.ReadLog(ctx, "db", 4, 1); len(e) != 1 || e[0].Seq != 4 {
		t.Fatalf("ReadLog since 4, limit 1: %+v, want the row covering 5", e)
	}
	info, err := s.DBInfo(ctx, "db")
	if err != nil || info.UpdateSeq != 9 || info.DocCount != 2 || info.DelCount != 1 {
		t.Fatalf("DBInfo: %+v, %v; want update_seq 9, 2 documents and 1 tombstone", info, err)
	}

	check := func(s *Store) {
		t.Helper()
		ids := func(docs []store.Doc, err error) []string {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
			out := []string{}
			for _, d := range docs {
				out = append(out, d.ID)
			}
			return out
		}
		for _, tc := range []struct {
			id    string
			limit int
			want  []string
		}{
			{"a", 0, []string{"h-8-a", "h-4-a", "h-2-a"}},
			{"a", 2, []string{"h-8-a", "h-4-a"}},
			{"b", 0, []string{"h-6-b"}},
			{"early", 0, []string{}},
			{"nobody", 0, []string{}},
			{"", 0, []string{"h-8-a", "h-6-b", "h-4-a", "h-2-a"}},
			{"", 3, []string{"h-8-a", "h-6-b", "h-4-a"}},
		} {
			if got := ids(s.History(ctx, "db", tc.id, tc.limit)); !slices.Equal(got, tc.want) {
				t.Fatalf("History(%q, %d) = %v, want %v", tc.id, tc.limit, got, tc.want)
			}
		}
		h, err := s.Get(ctx, "db", "h-4-a")
		if err != nil || h.Seq != 5 || h.Klass != "DocumentChange" || !strings.Contains(string(h.Body), `"rev":"`+a2.Rev+`","old":"`+a1.Rev+`"`) {
			t.Fatalf("Get(h-4-a) = %+v %s, %v", h, h.Body, err)
		}
		for _, id := range []string{"h-6-a", "h-99-a", "h-x"} {
			if _, err := s.Get(ctx, "db", id); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("Get(%s): %v, want not found", id, err)
			}
		}
		feed, err := s.Changes(ctx, "db", store.ChangesQuery{IncludeDocs: true})
		if err != nil {
			t.Fatal(err)
		}
		rows := []string{}
		for _, d := range feed {
			rows = append(rows, fmt.Sprintf("%d %s", d.Seq, d.ID))
			if d.ID == "h-6-b" && !strings.Contains(string(d.Body), `"rev":"`+b1.Rev+`"`) {
				t.Fatalf("feed row of h-6-b without its body: %s", d.Body)
			}
		}
		if want := []string{"1 early", "3 h-2-a", "5 h-4-a", "6 b", "7 h-6-b", "8 a", "9 h-8-a"}; !slices.Equal(rows, want) {
			t.Fatalf("changes: %v, want %v", rows, want)
		}
		if feed, _ := s.Changes(ctx, "db", store.ChangesQuery{Since: 6}); len(feed) != 3 || feed[0].ID != "h-6-b" || feed[0].Body != nil {
			t.Fatalf("changes since 6 without docs: %+v", feed)
		}
	}
	check(s)
	if a3.Seq != 8 {
		t.Fatalf("the tombstone is at seq %d, want 8", a3.Seq)
	}

	// After a restart, with the Noter set again, everything reads the same.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s, err = Open(path, Options{}); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.SetNoter(preparingNoter{})
	check(s)
}

// openPreparing opens a store whose Noter prepares notes, with a database
// "db".
func openPreparing(t *testing.T) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "log.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	s.SetNoter(preparingNoter{})
	if err := s.CreateDB(t.Context(), "db"); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestStaleNotePrepared: a note prepared against a revision another write
// replaced before the transaction is not used; the write is noted in the
// transaction against what it really replaces.
func TestStaleNotePrepared(t *testing.T) {
	ctx := t.Context()
	s := openPreparing(t)
	d1, err := s.Put(ctx, "db", store.Doc{ID: "a", Body: []byte(`{"n":1}`)})
	if err != nil {
		t.Fatal(err)
	}
	// Prepared against d1; d2 replaces d1 before the transaction runs.
	next := store.Doc{ID: "a", Rev: d1.Rev, Body: []byte(`{"n":3}`)}
	pre := s.prepareNote(ctx, "db", next, nil)
	if pre == nil {
		t.Fatal("no note prepared")
	}
	d2, err := s.Delete(ctx, "db", "a", d1.Rev)
	if err != nil {
		t.Fatal(err)
	}
	next.Rev = d2.Rev
	var outcome error
	err = s.batch(func(tx *bbolt.Tx) error {
		_, err := putTx(tx, "db", next, s.noterOf(), pre, &outcome)
		return err
	})
	if err != nil || outcome != nil {
		t.Fatal(err, outcome)
	}
	hist, err := s.History(ctx, "db", "a", 1)
	if err != nil || len(hist) != 1 {
		t.Fatalf("History: %v, %v", hist, err)
	}
	if body := string(hist[0].Body); !strings.Contains(body, `"old":"`+d2.Rev+`"`) || !strings.Contains(body, `"how":"in the transaction"`) {
		t.Fatalf("entry %s: want it noted in the transaction against %s", body, d2.Rev)
	}
}

// TestNumberedNotePrepared: a numbered create is noted before its
// transaction, on its body with the number 0, and the note takes the
// revision written with the number the transaction took; a numbered write
// over a live revision (numbers are taken by creates) is noted in the
// transaction.
func TestNumberedNotePrepared(t *testing.T) {
	ctx := t.Context()
	s := openPreparing(t)
	for i, tc := range []struct {
		id, rev, how string
	}{
		{"a", "", "prepared"},
		{"b", "", "prepared"},
		{"a", "latest", "in the transaction"},
	} {
		rev := ""
		if tc.rev != "" {
			cur, err := s.Get(ctx, "db", tc.id)
			if err != nil {
				t.Fatal(err)
			}
			rev = cur.Rev
		}
		w := store.DocWrite{Doc: store.Doc{ID: tc.id, Rev: rev, Body: []byte(`{"n":1}`)}, Number: &store.Numbering{Kind: "seq", Key: "db", Field: "number"}}
		d, err := s.PutDoc(ctx, "db", w)
		if err != nil {
			t.Fatal(err)
		}
		if w.Number.Value != int64(i+1) {
			t.Fatalf("write %d took number %d", i, w.Number.Value)
		}
		hist, err := s.History(ctx, "db", tc.id, 1)
		if err != nil || len(hist) != 1 {
			t.Fatalf("History: %v, %v", hist, err)
		}
		body := string(hist[0].Body)
		if !strings.Contains(body, `"rev":"`+d.Rev+`"`) || !strings.Contains(body, `"how":"`+tc.how+`"`) {
			t.Fatalf("write %d: entry %s, want it %s with rev %s", i, body, tc.how, d.Rev)
		}
	}
}
