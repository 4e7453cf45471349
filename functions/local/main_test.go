package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/store/bolt"
)

// signIn registers a user through the API and signs in, returning the
// session cookie and the user's own db.
func signIn(t *testing.T, base string) (cookie, db string) {
	t.Helper()
	id := ids.New("usr")
	post := func(path, body string) *http.Response {
		res, err := http.Post(base+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}
	if res := post("/api/_users", `{"_id":"`+id+`","fullname":"Ana","unconfirmed_email":"ana@example.com","password":"correct horse battery","locale":"en"}`); res.StatusCode != http.StatusCreated {
		t.Fatalf("register: %d", res.StatusCode)
	}
	res := post("/api/_session", `{"name":"ana@example.com","password":"correct horse battery"}`)
	for _, c := range res.Cookies() {
		if c.Name == "AuthSession" {
			return c.Name + "=" + c.Value, id
		}
	}
	t.Fatalf("sign-in: %d, no session cookie", res.StatusCode)
	return "", ""
}

// TestGracefulShutdown builds the real binary, starts it, holds a request
// in flight (a long poll), sends SIGTERM and checks that the request is
// answered, the process exits 0 and the store file is closed cleanly.
func TestGracefulShutdown(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "oficina")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	addr := freeAddr(t)
	data := t.TempDir()
	var logs bytes.Buffer
	cmd := exec.Command(bin, "--addr", addr, "--data", data, "--web", t.TempDir())
	cmd.Env = append(os.Environ(), "OFICINA_LOG_LEVEL=info")
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	base := "http://" + addr
	waitUp(t, base+"/api/")

	// The SPA placeholder is served at / while no build exists.
	res, err := http.Get(base + "/")
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("GET /: %v %v", err, res)
	}
	res.Body.Close()

	// Unclean API paths get the API's JSON 400, not the mux's redirect to
	// another database's URL (issue 8, item 6).
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, p := range []string{"/api/prices/../_users", "/api//prices", "/api/prices/./_all_docs"} {
		res, err := noRedirect.Get(base + p)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusBadRequest || res.Header.Get("Content-Type") != "application/json" || !strings.Contains(string(body), `"error":"bad_request"`) {
			t.Errorf("GET %s: %d %s %s", p, res.StatusCode, res.Header.Get("Location"), body)
		}
	}

	// A signed-in user's long poll on their own db stays in flight until
	// shutdown (anonymous callers may not wait).
	cookie, userDB := signIn(t, base)
	polled := make(chan int, 1)
	go func() {
		req, _ := http.NewRequest("GET", base+"/api/"+userDB+"/_changes?feed=longpoll&since=now&timeout=30000", nil)
		req.Header.Set("Cookie", cookie)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			polled <- -1
			return
		}
		res.Body.Close()
		polled <- res.StatusCode
	}()
	time.Sleep(300 * time.Millisecond)
	start := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := <-polled; code != 200 {
		t.Fatalf("in-flight long poll got %d, want an answer (200)", code)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit: %v\n%s", err, logs.String())
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Fatalf("shutdown took %v", took)
	}
	// The scheduler runs by default (--schedule=on) and stops with the server.
	for _, want := range []string{"oficina is up", "scheduled jobs run in-process", "shutting down", "stopped cleanly"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, logs.String())
		}
	}
	// The store file lock was released: it opens at once.
	st, err := bolt.Open(filepath.Join(data, "oficina.db"), bolt.Options{OpenTimeout: time.Second})
	if err != nil {
		t.Fatalf("store not closed cleanly: %v", err)
	}
	st.Close()
}

func TestBadConfigurationFailsAtStart(t *testing.T) {
	err := run(context.Background(), []string{"--store", "mongo", "--mail", "smtp"}, func(string) string { return "" })
	if err == nil || !strings.Contains(err.Error(), `store "mongo"`) || !strings.Contains(err.Error(), `mail "smtp"`) {
		t.Fatalf("err = %v", err)
	}
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func waitUp(t *testing.T, url string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		if res, err := http.Get(url); err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("server did not come up at %s", url)
}
