package live_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/oficina/oficina/shared/app"
	"github.com/oficina/oficina/shared/apptest"
)

func TestMain(m *testing.M) { os.Exit(apptest.Main(m)) }

// wait bounds every wait for a message; the tests never time how fast.
const wait = 10 * time.Second

// server serves the product on a real loopback listener (a WebSocket needs
// one), behind the access log as functions/local serves it.
func server(t *testing.T, e *apptest.Env) string {
	t.Helper()
	srv := httptest.NewServer(app.AccessLog(slog.New(slog.DiscardHandler), e.App.Handler))
	t.Cleanup(srv.Close)
	return srv.URL
}

// wsClient is one live connection, its messages read into a channel.
type wsClient struct {
	t    *testing.T
	ws   *websocket.Conn
	msgs chan map[string]any
	// closed receives the close status once the server ends the connection.
	closed chan websocket.CloseError
	pings  int
}

// handshake is how a dial presents itself; the zero value is a browser
// tab of the signed-in client on the site's origin.
type handshake struct {
	xsrf   string // "" = the client's own XSRF cookie
	noXSRF bool
	origin string // "" = the site's
	header http.Header
}

// dial opens /api/_live as c (nil: anonymous, or with hs.header's token).
func dial(t *testing.T, base string, c *apptest.Client, hs handshake) (*wsClient, int) {
	t.Helper()
	h := http.Header{}
	origin := apptest.BaseURL
	if hs.origin != "" {
		origin = hs.origin
	}
	h.Set("Origin", origin)
	h.Set("Accept-Encoding", "gzip, deflate, br") // as a browser's handshake does
	xsrf := hs.xsrf
	if c != nil {
		cookie, own := c.CookieHeader()
		h.Set("Cookie", cookie)
		if xsrf == "" {
			xsrf = own
		}
	}
	for k, v := range hs.header {
		h[k] = v
	}
	u := "ws" + strings.TrimPrefix(base, "http") + "/api/_live"
	if !hs.noXSRF && xsrf != "" {
		u += "?xsrf=" + xsrf
	}
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	ws, res, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		if res == nil {
			t.Fatalf("dial: %v", err)
		}
		return nil, res.StatusCode
	}
	w := &wsClient{t: t, ws: ws, msgs: make(chan map[string]any, 1024), closed: make(chan websocket.CloseError, 1)}
	go func() {
		for {
			_, b, err := ws.Read(context.Background())
			if err != nil {
				var ce websocket.CloseError
				if errors.As(err, &ce) {
					w.closed <- ce
				}
				close(w.msgs)
				return
			}
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				t.Errorf("not JSON: %s", b)
			}
			w.msgs <- m
		}
	}()
	t.Cleanup(func() { ws.CloseNow() })
	return w, http.StatusSwitchingProtocols
}

func mustDial(t *testing.T, base string, c *apptest.Client) *wsClient {
	t.Helper()
	w, code := dial(t, base, c, handshake{})
	if w == nil {
		t.Fatalf("dial: %d", code)
	}
	return w
}

func (w *wsClient) send(v any) {
	w.t.Helper()
	b, _ := json.Marshal(v)
	if err := w.ws.Write(context.Background(), websocket.MessageText, b); err != nil {
		w.t.Fatal(err)
	}
}

// next returns the next message, failing after wait.
func (w *wsClient) next() map[string]any {
	w.t.Helper()
	select {
	case m, ok := <-w.msgs:
		if !ok {
			w.t.Fatal("the connection ended")
		}
		return m
	case <-time.After(wait):
		w.t.Fatal("no message")
	}
	return nil
}

// subscribe sends a subscribe and returns the answers, one per db.
func (w *wsClient) subscribe(dbs ...string) []map[string]any {
	w.t.Helper()
	w.send(map[string]any{"subscribe": dbs})
	out := make([]map[string]any, len(dbs))
	for i := range dbs {
		out[i] = w.next()
	}
	return out
}

// mustSubscribe subscribes and fails unless every db is accepted.
func (w *wsClient) mustSubscribe(dbs ...string) {
	w.t.Helper()
	for i, m := range w.subscribe(dbs...) {
		if m["subscribed"] != dbs[i] {
			w.t.Fatalf("subscribe %s: %v", dbs[i], m)
		}
	}
}

// settle returns every message that arrived before a ping's pong: the
// server queues a connection's frames in order, so whatever a drained
// change produced is among them.
func (w *wsClient) settle() []map[string]any {
	w.t.Helper()
	w.pings++
	w.send(map[string]any{"ping": w.pings})
	var got []map[string]any
	for {
		m := w.next()
		if p, ok := m["pong"]; ok && p == float64(w.pings) {
			return got
		}
		got = append(got, m)
	}
}

// notices filters the notices out of messages.
func notices(ms []map[string]any) []map[string]any {
	var out []map[string]any
	for _, m := range ms {
		if _, ok := m["db"]; ok {
			out = append(out, m)
		}
	}
	return out
}

// join has admin invite member to db (not an editor) and member accept;
// it returns the membership's id.
func join(t *testing.T, admin, member *apptest.Client, db string) string {
	t.Helper()
	mem := admin.Do("POST", "/api/"+db, map[string]any{"klass": "Membership", "email": member.Email, "editor": false}).Expect(t, http.StatusCreated)["id"].(string)
	member.Do("PUT", "/api/"+db+"/_design/status/_update/accept/"+mem, map[string]any{}).Expect(t, http.StatusOK)
	return mem
}

// removeMember has admin remove the membership mem from db.
func removeMember(t *testing.T, e *apptest.Env, admin *apptest.Client, db, mem string) {
	t.Helper()
	admin.Do("DELETE", "/api/"+db+"/"+mem+"?rev="+e.Doc(db, mem)["_rev"].(string), nil).Expect(t, http.StatusOK)
}

func create(t *testing.T, c *apptest.Client, db string, body map[string]any) string {
	t.Helper()
	return c.Do("POST", "/api/"+db, body).Expect(t, http.StatusCreated)["id"].(string)
}

// seqOf is the _changes seq of id's latest revision.
func seqOf(t *testing.T, c *apptest.Client, db, id string) float64 {
	t.Helper()
	changes := c.Do("GET", "/api/"+db+"/_changes?since=0", nil).Expect(t, http.StatusOK)
	for _, r := range changes["results"].([]any) {
		if row := r.(map[string]any); row["id"] == id {
			return row["seq"].(float64)
		}
	}
	t.Fatalf("%s is not in %s's _changes", id, db)
	return 0
}

func customer(name string) map[string]any { return map[string]any{"klass": "Customer", "name": name} }

// TestNotices: a subscriber hears of every create, update and delete in
// its databases, with the _changes seq and without the document.
func TestNotices(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		base := server(t, e)
		ana := e.SignUp("ana@example.com")
		db := e.Group(ana, "Oficina da Ana")
		e.Drain()
		w := mustDial(t, base, ana)
		answers := w.subscribe(db, ana.ID)
		for i, want := range []string{db, ana.ID} {
			if answers[i]["subscribed"] != want {
				t.Fatalf("answer %d: %v", i, answers[i])
			}
			if _, ok := answers[i]["seq"].(float64); !ok {
				t.Fatalf("answer without seq: %v", answers[i])
			}
		}

		id := create(t, ana, db, map[string]any{"klass": "Ticket", "content": "Trocar a tela", "priority": "high", "status": "open"})
		e.Drain()
		got := notices(w.settle())
		if len(got) != 1 {
			t.Fatalf("notices after a create: %v", got)
		}
		n := got[0]
		seq := seqOf(t, ana, db, id)
		want := map[string]any{"db": db, "seq": seq, "id": id, "klass": "Ticket", "deleted": false, "rev": e.Doc(db, id)["_rev"]}
		if fmt.Sprint(n) != fmt.Sprint(want) {
			t.Fatalf("notice %v, want %v (no body, the _changes seq, the revision written)", n, want)
		}

		doc := e.Doc(db, id)
		doc["content"] = "Trocar a tela e a bateria"
		ana.Do("PUT", "/api/"+db+"/"+id, doc).Expect(t, http.StatusCreated)
		ana.Do("DELETE", "/api/"+db+"/"+id+"?rev="+e.Doc(db, id)["_rev"].(string), nil).Expect(t, http.StatusOK)
		e.Drain()
		got = notices(w.settle())
		if len(got) != 2 || got[0]["deleted"] != false || got[1]["deleted"] != true || got[1]["klass"] != "Ticket" ||
			got[0]["seq"].(float64) <= seq || got[1]["seq"].(float64) <= got[0]["seq"].(float64) {
			t.Fatalf("notices after an update and a delete: %v", got)
		}

		// The personal db too (a bookmark is a write there).
		create(t, ana, ana.ID, map[string]any{"klass": "Adjustment", "key": "locale", "value": "pt-BR"})
		e.Drain()
		if got := notices(w.settle()); len(got) != 1 || got[0]["db"] != ana.ID {
			t.Fatalf("notices of the personal db: %v", got)
		}

		// Unsubscribed: nothing more.
		w.send(map[string]any{"unsubscribe": []string{db}})
		if m := w.next(); m["unsubscribed"] != db {
			t.Fatalf("unsubscribe: %v", m)
		}
		create(t, ana, db, customer("Bia"))
		e.Drain()
		if got := notices(w.settle()); len(got) != 0 {
			t.Fatalf("notices after unsubscribing: %v", got)
		}
	})
}

// TestReconnectMissesNothing: a client that heard up to seq S, lost its
// connection while others wrote, and reconnected finds every change it
// did not hear of in _changes?since=S, and hears of every later one.
func TestReconnectMissesNothing(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		base := server(t, e)
		ana := e.SignUp("ana@example.com")
		db := e.Group(ana, "Oficina da Ana")
		e.Drain()
		seen := map[string]bool{}
		var last float64
		hear := func(w *wsClient) {
			for _, n := range notices(w.settle()) {
				seen[n["id"].(string)] = true
				last = max(last, n["seq"].(float64))
			}
		}
		w := mustDial(t, base, ana)
		w.mustSubscribe(db)
		written := []string{create(t, ana, db, customer("Bia"))}
		e.Drain()
		hear(w)
		w.ws.CloseNow()

		// Written while the client is away, some changed twice.
		for i := range 5 {
			id := create(t, ana, db, customer(fmt.Sprintf("Caio %d", i)))
			written = append(written, id)
			if i%2 == 0 {
				doc := e.Doc(db, id)
				doc["name"] = fmt.Sprintf("Caio %d (edited)", i)
				ana.Do("PUT", "/api/"+db+"/"+id, doc).Expect(t, http.StatusCreated)
			}
		}
		e.Drain()

		w = mustDial(t, base, ana)
		w.mustSubscribe(db)
		res := ana.Do("GET", fmt.Sprintf("/api/%s/_changes?since=%d", db, int64(last)), nil).Expect(t, http.StatusOK)
		for _, r := range res["results"].([]any) {
			seen[r.(map[string]any)["id"].(string)] = true
		}
		written = append(written, create(t, ana, db, customer("Duda")))
		e.Drain()
		hear(w)
		for _, id := range written {
			if !seen[id] {
				t.Errorf("%s was neither heard of nor in _changes?since=%d", id, int64(last))
			}
		}
	})
}
