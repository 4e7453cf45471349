package stream_test

import (
	"bytes"
	"testing"

	"github.com/oficina/oficina/shared/store"
)

// TestPreparedNumberedNote: the note of a numbered write (which creates its
// document, as numbers are taken), prepared on the body with the number 0
// and completed with the document as written (its number, revision and
// size), is the note made of the written change itself: the history entry's id and body and the counters' delta, byte
// for byte, whatever the number's width.
func TestPreparedNumberedNote(t *testing.T) {
	c := newConsumer(nil)
	body := []byte(`{"klass":"Ticket","status":"open","priority":"high","title":"Não liga","updated_at":"2026-11-28T16:00:00.000Z","updated_by":{"_id":"usr-1","label":"Bia"}}`)
	for _, tc := range []struct {
		name   string
		old    *store.Doc
		number int64
	}{
		{"create, one digit", nil, 7},
		{"create, six digits", nil, 123456},
		{"over a tombstone", &store.Doc{ID: "tik-1", Rev: "2-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", Seq: 5, Deleted: true}, 99},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prev := ""
			if tc.old != nil {
				prev = tc.old.Rev
			}
			prepared := store.Doc{ID: "tik-1", Klass: "Ticket", Body: store.SetNumber(body, "number", 0)}
			prepared.Rev = store.NextRev(prev, false, prepared.Body)
			at, err := c.PrepareNote(store.Change{DB: db, Old: tc.old, New: prepared})
			if err != nil {
				t.Fatal(err)
			}
			written := store.Doc{ID: "tik-1", Klass: "Ticket", Seq: 41, Body: store.SetNumber(body, "number", tc.number)}
			written.Rev = store.NextRev(prev, false, written.Body)
			got := at(written.Seq, written)
			want, err := c.Note(store.Change{DB: db, Old: tc.old, New: written})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Counts, want.Counts) {
				t.Errorf("counts %s, want %s", got.Counts, want.Counts)
			}
			if got.History == nil || want.History == nil {
				t.Fatalf("history %v, want %v", got.History, want.History)
			}
			if got.History.ID != want.History.ID || !bytes.Equal(got.History.Body, want.History.Body) || got.History.SortKey != want.History.SortKey {
				t.Errorf("history %s %s\nwant    %s %s", got.History.ID, got.History.Body, want.History.ID, want.History.Body)
			}
			if !bytes.Contains(got.History.Body, []byte(`"rev":"`+written.Rev+`"`)) {
				t.Errorf("history %s names another revision than %s", got.History.Body, written.Rev)
			}
		})
	}
}
