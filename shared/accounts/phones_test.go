package accounts

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/phonerules"
	"github.com/oficina/oficina/shared/store"
)

// TestPhoneSettingsWithoutRules: a deployable given no phone rules (one
// that links no numbering metadata, as core.Open wires it) refuses the
// Group settings that need them — a phone list with numbers, a country —
// with ErrNoRules, and writes nothing; the settings that need none, and a
// new Group's country (its creator's language's), are written as ever.
// On both stores.
func TestPhoneSettingsWithoutRules(t *testing.T) {
	for name, open := range map[string]func(*testing.T) store.Store{"bolt": openBolt, "dynamo": openDynamo} {
		t.Run(name, func(t *testing.T) {
			e := newEnvWith(t, open(t), nil, nil)
			ctx := context.Background()
			ana := e.user("ana@example.com")
			if err := e.auth.SetPreferences(ctx, ana().UserID, ptr("pt-BR"), nil); err != nil {
				t.Fatal(err)
			}
			acc, err := e.svc.CreateGroup(ctx, ana(), NewGroup{Name: "Oficina sem telefones"})
			if err != nil {
				t.Fatal(err)
			}
			db := acc.ID
			if c, err := e.svc.Setting(ctx, db, "country"); err != nil || c != "BR" {
				t.Fatalf("country %v %v", c, err)
			}

			country, _, err := e.svc.get(ctx, db, adjustmentID(db, "country"))
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range []struct {
				id, rev string
				body    map[string]any
			}{
				{ids.New("adj"), "", map[string]any{"klass": KlassAdjustment, "key": "phones", "value": []any{
					map[string]any{"number": "(11) 98765-4321", "main": true},
				}}},
				{country.ID, country.Rev, map[string]any{"klass": KlassAdjustment, "key": "country", "value": "PT"}},
			} {
				before, err := e.st.DBInfo(ctx, db)
				if err != nil {
					t.Fatal(err)
				}
				_, err = e.docs.Save(ctx, ana(), db, w.id, w.rev, w.body)
				if !errors.Is(err, phonerules.ErrNoRules) || !strings.Contains(err.Error(), "phone numbers cannot be read here: the Groups were given no phone rules") {
					t.Fatalf("%s: err %v, want ErrNoRules", w.body["key"], err)
				}
				if _, ok := fault.As(err); ok {
					t.Errorf("%s: refused as the client's mistake (%v): it is the deployable's", w.body["key"], err)
				}
				after, err := e.st.DBInfo(ctx, db)
				if err != nil {
					t.Fatal(err)
				}
				if after.UpdateSeq != before.UpdateSeq || after.DocCount != before.DocCount {
					t.Errorf("%s: the Group's db changed: %+v → %+v", w.body["key"], before, after)
				}
			}
			if now, _, err := e.svc.get(ctx, db, country.ID); err != nil || now.Rev != country.Rev {
				t.Errorf("country rewritten: %v %v", now.Rev, err)
			}
			if _, _, err := e.svc.get(ctx, db, adjustmentID(db, "phones")); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("phones written: %v", err)
			}

			// What needs no numbering metadata still goes through.
			if _, err := e.docs.Save(ctx, ana(), db, ids.New("adj"), "", map[string]any{"klass": KlassAdjustment, "key": "phones", "value": []any{}}); err != nil {
				t.Errorf("an empty phone list: %v", err)
			}
			m, _, _ := e.svc.get(ctx, db, adjustmentID(db, "maintenance"))
			if _, err := e.docs.Save(ctx, ana(), db, m.ID, m.Rev, map[string]any{"klass": KlassAdjustment, "key": "maintenance", "value": "enabled"}); err != nil {
				t.Errorf("maintenance: %v", err)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }
