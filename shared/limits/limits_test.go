package limits_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/limits"
	"github.com/oficina/oficina/shared/module"
)

func TestMain(m *testing.M) { os.Exit(apptest.Main(m)) }

// msgViewOnly is the refusal with the free plan's default limit.
var msgViewOnly = limits.ViewOnlyMessage(config.DefaultFreeRecords)

// freeRecords lowers the free plan's record limit (--free-records), so a
// test fills a Group with a tenth of the writes.
func freeRecords(n int64) apptest.Option {
	return func(c *config.Config) { c.FreeRecords = n }
}

// fill creates n customers through _bulk_docs and drains the stream, so
// the counts include them. It returns their ids and revisions.
func fill(t *testing.T, e *apptest.Env, c *apptest.Client, db string, n int) (idsOut, revs []string) {
	t.Helper()
	for done := 0; done < n; {
		batch := min(500, n-done)
		docsIn := make([]any, batch)
		for i := range docsIn {
			docsIn[i] = map[string]any{"_id": ids.New("cus"), "klass": "Customer", "name": fmt.Sprintf("Customer %05d", done+i)}
		}
		res := c.Do("POST", "/api/"+db+"/_bulk_docs", map[string]any{"docs": docsIn})
		if res.Code != http.StatusCreated {
			t.Fatalf("bulk: %d %s", res.Code, res.Body)
		}
		for _, row := range list(t, res) {
			m := row.(map[string]any)
			if m["error"] != nil {
				t.Fatalf("bulk row refused: %v", m)
			}
			idsOut = append(idsOut, m["id"].(string))
			revs = append(revs, m["rev"].(string))
		}
		done += batch
	}
	e.Drain()
	return idsOut, revs
}

func limitsOf(t *testing.T, c *apptest.Client, db string) map[string]any {
	t.Helper()
	return c.Do("GET", "/api/"+db+"/_limits", nil).Expect(t, http.StatusOK)
}

// TestViewOnly: a free Group over 1,000 records gets a notice at once and
// becomes view-only 30 days later; then every write path refuses (PUT,
// POST, _bulk_docs, an update handler, the finance import, a drive upload
// and its resumable start), each changing nothing, while deletes and
// configuration still work; back under the limit, or on a paid plan, it
// writes again.
func TestViewOnly(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ana := e.SignUp("ana@example.com")
		db := e.Group(ana, "Oficina da Ana")
		api := "/api/" + db

		l := limitsOf(t, ana, db)
		if l["plan"] != "free" || l["record_limit"] != float64(1000) || l["over_since"] != nil || l["view_only"] != false {
			t.Fatalf("fresh limits: %v", l)
		}
		wallet := ana.Do("POST", api, map[string]any{"klass": "Wallet", "name": "Caixa", "currency": "USD"}).Expect(t, http.StatusCreated)["id"].(string)
		income := ana.Do("POST", api, map[string]any{"klass": "Income", "description": "Repair", "value": 1000, "wallet_id": wallet}).Expect(t, http.StatusCreated)["id"].(string)
		file := ana.Do("POST", api, map[string]any{"klass": "CloudFile", "kind": "file", "name": "a.txt", "dir_id": ""}).Expect(t, http.StatusCreated)["id"].(string)
		// A phone list does not count.
		ana.Do("POST", api, map[string]any{"klass": "Adjustment", "key": "phones", "label": "phones", "value": []any{map[string]any{"number": "+55 11 5555-0000"}}}).Expect(t, http.StatusCreated)

		e.Drain()
		have := int(limitsOf(t, ana, db)["records"].(float64)) // the wallet and the income (not the file: the drive counts bytes)
		cus, revs := fill(t, e, ana, db, 1001-have)
		token := e.Token(ana, "read-write", db) // for WebDAV
		dav := func(method, path, body string) apptest.Response {
			req := httptest.NewRequest(method, "/dav/"+db+"/"+path, strings.NewReader(body))
			req.SetBasicAuth("ana@example.com", token)
			rec := httptest.NewRecorder()
			e.App.DAV.ServeHTTP(rec, req)
			return apptest.Response{Code: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
		}
		dav("PUT", "before.txt", "written while over the limit, within the 30 days").Expect(t, http.StatusCreated)
		start := e.Clock.Now()
		l = limitsOf(t, ana, db)
		if l["records"] != float64(1001) || l["over_since"] == nil || l["view_only"] != false {
			t.Fatalf("over the limit: %v", l)
		}
		over, _ := time.Parse(time.RFC3339, l["over_since"].(string))
		if d := over.Sub(start); d < -time.Second || d > time.Second {
			t.Fatalf("over_since %v, want about %v", over, start)
		}
		// Within the 30 days everything still writes.
		rev := ana.Do("PUT", api+"/"+cus[0]+"?rev="+revs[0], map[string]any{"klass": "Customer", "name": "Renamed"}).Expect(t, http.StatusCreated)["rev"].(string)
		revs[0] = rev

		advance(t, e, limits.Grace-time.Minute, ana)
		if l = limitsOf(t, ana, db); l["view_only"] != false {
			t.Fatalf("a minute before the deadline: %v", l)
		}
		advance(t, e, 2*time.Minute, ana)
		if l = limitsOf(t, ana, db); l["view_only"] != true || l["over_since"] == nil {
			t.Fatalf("after the deadline: %v", l)
		}

		refused := []struct {
			name string
			do   func() apptest.Response
		}{
			{"POST", func() apptest.Response {
				return ana.Do("POST", api, map[string]any{"klass": "Customer", "name": "New"})
			}},
			{"PUT create", func() apptest.Response {
				return ana.Do("PUT", api+"/"+ids.New("cus"), map[string]any{"klass": "Customer", "name": "New"})
			}},
			{"PUT update", func() apptest.Response {
				return ana.Do("PUT", api+"/"+cus[0]+"?rev="+revs[0], map[string]any{"klass": "Customer", "name": "Again"})
			}},
			{"update handler", func() apptest.Response {
				return ana.Do("PUT", api+"/_design/money/_update/confirm/"+income, map[string]any{})
			}},
			{"finance import", func() apptest.Response {
				csv := "Date,Description,Amount\n03/14/2026,Parts,-12.50\n"
				return ana.Do("POST", api+"/_finance/import?"+url.Values{"wallet_id": {wallet}}.Encode(), []byte(csv), "Content-Type", "text/csv")
			}},
			{"drive upload", func() apptest.Response {
				return ana.Do("PUT", api+"/_drive/files/"+file+"/content", []byte("hello"))
			}},
			{"drive resumable upload", func() apptest.Response {
				return ana.Do("POST", api+"/_drive/uploads", map[string]any{"dir_id": "", "name": "b.txt", "size": 5})
			}},
		}
		for _, r := range refused {
			t.Run(r.name, func(t *testing.T) {
				e.Unchanged(db, func() { r.do().ExpectError(t, http.StatusForbidden, msgViewOnly) })
			})
		}
		for _, r := range []struct{ method, path string }{{"PUT", "new.txt"}, {"PUT", "before.txt"}, {"MKCOL", "folder"}} {
			t.Run("WebDAV "+r.method+" "+r.path, func(t *testing.T) {
				e.Unchanged(db, func() {
					body := "x"
					if r.method == "MKCOL" {
						body = ""
					}
					if res := dav(r.method, r.path, body); res.Code != http.StatusForbidden || !strings.Contains(string(res.Body), "view-only") {
						t.Errorf("WebDAV %s %s: %d %s", r.method, r.path, res.Code, res.Body)
					}
				})
			})
		}
		dav("DELETE", "before.txt", "").Expect(t, http.StatusNoContent) // deleting stays allowed, WebDAV too
		e.Drain()
		t.Run("bulk", func(t *testing.T) {
			e.Unchanged(db, func() {
				res := ana.Do("POST", api+"/_bulk_docs", map[string]any{"docs": []any{
					map[string]any{"_id": ids.New("cus"), "klass": "Customer", "name": "Bulk"},
					map[string]any{"_id": cus[1], "_rev": revs[1], "klass": "Customer", "name": "Bulk edit"},
				}})
				for _, row := range list(t, res) {
					m := row.(map[string]any)
					if m["error"] != "forbidden" || m["reason"] != msgViewOnly {
						t.Errorf("bulk row: %v", m)
					}
				}
			})
		})
		// Configuration stays writable (paying goes through adjustments).
		ana.Do("POST", api, map[string]any{"klass": "Adjustment", "key": "unconfirmed-plan", "label": "unconfirmed-plan", "value": "pro"}).Expect(t, http.StatusCreated)

		// Deletes are the way out: two of them bring the Group back to 999.
		ana.Do("DELETE", api+"/"+cus[2]+"?rev="+revs[2], nil).Expect(t, http.StatusOK)
		res := ana.Do("POST", api+"/_bulk_docs", map[string]any{"docs": []any{map[string]any{"_id": cus[3], "_rev": revs[3], "_deleted": true}}})
		if row := list(t, res)[0].(map[string]any); row["error"] != nil {
			t.Fatalf("bulk delete: %v", row)
		}
		e.Drain()
		if l = limitsOf(t, ana, db); l["records"] != float64(999) || l["over_since"] != nil || l["view_only"] != false {
			t.Fatalf("back under: %v", l)
		}
		ana.Do("POST", api, map[string]any{"klass": "Customer", "name": "Writes again"}).Expect(t, http.StatusCreated)
		e.Drain()

		// Over again: a new notice, with a new 30 days.
		fill(t, e, ana, db, 2)
		l = limitsOf(t, ana, db)
		if l["over_since"] == nil || l["view_only"] != false {
			t.Fatalf("over again: %v", l)
		}
		advance(t, e, limits.Grace+time.Hour, ana)
		ana.Do("POST", api, map[string]any{"klass": "Customer", "name": "No"}).ExpectError(t, http.StatusForbidden, msgViewOnly)
		// A paid plan lifts the limit at once.
		e.SetPlan(db, "pro")
		ana.Do("POST", api, map[string]any{"klass": "Customer", "name": "Paid"}).Expect(t, http.StatusCreated)
		if l = limitsOf(t, ana, db); l["plan"] != "pro" || l["record_limit"] != float64(0) || l["over_since"] != nil || l["drive_limit"] != float64(1_000_000_000) {
			t.Fatalf("pro: %v", l)
		}
	})
}

// TestLimitMail: the hourly check mails the administrators at 80 %, at
// 100 % and when the Group becomes view-only, each once per crossing (a
// re-run sends nothing), in the admin's language; back under 80 % and over
// again mails again. The free limit is lowered to 100 (--free-records) to
// keep the fills short; TestViewOnly runs at the real 1,000.
func TestLimitMail(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ana := e.SignUp("ana@example.com")
		db := e.Group(ana, "Oficina da Ana")
		bia := e.SignUp("bia@example.com")
		e.Join(ana, bia, db, false) // a member, not an admin: no limit mail
		pt := "pt-BR"
		setLocale(t, ana, pt)
		check := func() {
			t.Helper()
			job, _ := e.App.Modules.JobNamed(limits.JobCheck)
			if err := job.Run(context.Background(), module.JobEvent{Job: job.Name, Time: e.Clock.Now()}); err != nil {
				t.Fatal(err)
			}
		}
		count := func(sub string) int { return len(e.MailsTo("ana@example.com", sub)) }

		cus, revs := fill(t, e, ana, db, 79)
		check()
		if n := count("80%"); n != 0 {
			t.Fatalf("80%% mail at 79 of 100 records: %d", n)
		}
		fill(t, e, ana, db, 1)
		check()
		check() // a re-run mails nothing more
		if n := count("80%"); n != 1 {
			t.Fatalf("80%% mails: %d", n)
		}
		m := e.MailsTo("ana@example.com", "80%")[0]
		if !strings.Contains(m.Subject, "usou 80% dos registros") || !strings.Contains(m.Text, "80 registros") || !strings.Contains(m.HTML, "Ver o uso e os planos") {
			t.Fatalf("pt-BR 80%% mail: %q\n%s", m.Subject, m.Text)
		}
		if m.Header.Get("List-Unsubscribe") != "" {
			t.Error("limit mail is not optional: no List-Unsubscribe")
		}
		if len(e.MailsTo("bia@example.com", "80%")) != 0 {
			t.Error("a member who is not an admin got limit mail")
		}

		fill(t, e, ana, db, 21) // 101
		check()
		check()
		if n := count("chegou aos 100 registros"); n != 1 {
			t.Fatalf("100%% mails: %d", n)
		}
		m = e.MailsTo("ana@example.com", "chegou aos")[0]
		deadline := e.Clock.Now().Add(limits.Grace).UTC()
		if !strings.Contains(m.Text, fmt.Sprintf("até %d de ", deadline.Day())) || !strings.Contains(m.Text, "exclua registros ou mude de plano") {
			t.Fatalf("100%% mail text:\n%s", m.Text)
		}

		advance(t, e, limits.Grace, ana)
		check()
		check()
		if n := count("somente leitura"); n != 1 {
			t.Fatalf("view-only mails: %d", n)
		}

		// Back under 80 %: the marks go; crossing again mails again, in English now.
		setLocale(t, ana, "en")
		var del []any
		for i := range 30 {
			del = append(del, map[string]any{"_id": cus[i], "_rev": revs[i], "_deleted": true})
		}
		ana.Do("POST", "/api/"+db+"/_bulk_docs", map[string]any{"docs": del}).Expect(t, http.StatusCreated)
		e.Drain()
		check()
		fill(t, e, ana, db, 10)
		check()
		en := e.MailsTo("ana@example.com", "has used 80% of the free plan's records")
		if len(en) != 1 || !strings.Contains(en[0].Text, "holds 81 records") || !strings.Contains(en[0].Text, apptest.BaseURL+"/billing") {
			t.Fatalf("English 80%% mail after a new crossing: %d %v", len(en), en)
		}
	}, freeRecords(100))
}

// advance moves the clock and signs the clients in again (sessions last a day).
func advance(t *testing.T, e *apptest.Env, d time.Duration, cs ...*apptest.Client) {
	t.Helper()
	e.Clock.Advance(d)
	for _, c := range cs {
		c.Do("POST", "/api/_session", map[string]any{"name": c.Email, "password": apptest.Password}).Expect(t, http.StatusOK)
	}
}

// setLocale changes the user's language as the profile page does.
func setLocale(t *testing.T, c *apptest.Client, locale string) {
	t.Helper()
	u := c.Do("GET", "/api/_users/"+c.ID, nil).Expect(t, http.StatusOK)
	c.Do("PUT", "/api/_users/"+c.ID, map[string]any{"_rev": u["_rev"], "locale": locale}).Expect(t, http.StatusCreated)
}

// list decodes a JSON array answer (_bulk_docs).
func list(t *testing.T, r apptest.Response) []any {
	t.Helper()
	var out []any
	if err := json.Unmarshal(r.Body, &out); err != nil {
		t.Fatalf("not a JSON array: %s", r.Body)
	}
	return out
}

// TestSnapshots: the daily job keeps one snapshot per day (a re-run the
// same day replaces it), 90 days at most, oldest first on GET _usage.
func TestSnapshots(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ana := e.SignUp("ana@example.com")
		db := e.Group(ana, "Oficina da Ana")
		job, ok := e.App.Modules.JobNamed(limits.JobSnapshot)
		if !ok {
			t.Fatal("no snapshot job")
		}
		run := func() {
			t.Helper()
			if err := job.Run(context.Background(), module.JobEvent{Job: job.Name, Time: e.Clock.Now()}); err != nil {
				t.Fatal(err)
			}
		}
		fill(t, e, ana, db, 3)
		run()
		fill(t, e, ana, db, 2)
		run() // the same day again: one snapshot, with the new figures
		days := ana.Do("GET", "/api/"+db+"/_usage", nil).Expect(t, http.StatusOK)["days"].([]any)
		if len(days) != 1 {
			t.Fatalf("days after two runs on one day: %v", days)
		}
		k := days[0].(map[string]any)["klasses"].(map[string]any)["Customer"].(map[string]any)
		if k["records"] != float64(5) || k["bytes"].(float64) <= 0 {
			t.Fatalf("Customer usage: %v", k)
		}
		for range 95 {
			advance(t, e, 24*time.Hour, ana)
			run()
		}
		days = ana.Do("GET", "/api/"+db+"/_usage?days=90", nil).Expect(t, http.StatusOK)["days"].([]any)
		if len(days) != limits.UsageDays {
			t.Fatalf("%d days kept, want %d", len(days), limits.UsageDays)
		}
		first, last := days[0].(map[string]any)["date"].(string), days[len(days)-1].(map[string]any)["date"].(string)
		if first >= last || last != e.Clock.Now().UTC().Format("2006-01-02") {
			t.Fatalf("order: %s … %s", first, last)
		}
		if d := ana.Do("GET", "/api/"+db+"/_usage?days=7", nil).Expect(t, http.StatusOK)["days"].([]any); len(d) != 7 {
			t.Fatalf("days=7: %d", len(d))
		}
		for _, bad := range []string{"0", "91", "x", "-1"} {
			ana.Do("GET", "/api/"+db+"/_usage?days="+bad, nil).ExpectError(t, http.StatusBadRequest, "days must be")
		}
	})
}

// TestConfirmationDeadline: an unconfirmed user has 30 days from the
// confirmation mail; the session says when; past it, signing in still
// works but everything except the session, the user record and the
// confirmation answers 403, until the address is confirmed.
func TestConfirmationDeadline(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		una := e.SignUpUnconfirmed("una@example.com")
		db := e.Group(una, "Una")
		s := una.Do("GET", "/api/_session", nil).Expect(t, http.StatusOK)
		deadline, err := time.Parse(time.RFC3339, fmt.Sprint(s["confirmation_deadline"]))
		if err != nil || s["confirmation_expired"] != false {
			t.Fatalf("session: %v", s)
		}
		if d := deadline.Sub(e.Clock.Now().Add(30 * 24 * time.Hour)); d < -2*time.Second || d > 2*time.Second {
			t.Fatalf("deadline %v, want 30 days from now (%v)", deadline, e.Clock.Now())
		}
		advance(t, e, 29*24*time.Hour, una)
		una.Do("GET", "/api/"+db, nil).Expect(t, http.StatusOK)
		advance(t, e, 24*time.Hour, una) // signing in still works past the deadline
		s = una.Do("GET", "/api/_session", nil).Expect(t, http.StatusOK)
		if s["confirmation_expired"] != true {
			t.Fatalf("session past the deadline: %v", s)
		}
		una.Do("GET", "/api/_users/"+una.ID, nil).Expect(t, http.StatusOK)
		for _, r := range []struct{ method, path string }{
			{"GET", "/api/" + db}, {"POST", "/api/" + db}, {"GET", "/api/" + db + "/_limits"},
			{"POST", "/api/accounts"}, {"GET", "/api/" + una.ID},
		} {
			una.Do(r.method, r.path, map[string]any{"klass": "Customer", "name": "x"}).ExpectError(t, http.StatusForbidden, "Please confirm your email")
		}
		// The confirmation mail again, and the user is back.
		una.Do("POST", "/api/_users/_confirmation", map[string]any{"email": "una@example.com"}).Expect(t, http.StatusAccepted)
		e.Anonymous().Do("PUT", "/api/_users/_confirmation", map[string]any{"token": e.LastLink("una@example.com", "confirm")}).Expect(t, http.StatusOK)
		una.Do("GET", "/api/"+db, nil).Expect(t, http.StatusOK)
		if s = una.Do("GET", "/api/_session", nil).Expect(t, http.StatusOK); s["confirmation_deadline"] != nil {
			t.Fatalf("confirmed: %v", s)
		}
	})
}

// TestBackdate: the e2e's test-only routes (only with --stripe-test-checkout
// on): backdate moves an over-limit Group's notice back, so the browser walk
// sees a view-only Group, refusing a Group under the limit and bad days;
// snapshot takes a usage snapshot dated some days back.
func TestBackdate(t *testing.T) {
	e := apptest.New(t, apptest.Bolt, func(c *config.Config) { c.Stripe.TestCheckout = true }, freeRecords(10))
	ana := e.SignUp("ana@example.com")
	db := e.Group(ana, "Oficina da Ana")
	ana.Do("POST", "/api/"+db+"/_limits/test/backdate", map[string]any{"days": 31}).ExpectError(t, http.StatusConflict, "not over")
	fill(t, e, ana, db, 11)
	ana.Do("POST", "/api/"+db+"/_limits/test/backdate", map[string]any{"days": -1}).ExpectFields(t, "days", "must be from 0 to 365")
	l := ana.Do("POST", "/api/"+db+"/_limits/test/backdate", map[string]any{"days": 31}).Expect(t, http.StatusOK)
	if l["view_only"] != true {
		t.Fatalf("backdated: %v", l)
	}
	ana.Do("POST", "/api/"+db, map[string]any{"klass": "Customer", "name": "No"}).ExpectError(t, http.StatusForbidden, limits.ViewOnlyMessage(10))
	// The snapshot route dates a snapshot days back, as the daily job would have.
	ana.Do("POST", "/api/"+db+"/_limits/test/snapshot", map[string]any{"days_ago": limits.UsageDays}).ExpectFields(t, "days_ago", "must be from 0 to 89")
	ana.Do("POST", "/api/"+db+"/_limits/test/snapshot", map[string]any{"days_ago": 1}).Expect(t, http.StatusOK)
	days := ana.Do("POST", "/api/"+db+"/_limits/test/snapshot", map[string]any{}).Expect(t, http.StatusOK)["days"].([]any)
	if len(days) != 2 || days[1].(map[string]any)["date"] != e.Clock.Now().UTC().Format("2006-01-02") {
		t.Fatalf("snapshots: %v", days)
	}
	// Without the flag the routes do not exist.
	plain := apptest.New(t, apptest.Bolt)
	bia := plain.SignUp("bia@example.com")
	pdb := plain.Group(bia, "Bia")
	for _, route := range []string{"backdate", "snapshot"} {
		if r := bia.Do("POST", "/api/"+pdb+"/_limits/test/"+route, map[string]any{"days": 31}); r.Code != http.StatusNotFound && r.Code != http.StatusMethodNotAllowed {
			t.Fatalf("%s without the flag: %d %s", route, r.Code, r.Body)
		}
	}
}
