package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/oficina/oficina/shared/apptest"
)

func TestMain(m *testing.M) { os.Exit(apptest.Main(m)) }

func sample(t *testing.T, name string) events.APIGatewayWebsocketProxyRequest {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "events", name))
	if err != nil {
		t.Fatal(err)
	}
	var ev events.APIGatewayWebsocketProxyRequest
	if err := json.Unmarshal(raw, &ev); err != nil {
		t.Fatal(err)
	}
	return ev
}

// TestSampleEvents wires the function as on AWS, on DynamoDB Local with a
// stand-in for the management endpoint, and feeds it the samples of
// events/: the $connect (no session cookie: refused with 401, so API
// Gateway refuses the connection), a $default message of a connection
// that was never recorded (closed through the management API) and the
// $disconnect.
func TestSampleEvents(t *testing.T) {
	endpoint, table := apptest.LambdaTable(t)
	var mu sync.Mutex
	var calls []string
	mgmt := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls = append(calls, r.Method+" "+r.URL.Path)
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	defer mgmt.Close()
	env := map[string]string{
		"OFICINA_TABLE":           table,
		"OFICINA_DYNAMO_ENDPOINT": endpoint,
		"OFICINA_MAIL":            "outbox",
		"OFICINA_DATA":            t.TempDir(),
		"OFICINA_BASE_URL":        "https://app.oficina.example",
		"OFICINA_ORIGIN_SECRET":   "sample-origin-secret-0123456789",
		"OFICINA_LIVE_ENDPOINT":   mgmt.URL + "/live",
	}
	h, err := wire(context.Background(), func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	res, err := h.Handle(t.Context(), sample(t, "apigw-websocket-connect.json"))
	if err != nil || res.StatusCode != http.StatusUnauthorized || !strings.Contains(res.Body, `"error":"unauthorized"`) {
		t.Fatalf("$connect without a session: %d %s %v", res.StatusCode, res.Body, err)
	}
	if res, err := h.Handle(t.Context(), sample(t, "apigw-websocket-message.json")); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("$default: %d %v", res.StatusCode, err)
	}
	if res, err := h.Handle(t.Context(), sample(t, "apigw-websocket-disconnect.json")); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("$disconnect: %d %v", res.StatusCode, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(calls) != 1 || calls[0] != "DELETE /live/@connections/Kq3vXeD8GjQCJ-w=" {
		t.Fatalf("management calls %v: an unknown connection's message closes it", calls)
	}

	delete(env, "OFICINA_LIVE_ENDPOINT")
	if _, err := wire(context.Background(), func(k string) string { return env[k] }); err == nil {
		t.Fatal("wired without OFICINA_LIVE_ENDPOINT")
	}
}

// TestSignedInConnect: the function's API stands on the core and the
// Groups alone (shared/app/liveapi), and a signed-in tab of the site still
// connects through it and subscribes to its Group.
func TestSignedInConnect(t *testing.T) {
	e := apptest.New(t, apptest.Dynamo)
	ana := e.SignUp("ana@example.com")
	db := e.Group(ana, "Oficina da Ana")
	apptest.LambdaEnv(t)
	var mu sync.Mutex
	var posted []string
	mgmt := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		posted = append(posted, r.Method+" "+r.URL.Path+" "+string(b))
		mu.Unlock()
	}))
	defer mgmt.Close()
	const secret = "sample-origin-secret-0123456789"
	env := map[string]string{
		"OFICINA_TABLE": e.Table, "OFICINA_DYNAMO_ENDPOINT": e.DynamoEndpoint, "OFICINA_DATA": t.TempDir(),
		"OFICINA_BASE_URL": apptest.BaseURL, "OFICINA_ORIGIN_SECRET": secret, "OFICINA_LIVE_ENDPOINT": mgmt.URL + "/live",
	}
	h, err := wire(t.Context(), func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	cookie, xsrf := ana.CookieHeader()
	connect := events.APIGatewayWebsocketProxyRequest{
		Headers: map[string]string{
			"Host": "abc123.execute-api.us-east-1.amazonaws.com", "Origin": apptest.BaseURL, "Cookie": cookie,
			"Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version": "13",
			"X-Oficina-Origin-Secret": secret, "X-Oficina-Viewer-Address": "203.0.113.9",
		},
		QueryStringParameters: map[string]string{"xsrf": xsrf},
		RequestContext: events.APIGatewayWebsocketProxyRequestContext{
			EventType: "CONNECT", RouteKey: "$connect", ConnectionID: "conn-ana=", Stage: "live",
			Identity: events.APIGatewayRequestIdentity{SourceIP: "198.51.100.7"},
		},
	}
	if res, err := h.Handle(t.Context(), connect); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("$connect of a signed-in tab: %d %s %v", res.StatusCode, res.Body, err)
	}
	msg := events.APIGatewayWebsocketProxyRequest{Body: `{"subscribe":["` + db + `"]}`,
		RequestContext: events.APIGatewayWebsocketProxyRequestContext{EventType: "MESSAGE", RouteKey: "$default", ConnectionID: "conn-ana="}}
	if res, err := h.Handle(t.Context(), msg); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("subscribe: %d %v", res.StatusCode, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(posted) != 1 || !strings.HasPrefix(posted[0], "POST /live/@connections/conn-ana=") || !strings.Contains(posted[0], db) {
		t.Fatalf("management calls %q: want the subscription's answer naming %s", posted, db)
	}
}
