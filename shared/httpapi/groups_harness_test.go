package httpapi

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/oficina/oficina/shared/accounts"
	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/mail"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/phones"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/ticket"
)

// ---- harness for the Group tests: the user harness (real auth on a real
// bbolt store, mail to a real outbox) plus the real accounts service on the
// same write path the server uses.

type groupEnv struct {
	*userEnv
	acc  *accounts.Service
	docs *docs.Service
	reg  *module.Registry
}

// newGroupEnv builds the env; newID, when set, makes the accounts service's
// ids (tests pin them to provoke failures).
func newGroupEnv(t *testing.T, newID func(prefix string) string, admins ...string) *groupEnv {
	t.Helper()
	e := newUserEnv(t, admins...)
	quiet := slog.New(slog.DiscardHandler)
	d := docs.New(e.st, e.clock.Now)
	tpl, err := mail.LoadTemplates()
	if err != nil {
		t.Fatal(err)
	}
	acc, err := accounts.New(accounts.Options{
		Store: e.st, Docs: d, Users: e.svc, Templates: tpl, Phones: phones.Metadata{},
		Mail:    mail.NewOutbox(e.outbox, "Oficina <no-reply@oficina.test>", quiet).WithClock(e.clock.Now),
		BaseURL: "https://app.oficina.test", Logger: quiet, NewID: newID,
	})
	if err != nil {
		t.Fatal(err)
	}
	e.svc.OnEmail(acc.EmailKnown)
	e.svc.OnPasswordReset(acc.PasswordReset)
	reg := module.NewRegistry(d, module.Refs(e.st, acc))
	if err := reg.Add(acc, ticket.Counts{}); err != nil {
		t.Fatal(err)
	}
	g := &groupEnv{userEnv: e, acc: acc, docs: d, reg: reg}
	g.configure(Config{})
	return g
}

// configure rebuilds the server with cfg (same store, services and clock).
func (g *groupEnv) configure(cfg Config) {
	g.srv = New(Deps{Store: g.st, Docs: g.docs, Auth: g.svc, Users: g.svc, Accounts: g.acc, Modules: g.reg, Log: slog.New(slog.DiscardHandler), Now: g.clock.Now, Config: cfg})
}

// member is a registered user with a signed-in browser.
type member struct {
	id, email string
	b         *browser
}

// user registers email (confirming it when confirmed), signs in and
// returns the user with their browser.
func (g *groupEnv) user(email, locale string, confirmed bool) *member {
	g.t.Helper()
	id := g.register(email, "password1", locale)
	if confirmed {
		g.confirm(email)
	}
	b := g.browser()
	expect(g.t, b.login(email, "password1"), http.StatusOK, "")
	return &member{id: id, email: email, b: b}
}

// confirm follows the newest confirmation link sent to email.
func (g *groupEnv) confirm(email string) {
	g.t.Helper()
	tok := g.lastLink(email, "confirm")
	expect(g.t, g.browser().do("PUT", "/api/_users/_confirmation", map[string]any{"token": tok}), http.StatusOK, "")
}

// createGroup makes a Group for m and returns its id.
func (g *groupEnv) createGroup(m *member, name string) string {
	g.t.Helper()
	r := expect(g.t, m.b.do("POST", "/api/accounts", map[string]any{"name": name}), http.StatusCreated, "")
	id, _ := r["id"].(string)
	if p, ok := ids.Parse(id); !ok || p != "acc" {
		g.t.Fatalf("group id %q", id)
	}
	return id
}

// invite has admin invite email to db and returns the membership id.
func (g *groupEnv) invite(admin *member, db, email string, editor bool) string {
	g.t.Helper()
	r := expect(g.t, admin.b.do("POST", "/api/"+db, map[string]any{"klass": "Membership", "email": email, "editor": editor}), http.StatusCreated, "")
	return r["id"].(string)
}

// accept has m accept membership id of db.
func (g *groupEnv) accept(m *member, db, id string) {
	g.t.Helper()
	expect(g.t, m.b.do("PUT", "/api/"+db+"/_design/status/_update/accept/"+id, map[string]any{}), http.StatusOK, "")
}

// join invites m to db and accepts.
func (g *groupEnv) join(admin, m *member, db string, editor bool) string {
	g.t.Helper()
	id := g.invite(admin, db, m.email, editor)
	g.accept(m, db, id)
	return id
}

// doc reads a document straight from the store (nil when absent or deleted).
func (g *groupEnv) doc(db, id string) map[string]any {
	g.t.Helper()
	d, err := g.st.Get(context.Background(), db, id)
	if err != nil {
		return nil
	}
	body, err := docs.Decode(d.Body)
	if err != nil {
		g.t.Fatal(err)
	}
	body["_rev"] = d.Rev
	return body
}

// find runs a _find as m and returns the docs.
func (g *groupEnv) find(m *member, db string, q map[string]any) []map[string]any {
	g.t.Helper()
	r := expect(g.t, m.b.do("POST", "/api/"+db+"/_find", q), http.StatusOK, "")
	var out []map[string]any
	l, _ := r["docs"].([]any) // mango answers null for no match
	for _, d := range l {
		out = append(out, d.(map[string]any))
	}
	return out
}

// adjustment returns the adjustment with key in db, read as m.
func (g *groupEnv) adjustment(m *member, db, key string) map[string]any {
	g.t.Helper()
	docs := g.find(m, db, map[string]any{"selector": map[string]any{"klass": "Adjustment", "key": key}})
	if len(docs) != 1 {
		g.t.Fatalf("%d adjustments %q in %s", len(docs), key, db)
	}
	return docs[0]
}

// setPlan sets a Group's confirmed-plan the way billing will: a server write.
func (g *groupEnv) setPlan(db, plan string) {
	g.t.Helper()
	ctx := context.Background()
	page, err := g.st.List(ctx, db, store.ListQuery{Klass: "Adjustment"})
	if err != nil {
		g.t.Fatal(err)
	}
	for _, d := range page.Docs {
		body, _ := docs.Decode(d.Body)
		if body["key"] != "confirmed-plan" {
			continue
		}
		body["value"] = plan
		raw, _ := json.Marshal(body)
		if _, err := g.st.Put(ctx, db, store.Doc{ID: d.ID, Rev: d.Rev, Klass: d.Klass, SortKey: d.SortKey, Body: raw}); err != nil {
			g.t.Fatal(err)
		}
		return
	}
	g.t.Fatalf("no confirmed-plan in %s", db)
}

// roles returns the roles of m's session as the server sees them now.
func (g *groupEnv) roles(m *member) []string {
	g.t.Helper()
	r := expect(g.t, m.b.do("GET", "/api/_session", nil), http.StatusOK, "")
	var out []string
	for _, v := range r["userCtx"].(map[string]any)["roles"].([]any) {
		out = append(out, v.(string))
	}
	return out
}

func (g *groupEnv) hasRole(m *member, role string) bool { return slices.Contains(g.roles(m), role) }

// mailsTo returns the mails sent to addr with subject containing sub.
func (g *groupEnv) mailsTo(addr, sub string) []sentMail {
	var out []sentMail
	for _, m := range g.mails() {
		if m.to == addr && strings.Contains(m.subject, sub) {
			out = append(out, m)
		}
	}
	return out
}

// updateSeqOf reads a db's update_seq straight from the store.
func (g *groupEnv) updateSeqOf(db string) uint64 {
	g.t.Helper()
	info, err := g.st.DBInfo(context.Background(), db)
	if err != nil {
		g.t.Fatal(err)
	}
	return info.UpdateSeq
}
