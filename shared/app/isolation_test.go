package app_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/module"
)

func TestMain(m *testing.M) { os.Exit(apptest.Main(m)) }

// isolationFixtures are documents Group B holds for the walk: one per klass
// the modules' handlers and routes take, so the walk calls them with B's
// real ids. Each module adds its own klasses here.
var isolationFixtures = []map[string]any{
	{"klass": "Customer", "name": "Bobs Secret Customer", "email": "client-of-bob@example.com"},
	{"klass": "Equipment", "identifier": "Bobs secret equipment", "customer_id": "{Customer}"},
	{"klass": "Ticket", "content": "Bobs secret ticket", "priority": "high", "status": "open"},
	{"klass": "ReaderLabel", "name": "Bobs secret label"},
	{"klass": "ReaderSubscription", "url": "https://secret.example/bobs-feed.xml", "title": "Bobs secret feed"},
	{"klass": "ReaderItem", "title": "Bobs secret item", "url": "https://secret.example/bobs-item", "content": "<p>Bobs secret content</p>"},
	// A "{Klass}" value is the id of B's fixture of that klass, made above it.
	{"klass": "Estimate", "description": "Bobs secret estimate", "customer_id": "{Customer}",
		"items": []any{map[string]any{"description": "Bobs secret part", "quantity": 1, "value": 100}}},
	{"klass": "Maintenance", "date": "2026-01-10", "next_maintenance": "2026-01-20", "equipment_id": "{Equipment}"},
	{"klass": "Wallet", "name": "Bobs secret wallet", "currency": "BRL", "start_balance": 424242},
	{"klass": "Income", "description": "Bobs secret income", "value": 1000, "wallet_id": "{Wallet}"},
	{"klass": "Mapping", "description": "Bobs secret mapping", "target": "income", "field_to_watch": "description", "kind_of_watch": "contains",
		"text_to_match": "secret", "kind_of_change": "append", "field_to_change": "description", "text_to_change": "Bobs secret text"},
	{"klass": "Handbook", "title": "Bobs secret handbook", "content": "Bobs secret procedure [[Bobs secret link]]", "categories": "bobsecretcategory"},
	{"klass": "Bookmark", "url": "https://secret.example/bobs-bookmark", "title": "Bobs secret bookmark", "tags": "bobsecrettag"},
	// The drive: a folder, then a file in it (the routes take the file).
	{"klass": "CloudFile", "kind": "dir", "name": "Bobs secret folder"},
	{"klass": "CloudFile", "kind": "file", "name": "Bobs secret file.txt", "dir_id": "{CloudFile}", "description": "Bobs secret notes"},
}

// extraIsolationRoutes are calls the registry cannot derive (bodies that
// matter, query strings); {B} is Group B's db and {Klass} an id of B's
// fixture of that klass.
var extraIsolationRoutes = []struct{ method, path string }{
	// The feed list through each filter, B's label among them.
	{"GET", "/api/{B}/_design/reader/_view/feed?read=unread&starred=all"},
	{"GET", "/api/{B}/_design/reader/_view/feed?read=all&starred=all&label={ReaderLabel}"},
	{"GET", "/api/{B}/_design/reader/_view/feed?starred=starred&page=2"},
	{"GET", "/api/{B}/_reader/notifications?locale=pt-BR"},
	{"GET", "/api/{B}/{ReaderItem}?fields=content,content_type"},
	{"GET", "/api/{B}/_maintenances/plan?days=366"},
	{"GET", "/api/{B}/_tickets/{Ticket}/receipt.pdf?locale=pt-BR"},
	{"GET", "/api/{B}/_estimates/{Estimate}/receipt.pdf?locale=en"},
	{"GET", "/api/{B}/_equipment/labels.pdf?size=a4&ids={Equipment}"},
	// The finance import with B's wallet, and its detection reset.
	{"POST", "/api/{B}/_finance/import/check?wallet_id={Wallet}&detect=true"},
	{"POST", "/api/{B}/_finance/import?wallet_id={Wallet}&keep=1"},
	// The wiki's routes with their queries, on B's page, titles and categories.
	{"GET", "/api/{B}/_wiki/pages/{Handbook}/conflict?rev=1-00000000000000000000000000000000"},
	{"GET", "/api/{B}/_wiki/search?q=secret&category=bobsecretcategory&limit=5"},
	{"GET", "/api/{B}/_wiki/resolve?title=Bobs+secret+handbook"},
	{"GET", "/api/{B}/_wiki/titles?q=bobs"},
	{"GET", "/api/{B}/_wiki/recent?limit=3"},
	{"GET", "/api/{B}/_wiki/export.zip?category=bobsecretcategory"},
	{"GET", "/api/{B}/_wiki/export.zip?id={Handbook}"},
	{"GET", "/api/{B}/_wiki/export.pdf?category=bobsecretcategory"},
	{"GET", "/api/{B}/_wiki/export.pdf?id={Handbook}"},
	{"GET", "/api/{B}/_wiki/highlight.css?style=github"},
	{"POST", "/api/{B}/_links/import"},
	// A bookmark's title through the reader's fetch guard: refused before any fetch.
	{"POST", "/api/{B}/_links/title"},
	// The drive's routes with their queries, on B's file and records.
	{"GET", "/api/{B}/_drive/dirs/root?limit=5"},
	{"GET", "/api/{B}/_drive/files/{CloudFile}/content?version=x&inline=true"},
	{"PUT", "/api/{B}/_drive/files/{CloudFile}/content?rev=1-00000000000000000000000000000000"},
	{"POST", "/api/{B}/_drive/files/{CloudFile}/trash?rev=1-00000000000000000000000000000000"},
	{"GET", "/api/{B}/_drive/records/{Customer}"},
	{"POST", "/api/{B}/_drive/records/{Equipment}"},
	{"PUT", "/api/{B}/_drive/uploads/{CloudFile}?offset=0"},
	// Billing: another Group's admin never switches, cancels, completes or reads B's billing.
	{"PUT", "/api/{B}/_design/subscription/_update/free/{B}"},
	{"PUT", "/api/{B}/_design/subscription/_update/cancel/{B}"},
	{"POST", "/api/{B}/_billing/checkout/cs_test_bobs_secret_session/complete"},
	// Presigned uploads' part URLs and commit (S3; refused before the mode matters).
	{"POST", "/api/{B}/_drive/uploads/{CloudFile}/parts"},
	{"POST", "/api/{B}/_drive/uploads/{CloudFile}/commit"},
	// Limits, usage and B's real backup ({Backup}: made after the fixtures).
	{"GET", "/api/{B}/_usage?days=7"},
	{"GET", "/api/{B}/_backups/{Backup}"},
	{"POST", "/api/{B}/_backups/{Backup}/restore"},
}

var wildcardRE = regexp.MustCompile(`\{([a-zA-Z_]+)\}`)

// TestModuleIsolation walks every update handler, view and route the
// modules registered on the seam, as principals who must not reach Group B
// (a user of Group A, A's read token, a revoked token, a pending member of
// B, anonymous): each is refused with 401/403/404 as the error envelope,
// B's update sequence does not move, and no answer carries B's ids, names
// or e-mails. Public routes (addressed by secret tokens) are each module's
// to test.
func TestModuleIsolation(t *testing.T) {
	e := apptest.New(t, apptest.Bolt)
	alice, bob := e.SignUp("alice@example.com"), e.SignUp("bob@example.com")
	carol := e.SignUp("carol@example.com")
	a := e.Group(alice, "Alice Garage")
	b := e.Group(bob, "Bobs Repair Shop")
	carolMem := bob.Do("POST", "/api/"+b, map[string]any{"klass": "Membership", "email": carol.Email}).Expect(t, http.StatusCreated)["id"].(string)

	secrets := []string{b, bob.ID, "bob@example.com", "Bobs Repair Shop", carolMem}
	byKlass := map[string]string{"Membership": carolMem}
	for _, f := range isolationFixtures {
		for k, v := range f {
			if s, ok := v.(string); ok && wildcardRE.MatchString(s) {
				f[k] = byKlass[strings.Trim(s, "{}")]
			}
		}
		r := bob.Do("POST", "/api/"+b, f).Expect(t, http.StatusCreated)
		id := r["id"].(string)
		byKlass[ids.Klass(id)] = id
		secrets = append(secrets, id)
		for _, v := range f {
			if s, ok := v.(string); ok && strings.Contains(s, "ecret") {
				secrets = append(secrets, s)
			}
		}
	}
	e.Drain()
	// A backup of B (not a document: its id is a wildcard of the backup routes).
	byKlass["Backup"] = bob.Do("POST", "/api/"+b+"/_backups", nil).Expect(t, http.StatusAccepted)["id"].(string)
	secrets = append(secrets, byKlass["Backup"])
	idOf := func(klass string) string {
		if id, ok := byKlass[klass]; ok {
			return id
		}
		if p := ids.PrefixOf(klass); p != "" {
			return ids.New(p)
		}
		return "x"
	}

	type call struct{ method, path string }
	var calls []call
	reg := e.App.Modules
	for _, u := range reg.Updates() {
		if u.WithID {
			calls = append(calls, call{"PUT", fmt.Sprintf("/api/%s/_design/%s/_update/%s/%s", b, u.DDoc, u.Fn, idOf(u.Klass))})
		} else {
			calls = append(calls, call{"POST", fmt.Sprintf("/api/%s/_design/%s/_update/%s", b, u.DDoc, u.Fn)})
		}
	}
	for _, v := range reg.Views() {
		calls = append(calls, call{"GET", fmt.Sprintf("/api/%s/_design/%s/_view/%s?group_level=1", b, v.DDoc, v.Name)})
	}
	for _, rt := range reg.Routes() {
		if rt.Access == module.AccessPublic {
			continue
		}
		method, path, _ := strings.Cut(rt.Pattern, " ")
		path = wildcardRE.ReplaceAllStringFunc(path, func(w string) string {
			if w == "{db}" {
				return b
			}
			return idOf(rt.Klass)
		})
		path = strings.ReplaceAll(path, "{$}", "")
		calls = append(calls, call{method, path})
	}
	for _, x := range extraIsolationRoutes {
		p := strings.ReplaceAll(x.path, "{B}", b)
		p = wildcardRE.ReplaceAllStringFunc(p, func(w string) string { return idOf(strings.Trim(w, "{}")) })
		calls = append(calls, call{x.method, p})
	}
	if len(calls) < len(reg.Updates())+len(reg.Views()) {
		t.Fatal("the walk lost calls")
	}

	roSecret := e.Token(alice, "read")
	rv := alice.Do("POST", "/api/"+alice.ID+"/_design/token/_update/create", map[string]any{"permissions": "read-write"}).Expect(t, http.StatusCreated)
	alice.Do("PUT", "/api/"+alice.ID+"/_design/token/_update/revoke/"+rv["id"].(string), map[string]any{}).Expect(t, http.StatusOK)
	revoked := rv["token"].(string)
	e.WithToken(roSecret).Do("GET", "/api/"+a, nil).Expect(t, http.StatusOK) // the read token works on its own Group

	walk := func(t *testing.T, c *apptest.Client, allowed ...int) {
		t.Helper()
		seq := e.UpdateSeq(b)
		for _, cl := range calls {
			var body any
			if cl.method != "GET" && cl.method != "HEAD" && cl.method != "DELETE" {
				body = map[string]any{}
			}
			r := c.Do(cl.method, cl.path, body)
			ok := false
			for _, code := range allowed {
				ok = ok || r.Code == code
			}
			if !ok {
				t.Errorf("%s %s: %d %s", cl.method, cl.path, r.Code, r.Body)
			}
			for _, s := range secrets {
				if strings.Contains(string(r.Body), s) {
					t.Errorf("%s %s: the answer carries %q: %s", cl.method, cl.path, s, r.Body)
				}
			}
			var env struct{ Error, Reason string }
			if json.Unmarshal(r.Body, &env) != nil || env.Error == "" {
				t.Errorf("%s %s: not an error envelope: %s", cl.method, cl.path, r.Body)
			}
		}
		// The same reads through POST /api/_batch, with the core's reads of B: each refused as alone.
		var reads []map[string]any
		for _, cl := range append(calls, call{"GET", "/api/" + b}, call{"GET", "/api/" + b + "/" + byKlass["Customer"]},
			call{"POST", "/api/" + b + "/_find"}, call{"GET", "/api/" + b + "/_all_docs"}, call{"GET", "/api/" + b + "/_changes?since=0"},
			call{"GET", "/api/" + b + "/_security"}, call{"GET", "/api/" + b + "/_members"}, call{"GET", "/api/" + b + "/_limits"}) {
			switch {
			case cl.method == "GET":
				reads = append(reads, map[string]any{"method": "GET", "path": cl.path})
			case cl.method == "POST" && strings.HasSuffix(cl.path, "/_find"):
				reads = append(reads, map[string]any{"method": "POST", "path": cl.path, "body": map[string]any{"selector": map[string]any{"klass": "Customer"}}})
			}
		}
		for len(reads) > 0 {
			n := min(len(reads), 20)
			r := c.Do("POST", "/api/_batch", map[string]any{"requests": reads[:n]})
			for _, s := range secrets {
				if strings.Contains(string(r.Body), s) {
					t.Errorf("a batch's answer carries %q: %s", s, r.Body)
				}
			}
			var out struct{ Responses []struct{ Status int } }
			if r.Code == http.StatusOK && json.Unmarshal(r.Body, &out) == nil && len(out.Responses) == n {
				for i, a := range out.Responses {
					if !slices.Contains(allowed, a.Status) && a.Status != http.StatusNotAcceptable {
						t.Errorf("batched %s: %d", reads[i]["path"], a.Status)
					}
				}
			} else if !slices.Contains(allowed, r.Code) {
				t.Errorf("batch: %d %s", r.Code, r.Body)
			}
			reads = reads[n:]
		}
		if after := e.UpdateSeq(b); after != seq {
			t.Errorf("B's update_seq moved from %d to %d", seq, after)
		}
	}
	refused := []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound}
	t.Logf("walking %d calls: %d update handlers, %d views, %d routes", len(calls), len(reg.Updates()), len(reg.Views()), len(reg.Routes()))
	t.Run("user of another Group", func(t *testing.T) { walk(t, alice, refused...) })
	t.Run("read token of another Group", func(t *testing.T) { walk(t, e.WithToken(roSecret), refused...) })
	t.Run("revoked token", func(t *testing.T) { walk(t, e.WithToken(revoked), http.StatusUnauthorized) })
	t.Run("pending member", func(t *testing.T) {
		accept := fmt.Sprintf("/_update/accept/%s", carolMem)
		kept := calls[:0:0]
		for _, c := range calls {
			if !strings.HasSuffix(c.path, accept) {
				kept = append(kept, c)
			}
		}
		all := calls
		calls = kept
		defer func() { calls = all }()
		walk(t, carol, refused...)
	})
	t.Run("anonymous", func(t *testing.T) { walk(t, e.Anonymous(), http.StatusUnauthorized) })
}
