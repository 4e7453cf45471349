package apptest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/mail"
)

// Password is every test user's password.
const Password = "correct horse battery"

// Client is one user agent: a cookie jar that echoes the XSRF cookie in
// its header and sends the product's Origin, like the SPA in a browser; or
// a bearer token, like an API client.
type Client struct {
	e      *Env
	jar    map[string]*http.Cookie
	Bearer string // set: send Authorization: Bearer instead of cookies
	IP     string // the client address the server sees
	ID     string // the user id, when signed up through the harness
	Email  string
}

// Anonymous returns a client with no session.
func (e *Env) Anonymous() *Client {
	return &Client{e: e, jar: map[string]*http.Cookie{}, IP: "192.0.2.10"}
}

// WithToken returns a client that authenticates with an API token.
func (e *Env) WithToken(token string) *Client {
	c := e.Anonymous()
	c.Bearer = token
	return c
}

// SignUp registers email, confirms it through the mailed link and signs in.
func (e *Env) SignUp(email string) *Client {
	e.T.Helper()
	c := e.SignUpUnconfirmed(email)
	e.Anonymous().Do("PUT", "/api/_users/_confirmation", map[string]any{"token": e.LastLink(email, "confirm")}).Expect(e.T, http.StatusOK)
	c.Do("POST", "/api/_session", map[string]any{"name": email, "password": Password}).Expect(e.T, http.StatusOK)
	return c
}

// SignUpUnconfirmed registers email and signs in without confirming it.
func (e *Env) SignUpUnconfirmed(email string) *Client {
	e.T.Helper()
	id := ids.New("usr")
	e.Anonymous().Do("POST", "/api/_users", map[string]any{
		"_id": id, "fullname": strings.Split(email, "@")[0], "unconfirmed_email": email, "password": Password, "locale": "en",
	}).Expect(e.T, http.StatusCreated)
	c := e.Anonymous()
	c.ID, c.Email = id, email
	c.Do("POST", "/api/_session", map[string]any{"name": email, "password": Password}).Expect(e.T, http.StatusOK)
	return c
}

// Group creates a Group owned by c and returns its database name.
func (e *Env) Group(c *Client, name string) string {
	e.T.Helper()
	m := c.Do("POST", "/api/accounts", map[string]any{"name": name}).Expect(e.T, http.StatusCreated)
	id, _ := m["id"].(string)
	if p, ok := ids.Parse(id); !ok || p != "acc" {
		e.T.Fatalf("group id %q", id)
	}
	return id
}

// Join has admin invite m to db (as an editor or not) and m accept.
func (e *Env) Join(admin, m *Client, db string, editor bool) {
	e.T.Helper()
	r := admin.Do("POST", "/api/"+db, map[string]any{"klass": "Membership", "email": m.Email, "editor": editor}).Expect(e.T, http.StatusCreated)
	m.Do("PUT", "/api/"+db+"/_design/status/_update/accept/"+r["id"].(string), map[string]any{}).Expect(e.T, http.StatusOK)
}

// Token creates an API token for c ("read" or "read-write", limited to
// dbs when given) and returns its secret.
func (e *Env) Token(c *Client, perm string, dbs ...string) string {
	e.T.Helper()
	body := map[string]any{"description": "test", "permissions": perm}
	if len(dbs) > 0 {
		body["dbs"] = dbs
	}
	m := c.Do("POST", "/api/"+c.ID+"/_design/token/_update/create", body).Expect(e.T, http.StatusCreated)
	return m["token"].(string)
}

// Cookies returns the client's cookies, for connections the harness does
// not make itself (a WebSocket to a real listener).
func (c *Client) Cookies() []*http.Cookie {
	out := make([]*http.Cookie, 0, len(c.jar))
	for _, ck := range c.jar {
		out = append(out, &http.Cookie{Name: ck.Name, Value: ck.Value})
	}
	return out
}

// CookieHeader is the client's cookies as a Cookie header, and the XSRF
// token a browser tab sends with them: what a WebSocket handshake carries.
func (c *Client) CookieHeader() (cookie, xsrf string) {
	var parts []string
	for _, ck := range c.Cookies() {
		parts = append(parts, ck.Name+"="+ck.Value)
		if ck.Name == "XSRF-TOKEN" {
			xsrf = ck.Value
		}
	}
	return strings.Join(parts, "; "), xsrf
}

// Response is an answer of the product.
type Response struct {
	Code   int
	Header http.Header
	Body   []byte
}

// JSON decodes the body as an object.
func (r Response) JSON(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("response is not a JSON object: %v\n%s", err, r.Body)
	}
	return m
}

// Expect fails unless the status is code, and returns the JSON object body
// (nil for an empty or non-object body).
func (r Response) Expect(t testing.TB, code int) map[string]any {
	t.Helper()
	if r.Code != code {
		t.Fatalf("status %d, want %d: %s", r.Code, code, r.Body)
	}
	var m map[string]any
	if json.Unmarshal(r.Body, &m) != nil {
		return nil
	}
	return m
}

// ExpectError fails unless the answer is the error envelope with status
// code and a reason containing reason ("" for any).
func (r Response) ExpectError(t testing.TB, code int, reason string) map[string]any {
	t.Helper()
	m := r.Expect(t, code)
	name, _ := m["error"].(string)
	got, _ := m["reason"].(string)
	if name == "" || !strings.Contains(got, reason) {
		t.Fatalf("error %q reason %q, want the envelope with a reason containing %q: %s", name, got, reason, r.Body)
	}
	return m
}

// ExpectFields fails unless the answer is a 422 whose field errors include
// field with message msg.
func (r Response) ExpectFields(t testing.TB, field, msg string) map[string]any {
	t.Helper()
	m := r.ExpectError(t, http.StatusUnprocessableEntity, "")
	fields, _ := m["fields"].(map[string]any)
	list, _ := fields[field].([]any)
	for _, v := range list {
		if v == msg {
			return m
		}
	}
	t.Fatalf("fields %v, want %s: %q", fields, field, msg)
	return nil
}

// ExpectBulkField fails unless the answer is a _bulk_docs answer of one
// refused member: CouchDB's per-document error, carrying the field errors a
// 422 would (field with message msg among them).
func (r Response) ExpectBulkField(t testing.TB, field, msg string) {
	t.Helper()
	var rows []struct {
		Error  string              `json:"error"`
		Fields map[string][]string `json:"fields"`
	}
	if r.Code != http.StatusCreated || json.Unmarshal(r.Body, &rows) != nil || len(rows) != 1 {
		t.Fatalf("bulk answer %d %s", r.Code, r.Body)
	}
	if rows[0].Error != "unprocessable_entity" || !slices.Contains(rows[0].Fields[field], msg) {
		t.Fatalf("bulk row %s, want %s: %q", r.Body, field, msg)
	}
}

// Do sends a request to the API. A string, []byte or io.Reader body is
// sent as-is (a reader streams: the handler reads it as it reads a
// connection, errors included), anything else JSON-encoded; headers are name, value pairs and override
// the defaults (Content-Type: application/json when there is a body).
func (c *Client) Do(method, target string, body any, headers ...string) Response {
	c.e.T.Helper()
	var rd io.Reader
	switch v := body.(type) {
	case nil:
	case io.Reader:
		rd = v
	case string:
		rd = strings.NewReader(v)
	case []byte:
		rd = bytes.NewReader(v)
	default:
		enc, err := json.Marshal(v)
		if err != nil {
			c.e.T.Fatal(err)
		}
		rd = bytes.NewReader(enc)
	}
	req := httptest.NewRequest(method, BaseURL+target, rd)
	req.RemoteAddr = c.IP + ":40000"
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.Bearer != "" {
		req.Header.Set("Authorization", "Bearer "+c.Bearer)
	} else {
		for _, ck := range c.jar {
			req.AddCookie(&http.Cookie{Name: ck.Name, Value: ck.Value})
		}
		if ck, ok := c.jar["XSRF-TOKEN"]; ok {
			req.Header.Set("X-XSRF-TOKEN", ck.Value)
		}
		req.Header.Set("Origin", BaseURL)
		req.Header.Set("Sec-Fetch-Site", "same-origin")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	c.e.App.API.ServeHTTP(rec, req)
	for _, ck := range rec.Result().Cookies() {
		if ck.MaxAge < 0 {
			delete(c.jar, ck.Name)
		} else {
			c.jar[ck.Name] = ck
		}
	}
	// Time moves a little between requests, so outbox files sort in send order.
	c.e.Clock.Advance(time.Millisecond)
	return Response{Code: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
}

// Mail is one message read back from the outbox.
type Mail = mail.Sent

// Mails reads every message of the outbox, oldest first.
func (e *Env) Mails() []Mail {
	e.T.Helper()
	ms, err := mail.ReadOutbox(e.Outbox)
	if err != nil {
		e.T.Fatal(err)
	}
	return ms
}

// MailsTo returns the messages to addr whose subject contains sub.
func (e *Env) MailsTo(addr, sub string) []Mail {
	var out []Mail
	for _, m := range e.Mails() {
		if m.To == addr && strings.Contains(m.Subject, sub) {
			out = append(out, m)
		}
	}
	return out
}

var linkRE = regexp.MustCompile(regexp.QuoteMeta(BaseURL) + `/user/(confirm|password)/([A-Za-z0-9_-]{43})`)

// LastLink returns the token of the newest link of kind ("confirm" or
// "password") mailed to addr.
func (e *Env) LastLink(addr, kind string) string {
	e.T.Helper()
	ms := e.Mails()
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].To != addr {
			continue
		}
		if m := linkRE.FindStringSubmatch(ms[i].Text); m != nil && m[1] == kind {
			return m[2]
		}
	}
	e.T.Fatalf("no %s mail to %s in %d mails", kind, addr, len(ms))
	return ""
}

// WriteRefused sends body as a new document of db by each write route
// (POST, PUT under a fresh id with idPrefix, and _bulk_docs), as c, in a
// subtest "<name> via <route>" each, and expects field refused with msg
// and nothing written.
func (e *Env) WriteRefused(t *testing.T, c *Client, db, idPrefix, name string, body map[string]any, field, msg string) {
	routes := map[string]func() Response{
		"POST": func() Response { return c.Do("POST", "/api/"+db, body) },
		"PUT":  func() Response { return c.Do("PUT", "/api/"+db+"/"+ids.New(idPrefix), body) },
		"bulk": func() Response { return c.Do("POST", "/api/"+db+"/_bulk_docs", map[string]any{"docs": []any{body}}) },
	}
	for route, send := range routes {
		t.Run(name+" via "+route, func(t *testing.T) {
			e.Unchanged(db, func() {
				r := send()
				if route == "bulk" {
					r.ExpectBulkField(t, field, msg)
					return
				}
				r.ExpectFields(t, field, msg)
			})
		})
	}
}
