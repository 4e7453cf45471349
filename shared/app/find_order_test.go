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

// TestFindInIndexOrder: a _find sorted by the field a klass's index is
// keyed by — created_at by default (an index page's newest or oldest
// first), or the field a module keyed it by (a customer's name) — gives
// the rows the whole-klass planner gives: skip, limit, a filter, fields and
// bookmarks, ties (a bulk write stamps one time, names repeat) broken by
// _id in the sort's direction, names that are prefixes of others first, on
// both stores. On DynamoDB, where it reads the klass index in order and
// stops at the page's end, the page costs a small part of the reads of a
// whole-klass page.
func TestFindInIndexOrder(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ana := e.SignUp("ana@example.com")
		db := e.Group(ana, "Oficina da Ana")
		api := "/api/" + db
		owner := ana.Do("POST", api, map[string]any{"klass": "Customer", "name": "Ana", "city": "Porto"}).Expect(t, http.StatusCreated)["id"].(string)
		names := []string{"Ana B", "ana", "Émile", "Ana\tC", "Zé"}
		for batch := range 5 {
			docs := make([]any, 0, 60)
			for i := range 30 {
				n := batch*30 + i
				city := "Campinas"
				if n%3 == 0 {
					city = "Porto"
				}
				name := fmt.Sprintf("Customer %03d", (n*37)%50) // each name three times
				if n < len(names) {
					name = names[n]
				}
				docs = append(docs, map[string]any{"klass": "Customer", "name": name, "city": city},
					map[string]any{"klass": "Contract", "description": fmt.Sprintf("Contrato %d %s", (n*37)%150, city), "customer_id": owner, "city": city})
			}
			ana.Do("POST", api+"/_bulk_docs", map[string]any{"docs": docs}).Expect(t, http.StatusCreated)
		}
		e.Drain()

		for _, order := range []struct{ klass, field, text string }{
			{"Customer", "name", "name"},
			{"Contract", "created_at", "description"},
		} {
			type doc struct{ id, key, text, city string }
			var all []doc
			for _, d := range ana.Do("POST", api+"/_find", map[string]any{"selector": map[string]any{"klass": order.klass}, "limit": 1000}).Expect(t, http.StatusOK)["docs"].([]any) {
				m := d.(map[string]any)
				all = append(all, doc{m["_id"].(string), m[order.field].(string), m[order.text].(string), m["city"].(string)})
			}
			if len(all) < 150 {
				t.Fatalf("%d %s", len(all), order.klass)
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
					c := cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.id, b.id))
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
			withSeven := func(d doc) bool { return seven.MatchString(d.text) }
			for _, c := range []struct {
				name        string
				desc        bool
				selector    map[string]any
				keep        func(doc) bool
				skip, limit int
			}{
				{"last page", true, nil, everyone, 0, 26},
				{"first page", false, nil, everyone, 0, 26},
				{"page 3 from the end", true, nil, everyone, 50, 26},
				{"the last rows", true, nil, everyone, 140, 26},
				{"past the end", false, nil, everyone, 200, 26},
				{"one row", true, nil, everyone, 0, 1},
				{"a filter", true, map[string]any{"city": "Porto"}, porto, 5, 10},
				{"a search", false, map[string]any{order.text: map[string]any{"$regex": "7"}}, withSeven, 3, 12},
			} {
				sel := map[string]any{"klass": order.klass}
				for k, v := range c.selector {
					sel[k] = v
				}
				dir := "asc"
				if c.desc {
					dir = "desc"
				}
				got := ids(ana.Do("POST", api+"/_find", map[string]any{
					"selector": sel, "sort": []any{map[string]any{order.field: dir}}, "skip": c.skip, "limit": c.limit, "fields": []any{"_id", order.text},
				}).Expect(t, http.StatusOK))
				if w := want(c.desc, c.keep, c.skip, c.limit); !slices.Equal(got, w) {
					t.Errorf("%s by %s, %s: got %v, want %v", order.klass, order.field, c.name, got, w)
				}
			}

			// Bookmarks walk the whole klass, last first, 20 rows a page.
			var walked []string
			bookmark := ""
			for range 20 {
				body := map[string]any{"selector": map[string]any{"klass": order.klass}, "sort": []any{map[string]any{order.field: "desc"}}, "limit": 20}
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
			if w := want(true, everyone, 0, len(all)); !slices.Equal(walked, w) {
				t.Errorf("%s by %s, bookmark walk: %d rows, want %d in order", order.klass, order.field, len(walked), len(w))
			}
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
		fixed := reads("Checklist", "created_at")
		for _, c := range []struct{ klass, inOrder, other string }{
			{"Customer", "name", "created_at"},
			{"Contract", "created_at", "description"},
		} {
			page, whole := reads(c.klass, c.inOrder)-fixed, reads(c.klass, c.other)-fixed
			if page*4 > whole {
				t.Errorf("%s: a page by %s read %.1f RCU of documents, a whole-klass page %.1f: the index is not read in order", c.klass, c.inOrder, page, whole)
			}
			t.Logf("%s documents read: a page by %s %.1f RCU, by %s (whole klass) %.1f RCU; the request's own %.1f", c.klass, c.inOrder, page, c.other, whole, fixed)
		}
	})
}
