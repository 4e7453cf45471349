package docs

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/store"
)

// plainStore hides the store's DocCommitter, as a store that cannot commit
// records with a document would.
type plainStore struct{ store.Store }

// TestRecordsAndNumberCommitWithTheDocument: a rule's number and records
// are written with the document, only when every rule passed, on a store
// that commits them together (bolt) and on one that does not; effects see
// the number.
func TestRecordsAndNumberCommitWithTheDocument(t *testing.T) {
	for _, together := range []bool{true, false} {
		t.Run(map[bool]string{true: "one transaction", false: "incr and transact"}[together], func(t *testing.T) {
			s, db := newService(t, nil)
			if !together {
				s = New(plainStore{s.Store()}, nil)
			}
			ctx := context.Background()
			p := &access.Principal{UserID: ids.New("usr"), Label: "Ana"}
			counterKey := db + "/tickets"
			s.Register("Ticket", func(_ context.Context, w *Write) error {
				if w.Deleting {
					w.Record(store.RecordWrite{Record: store.Record{Kind: "link", Key: w.ID}, Delete: true})
					return nil
				}
				w.New["number"] = "forged" // the store's number replaces it
				if w.Old == nil {
					w.Number("number", "seq", counterKey)
				}
				w.Record(store.RecordWrite{Record: store.Record{Kind: "link", Key: w.ID, Value: []byte(w.DB)}})
				return nil
			})
			s.Register("Ticket", func(_ context.Context, w *Write) error {
				if w.New != nil && w.New["refuse"] == true {
					return errors.New("refused")
				}
				return nil
			})
			var effectSaw []any
			s.RegisterEffect("Ticket", func(_ context.Context, w *Write, _ store.Doc) error {
				if !w.Deleting {
					effectSaw = append(effectSaw, w.New["number"])
				}
				return nil
			})
			number := func(d store.Doc) string {
				var body struct{ Number json.Number }
				if err := json.Unmarshal(d.Body, &body); err != nil {
					t.Fatal(err)
				}
				return body.Number.String()
			}
			link := func(id string) bool {
				_, err := s.Store().GetRecord(ctx, "link", id)
				if err != nil && !errors.Is(err, store.ErrNotFound) {
					t.Fatal(err)
				}
				return err == nil
			}

			refused := ids.New("tik")
			if _, err := s.Save(ctx, p, db, refused, "", map[string]any{"refuse": true}); err == nil {
				t.Fatal("not refused")
			}
			if link(refused) {
				t.Fatal("a refused write left its record")
			}
			first, second := ids.New("tik"), ids.New("tik")
			a, err := s.Save(ctx, p, db, first, "", map[string]any{"content": "one"})
			if err != nil {
				t.Fatal(err)
			}
			b, err := s.Save(ctx, p, db, second, "", map[string]any{"content": "two"})
			if err != nil {
				t.Fatal(err)
			}
			if number(a) != "1" || number(b) != "2" || !link(first) || !link(second) {
				t.Fatalf("numbers %s, %s (the refused write took none); links %v %v", number(a), number(b), link(first), link(second))
			}
			if len(effectSaw) != 2 || effectSaw[0] != json.Number("1") || effectSaw[1] != json.Number("2") {
				t.Fatalf("effects saw numbers %v", effectSaw)
			}
			if _, err := s.Delete(ctx, p, db, first, a.Rev); err != nil {
				t.Fatal(err)
			}
			if link(first) {
				t.Fatal("the delete's record was not written")
			}
		})
	}
}
