package app_test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/mango"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/store"
)

// TestRekey: customers written before their klass was keyed by name (their
// index key a date, as the write path gave it then) are still listed in
// name order — a _find by name sees the old keys at the index's end and
// reads the whole klass — until the docs.rekey job moves them to their
// name keys: the same revisions, no change in the feed, and from then on
// the page by name reads the index in order (on DynamoDB, a small part of
// a whole-klass read).
func TestRekey(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ctx := context.Background()
		ana := e.SignUp("ana@example.com")
		db := e.Group(ana, "Oficina da Ana")
		api := "/api/" + db
		for i := range 40 {
			ana.Do("POST", api, map[string]any{"klass": "Customer", "name": fmt.Sprintf("Novo %02d", (i*7)%40)}).Expect(t, http.StatusCreated)
		}
		// Written as before: the key is the creation time.
		for i := range 60 {
			at := fmt.Sprintf("2026-01-01T10:%02d:00.000Z", i)
			body, _ := json.Marshal(map[string]any{"klass": "Customer", "name": fmt.Sprintf("Antigo %02d", (i*11)%60), "created_at": at, "updated_at": at})
			if _, err := e.Store.Put(ctx, db, store.Doc{ID: ids.New("cus"), Klass: "Customer", SortKey: at, Body: body}); err != nil {
				t.Fatal(err)
			}
		}
		e.Drain()

		type row struct{ id, rev, name string }
		byName := func(limit int) []row {
			t.Helper()
			var out []row
			res := ana.Do("POST", api+"/_find", map[string]any{"selector": map[string]any{"klass": "Customer"}, "sort": []any{map[string]any{"name": "asc"}}, "limit": limit})
			for _, d := range res.Expect(t, http.StatusOK)["docs"].([]any) {
				m := d.(map[string]any)
				out = append(out, row{m["_id"].(string), m["_rev"].(string), m["name"].(string)})
			}
			return out
		}
		all := byName(1000)
		if len(all) != 100 || !slices.IsSortedFunc(all, func(a, b row) int { return cmp.Or(cmp.Compare(a.name, b.name), cmp.Compare(a.id, b.id)) }) {
			t.Fatalf("%d customers, in name order: %v", len(all), all)
		}
		if got := byName(5); !slices.Equal(got, all[:5]) {
			t.Fatalf("first page by name with old keys: %v, want %v", got, all[:5])
		}
		pageReads := func() float64 {
			e.Meter.Reset()
			byName(26)
			r, _, _ := e.Meter.Totals()
			return r
		}
		var before float64
		if e.Meter != nil {
			before = pageReads()
		}

		info, err := e.Store.DBInfo(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.App.RunJob(ctx, module.JobRekey, e.Clock.Now()); err != nil {
			t.Fatal(err)
		}
		e.Drain()
		after, err := e.Store.DBInfo(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		if after.UpdateSeq != info.UpdateSeq {
			t.Errorf("re-keying moved the db's seq from %d to %d", info.UpdateSeq, after.UpdateSeq)
		}
		changes, err := e.Store.Changes(ctx, db, store.ChangesQuery{Since: info.UpdateSeq})
		if err != nil || len(changes) != 0 {
			t.Errorf("re-keying made %d changes (%v)", len(changes), err)
		}
		page, err := e.Store.List(ctx, db, store.ListQuery{Klass: "Customer", Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range page.Docs {
			if !mango.IsOrderKey(d.SortKey) {
				t.Fatalf("%s keeps the key %q", d.ID, d.SortKey)
			}
		}
		if got := byName(1000); !slices.Equal(got, all) {
			t.Fatalf("after re-keying, by name:\n got %v\nwant %v (same revisions)", got, all)
		}
		// A second run finds nothing to move.
		if n, err := e.App.Docs.Rekey(ctx, db); n != 0 || err != nil {
			t.Fatalf("second re-key moved %d (%v)", n, err)
		}
		if e.Meter != nil {
			if now := pageReads(); now+2 > before { // the whole klass of 100 is 4.5 RCU, a page 1
				t.Errorf("a page by name read %.1f RCU after re-keying, %.1f before: the index is not read in order", now, before)
			} else {
				t.Logf("a page by name: %.1f RCU with old keys (the whole klass), %.1f after re-keying", before, now)
			}
		}
	})
}
