package app_test

import (
	"cmp"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
)

// TestFindInIndexOrder: a _find sorted by created_at alone (an index
// page's newest or oldest first) gives the rows the whole-klass planner
// gives — skip, limit, a filter, fields and bookmarks, ties in created_at
// (a bulk write stamps one time) broken by _id in the sort's direction —
// on both stores; on DynamoDB, where it reads the klass index in order and
// stops at the page's end, the newest page costs a small part of the
// reads of a whole-klass page.
func TestFindInIndexOrder(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ana := e.SignUp("ana@example.com")
		db := e.Group(ana, "Oficina da Ana")
		api := "/api/" + db
		for batch := range 5 {
			docs := make([]any, 0, 30)
			for i := range 30 {
				n := batch*30 + i
				city := "Campinas"
				if n%3 == 0 {
					city = "Porto"
				}
				docs = append(docs, map[string]any{"klass": "Customer", "name": fmt.Sprintf("Customer %03d", (n*37)%150), "city": city})
			}
			ana.Do("POST", api+"/_bulk_docs", map[string]any{"docs": docs}).Expect(t, http.StatusCreated)
			ana.Do("POST", api, map[string]any{"klass": "Equipment", "name": fmt.Sprintf("Notebook %d", batch), "identifier": fmt.Sprintf("SN-%d", batch)}).Expect(t, http.StatusCreated)
		}
		e.Drain()

		type doc struct{ id, created, name, city string }
		var all []doc
		for _, d := range ana.Do("POST", api+"/_find", map[string]any{"selector": map[string]any{"klass": "Customer"}, "limit": 1000}).Expect(t, http.StatusOK)["docs"].([]any) {
			m := d.(map[string]any)
			all = append(all, doc{m["_id"].(string), m["created_at"].(string), m["name"].(string), m["city"].(string)})
		}
		if len(all) != 150 {
			t.Fatalf("%d customers", len(all))
		}
		ids := func(res map[string]any) []string {
			var out []string
			for _, d := range res["docs"].([]any) {
				out = append(out, d.(map[string]any)["_id"].(string))
			}
			return out
		}
		want := func(desc bool, keep func(doc) bool, skip, limit int) []string {
			l := slices.Clone(all)
			slices.SortFunc(l, func(a, b doc) int {
				c := cmp.Or(cmp.Compare(a.created, b.created), cmp.Compare(a.id, b.id))
				if desc {
					return -c
				}
				return c
			})
			var out []string
			for _, d := range l {
				if keep(d) {
					out = append(out, d.id)
				}
			}
			return out[min(skip, len(out)):min(skip+limit, len(out))]
		}
		everyone := func(doc) bool { return true }
		porto := func(d doc) bool { return d.city == "Porto" }
		seven := regexp.MustCompile(`7`)
		withSeven := func(d doc) bool { return seven.MatchString(d.name) }
		for _, c := range []struct {
			name        string
			desc        bool
			selector    map[string]any
			keep        func(doc) bool
			skip, limit int
		}{
			{"newest page", true, nil, everyone, 0, 26},
			{"oldest page", false, nil, everyone, 0, 26},
			{"page 3 newest", true, nil, everyone, 50, 26},
			{"the last rows", true, nil, everyone, 140, 26},
			{"past the end", false, nil, everyone, 200, 26},
			{"one row", true, nil, everyone, 0, 1},
			{"a filter", true, map[string]any{"city": "Porto"}, porto, 5, 10},
			{"a search", false, map[string]any{"name": map[string]any{"$regex": "7"}}, withSeven, 3, 12},
		} {
			sel := map[string]any{"klass": "Customer"}
			for k, v := range c.selector {
				sel[k] = v
			}
			dir := "asc"
			if c.desc {
				dir = "desc"
			}
			got := ids(ana.Do("POST", api+"/_find", map[string]any{
				"selector": sel, "sort": []any{map[string]any{"created_at": dir}}, "skip": c.skip, "limit": c.limit, "fields": []any{"_id", "name"},
			}).Expect(t, http.StatusOK))
			if w := want(c.desc, c.keep, c.skip, c.limit); !slices.Equal(got, w) {
				t.Errorf("%s: got %v, want %v", c.name, got, w)
			}
		}

		// Bookmarks walk the whole klass, newest first, 20 rows a page.
		var walked []string
		bookmark := ""
		for range 10 {
			body := map[string]any{"selector": map[string]any{"klass": "Customer"}, "sort": []any{map[string]any{"created_at": "desc"}}, "limit": 20}
			if bookmark != "" {
				body["bookmark"] = bookmark
			}
			res := ana.Do("POST", api+"/_find", body).Expect(t, http.StatusOK)
			page := ids(res)
			if len(page) == 0 {
				break
			}
			walked = append(walked, page...)
			bookmark = res["bookmark"].(string)
		}
		if w := want(true, everyone, 0, 150); !slices.Equal(walked, w) {
			t.Errorf("bookmark walk: %d rows, want %d in order", len(walked), len(w))
		}

		if e.Meter == nil {
			return
		}
		reads := func(klass, sort string) float64 {
			e.Meter.Reset()
			ana.Do("POST", api+"/_find", map[string]any{"selector": map[string]any{"klass": klass}, "sort": []any{map[string]any{sort: "desc"}}, "limit": 26}).Expect(t, http.StatusOK)
			r, _, _ := e.Meter.Totals()
			return r
		}
		// The request's own reads (sign-in, the db) are the same for every page.
		fixed := reads("Wallet", "created_at")
		newest, byName := reads("Customer", "created_at")-fixed, reads("Customer", "name")-fixed
		if newest*4 > byName {
			t.Errorf("the newest page read %.1f RCU of documents, a whole-klass page %.1f: the index is not read in order", newest, byName)
		}
		t.Logf("documents read: newest page %.1f RCU, whole klass (by name) %.1f RCU; the request's own %.1f", newest, byName, fixed)
	})
}
