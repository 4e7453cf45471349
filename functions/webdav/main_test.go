package main

import (
	"bytes"
	"context"
	"io"
	"maps"
	"net"
	"net/http"
	"testing"
	"time"
)

// TestServes wires the function on the embedded store (as a Fargate task
// could) and checks what the Lambda Web Adapter and clients reach: the
// health check, /dav/ asking for Basic auth, nothing else.
func TestServes(t *testing.T) {
	base, stop := start(t, nil)
	req, _ := http.NewRequest("PROPFIND", base+"/dav/", nil)
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != http.StatusUnauthorized || res.Header.Get("WWW-Authenticate") == "" {
		t.Errorf("PROPFIND /dav/: %v %v", err, res)
	}
	if res, err := http.Get(base + "/api/"); err != nil || res.StatusCode != http.StatusNotFound {
		t.Errorf("GET /api/: %v %v", err, res)
	}
	stop()
}

// start runs the function on the embedded store with env added to its
// environment, waits for its health check, and returns its address and
// what stops it.
func start(t *testing.T, env map[string]string) (string, func()) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	ln.Close()
	all := map[string]string{
		"PORT": port, "OFICINA_STORE": "bolt", "OFICINA_DATA": t.TempDir(), "OFICINA_BLOBS": "fs",
		"OFICINA_MAIL": "outbox", "OFICINA_LOG_LEVEL": "error",
	}
	maps.Copy(all, env)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, func(k string) string { return all[k] }) }()
	base := "http://127.0.0.1:" + port
	var res *http.Response
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if res, err = http.Get(base + HealthPath); err == nil {
			break
		}
	}
	if err != nil {
		cancel()
		t.Fatalf("not up: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("health: %d", res.StatusCode)
	}
	return base, func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
	}
}

// TestOnLambda wires the function as Lambda runs it (the stack's
// OFICINA_DAV_MAX_PUT; Lambda's AWS_LAMBDA_FUNCTION_NAME, so the client
// address comes from the request context the Web Adapter forwards): a
// PUT over the limit gets the 413 naming it before anything else, and
// failed sign-ins count per caller, not per loopback connection.
func TestOnLambda(t *testing.T) {
	base, stop := start(t, map[string]string{"AWS_LAMBDA_FUNCTION_NAME": "Oficina-dev-WebDavFunction", "OFICINA_DAV_MAX_PUT": "4194304"})
	defer stop()
	do := func(method, path, sourceIP string, body io.Reader, size int64) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(method, base+path, body)
		req.ContentLength = size
		req.SetBasicAuth("ana@example.com", "oft_wrong")
		req.Header.Set("X-Amzn-Request-Context", `{"http":{"method":"`+method+`","path":"`+path+`","sourceIp":"`+sourceIP+`"}}`)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}
	big := bytes.Repeat([]byte("x"), 4<<20+1)
	if res := do("PUT", "/dav/acc-00000000000000000000000000000000/big.bin", "203.0.113.77", bytes.NewReader(big), int64(len(big))); res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("PUT over 4 MiB: %d", res.StatusCode)
	}
	// The limit counts in fixed 15-minute windows of the real clock: a
	// round that straddles two is done again, from another caller.
	for round, caller := range []string{"203.0.113.77", "203.0.113.78"} {
		window := time.Now().Truncate(15 * time.Minute)
		for i := range 20 {
			if res := do("PROPFIND", "/dav/", caller, nil, 0); res.StatusCode != http.StatusUnauthorized {
				t.Fatalf("failure %d: %d", i+1, res.StatusCode)
			}
		}
		res := do("PROPFIND", "/dav/", caller, nil, 0)
		if !time.Now().Truncate(15*time.Minute).Equal(window) && round == 0 {
			continue
		}
		if res.StatusCode != http.StatusTooManyRequests {
			t.Errorf("the 21st from one caller: %d", res.StatusCode)
		}
		break
	}
	if res := do("PROPFIND", "/dav/", "198.51.100.8", nil, 0); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("another caller: %d", res.StatusCode)
	}
}
