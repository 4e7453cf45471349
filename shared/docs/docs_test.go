package docs

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/store/bolt"
)

func newService(t *testing.T, now func() time.Time) (*Service, string) {
	t.Helper()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "docs.db"), bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	db := ids.New("acc")
	if err := st.CreateDB(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	return New(st, now), db
}

func TestSaveChecksIDAndKlass(t *testing.T) {
	s, db := newService(t, nil)
	p := &access.Principal{UserID: ids.New("usr"), Label: "Ana"}
	tests := []struct {
		name string
		id   string
		body map[string]any
		kind fault.Kind // -1: saved
	}{
		{"klass from prefix", ids.New("tik"), map[string]any{"title": "x"}, -1},
		{"matching klass", ids.New("cus"), map[string]any{"klass": "Customer"}, -1},
		{"mismatched klass", ids.New("cus"), map[string]any{"klass": "Ticket"}, fault.BadRequest},
		{"klass not a string", ids.New("cus"), map[string]any{"klass": 1}, fault.BadRequest},
		{"unknown prefix", "abc-0123456789abcdef0123456789abcdef", map[string]any{}, fault.BadRequest},
		{"short id", "cus-123", map[string]any{}, fault.BadRequest},
		{"design doc", "_design/x", map[string]any{}, fault.Forbidden},
		{"reserved underscore", "_x", map[string]any{}, fault.BadRequest},
		{"history is server-owned", ids.New("ver"), map[string]any{}, fault.Forbidden},
		{"counters are server-owned", ids.New("cnr"), map[string]any{}, fault.Forbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.Save(context.Background(), p, db, tt.id, "", tt.body)
			if tt.kind == -1 {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if fe, ok := fault.As(err); !ok || fe.Kind != tt.kind {
				t.Fatalf("err = %v, want kind %d", err, tt.kind)
			}
		})
	}
}

func TestStampsAndRules(t *testing.T) {
	clock := time.Date(2026, 5, 4, 13, 0, 0, 0, time.UTC)
	s, db := newService(t, func() time.Time { return clock })
	ana := &access.Principal{UserID: ids.New("usr"), Label: "Ana"}
	bia := &access.Principal{UserID: ids.New("usr"), Label: "Bia"}
	var seen []string
	s.Register("Ticket", func(_ context.Context, w *Write) error {
		seen = append(seen, w.ID)
		if w.Deleting {
			if w.Old["status"] == "done" {
				return fault.New(fault.Forbidden, "done tickets stay")
			}
			return nil
		}
		if w.New["title"] == "" {
			return fault.Invalid(map[string][]string{"title": {fault.CantBeBlank}})
		}
		return nil
	})
	ctx := context.Background()
	id := ids.New("tik")
	if _, err := s.Save(ctx, ana, db, id, "", map[string]any{"title": ""}); err == nil {
		t.Fatal("rule did not refuse a blank title")
	}
	d, err := s.Save(ctx, ana, db, id, "", map[string]any{"title": "Screen", "created_at": "forged", "updated_by": "forged"})
	if err != nil {
		t.Fatal(err)
	}
	body, _ := Decode(d.Body)
	if body["created_at"] != "2026-05-04T13:00:00.000Z" || body["created_by"].(map[string]any)["label"] != "Ana" || body["klass"] != "Ticket" {
		t.Fatalf("stamps: %v", body)
	}
	if d.SortKey != "2026-05-04T13:00:00.000Z" {
		t.Fatalf("sort key %q", d.SortKey)
	}

	clock = clock.Add(time.Hour)
	d2, err := s.Save(ctx, bia, db, id, d.Rev, map[string]any{"title": "Screen", "status": "done"})
	if err != nil {
		t.Fatal(err)
	}
	body, _ = Decode(d2.Body)
	if body["created_at"] != "2026-05-04T13:00:00.000Z" || body["created_by"].(map[string]any)["label"] != "Ana" ||
		body["updated_at"] != "2026-05-04T14:00:00.000Z" || body["updated_by"].(map[string]any)["label"] != "Bia" {
		t.Fatalf("update stamps: %v", body)
	}
	if _, err := s.Save(ctx, bia, db, id, d.Rev, map[string]any{"title": "stale"}); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("stale save: %v", err)
	}
	if _, err := s.Delete(ctx, bia, db, id, d2.Rev); err == nil {
		t.Fatal("delete rule not applied")
	}
	if _, err := s.Delete(ctx, bia, db, ids.New("tik"), d2.Rev); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("delete of a missing doc: %v", err)
	}
	if len(seen) < 3 {
		t.Fatalf("rule ran %d times", len(seen))
	}
}

func TestWithMeta(t *testing.T) {
	tests := []struct {
		doc  store.Doc
		want string
	}{
		{store.Doc{ID: "a", Rev: "1-x", Body: []byte(`{"n":1}`)}, `{"_id":"a","_rev":"1-x","n":1}`},
		{store.Doc{ID: "a", Rev: "1-x", Body: []byte(`{}`)}, `{"_id":"a","_rev":"1-x"}`},
		{store.Doc{ID: `q"`, Rev: "2-y", Deleted: true}, `{"_id":"q\"","_rev":"2-y","_deleted":true}`},
	}
	for _, tt := range tests {
		if got := string(WithMeta(tt.doc)); got != tt.want {
			t.Errorf("WithMeta = %s, want %s", got, tt.want)
		}
	}
}

func TestStringsAndList(t *testing.T) {
	for _, tc := range []struct {
		in   any
		want []string
	}{
		{nil, []string{}},
		{"a", []string{}},
		{[]any{"a", 1, "b", nil}, []string{"a", "b"}},
	} {
		if got := Strings(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("Strings(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := Strings(List([]string{"x", "y"})); !slices.Equal(got, []string{"x", "y"}) {
		t.Errorf("round trip %q", got)
	}
	if got := List(nil); got == nil || len(got) != 0 {
		t.Errorf("List(nil) = %#v, want an empty list", got)
	}
}
