package dav_test

import (
	"bytes"
	"encoding/xml"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/drive"
)

func TestMain(m *testing.M) { os.Exit(apptest.Main(m)) }

// env is a product with a WebDAV server on a loopback port, Ana's Group
// and a read-write token for it.
type env struct {
	t      testing.TB
	e      *apptest.Env
	srv    *httptest.Server
	ana    *apptest.Client
	db     string
	token  string
	client *http.Client
}

func bigDrive(c *config.Config) { c.DriveFreeLimit = 1_000_000_000_000 }

func newEnv(t testing.TB, e *apptest.Env) *env {
	t.Helper()
	d := &env{t: t, e: e, client: &http.Client{}}
	d.ana = e.SignUp("ana@example.com")
	d.db = e.Group(d.ana, "Oficina da Ana")
	d.token = e.Token(d.ana, "read-write", d.db)
	d.srv = httptest.NewServer(e.App.DAV)
	t.Cleanup(d.srv.Close)
	return d
}

// url is the address of p within Ana's Group ("" = its root).
func (d *env) url(p string) string {
	return d.srv.URL + "/dav/" + d.db + "/" + strings.TrimPrefix(p, "/")
}

type answer struct {
	code   int
	header http.Header
	body   string
}

// do sends a request as Ana (user, token) and reads the answer; headers
// are name, value pairs.
func (d *env) do(method, target string, body io.Reader, headers ...string) answer {
	d.t.Helper()
	return d.as("ana@example.com", d.token, method, target, body, headers...)
}

func (d *env) as(user, pass, method, target string, body io.Reader, headers ...string) answer {
	d.t.Helper()
	if !strings.HasPrefix(target, "http") {
		target = d.url(target)
	}
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		d.t.Fatal(err)
	}
	if user != "" {
		req.SetBasicAuth(user, pass)
	}
	if r, ok := body.(*strings.Reader); ok {
		req.ContentLength = int64(r.Len())
	} else if r, ok := body.(*bytes.Reader); ok {
		req.ContentLength = int64(r.Len())
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := d.client.Do(req)
	if err != nil {
		d.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return answer{code: res.StatusCode, header: res.Header, body: string(b)}
}

func (d *env) expect(a answer, code int) answer {
	d.t.Helper()
	if a.code != code {
		d.t.Fatalf("status %d, want %d: %s", a.code, code, a.body)
	}
	return a
}

// chunked is a body of unknown length (sent with Transfer-Encoding: chunked).
type chunked struct{ r io.Reader }

func (c chunked) Read(p []byte) (int, error) { return c.r.Read(p) }

// multistatus reads a PROPFIND answer: href → prop name → value.
type msResponse struct {
	Href     string `xml:"href"`
	Propstat []struct {
		Prop struct {
			Inner []byte `xml:",innerxml"`
		} `xml:"prop"`
		Status string `xml:"status"`
	} `xml:"propstat"`
}

func hrefs(t testing.TB, body string) []string {
	t.Helper()
	var ms struct {
		Responses []msResponse `xml:"response"`
	}
	if err := xml.Unmarshal([]byte(body), &ms); err != nil {
		t.Fatalf("multistatus: %v\n%s", err, body)
	}
	var out []string
	for _, r := range ms.Responses {
		out = append(out, r.Href)
	}
	return out
}

// entries lists the live entries of the Group's root through the drive.
func (d *env) rootNames() []string {
	d.t.Helper()
	r := d.ana.Do("GET", "/api/"+d.db+"/_drive/dirs/root", nil).Expect(d.t, http.StatusOK)
	var names []string
	for _, e := range r["entries"].([]any) {
		names = append(names, e.(map[string]any)["name"].(string))
	}
	return names
}

func driveOf(t testing.TB, e *apptest.Env) *drive.Module {
	t.Helper()
	return e.App.DAV.Drive()
}

func httptestServer(t testing.TB, h http.Handler) string {
	t.Helper()
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	return s.URL
}
