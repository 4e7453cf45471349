package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/ids"
)

// TestLitmus runs the WebDAV compliance suite litmus (the Debian package,
// which .ci/run installs) against the real local server on a loopback
// port: all five suites (basic, copymove, props, locks, http) must pass
// with 0 failures. Like DynamoDB Local, litmus missing is a failure, never
// a skip.
func TestLitmus(t *testing.T) {
	litmus, err := exec.LookPath("litmus")
	if err != nil {
		t.Fatal("litmus is not installed: apt-get install litmus (.ci/run installs it)")
	}
	bin := filepath.Join(t.TempDir(), "oficina")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	addr := freeAddr(t)
	data := t.TempDir()
	base := "http://" + addr
	var logs bytes.Buffer
	cmd := exec.Command(bin, "--addr", addr, "--data", data, "--web", t.TempDir(), "--base-url", base)
	cmd.Env = append(os.Environ(), "OFICINA_LOG_LEVEL=warn")
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	waitUp(t, base+"/api/")

	user := signUp(t, base, data, "litmus@example.com")
	db := user.post(t, "/api/accounts", map[string]any{"name": "Litmus"})["id"].(string)
	token := user.post(t, "/api/"+user.id+"/_design/token/_update/create", map[string]any{"permissions": "read-write", "dbs": []string{db}})["token"].(string)

	run := exec.Command(litmus, base+"/dav/"+db+"/", "litmus@example.com", token)
	suites := "basic copymove props locks http"
	if s := os.Getenv("LITMUS_TESTS"); s != "" {
		suites = s // one suite while working on it
	}
	run.Env = append(os.Environ(), "TESTS="+suites)
	run.Dir = t.TempDir() // litmus writes debug.log where it runs
	out, err := run.CombinedOutput()
	t.Logf("litmus:\n%s", out)
	summary := regexp.MustCompile(`summary for .(\w+).: of (\d+) tests run: (\d+) passed, (\d+) failed`)
	ran := map[string]bool{}
	for _, m := range summary.FindAllStringSubmatch(string(out), -1) {
		ran[m[1]] = true
		if m[4] != "0" {
			t.Errorf("litmus %s: %s of %s tests failed", m[1], m[4], m[2])
		}
	}
	for _, s := range strings.Fields(suites) {
		if !ran[s] {
			t.Errorf("litmus did not finish the %s suite", s)
		}
	}
	if err != nil {
		t.Errorf("litmus: %v", err)
	}
	if t.Failed() {
		if log, err := os.ReadFile(filepath.Join(run.Dir, "debug.log")); err == nil {
			if dst := os.Getenv("LITMUS_DEBUG_LOG"); dst != "" {
				_ = os.WriteFile(dst, log, 0o644)
			}
		}
		t.Logf("server log:\n%s", logs.String())
	}
}

// apiUser is a signed-in user of the running server.
type apiUser struct {
	id     string
	base   string
	client *http.Client
}

func (u *apiUser) post(t *testing.T, path string, body any) map[string]any {
	t.Helper()
	return u.send(t, "POST", path, body, http.StatusCreated, http.StatusOK)
}

func (u *apiUser) send(t *testing.T, method, path string, body any, codes ...int) map[string]any {
	t.Helper()
	raw, _ := json.Marshal(body)
	req, err := http.NewRequest(method, u.base+path, bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", u.base)
	if base, err := req.URL.Parse(u.base); err == nil {
		for _, c := range u.client.Jar.Cookies(base) {
			if c.Name == "XSRF-TOKEN" {
				req.Header.Set("X-XSRF-TOKEN", c.Value)
			}
		}
	}
	res, err := u.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	ok := false
	for _, c := range codes {
		ok = ok || res.StatusCode == c
	}
	if !ok {
		t.Fatalf("%s %s: %d %s", method, path, res.StatusCode, b)
	}
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return out
}

var confirmRE = regexp.MustCompile(`/user/confirm/([A-Za-z0-9_-]{43})`)

// signUp registers email, confirms it through the mail in the outbox and
// signs in.
func signUp(t *testing.T, base, data, email string) *apiUser {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	u := &apiUser{id: ids.New("usr"), base: base, client: &http.Client{Jar: jar}}
	const password = "correct horse battery"
	u.post(t, "/api/_users", map[string]any{"_id": u.id, "fullname": "Litmus", "unconfirmed_email": email, "password": password, "locale": "en"})
	var token string
	for deadline := time.Now().Add(10 * time.Second); token == "" && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		files, _ := filepath.Glob(filepath.Join(data, "outbox", "*"))
		for _, f := range files {
			raw, _ := os.ReadFile(f)
			text := strings.ReplaceAll(string(raw), "=\r\n", "")
			if m := confirmRE.FindStringSubmatch(text); m != nil && strings.Contains(text, email) {
				token = m[1]
			}
		}
	}
	if token == "" {
		t.Fatal("no confirmation mail in the outbox")
	}
	u.send(t, "PUT", "/api/_users/_confirmation", map[string]any{"token": token}, http.StatusOK)
	u.post(t, "/api/_session", map[string]any{"name": email, "password": password})
	return u
}
