package reader_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/ids"
)

// TestFeedList: the feed list's filters (read, starred, label) and numbered
// pages of 10, newest first, with totals from the stream's counts; bad
// parameters are a 400 envelope; another Group's label finds nothing.
func TestFeedList(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ana := e.SignUp("ana@example.com")
		db := e.Group(ana, "G")
		l1 := ana.Do("POST", "/api/"+db, map[string]any{"klass": "ReaderLabel", "name": "Bikes"}).Expect(t, http.StatusCreated)["id"].(string)
		l2 := ana.Do("POST", "/api/"+db, map[string]any{"klass": "ReaderLabel", "name": "Cars"}).Expect(t, http.StatusCreated)["id"].(string)
		base := e.Clock.Now().Truncate(time.Second)
		type want struct {
			title         string
			read, starred bool
			labels        []string
		}
		var all []want
		var docs []any
		for i := range 25 {
			w := want{title: fmt.Sprintf("item %02d", i), read: i%2 == 0, starred: i%5 == 0}
			if i%3 == 0 {
				w.labels = append(w.labels, l1)
			}
			if i%4 == 0 {
				w.labels = append(w.labels, l2)
			}
			all = append(all, w)
			labels := []any{}
			for _, l := range w.labels {
				labels = append(labels, l)
			}
			docs = append(docs, map[string]any{"klass": "ReaderItem", "title": w.title, "content": "<p>body</p>", "read": w.read, "starred": w.starred,
				"reader_label_ids": labels, "posted_at": base.Add(-time.Duration(i) * time.Minute).Format(time.RFC3339)})
		}
		ana.Do("POST", "/api/"+db+"/_bulk_docs", map[string]any{"docs": docs}).Expect(t, http.StatusCreated)
		e.Drain()

		expect := func(query string, keep func(w want) bool, page int) {
			t.Helper()
			var titles []string
			for _, w := range all {
				if keep(w) {
					titles = append(titles, w.title)
				}
			}
			total := len(titles)
			from, to := min((page-1)*10, total), min(page*10, total)
			got := feedPage(t, ana, db, fmt.Sprintf("%s&page=%d", query, page))
			if !slices.Equal(rowTitles(got), titles[from:to]) {
				t.Errorf("%s page %d: %v, want %v", query, page, rowTitles(got), titles[from:to])
			}
			if got["total_rows"] != float64(total) || got["pages"] != float64(max(1, (total+9)/10)) || got["offset"] != float64((page-1)*10) {
				t.Errorf("%s page %d: total %v pages %v offset %v, want %d", query, page, got["total_rows"], got["pages"], got["offset"], total)
			}
		}
		everything := func(want) bool { return true }
		has := func(l string) func(w want) bool { return func(w want) bool { return slices.Contains(w.labels, l) } }
		and := func(fs ...func(want) bool) func(w want) bool {
			return func(w want) bool {
				for _, f := range fs {
					if !f(w) {
						return false
					}
				}
				return true
			}
		}
		unread := func(w want) bool { return !w.read }
		read := func(w want) bool { return w.read }
		starred := func(w want) bool { return w.starred }
		unstarred := func(w want) bool { return !w.starred }
		for page := 1; page <= 4; page++ {
			expect("read=all&starred=all", everything, page)
			expect("", everything, page)
		}
		for page := 1; page <= 2; page++ {
			expect("read=unread", unread, page)
			expect("read=read", read, page)
			expect("starred=unstarred", unstarred, page)
			expect("read=unread&starred=unstarred", and(unread, unstarred), page)
			expect("label="+l1, has(l1), page)
		}
		expect("starred=starred", starred, 1)
		expect("read=read&starred=starred", and(read, starred), 1)
		expect("read=unread&label="+l1, and(unread, has(l1)), 1)
		expect("starred=starred&label="+l2, and(starred, has(l2)), 1)

		// The docs come without their content.
		doc := feedPage(t, ana, db, "")["rows"].([]any)[0].(map[string]any)["doc"].(map[string]any)
		if _, ok := doc["content"]; ok || doc["has_content"] != true || doc["_rev"] == nil {
			t.Fatalf("row doc %v", doc)
		}
		// Unread counts per label.
		view := ana.Do("GET", "/api/"+db+"/_design/reader/_view/unread-by-label?group_level=1", nil).Expect(t, http.StatusOK)
		counts := map[any]float64{}
		for _, r := range view["rows"].([]any) {
			row := r.(map[string]any)
			counts[row["key"]] = row["value"].(float64)
		}
		n := func(f func(want) bool) float64 {
			c := 0.0
			for _, w := range all {
				if f(w) {
					c++
				}
			}
			return c
		}
		if counts[nil] != n(unread) || counts[l1] != n(and(unread, has(l1))) || counts[l2] != n(and(unread, has(l2))) {
			t.Fatalf("unread by label %v", counts)
		}

		// Bad parameters.
		for _, q := range []string{"read=maybe", "starred=yes", "label=x", "label=" + ids.New("rsb"), "page=0", "page=-1", "page=x", "limit=0", "limit=101", "page=100001"} {
			ana.Do("GET", "/api/"+db+"/_design/reader/_view/feed?"+q, nil).ExpectError(t, http.StatusBadRequest, "Invalid value")
		}
		// Another Group's label (valid id, not this Group's) finds nothing.
		bob := e.SignUp("bob@example.com")
		other := e.Group(bob, "Other")
		theirs := bob.Do("POST", "/api/"+other, map[string]any{"klass": "ReaderLabel", "name": "Bikes"}).Expect(t, http.StatusCreated)["id"].(string)
		if got := feedPage(t, ana, db, "label="+theirs); len(rowIDs(got)) != 0 || got["total_rows"] != float64(0) {
			t.Fatalf("another Group's label: %v", got)
		}
		// And Bob sees none of Ana's items through any filter.
		for _, q := range []string{"", "read=unread", "starred=starred", "label=" + l1} {
			bob.Do("GET", "/api/"+db+"/_design/reader/_view/feed?"+q, nil).ExpectError(t, http.StatusForbidden, "")
			if got := feedPage(t, bob, other, q); len(rowIDs(got)) != 0 {
				t.Fatalf("Bob's feed %q shows %v", q, rowTitles(got))
			}
		}
		e.CheckCounts(db)
	})
}

// TestToggles: read, unread, star and unstar are independent, idempotent
// (the same value writes nothing), refused for what is not a live item of
// the Group, and move the item between the feed list's filters.
func TestToggles(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ana := e.SignUp("ana@example.com")
		db := e.Group(ana, "G")
		id := ana.Do("POST", "/api/"+db, map[string]any{"klass": "ReaderItem", "title": "t", "url": "https://x.example/1"}).Expect(t, http.StatusCreated)["id"].(string)
		toggle := func(fn string) map[string]any {
			t.Helper()
			return ana.Do("PUT", "/api/"+db+"/_design/status/_update/"+fn+"/"+id, map[string]any{}).Expect(t, http.StatusOK)
		}
		state := func() (bool, bool) {
			d := e.Doc(db, id)
			return d["read"] == true, d["starred"] == true
		}
		toggle("read")
		if r, s := state(); !r || s {
			t.Fatalf("after read: %v %v", r, s)
		}
		toggle("star")
		if r, s := state(); !r || !s {
			t.Fatalf("after star: %v %v", r, s)
		}
		toggle("unread")
		if r, s := state(); r || !s {
			t.Fatalf("after unread: %v %v", r, s)
		}
		e.Unchanged(db, func() {
			res := toggle("unread") // already unread
			if res["rev"] != e.Doc(db, id)["_rev"] {
				t.Fatalf("the no-op answered %v", res)
			}
		})
		toggle("unstar")
		if r, s := state(); r || s {
			t.Fatalf("after unstar: %v %v", r, s)
		}
		e.Drain()
		if got := feedPage(t, ana, db, "read=unread&starred=unstarred"); len(rowIDs(got)) != 1 {
			t.Fatalf("unread unstarred: %v", got)
		}
		if got := feedPage(t, ana, db, "starred=starred"); len(rowIDs(got)) != 0 {
			t.Fatalf("starred: %v", got)
		}

		sub := ana.Do("POST", "/api/"+db, map[string]any{"klass": "ReaderSubscription", "url": "https://x.example/feed"}).Expect(t, http.StatusCreated)["id"].(string)
		tok := e.WithToken(e.Token(ana, "read", db))
		e.Unchanged(db, func() {
			for _, target := range []string{ids.New("rit"), sub, "rit-x", "_design"} {
				r := ana.Do("PUT", "/api/"+db+"/_design/status/_update/read/"+target, map[string]any{})
				if r.Code != http.StatusNotFound {
					t.Errorf("read %s: %d %s", target, r.Code, r.Body)
				}
			}
			tok.Do("PUT", "/api/"+db+"/_design/status/_update/read/"+id, map[string]any{}).ExpectError(t, http.StatusForbidden, "")
			ana.Do("POST", "/api/"+db+"/_design/status/_update/read", map[string]any{}).ExpectError(t, http.StatusNotFound, "")
		})
		// A deleted item is gone for the toggles.
		ana.Do("DELETE", "/api/"+db+"/"+id+"?rev="+e.Doc(db, id)["_rev"].(string), nil).Expect(t, http.StatusOK)
		e.Unchanged(db, func() {
			ana.Do("PUT", "/api/"+db+"/_design/status/_update/star/"+id, map[string]any{}).ExpectError(t, http.StatusNotFound, "")
		})
		e.CheckCounts(db)
	})
}

// TestLabelAndSubscriptionRules: every write path (POST, PUT, _bulk_docs)
// refuses bad labels and subscriptions with field errors and writes
// nothing; reader_label_id is the first label.
func TestLabelAndSubscriptionRules(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ana, bob := e.SignUp("ana@example.com"), e.SignUp("bob@example.com")
		db, other := e.Group(ana, "G"), e.Group(bob, "Other")
		label := ana.Do("POST", "/api/"+db, map[string]any{"klass": "ReaderLabel", "name": "Bikes"}).Expect(t, http.StatusCreated)["id"].(string)
		if d := e.Doc(db, label); d["label"] != "Bikes" || d["kind"] != "label" {
			t.Fatalf("label %v", d)
		}
		theirs := bob.Do("POST", "/api/"+other, map[string]any{"klass": "ReaderLabel", "name": "Theirs"}).Expect(t, http.StatusCreated)["id"].(string)
		many := []any{}
		for range 21 {
			many = append(many, ids.New("rlb"))
		}
		type bad struct {
			body       map[string]any
			field, msg string
		}
		cases := []bad{
			{map[string]any{"klass": "ReaderLabel"}, "name", "can't be blank"},
			{map[string]any{"klass": "ReaderLabel", "name": "  "}, "name", "can't be blank"},
			{map[string]any{"klass": "ReaderLabel", "name": "bikes"}, "name", "has already been taken"},
			{map[string]any{"klass": "ReaderLabel", "name": strings.Repeat("x", 61)}, "name", "is too long (maximum is 60 characters)"},
			{map[string]any{"klass": "ReaderLabel", "name": "x", "kind": "tag"}, "kind", "not in allowed list"},
			{map[string]any{"klass": "ReaderSubscription"}, "url", "can't be blank"},
			{map[string]any{"klass": "ReaderSubscription", "url": "feeds.example/rss"}, "url", "is invalid"},
			{map[string]any{"klass": "ReaderSubscription", "url": "https://a.example/", "reader_label_ids": []any{theirs}}, "reader_label_ids", "must exist"},
			{map[string]any{"klass": "ReaderSubscription", "url": "https://a.example/", "reader_label_ids": []any{ids.New("rlb")}}, "reader_label_ids", "must exist"},
			{map[string]any{"klass": "ReaderSubscription", "url": "https://a.example/", "reader_label_ids": []any{1}}, "reader_label_ids", "must exist"},
			{map[string]any{"klass": "ReaderSubscription", "url": "https://a.example/", "reader_label_ids": "Bikes"}, "reader_label_ids", "is invalid"},
			{map[string]any{"klass": "ReaderSubscription", "url": "https://a.example/", "reader_label_ids": many}, "reader_label_ids", "is too long (maximum is 20 items)"},
			{map[string]any{"klass": "ReaderSubscription", "url": "https://a.example/", "refresh_interval": 1}, "refresh_interval", "must be greater than or equal to 5"},
			{map[string]any{"klass": "ReaderSubscription", "url": "https://a.example/", "refresh_interval": "often"}, "refresh_interval", "is not a number"},
			{map[string]any{"klass": "ReaderSubscription", "url": "https://a.example/", "active": "yes"}, "active", "is invalid"},
			{map[string]any{"klass": "ReaderItem", "read": "yes"}, "read", "is invalid"},
			{map[string]any{"klass": "ReaderItem", "posted_at": "yesterday"}, "posted_at", "is invalid"},
			{map[string]any{"klass": "ReaderItem", "content_type": "pdf"}, "content_type", "not in allowed list"},
		}
		sub := ana.Do("POST", "/api/"+db, map[string]any{"klass": "ReaderSubscription", "url": "https://taken.example/feed", "reader_label_ids": []any{label, label}}).Expect(t, http.StatusCreated)["id"].(string)
		if d := e.Doc(db, sub); d["reader_label_id"] != label || len(d["reader_label_ids"].([]any)) != 1 || d["title"] != "taken.example" || d["refresh_interval"] != float64(60) || d["active"] != true {
			t.Fatalf("subscription %v", d)
		}
		cases = append(cases, bad{map[string]any{"klass": "ReaderSubscription", "url": "https://TAKEN.example/feed#x"}, "url", "has already been taken"})
		e.Unchanged(db, func() {
			for _, c := range cases {
				ana.Do("POST", "/api/"+db, c.body).ExpectFields(t, c.field, c.msg)
				prefix := ids.PrefixOf(c.body["klass"].(string))
				ana.Do("PUT", "/api/"+db+"/"+ids.New(prefix), c.body).ExpectFields(t, c.field, c.msg)
				// _bulk_docs answers per document, with the error name.
				r := ana.Do("POST", "/api/"+db+"/_bulk_docs", map[string]any{"docs": []any{c.body}})
				if r.Code >= 300 || !strings.Contains(string(r.Body), `"error":"unprocessable_entity"`) {
					t.Errorf("_bulk_docs %v: %d %s", c.body, r.Code, r.Body)
				}
			}
			// The subscribe route runs the same rules (labels here).
			ana.Do("POST", "/api/"+db+"/_reader/subscriptions", map[string]any{"url": "https://a.example/", "reader_label_ids": []any{theirs}}).ExpectError(t, http.StatusUnprocessableEntity, "")
			// Malformed bodies.
			ana.Do("POST", "/api/"+db+"/_reader/subscriptions", `{"url":`).ExpectError(t, http.StatusBadRequest, "")
			ana.Do("POST", "/api/"+db+"/_reader/subscriptions", `[]`).ExpectError(t, http.StatusBadRequest, "")
			ana.Do("POST", "/api/"+db+"/_reader/subscriptions", map[string]any{"url": 7}).ExpectFields(t, "url", "is invalid")
			ana.Do("POST", "/api/"+db+"/_reader/subscriptions", map[string]any{}).ExpectFields(t, "url", "can't be blank")
			ana.Do("POST", "/api/"+db+"/_reader/subscriptions", map[string]any{"url": "https://x.example/", "_id": "cus-" + strings.Repeat("0", 32)}).ExpectError(t, http.StatusBadRequest, "")
			ana.Do("POST", "/api/"+db+"/_reader/subscriptions", "not json", "Content-Type", "text/plain").ExpectError(t, http.StatusUnsupportedMediaType, "")
			// A stale revision.
			d := e.Doc(db, sub)
			d["_rev"] = "1-00000000000000000000000000000000"
			d["title"] = "x"
			ana.Do("PUT", "/api/"+db+"/"+sub, d).ExpectError(t, http.StatusConflict, "")
		})
	})
}

// TestRelabel: a subscription's labels and title reach its items (the
// feed list's label filter follows); a deleted label leaves the
// subscriptions and items; a deleted subscription takes its unstarred
// items with it.
func TestRelabel(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		srv := newFeedServer(t)
		now := e.Clock.Now()
		srv.serve("/f.xml", "application/rss+xml", rss("Feed", srv.url("/"),
			item{guid: "1", title: "One", posted: now.Add(-time.Hour)}, item{guid: "2", title: "Two", posted: now.Add(-2 * time.Hour)}))
		ana := e.SignUp("ana@example.com")
		db := e.Group(ana, "G")
		bikes := ana.Do("POST", "/api/"+db, map[string]any{"klass": "ReaderLabel", "name": "Bikes"}).Expect(t, http.StatusCreated)["id"].(string)
		cars := ana.Do("POST", "/api/"+db, map[string]any{"klass": "ReaderLabel", "name": "Cars"}).Expect(t, http.StatusCreated)["id"].(string)
		sub := subscribe(t, ana, db, map[string]any{"url": srv.url("/f.xml"), "reader_label_ids": []any{bikes}})["id"].(string)
		e.Drain()
		if got := feedPage(t, ana, db, "label="+bikes); len(rowIDs(got)) != 2 {
			t.Fatalf("bikes: %v", got)
		}
		d := e.Doc(db, sub)
		d["reader_label_ids"] = []any{cars, bikes}
		d["title"] = "Renamed"
		d["customize_title"] = true
		ana.Do("PUT", "/api/"+db+"/"+sub, d).Expect(t, http.StatusCreated)
		e.Drain()
		for _, it := range items(t, e, ana, db) {
			if !slices.Equal(it["reader_label_ids"].([]any), []any{cars, bikes}) || it["reader_subscription"].(map[string]any)["title"] != "Renamed" {
				t.Fatalf("item after relabel %v", it)
			}
		}
		if got := feedPage(t, ana, db, "label="+cars); len(rowIDs(got)) != 2 || got["total_rows"] != float64(2) {
			t.Fatalf("cars: %v", got)
		}
		// A fetch keeps the customised title.
		e.Clock.Advance(2 * time.Minute)
		ana.Do("POST", "/api/"+db+"/_reader/refresh", map[string]any{}).Expect(t, http.StatusOK)
		if e.Doc(db, sub)["title"] != "Renamed" {
			t.Fatal("a fetch overwrote a customised title")
		}
		// Deleting Cars: off the subscription, then off the items.
		ana.Do("DELETE", "/api/"+db+"/"+cars+"?rev="+e.Doc(db, cars)["_rev"].(string), nil).Expect(t, http.StatusOK)
		e.Drain()
		if got := e.Doc(db, sub)["reader_label_ids"].([]any); !slices.Equal(got, []any{bikes}) {
			t.Fatalf("subscription labels after the delete: %v", got)
		}
		for _, it := range items(t, e, ana, db) {
			if !slices.Equal(it["reader_label_ids"].([]any), []any{bikes}) {
				t.Fatalf("item labels after the delete: %v", it["reader_label_ids"])
			}
		}
		e.CheckCounts(db)
		// Deleting the subscription: the starred item stays.
		one := byTitle(items(t, e, ana, db), "One")["_id"].(string)
		ana.Do("PUT", "/api/"+db+"/_design/status/_update/star/"+one, map[string]any{}).Expect(t, http.StatusOK)
		ana.Do("DELETE", "/api/"+db+"/"+sub+"?rev="+e.Doc(db, sub)["_rev"].(string), nil).Expect(t, http.StatusOK)
		e.Drain()
		left := items(t, e, ana, db)
		if len(left) != 1 || left[one] == nil {
			t.Fatalf("items after deleting the subscription: %v", left)
		}
		// The feed is no longer fetched for this Group.
		before, _ := srv.hitsOf("/f.xml")
		e.Clock.Advance(2 * time.Hour)
		round(t, e)
		if after, _ := srv.hitsOf("/f.xml"); after != before {
			t.Fatal("a deleted subscription is still fetched")
		}
		e.CheckCounts(db)
		e.Replay(11)
		e.CheckCounts(db)
	}, loopback)
}
