package live_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/httpapi"
	"github.com/oficina/oficina/shared/live"
)

// customHub serves /api/_live from a hub with opts over e's store and auth
// (the core API in front of it, without the change stream): for what the
// product's own hub does only after minutes.
func customHub(t *testing.T, e *apptest.Env, opts live.HubOptions) (*live.Hub, string) {
	t.Helper()
	opts.Store, opts.Auth = e.Store, e.App.Auth
	h := live.NewHub(opts)
	api := httpapi.New(httpapi.Deps{Store: e.Store, Auth: e.App.Auth, Users: e.App.Auth, Live: h.Serve,
		Config: httpapi.Config{BaseURL: apptest.BaseURL}})
	srv := httptest.NewServer(api)
	t.Cleanup(func() { h.Close(); srv.Close() })
	return h, srv.URL
}

// closedWith waits for the server to close w and returns the status.
func (w *wsClient) closedWith() websocket.CloseError {
	w.t.Helper()
	for {
		select {
		case _, ok := <-w.msgs:
			if ok {
				continue
			}
			select {
			case ce := <-w.closed:
				return ce
			default:
				w.t.Fatal("the connection ended without a close frame")
			}
		case <-time.After(wait):
			w.t.Fatal("the connection stayed open")
		}
	}
}

// TestIdle: a connection without a subscription is closed after IdleAfter;
// one with a subscription stays, answering the server's pings.
func TestIdle(t *testing.T) {
	e := apptest.New(t, apptest.Bolt)
	ana := e.SignUp("ana@example.com")
	_, base := customHub(t, e, live.HubOptions{IdleAfter: 300 * time.Millisecond, PingEvery: 50 * time.Millisecond})
	idle := mustDial(t, base, ana)
	busy := mustDial(t, base, ana)
	busy.mustSubscribe(ana.ID)
	if ce := idle.closedWith(); ce.Code != websocket.StatusPolicyViolation || ce.Reason != live.MsgIdle {
		t.Fatalf("idle connection closed with %v", ce)
	}
	time.Sleep(400 * time.Millisecond) // longer than IdleAfter, a few pings
	busy.settle()
	// Unsubscribed, it becomes idle.
	busy.send(map[string]any{"unsubscribe": []string{ana.ID}})
	if ce := busy.closedWith(); ce.Reason != live.MsgIdle {
		t.Fatalf("unsubscribed connection closed with %v", ce)
	}
}

// TestLimitsAndClose: the subscription limit, and Close ending every
// connection as going away.
func TestLimitsAndClose(t *testing.T) {
	e := apptest.New(t, apptest.Bolt)
	ana := e.SignUp("ana@example.com")
	a := e.Group(ana, "Oficina da Ana")
	h, base := customHub(t, e, live.HubOptions{MaxSubscriptions: 1})
	w := mustDial(t, base, ana)
	got := w.subscribe(a, a, ana.ID)
	if got[0]["subscribed"] != a || got[1]["subscribed"] != a || got[2]["reason"] != live.MsgTooManyDBs {
		t.Fatalf("subscriptions past the limit: %v", got)
	}
	if s := h.Stats(); s.Connections != 1 || s.Subscriptions != 1 {
		t.Fatalf("stats %+v", s)
	}
	h.Close()
	if ce := w.closedWith(); ce.Code != websocket.StatusGoingAway {
		t.Fatalf("closing the hub: %v", ce)
	}
	if s := h.Stats(); s.Connections != 0 || s.Subscriptions != 0 {
		t.Fatalf("stats after close %+v", s)
	}
	if w, code := dial(t, base, ana, handshake{}); w != nil || code != http.StatusInternalServerError {
		t.Fatalf("dialing a closed hub: %d", code)
	}
}

// TestGoneClientFreesItsSocket: a client that goes away without a close
// frame leaves neither a connection in the hub nor an open socket.
func TestGoneClientFreesItsSocket(t *testing.T) {
	e := apptest.New(t, apptest.Bolt)
	ana := e.SignUp("ana@example.com")
	h, base := customHub(t, e, live.HubOptions{})
	openFDs := func() int {
		fds, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Fatal(err)
		}
		return len(fds)
	}
	w := mustDial(t, base, ana)
	w.mustSubscribe(ana.ID)
	before := openFDs()
	var ws []*wsClient
	for range 20 {
		c := mustDial(t, base, ana)
		c.mustSubscribe(ana.ID)
		ws = append(ws, c)
	}
	if got := openFDs(); got < before+40 {
		t.Fatalf("20 connections hold %d more descriptors, want both ends' 40", got-before)
	}
	for _, c := range ws {
		c.ws.CloseNow()
	}
	deadline := time.Now().Add(wait)
	for h.Stats().Connections > 1 || openFDs() > before {
		if time.Now().After(deadline) {
			t.Fatalf("after the clients left: %+v, %d descriptors more than before", h.Stats(), openFDs()-before)
		}
		time.Sleep(10 * time.Millisecond)
	}
	w.settle() // the one left is still served
}
