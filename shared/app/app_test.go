package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/oficina/oficina/shared/app/standalone"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/ids"
)

// TestGroupsAreWired checks that the wired product serves Groups and runs
// the accounts rules on the document routes (one write path for both).
func TestGroupsAreWired(t *testing.T) {
	cfg, err := config.Load([]string{"--data", t.TempDir()}, func(string) string { return "" }, config.Local)
	if err != nil {
		t.Fatal(err)
	}
	a, err := standalone.Open(context.Background(), cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(a.API)
	t.Cleanup(func() { srv.Close(); a.Close() })
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	xsrf := ""
	do := func(method, path string, body any, want int) map[string]any {
		t.Helper()
		raw, _ := json.Marshal(body)
		req, _ := http.NewRequest(method, srv.URL+path, bytes.NewReader(raw))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-XSRF-TOKEN", xsrf)
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		out, _ := io.ReadAll(res.Body)
		if res.StatusCode != want {
			t.Fatalf("%s %s: %d %s", method, path, res.StatusCode, out)
		}
		var m map[string]any
		_ = json.Unmarshal(out, &m)
		return m
	}
	do("POST", "/api/_users", map[string]any{"_id": ids.New("usr"), "unconfirmed_email": "ana@example.com", "password": "password1"}, 201)
	do("POST", "/api/_session", map[string]any{"name": "ana@example.com", "password": "password1"}, 200)
	u, _ := url.Parse(srv.URL)
	for _, c := range jar.Cookies(u) {
		if c.Name == "XSRF-TOKEN" {
			xsrf = c.Value
		}
	}
	acc := do("POST", "/api/accounts", map[string]any{"name": "Wired"}, 201)["id"].(string)
	if rec := do("GET", "/api/accounts/"+acc, nil, 200); rec["name"] != "Wired" {
		t.Errorf("record %v", rec)
	}
	// A Membership rule (unconfirmed inviter) on the generic POST route.
	m := do("POST", "/api/"+acc, map[string]any{"klass": "Membership", "email": "bia@example.com"}, 403)
	if m["reason"] != fault.MsgConfirmEmailFirst {
		t.Errorf("reason %v", m["reason"])
	}
}
