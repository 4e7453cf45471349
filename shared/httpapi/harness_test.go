package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/store/bolt"
	"github.com/oficina/oficina/shared/stream"
	"github.com/oficina/oficina/shared/ticket"
)

// tokenAuth stands in for the auth service in the document API tests: the
// bearer token is the principal's key. The session and user tests use the
// real auth service.
type tokenAuth map[string]*access.Principal

func (a tokenAuth) SessionPrincipal(context.Context, string) (*access.Principal, error) {
	return nil, nil
}

func (a tokenAuth) TokenPrincipal(_ context.Context, token string) (*access.Principal, error) {
	return a[token], nil
}

// docEnv is a server on a real bbolt store with two users, each with a
// personal db, and a shared "group" db both can use.
type docEnv struct {
	t        *testing.T
	st       store.Store
	reg      *module.Registry
	consumer *stream.Consumer
	srv      *Server
	aliceDB  string
	bobDB    string
	groupDB  string
}

func newDocEnv(t *testing.T, cfg Config) *docEnv {
	t.Helper()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "test.db"), bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	alice, bob := ids.New("usr"), ids.New("usr")
	group := ids.New("acc")
	auth := tokenAuth{
		"alice":      {UserID: alice, Email: "alice@example.com", Label: "Alice", Roles: []string{alice, group}, Via: access.ViaToken, TokenPerm: access.PermReadWrite},
		"bob":        {UserID: bob, Email: "bob@example.com", Label: "Bob", Roles: []string{bob}, Via: access.ViaToken, TokenPerm: access.PermReadWrite},
		"alice-read": {UserID: alice, Email: "alice@example.com", Roles: []string{alice, group}, Via: access.ViaToken, TokenPerm: access.PermRead},
	}
	d := docs.New(st, nil)
	reg := module.NewRegistry(d, nil)
	if err := reg.Add(ticket.Counts{}); err != nil {
		t.Fatal(err)
	}
	// The consumer notes every write from the first, as in the product
	// (the store keeps a change log).
	consumer := stream.New(st, reg.StreamOptions())
	ctx := context.Background()
	for _, u := range []string{alice, bob} {
		if err := access.CreateDB(ctx, st, u, access.PersonalSecurity(u)); err != nil {
			t.Fatal(err)
		}
	}
	groupSec := access.Security{Admins: access.Names{Names: []string{alice}}, Members: access.Names{Roles: []string{group}}}
	if err := access.CreateDB(ctx, st, group, groupSec); err != nil {
		t.Fatal(err)
	}
	srv := New(Deps{Store: st, Docs: d, Auth: auth, Users: nil, Modules: reg, Config: cfg})
	return &docEnv{t: t, st: st, reg: reg, consumer: consumer, srv: srv, aliceDB: alice, bobDB: bob, groupDB: group}
}

// resp is a decoded response.
type resp struct {
	Code   int
	Header http.Header
	Body   []byte
}

func (r resp) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("response is not a JSON object: %v\n%s", err, r.Body)
	}
	return m
}

func (r resp) list(t *testing.T) []any {
	t.Helper()
	var l []any
	if err := json.Unmarshal(r.Body, &l); err != nil {
		t.Fatalf("response is not a JSON array: %v\n%s", err, r.Body)
	}
	return l
}

// do sends a request as user ("" = anonymous). A body that is a string is
// sent as-is; anything else is JSON-encoded. JSON content type unless
// headers say otherwise.
func (e *docEnv) do(user, method, target string, body any, headers ...string) resp {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		enc, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(enc)
	}
	req := httptest.NewRequest(method, target, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if user != "" {
		req.Header.Set("Authorization", "Bearer "+user)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	e.srv.ServeHTTP(rec, req)
	return resp{Code: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
}

// expect fails unless the response has code and, when reason is not
// empty, an error envelope whose reason contains it.
func (e *docEnv) expect(r resp, code int, reason string) {
	e.t.Helper()
	if r.Code != code {
		e.t.Fatalf("status %d, want %d: %s", r.Code, code, r.Body)
	}
	if reason != "" {
		m := r.json(e.t)
		if got, _ := m["reason"].(string); !strings.Contains(got, reason) {
			e.t.Fatalf("reason %q, want it to contain %q", got, reason)
		}
		if _, ok := m["error"].(string); !ok {
			e.t.Fatalf("error envelope without error name: %s", r.Body)
		}
	}
}

// updateSeq reads a db's update_seq straight from the store.
func (e *docEnv) updateSeq(db string) uint64 {
	e.t.Helper()
	info, err := e.st.DBInfo(context.Background(), db)
	if err != nil {
		e.t.Fatal(err)
	}
	return info.UpdateSeq
}

// with returns a copy of e reporting to t, for subtests.
func (e *docEnv) with(t *testing.T) *docEnv {
	c := *e
	c.t = t
	return &c
}
