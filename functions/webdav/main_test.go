package main

import (
	"context"
	"net"
	"net/http"
	"testing"
	"time"
)

// TestServes wires the function on the embedded store (as a Fargate task
// could) and checks what the Lambda Web Adapter and clients reach: the
// health check, /dav/ asking for Basic auth, nothing else.
func TestServes(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	ln.Close()
	env := map[string]string{
		"PORT": port, "OFICINA_STORE": "bolt", "OFICINA_DATA": t.TempDir(), "OFICINA_BLOBS": "fs",
		"OFICINA_MAIL": "outbox", "OFICINA_LOG_LEVEL": "error",
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, func(k string) string { return env[k] }) }()
	base := "http://127.0.0.1:" + port
	var res *http.Response
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if res, err = http.Get(base + HealthPath); err == nil {
			break
		}
	}
	if err != nil {
		t.Fatalf("not up: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("health: %d", res.StatusCode)
	}
	req, _ := http.NewRequest("PROPFIND", base+"/dav/", nil)
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != http.StatusUnauthorized || res.Header.Get("WWW-Authenticate") == "" {
		t.Errorf("PROPFIND /dav/: %v %v", err, res)
	}
	if res, err := http.Get(base + "/api/"); err != nil || res.StatusCode != http.StatusNotFound {
		t.Errorf("GET /api/: %v %v", err, res)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("run: %v", err)
	}
}
