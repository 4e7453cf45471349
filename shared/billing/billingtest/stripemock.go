// Package billingtest starts the Stripe API double the billing tests talk
// to: stripe-mock (github.com/stripe/stripe-mock), which checks every
// request against Stripe's OpenAPI spec and answers with canned objects.
// It is built into bin/ by `make deps`:
//
//	GOBIN=$PWD/bin go install github.com/stripe/stripe-mock@v0.203.0
//
// StartStripe runs bin/stripe-mock (or $OFICINA_STRIPE_MOCK) on free
// loopback ports behind a recording proxy, so a test can read what the
// server sent. A missing binary fails the test, never skips it.
package billingtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v83"
	"github.com/stripe/stripe-go/v83/webhook"

	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/store/dynamo/ddblocal"
	"github.com/oficina/oficina/shared/testproc"
)

const (
	// BinaryEnv overrides stripe-mock's path.
	BinaryEnv = "OFICINA_STRIPE_MOCK"
	// Keys the tests configure; stripe-mock takes any sk_test_ key.
	SecretKey      = "sk_test_oficina"
	PublishableKey = "pk_test_oficina"
	WebhookSecret  = "whsec_oficina_test_secret"

	installHint = "run `make deps`, or: GOBIN=$PWD/bin go install github.com/stripe/stripe-mock@v0.203.0"
)

var shared = testproc.Shared[*mock]{
	Name:  "stripe-mock",
	Start: startMock,
	Stop:  func(m *mock) { m.proc.Stop(nil) },
	Proc:  func(m *mock) *testproc.Process { return m.proc },
}

// Main runs a test binary's tests with one shared stripe-mock and the
// store's shared DynamoDB Local (what apptest.Main starts; this package
// stands below apptest, so it asks ddblocal itself):
//
//	func TestMain(m *testing.M) { os.Exit(billingtest.Main(m)) }
func Main(m *testing.M) int {
	return shared.Run(func() int { return ddblocal.Main(m) })
}

// Request is one call the server made to the Stripe API.
type Request struct {
	Method, Path string
	Form         url.Values
	Status       int
}

// Stripe is a running stripe-mock behind a recording proxy for one test.
type Stripe struct {
	URL string // the proxy's base URL, for --stripe-api-url

	mu   sync.Mutex
	reqs []Request
}

// Requests returns the calls made so far whose path starts with prefix.
func (s *Stripe) Requests(prefix string) []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Request
	for _, r := range s.reqs {
		if strings.HasPrefix(r.Path, prefix) {
			out = append(out, r)
		}
	}
	return out
}

// Reset forgets the recorded calls.
func (s *Stripe) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = nil
}

// StartStripe returns a recording proxy to the shared stripe-mock, closed
// when tb ends.
func StartStripe(tb testing.TB) *Stripe {
	tb.Helper()
	m, err := shared.Get(tb)
	if err != nil {
		tb.Fatalf("billingtest: %v", err)
	}
	target, _ := url.Parse(m.url)
	s := &Stripe{}
	rp := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		form, _ := url.ParseQuery(string(body))
		if r.URL.Path == "/v1/checkout/sessions" && form.Get("ui_mode") == "embedded" {
			// stripe-mock v0.203.0 bundles a newer API spec than stripe-go
			// v83's pinned 2025-10-29.clover, where embedded Checkout is
			// called "embedded_page"; the request is recorded as sent.
			f := cloneValues(form)
			f.Set("ui_mode", "embedded_page")
			body = []byte(f.Encode())
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		rec := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		rp.ServeHTTP(rec, r)
		s.mu.Lock()
		s.reqs = append(s.reqs, Request{Method: r.Method, Path: r.URL.Path, Form: form, Status: rec.status})
		s.mu.Unlock()
	}))
	tb.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// Option configures the product under test for s: test-mode keys, the
// webhook secret, the API URL and the test-only checkout route. It is an
// apptest.Option (the same type), for apptest.Each and apptest.New.
func (s *Stripe) Option() func(*config.Config) {
	return func(c *config.Config) {
		c.Stripe.SecretKey, c.Stripe.PublishableKey, c.Stripe.WebhookSecret = SecretKey, PublishableKey, WebhookSecret
		c.Stripe.APIURL, c.Stripe.TestCheckout = s.URL, true
	}
}

// Event is a Stripe event of type typ carrying object, signed with secret
// at ts as Stripe signs its webhooks: the body and its Stripe-Signature.
func Event(tb testing.TB, id, typ string, live bool, object map[string]any, secret string, ts time.Time) (body []byte, sig string) {
	tb.Helper()
	body, err := json.Marshal(map[string]any{
		"id": id, "object": "event", "type": typ, "livemode": live, "created": ts.Unix(), "api_version": stripe.APIVersion,
		"data": map[string]any{"object": object},
	})
	if err != nil {
		tb.Fatal(err)
	}
	p := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: body, Secret: secret, Timestamp: ts})
	return body, p.Header
}

func cloneValues(v url.Values) url.Values {
	out := url.Values{}
	for k, l := range v {
		out[k] = append([]string(nil), l...)
	}
	return out
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) { w.status = code; w.ResponseWriter.WriteHeader(code) }

type mock struct {
	proc *testproc.Process
	url  string
}

func startMock() (*mock, error) {
	bin, err := findBinary()
	if err != nil {
		return nil, err
	}
	var last error
	for try := 0; try < 3; try++ { // a free port can be taken before it binds
		httpPort, err := testproc.FreePort()
		if err != nil {
			return nil, err
		}
		httpsPort, err := testproc.FreePort()
		if err != nil {
			return nil, err
		}
		addr := "127.0.0.1:" + strconv.Itoa(httpPort)
		// Both addresses: without -https-addr it would take :12112 on every interface.
		cmd := exec.Command(bin, "-http-addr", addr, "-https-addr", "127.0.0.1:"+strconv.Itoa(httpsPort))
		proc, err := testproc.Start(cmd)
		if err != nil {
			return nil, err
		}
		m := &mock{proc: proc, url: "http://" + addr}
		if err := proc.WaitReady(addr, 30*time.Second, m.probe); err != nil {
			proc.Kill()
			last = fmt.Errorf("stripe-mock on %s: %w\n--- output ---\n%s", addr, err, proc.Output())
			continue
		}
		return m, nil
	}
	return nil, last
}

// probe asks for a canned customer: it answers once the spec is loaded.
func (m *mock) probe(ctx context.Context) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, m.url+"/v1/customers/cus_probe", nil)
	req.SetBasicAuth(SecretKey, "")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("probe: %s", res.Status)
	}
	return nil
}

// findBinary looks at $OFICINA_STRIPE_MOCK, then <repo>/bin/stripe-mock.
func findBinary() (string, error) {
	return testproc.FindBinary(BinaryEnv, "stripe-mock", "the Stripe API double", installHint)
}
