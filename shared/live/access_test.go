package live_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/live"
)

// TestNeverReceive: a member of another Group, a removed member and an
// anonymous client never hear of a Group's changes.
func TestNeverReceive(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		base := server(t, e)
		ana := e.SignUp("ana@example.com")
		a := e.Group(ana, "Oficina da Ana")
		bob := e.SignUp("bob@example.com")
		b := e.Group(bob, "Oficina do Bob")
		carol := e.SignUp("carol@example.com")
		carolMem := join(t, ana, carol, a)
		e.Drain()

		// Anonymous: the handshake is refused, nothing is upgraded.
		if w, code := dial(t, base, nil, handshake{}); w != nil || code != http.StatusUnauthorized {
			t.Fatalf("anonymous handshake: %d", code)
		}
		// A revoked or unknown token: refused too.
		if w, code := dial(t, base, nil, handshake{header: http.Header{"Authorization": {"Bearer oft_not-a-token"}}}); w != nil || code != http.StatusUnauthorized {
			t.Fatalf("unknown token handshake: %d", code)
		}

		// Another Group's member: refused with the access decision's reason.
		wb := mustDial(t, base, bob)
		if m := wb.subscribe(a)[0]; m["refused"] != a || m["reason"] != "You are not allowed to access this data." {
			t.Fatalf("bob subscribing to ana's Group: %v", m)
		}
		wb.mustSubscribe(b, bob.ID)
		// A token of bob's bounded to his Group: ana's Group stays refused.
		tok := e.Token(bob, "read", b)
		wt, code := dial(t, base, nil, handshake{header: http.Header{"Authorization": {"Bearer " + tok}}})
		if wt == nil {
			t.Fatalf("token handshake: %d", code)
		}
		if m := wt.subscribe(a, bob.ID)[0]; m["refused"] != a {
			t.Fatalf("bob's token subscribing to ana's Group: %v", m)
		}
		wt.mustSubscribe(b)

		wc := mustDial(t, base, carol)
		wc.mustSubscribe(a)
		create(t, ana, a, customer("Bia"))
		e.Drain()
		if got := notices(wc.settle()); len(got) != 1 {
			t.Fatalf("carol, a member, heard %v", got)
		}

		// Ana removes carol: carol's subscription is refused at once, and
		// nothing written afterwards reaches her.
		removeMember(t, e, ana, a, carolMem)
		e.Drain()
		refused := false
		for _, m := range wc.settle() {
			if m["refused"] == a {
				refused = m["reason"] == "You are not allowed to access this data."
			}
		}
		if !refused {
			t.Fatal("carol's subscription was not refused when she was removed")
		}
		for range 3 {
			create(t, ana, a, customer("Caio"))
		}
		e.Drain()
		if got := notices(wc.settle()); len(got) != 0 {
			t.Fatalf("carol, removed, heard %v", got)
		}
		if m := wc.subscribe(a)[0]; m["refused"] != a {
			t.Fatalf("carol, removed, subscribing again: %v", m)
		}
		for _, w := range []*wsClient{wb, wt} {
			for _, n := range notices(w.settle()) {
				if n["db"] == a {
					t.Fatalf("another Group's member heard %v", n)
				}
			}
		}
		if got := e.App.Live.Stats(); got.Connections != 3 {
			t.Fatalf("hub stats %+v", got)
		}
	})
}

// TestJoinWhileConnected: roles a user gains after connecting count at the
// next subscribe (the principal is resolved again).
func TestJoinWhileConnected(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		base := server(t, e)
		ana := e.SignUp("ana@example.com")
		a := e.Group(ana, "Oficina da Ana")
		dave := e.SignUp("dave@example.com")
		w := mustDial(t, base, dave)
		if m := w.subscribe(a)[0]; m["refused"] != a {
			t.Fatalf("before joining: %v", m)
		}
		e.Join(ana, dave, a, false)
		e.Drain()
		w.mustSubscribe(a)
		create(t, ana, a, customer("Bia"))
		e.Drain()
		if got := notices(w.settle()); len(got) != 1 {
			t.Fatalf("after joining: %v", got)
		}
	})
}

// TestHandshake: the cookie session needs its XSRF token in the query, and
// a cross-origin upgrade is refused; a bearer token needs neither.
func TestHandshake(t *testing.T) {
	e := apptest.New(t, apptest.Bolt)
	base := server(t, e)
	ana := e.SignUp("ana@example.com")
	for _, tc := range []struct {
		name string
		hs   handshake
		code int
	}{
		{"no XSRF token", handshake{noXSRF: true}, http.StatusForbidden},
		{"a wrong XSRF token", handshake{xsrf: "not-the-cookie"}, http.StatusForbidden},
		{"another origin", handshake{origin: "https://evil.example"}, http.StatusForbidden},
		{"a cross-site fetch", handshake{header: http.Header{"Sec-Fetch-Site": {"cross-site"}}}, http.StatusForbidden},
		{"the site's origin", handshake{}, http.StatusSwitchingProtocols},
		{"the request's own host", handshake{origin: base}, http.StatusSwitchingProtocols},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, code := dial(t, base, ana, tc.hs); code != tc.code {
				t.Fatalf("got %d, want %d", code, tc.code)
			}
		})
	}
	tok := e.Token(ana, "read")
	if w, code := dial(t, base, nil, handshake{origin: "https://elsewhere.example", header: http.Header{"Authorization": {"Bearer " + tok}}}); w == nil {
		t.Fatalf("a token from anywhere: %d", code)
	}
	// A plain GET is not a WebSocket.
	ana.Do("GET", "/api/_live", nil, "X-XSRF-TOKEN", "").ExpectError(t, http.StatusForbidden, "Missing or invalid XSRF token")
	r := ana.Do("GET", "/api/_live", nil)
	r.ExpectError(t, http.StatusBadRequest, "GET /api/_live opens a WebSocket: send Connection: Upgrade and Upgrade: websocket")
}

// TestProtocolRefusals: what the protocol itself refuses.
func TestProtocolRefusals(t *testing.T) {
	e := apptest.New(t, apptest.Bolt)
	base := server(t, e)
	ana := e.SignUp("ana@example.com")
	w := mustDial(t, base, ana)
	for _, tc := range []struct{ db, reason string }{
		{"prices", live.MsgNotLiveDB},
		{"_users", live.MsgNotLiveDB},
		{"acc-00000000000000000000000000000000", "You are not allowed to access this data."},
		{"../x", `invalid database name "../x"`},
	} {
		if m := w.subscribe(tc.db)[0]; m["refused"] != tc.db || m["reason"] != tc.reason {
			t.Errorf("subscribe %s: %v", tc.db, m)
		}
	}
	for _, bad := range []string{`{"subscribe": "acc-x"}`, `{"subscribe": ["a"], "ping": 1}`, `[]`, `{"hello": 1}`, `nope`} {
		if err := w.ws.Write(t.Context(), 1, []byte(bad)); err != nil {
			t.Fatal(err)
		}
		if m := w.next(); m["error"] != live.MsgBadMessage {
			t.Errorf("%s: %v", bad, m)
		}
	}
}

// TestHandshakeAsBrowsersSend: the upgrade works through the local
// server's whole chain (access log, compression) with the headers a
// browser sends, gzip accepted among them.
func TestHandshakeAsBrowsersSend(t *testing.T) {
	e := apptest.New(t, apptest.Bolt)
	base := server(t, e)
	ana := e.SignUp("ana@example.com")
	cookie, xsrf := ana.CookieHeader()
	host := strings.TrimPrefix(base, "http://")
	conn, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET /api/_live?xsrf=%s HTTP/1.1\r\nHost: %s\r\nOrigin: %s\r\nCookie: %s\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"+
		"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nAccept-Encoding: gzip, deflate, br, zstd\r\n"+
		"Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\nSec-Fetch-Site: same-origin\r\nSec-Fetch-Mode: websocket\r\n\r\n",
		url.QueryEscape(xsrf), host, base, cookie)
	br := bufio.NewReader(conn)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusSwitchingProtocols || res.Header.Get("Sec-WebSocket-Extensions") != "" {
		t.Fatalf("handshake: %d, extensions %q", res.StatusCode, res.Header.Get("Sec-WebSocket-Extensions"))
	}
	// The connection is the server's now: a ping (masked, as a client's
	// frames are; a zero mask) is answered.
	msg := []byte(`{"ping":1}`)
	if _, err := conn.Write(append([]byte{0x81, 0x80 | byte(len(msg)), 0, 0, 0, 0}, msg...)); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(wait))
	head := make([]byte, 2)
	if _, err := io.ReadFull(br, head); err != nil {
		t.Fatalf("no answer on the upgraded connection: %v", err)
	}
	body := make([]byte, head[1]&0x7f)
	if _, err := io.ReadFull(br, body); err != nil || head[0] != 0x81 || string(body) != `{"pong":1}` {
		t.Fatalf("answer %x %q %v", head, body, err)
	}
}
