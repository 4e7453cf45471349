package docs

import (
	"context"
	"errors"
	"testing"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/store"
)

// TestEffectsRunAfterTheWrite: an effect sees the stored revision (the
// write is committed before it runs), also for deletes; its error reaches
// the caller and a refused write runs none.
func TestEffectsRunAfterTheWrite(t *testing.T) {
	s, db := newService(t, nil)
	ctx := context.Background()
	p := &access.Principal{UserID: ids.New("usr"), Label: "Ana"}
	var seen []string
	fail := errors.New("effect failed")
	s.Register("Customer", func(_ context.Context, w *Write) error {
		if w.New != nil && w.New["refuse"] == true {
			return errors.New("refused")
		}
		return nil
	})
	s.RegisterEffect("Customer", func(ctx context.Context, w *Write, saved store.Doc) error {
		cur, err := s.Store().Get(ctx, w.DB, w.ID)
		if err != nil && !errors.Is(err, store.ErrDeleted) {
			return err
		}
		if cur.Rev != saved.Rev {
			t.Errorf("effect ran before the write: stored %s, saved %s", cur.Rev, saved.Rev)
		}
		seen = append(seen, saved.Rev[:1]+map[bool]string{true: "del", false: "put"}[w.Deleting])
		if w.New != nil && w.New["fail"] == true {
			return fail
		}
		return nil
	})
	id := ids.New("cus")
	d, err := s.Save(ctx, p, db, id, "", map[string]any{"name": "x"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Save(ctx, p, db, id, d.Rev, map[string]any{"refuse": true}); err == nil {
		t.Fatal("rule did not refuse")
	}
	d2, err := s.Save(ctx, p, db, id, d.Rev, map[string]any{"fail": true})
	if !errors.Is(err, fail) || d2.Rev == "" {
		t.Fatalf("effect error: %v, doc %+v", err, d2)
	}
	if _, err := s.Delete(ctx, p, db, id, d2.Rev); err != nil {
		t.Fatal(err)
	}
	if got := len(seen); got != 3 || seen[0] != "1put" || seen[1] != "2put" || seen[2] != "3del" {
		t.Errorf("effects %v", seen)
	}
}
