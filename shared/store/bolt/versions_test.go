package bolt

import (
	"testing"
	"time"

	"github.com/oficina/oficina/shared/store"
)

// TestVersionsMoveWithEveryWrite: every write method moves the version of
// what it wrote (after its commit), and nothing else's.
func TestVersionsMoveWithEveryWrite(t *testing.T) {
	ctx := t.Context()
	s, _ := openTemp(t)
	defer s.Close()
	type snap struct{ db, other, kind, otherKind uint64 }
	now := func() snap {
		return snap{s.DocsVersion("db"), s.DocsVersion("other"), s.RecordsVersion("k"), s.RecordsVersion("other")}
	}
	rec := store.Record{Kind: "k", Key: "a", Value: []byte("1")}
	for _, tt := range []struct {
		name            string
		write           func() error
		db, kind        bool // which versions must move
		everyRecordKind bool
	}{
		{"CreateDB", func() error { return s.CreateDB(ctx, "db") }, true, false, false},
		{"Put", func() error { _, err := s.Put(ctx, "db", store.Doc{ID: "d", Body: []byte(`{}`)}); return err }, true, false, false},
		{"PutDoc with a record and a number", func() error {
			_, err := s.PutDoc(ctx, "db", store.DocWrite{Doc: store.Doc{ID: "e", Body: []byte(`{}`)},
				Records: []store.RecordWrite{{Record: rec}}, Number: &store.Numbering{Kind: "k", Key: "n", Field: "n"}})
			return err
		}, true, true, false},
		{"PutRecord", func() error { return s.PutRecord(ctx, rec, false) }, false, true, false},
		{"Incr", func() error { _, err := s.Incr(ctx, "k", "c", 1, 0); return err }, false, true, false},
		{"Transact", func() error { return s.Transact(ctx, []store.RecordWrite{{Record: rec}}) }, false, true, false},
		{"TakeRecord", func() error { _, err := s.TakeRecord(ctx, "k", "a"); return err }, false, true, false},
		{"DeleteRecord", func() error { return s.DeleteRecord(ctx, "k", "c") }, false, true, false},
		{"Sweep", func() error {
			if err := s.PutRecord(ctx, store.Record{Kind: "x", Key: "gone", ExpiresAt: time.Now().Add(-time.Second)}, false); err != nil {
				return err
			}
			_, err := s.Sweep(ctx)
			return err
		}, false, true, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before := now()
			if err := tt.write(); err != nil {
				t.Fatal(err)
			}
			after := now()
			if (after.db != before.db) != tt.db || (after.kind != before.kind) != tt.kind ||
				after.other != before.other || (after.otherKind != before.otherKind) != tt.everyRecordKind {
				t.Fatalf("versions %+v → %+v", before, after)
			}
		})
	}
}
