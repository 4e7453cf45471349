package app_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/dav"
)

// TestDAVIsolation walks Group B's drive over WebDAV with every method as
// principals who must not reach it (Alice's token for her Group, her token
// for every Group she has, her read token, Bob's revoked token, Bob's
// token under Alice's address): each is refused, no answer carries B's
// ids or names, B's update sequence and lock table do not move, and a
// copy or move from Alice's Group into B's is refused too. On both stores.
func TestDAVIsolation(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		alice, bob := e.SignUp("alice@example.com"), e.SignUp("bob@example.com")
		a := e.Group(alice, "Alice Garage")
		b := e.Group(bob, "Bobs Repair Shop")
		srv := httptest.NewServer(e.App.DAV)
		t.Cleanup(srv.Close)

		do := func(user, pass, method, target string, body string, headers ...string) (int, string) {
			t.Helper()
			req, err := http.NewRequest(method, srv.URL+target, strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			req.SetBasicAuth(user, pass)
			for i := 0; i+1 < len(headers); i += 2 {
				req.Header.Set(headers[i], headers[i+1])
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			raw, _ := io.ReadAll(res.Body)
			return res.StatusCode, string(raw)
		}
		bobToken := e.Token(bob, "read-write", b)
		for _, p := range []string{"/dav/" + b + "/Bobs%20secret%20folder", "/dav/" + b + "/Bobs%20secret%20folder/Bobs%20secret%20file.txt"} {
			method := "MKCOL"
			if strings.HasSuffix(p, ".txt") {
				method = "PUT"
			}
			if code, body := do("bob@example.com", bobToken, method, p, map[bool]string{true: "Bobs secret content"}[method == "PUT"]); code != http.StatusCreated {
				t.Fatalf("%s %s: %d %s", method, p, code, body)
			}
		}
		lock := `<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>bob</D:owner></D:lockinfo>`
		if code, _ := do("bob@example.com", bobToken, "LOCK", "/dav/"+b+"/Bobs%20secret%20folder/Bobs%20secret%20file.txt", lock, "Depth", "0"); code != http.StatusOK {
			t.Fatalf("Bob's lock: %d", code)
		}
		e.Drain()

		aliceOwn := e.Token(alice, "read-write", a)
		aliceAll := e.Token(alice, "read-write")
		aliceRead := e.Token(alice, "read")
		rv := bob.Do("POST", "/api/"+bob.ID+"/_design/token/_update/create", map[string]any{"permissions": "read-write", "dbs": []string{b}}).Expect(t, http.StatusCreated)
		bob.Do("PUT", "/api/"+bob.ID+"/_design/token/_update/revoke/"+rv["id"].(string), map[string]any{}).Expect(t, http.StatusOK)
		revoked := rv["token"].(string)

		file := "/dav/" + b + "/Bobs%20secret%20folder/Bobs%20secret%20file.txt"
		dir := "/dav/" + b + "/Bobs%20secret%20folder"
		prop := `<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><Z:x xmlns:Z="urn:z">1</Z:x></D:prop></D:set></D:propertyupdate>`
		type call struct{ method, path, body string }
		var calls []call
		for _, p := range []string{"/dav/" + b + "/", dir, file, "/dav/" + b + "/new.txt"} {
			calls = append(calls,
				call{"OPTIONS", p, ""}, call{"PROPFIND", p, ""}, call{"GET", p, ""}, call{"HEAD", p, ""},
				call{"PUT", p, "Alice was here"}, call{"DELETE", p, ""}, call{"MKCOL", p, ""},
				call{"COPY", p, ""}, call{"MOVE", p, ""}, call{"LOCK", p, lock}, call{"UNLOCK", p, ""},
				call{"PROPPATCH", p, prop})
		}
		secrets := []string{b, "Bobs secret", "bob@example.com", bob.ID}
		type who struct{ name, user, pass string }
		whos := []who{
			{"Alice's token for her Group", "alice@example.com", aliceOwn},
			{"Alice's token for all her Groups", "alice@example.com", aliceAll},
			{"Alice's read token", "alice@example.com", aliceRead},
			{"Bob's token under Alice's address", "alice@example.com", bobToken},
			{"Bob's revoked token", "bob@example.com", revoked},
			{"a token that is not one", "bob@example.com", "oft_" + strings.Repeat("A", 43)},
		}
		seq := e.UpdateSeq(b)
		locks := lockRecord(t, e, b)
		for _, w := range whos {
			t.Run(w.name, func(t *testing.T) {
				// Every caller here is loopback: a new window of failed
				// sign-ins each (past dav.SignInFailures, 429 refuses too).
				e.Clock.Advance(dav.SignInFailures.Per)
				for _, c := range calls {
					code, body := do(w.user, w.pass, c.method, c.path, c.body,
						"Depth", "1", "Destination", srv.URL+"/dav/"+b+"/stolen.txt", "Lock-Token", "<opaquelocktoken:x>")
					if code != http.StatusNotFound && code != http.StatusUnauthorized && code != http.StatusForbidden && code != http.StatusTooManyRequests {
						t.Errorf("%s %s: %d %s", c.method, c.path, code, body)
					}
					for _, s := range secrets {
						if strings.Contains(body, s) {
							t.Errorf("%s %s: the answer carries %q: %s", c.method, c.path, s, body)
						}
					}
				}
				// The top level lists Alice's Groups only.
				if w.user == "alice@example.com" && w.pass != bobToken {
					code, body := do(w.user, w.pass, "PROPFIND", "/dav/", "", "Depth", "1")
					if code != http.StatusMultiStatus || strings.Contains(body, b) || !strings.Contains(body, a) {
						t.Errorf("top level: %d %s", code, body)
					}
				}
			})
		}
		// From Alice's own Group into B's: refused.
		e.Clock.Advance(dav.SignInFailures.Per)
		if code, body := do("alice@example.com", aliceAll, "PUT", "/dav/"+a+"/mine.txt", "mine"); code != http.StatusCreated {
			t.Fatalf("Alice's PUT: %d %s", code, body)
		}
		for _, m := range []string{"COPY", "MOVE"} {
			code, body := do("alice@example.com", aliceAll, m, "/dav/"+a+"/mine.txt", "", "Destination", srv.URL+"/dav/"+b+"/mine.txt")
			if code != http.StatusForbidden {
				t.Errorf("%s into B: %d %s", m, code, body)
			}
		}
		e.Drain()
		if after := e.UpdateSeq(b); after != seq {
			t.Errorf("B's update_seq moved from %d to %d", seq, after)
		}
		if after := lockRecord(t, e, b); after != locks {
			t.Errorf("B's locks changed:\n%s\n%s", locks, after)
		}
	})
}

func lockRecord(t *testing.T, e *apptest.Env, db string) string {
	t.Helper()
	r, err := e.Store.GetRecord(t.Context(), "dav.locks", db)
	if err != nil {
		return err.Error()
	}
	return string(r.Value)
}
