package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/store/dynamo/ddblocal"
)

func TestMain(m *testing.M) {
	code := ddblocal.Main(m)
	removeColdStartBuild() // coldstart_test.go's binary and data
	os.Exit(code)
}

// TestSampleEvents feeds the API Gateway v2 samples in events/ through the
// Lambda handler, wired exactly as in AWS but on DynamoDB Local, in order:
// they register a user and sign in.
func TestSampleEvents(t *testing.T) {
	endpoint, table := apptest.LambdaTable(t)
	dataDir := t.TempDir()
	env := map[string]string{
		"OFICINA_TABLE":           table,
		"OFICINA_DYNAMO_ENDPOINT": endpoint,
		// The outbox stands in for SES here; the SES adapter has its own tests.
		"OFICINA_MAIL":     "outbox",
		"OFICINA_DATA":     dataDir,
		"OFICINA_BASE_URL": "https://app.oficina.example",
	}
	h, err := newHandler(context.Background(), func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		file   string
		status int
		want   string // a fragment of the body
	}{
		{"apigw-v2-get-root.json", 200, `"couchdb":"Welcome"`},
		{"apigw-v2-get-session-anonymous.json", 401, `"error":"unauthorized"`},
		{"apigw-v2-register-malformed.json", 400, `"error":"bad_request"`},
		{"apigw-v2-register.json", 201, `"id":"usr-5e0c7d1e2f3a4b5c6d7e8f9a0b1c2d3e"`},
		{"apigw-v2-register.json", 409, `"error":"conflict"`}, // the same id again
		{"apigw-v2-login.json", 200, `"name":"usr-5e0c7d1e2f3a4b5c6d7e8f9a0b1c2d3e"`},
		// A stale session cookie on a Group db: anonymous, so 401, and no data.
		{"apigw-v2-http-request.json", 401, `"error":"unauthorized"`},
	}
	var loginCookies []string
	for _, tt := range tests {
		ev := readEvent(t, tt.file)
		res, err := h(context.Background(), ev)
		if err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		if res.StatusCode != tt.status || !strings.Contains(res.Body, tt.want) {
			t.Fatalf("%s: %d %s, want %d with %s", tt.file, res.StatusCode, res.Body, tt.status, tt.want)
		}
		if res.Headers["Content-Type"] != "application/json" {
			t.Errorf("%s: content type %q", tt.file, res.Headers["Content-Type"])
		}
		if tt.file == "apigw-v2-login.json" {
			loginCookies = res.Cookies
		}
	}

	// The session cookie is Secure (the host is not localhost), HttpOnly and Lax.
	var session string
	for _, c := range loginCookies {
		if strings.HasPrefix(c, "AuthSession=") {
			session = c
		}
	}
	for _, attr := range []string{"HttpOnly", "Secure", "SameSite=Lax"} {
		if !strings.Contains(session, attr) {
			t.Errorf("AuthSession cookie %q lacks %s", session, attr)
		}
	}
	// With that cookie the session is known.
	ev := readEvent(t, "apigw-v2-get-session-anonymous.json")
	ev.Cookies = []string{strings.Split(session, ";")[0]}
	res, err := h(context.Background(), ev)
	if err != nil || res.StatusCode != 200 || !strings.Contains(res.Body, `"locale":"pt-BR"`) {
		t.Fatalf("session with cookie: %v %d %s", err, res.StatusCode, res.Body)
	}
	// The confirmation mail went to the outbox.
	mails, _ := filepath.Glob(filepath.Join(dataDir, "outbox", "*.eml"))
	if len(mails) != 1 {
		t.Fatalf("outbox has %d messages, want 1", len(mails))
	}
}

func readEvent(t testing.TB, name string) events.APIGatewayV2HTTPRequest {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "events", name))
	if err != nil {
		t.Fatal(err)
	}
	var ev events.APIGatewayV2HTTPRequest
	if err := json.Unmarshal(raw, &ev); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return ev
}

// TestOriginSecret (issue 8, item 8): with OFICINA_ORIGIN_SECRET set, as
// the stack sets it, a request that did not come through CloudFront (a
// direct call to the API Gateway endpoint) is refused, and behind the
// edge each viewer is throttled on its own address.
func TestOriginSecret(t *testing.T) {
	endpoint, table := apptest.LambdaTable(t)
	env := map[string]string{
		"OFICINA_TABLE":           table,
		"OFICINA_DYNAMO_ENDPOINT": endpoint,
		"OFICINA_MAIL":            "outbox",
		"OFICINA_DATA":            t.TempDir(),
		"OFICINA_BASE_URL":        "https://app.oficina.example",
		// The value the sample events carry in x-oficina-origin-secret.
		"OFICINA_ORIGIN_SECRET": "sample-origin-secret-0123456789",
	}
	h, err := newHandler(context.Background(), func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	call := func(ev events.APIGatewayV2HTTPRequest) events.APIGatewayV2HTTPResponse {
		t.Helper()
		res, err := h(context.Background(), ev)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}

	// Through CloudFront: served.
	if res := call(readEvent(t, "apigw-v2-register.json")); res.StatusCode != 201 {
		t.Fatalf("register through the edge: %d %s", res.StatusCode, res.Body)
	}
	// Direct: no secret, a wrong one, or only a forged viewer address.
	for name, edit := range map[string]func(http map[string]string){
		"no secret":    func(h map[string]string) { delete(h, "x-oficina-origin-secret") },
		"wrong secret": func(h map[string]string) { h["x-oficina-origin-secret"] = "guess" },
		"no CloudFront headers at all": func(h map[string]string) {
			for k := range h {
				if strings.HasPrefix(k, "x-oficina-") || strings.HasPrefix(k, "cloudfront-") {
					delete(h, k)
				}
			}
		},
	} {
		for _, file := range []string{"apigw-v2-get-root.json", "apigw-v2-login.json"} {
			ev := readEvent(t, file)
			edit(ev.Headers)
			res := call(ev)
			if res.StatusCode != 403 || !strings.Contains(res.Body, "Requests must come through the site's address") || len(res.Cookies) > 0 {
				t.Errorf("%s, %s: %d %s %v", name, file, res.StatusCode, res.Body, res.Cookies)
			}
		}
	}

	// 20 wrong passwords from one viewer block that viewer only.
	login := func(viewer, password string) events.APIGatewayV2HTTPResponse {
		ev := readEvent(t, "apigw-v2-login.json")
		ev.Headers["x-oficina-viewer-address"] = viewer
		ev.Body = `{"name": "ana@oficina.example", "password": "` + password + `"}`
		return call(ev)
	}
	for i := range 20 {
		ev := readEvent(t, "apigw-v2-login.json")
		ev.Headers["x-oficina-viewer-address"] = "203.0.113.66"
		ev.Body = `{"name": "nobody` + strconv.Itoa(i) + `@oficina.example", "password": "guess"}`
		call(ev)
	}
	if res := login("203.0.113.66", "correct horse battery"); res.StatusCode != 429 {
		t.Errorf("the guessing viewer: %d %s", res.StatusCode, res.Body)
	}
	if res := login("198.51.100.23", "correct horse battery"); res.StatusCode != 200 {
		t.Errorf("another viewer on the same edge: %d %s", res.StatusCode, res.Body)
	}
}
