package ratelimit_test

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/ratelimit"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/store/bolt"
	"github.com/oficina/oficina/shared/store/dynamo"
	"github.com/oficina/oficina/shared/store/dynamo/ddblocal"
)

// One DynamoDB Local serves the whole test binary; each test gets a table.
func TestMain(m *testing.M) { os.Exit(ddblocal.Main(m)) }

// stores opens each real store the limiter runs on.
func stores(t *testing.T) map[string]func(t *testing.T) store.Store {
	return map[string]func(t *testing.T) store.Store{
		"bolt": func(t *testing.T) store.Store {
			st, err := bolt.Open(filepath.Join(t.TempDir(), "rl.db"), bolt.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			return st
		},
		"dynamo": func(t *testing.T) store.Store {
			_, client := ddblocal.Start(t)
			table := ddblocal.TableName(t)
			if err := dynamo.CreateTable(context.Background(), client, table); err != nil {
				t.Fatal(err)
			}
			return dynamo.New(client, table)
		},
	}
}

// clock is a test clock that starts at the real time and only moves forward.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) { c.mu.Lock(); defer c.mu.Unlock(); c.t = c.t.Add(d) }

func TestLimiter(t *testing.T) {
	for name, open := range stores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			// Start at the beginning of a minute so the window's end is known.
			c := &clock{t: time.Now().Truncate(time.Minute).Add(time.Minute)}
			st := open(t)
			lim := ratelimit.New(st, ratelimit.Edge{}, c.Now)
			l := ratelimit.Limit{Name: "find", Max: 3, Per: time.Minute}
			for i := range 3 {
				if err := lim.Allow(ctx, l, "192.0.2.1"); err != nil {
					t.Fatalf("request %d: %v", i+1, err)
				}
			}
			c.Add(20 * time.Second)
			err := lim.Allow(ctx, l, "192.0.2.1")
			fe, ok := fault.As(err)
			if !ok || fe.Kind != fault.TooManyRequests || fe.Reason != "Too many requests" || fe.RetryAfter != 40 {
				t.Fatalf("4th request: %#v", err)
			}
			// Another key and another limit count separately.
			if err := lim.Allow(ctx, l, "192.0.2.2"); err != nil {
				t.Errorf("other address: %v", err)
			}
			if err := lim.Allow(ctx, ratelimit.Limit{Name: "register", Max: 1, Per: time.Minute}, "192.0.2.1"); err != nil {
				t.Errorf("other limit: %v", err)
			}
			// The next window starts clean.
			c.Add(40 * time.Second)
			if err := lim.Allow(ctx, l, "192.0.2.1"); err != nil {
				t.Errorf("next window: %v", err)
			}
			// No limit configured: nothing is counted.
			if err := lim.Allow(ctx, ratelimit.Limit{Name: "off"}, "192.0.2.1"); err != nil {
				t.Errorf("zero limit: %v", err)
			}
		})
	}
}

// TestSpent: Spent reads the window's count without adding to it, and
// refuses once Max are counted, until the window ends.
func TestSpent(t *testing.T) {
	for name, open := range stores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			c := &clock{t: time.Now().Truncate(time.Minute).Add(time.Minute)}
			lim := ratelimit.New(open(t), ratelimit.Edge{}, c.Now)
			l := ratelimit.Limit{Name: "dav-signin", Max: 2, Per: time.Minute}
			for i := range 3 {
				if err := lim.Spent(ctx, l, "192.0.2.1"); err != nil {
					t.Fatalf("check %d before any count: %v", i, err)
				}
			}
			_ = lim.Allow(ctx, l, "192.0.2.1")
			if err := lim.Spent(ctx, l, "192.0.2.1"); err != nil {
				t.Fatalf("one of two counted: %v", err)
			}
			_ = lim.Allow(ctx, l, "192.0.2.1")
			c.Add(15 * time.Second)
			fe, ok := fault.As(lim.Spent(ctx, l, "192.0.2.1"))
			if !ok || fe.Kind != fault.TooManyRequests || fe.RetryAfter != 45 {
				t.Fatalf("two of two counted: %#v", fe)
			}
			if err := lim.Spent(ctx, l, "192.0.2.2"); err != nil {
				t.Errorf("another address: %v", err)
			}
			c.Add(45 * time.Second)
			if err := lim.Spent(ctx, l, "192.0.2.1"); err != nil {
				t.Errorf("next window: %v", err)
			}
		})
	}
}

// TestLimiterIsShared: two limiters on one store (two Lambda instances)
// share the count, also under concurrent requests.
func TestLimiterIsShared(t *testing.T) {
	for name, open := range stores(t) {
		t.Run(name, func(t *testing.T) {
			st := open(t)
			a, b := ratelimit.New(st, ratelimit.Edge{}, nil), ratelimit.New(st, ratelimit.Edge{}, nil)
			l := ratelimit.Limit{Name: "register", Max: 10, Per: time.Hour}
			var wg sync.WaitGroup
			var mu sync.Mutex
			refused := 0
			for i := range 16 {
				lim := a
				if i%2 == 1 {
					lim = b
				}
				wg.Go(func() {
					if err := lim.Allow(context.Background(), l, "198.51.100.7"); err != nil {
						if fe, ok := fault.As(err); !ok || fe.Kind != fault.TooManyRequests {
							t.Errorf("unexpected error: %v", err)
						}
						mu.Lock()
						refused++
						mu.Unlock()
					}
				})
			}
			wg.Wait()
			if refused != 6 {
				t.Fatalf("%d of 16 refused, want 6", refused)
			}
		})
	}
}

// functionURLContext is the request context the Lambda Web Adapter
// forwards for a Function URL invocation (payload 2.0, as serialised by
// lambda_http; abridged).
const functionURLContext = `{"routeKey":"$default","accountId":"anonymous","stage":"$default","requestId":"c7b5a9b2-1a0e-4c1f-9f11-3d2f7d0e9a10",` +
	`"apiId":"abcdefghijklmnopqrstuvwxyz","domainName":"abcdefghijklmnopqrstuvwxyz.lambda-url.us-east-1.on.aws","domainPrefix":"abcdefghijklmnopqrstuvwxyz",` +
	`"time":"28/May/2026:13:02:11 +0000","timeEpoch":1779973331000,` +
	`"http":{"method":"PROPFIND","path":"/dav/","protocol":"HTTP/1.1","sourceIp":"203.0.113.77","userAgent":"Microsoft-WebDAV-MiniRedir/10.0.19045"}}`

func TestClientAddress(t *testing.T) {
	edge := ratelimit.Edge{OriginSecret: "s3cret"}
	lwa := ratelimit.Edge{RequestContext: true}
	tests := []struct {
		name   string
		edge   ratelimit.Edge
		remote string
		hdr    map[string]string
		want   string
		ok     bool // Verified
	}{
		{"direct, no edge", ratelimit.Edge{}, "192.0.2.1:5000", nil, "192.0.2.1", false},
		{"viewer header ignored without an edge", ratelimit.Edge{}, "192.0.2.1:5000",
			map[string]string{ratelimit.ViewerAddressHeader: "203.0.113.9", ratelimit.OriginSecretHeader: "s3cret"}, "192.0.2.1", false},
		{"through CloudFront", edge, "130.176.189.21:443",
			map[string]string{ratelimit.ViewerAddressHeader: "203.0.113.9", ratelimit.OriginSecretHeader: "s3cret"}, "203.0.113.9", true},
		{"viewer address with port", edge, "130.176.189.21:443",
			map[string]string{ratelimit.ViewerAddressHeader: "203.0.113.9:51514", ratelimit.OriginSecretHeader: "s3cret"}, "203.0.113.9", true},
		{"IPv6 viewer", edge, "130.176.189.21:443",
			map[string]string{ratelimit.ViewerAddressHeader: "2001:DB8::1", ratelimit.OriginSecretHeader: "s3cret"}, "2001:db8::1", true},
		{"wrong secret: the edge's address", edge, "130.176.189.21:443",
			map[string]string{ratelimit.ViewerAddressHeader: "203.0.113.9", ratelimit.OriginSecretHeader: "guess"}, "130.176.189.21", false},
		{"no secret: the caller's address", edge, "198.51.100.3:1234",
			map[string]string{ratelimit.ViewerAddressHeader: "203.0.113.9"}, "198.51.100.3", false},
		{"garbage viewer header", edge, "130.176.189.21:443",
			map[string]string{ratelimit.ViewerAddressHeader: "me, honest", ratelimit.OriginSecretHeader: "s3cret"}, "130.176.189.21", true},
		{"API Gateway source address without port", ratelimit.Edge{}, "198.51.100.3", nil, "198.51.100.3", false},
		{"v4-mapped", ratelimit.Edge{}, "[::ffff:192.0.2.1]:80", nil, "192.0.2.1", false},
		{"Function URL behind the Lambda Web Adapter", lwa, "127.0.0.1:40112",
			map[string]string{ratelimit.RequestContextHeader: functionURLContext}, "203.0.113.77", false},
		{"REST API context behind the adapter", lwa, "127.0.0.1:40112",
			map[string]string{ratelimit.RequestContextHeader: `{"identity":{"sourceIp":"198.51.100.8"}}`}, "198.51.100.8", false},
		{"request context ignored off Lambda", ratelimit.Edge{}, "192.0.2.1:5000",
			map[string]string{ratelimit.RequestContextHeader: functionURLContext}, "192.0.2.1", false},
		{"no request context: the connection's", lwa, "127.0.0.1:40112", nil, "127.0.0.1", false},
		{"garbage request context", lwa, "127.0.0.1:40112",
			map[string]string{ratelimit.RequestContextHeader: `{"http":{"sourceIp":"me"}`}, "127.0.0.1", false},
		{"the adapter's pass-through null", lwa, "127.0.0.1:40112",
			map[string]string{ratelimit.RequestContextHeader: `null`}, "127.0.0.1", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/api/", nil)
			r.RemoteAddr = tt.remote
			for k, v := range tt.hdr {
				r.Header.Set(k, v)
			}
			if got := tt.edge.ClientAddress(r); got != tt.want {
				t.Errorf("ClientAddress = %q, want %q", got, tt.want)
			}
			if got := tt.edge.Verified(r); got != tt.ok {
				t.Errorf("Verified = %v, want %v", got, tt.ok)
			}
		})
	}
}

func TestAddressKey(t *testing.T) {
	for in, want := range map[string]string{
		"192.0.2.1":               "192.0.2.1",
		"2001:db8:1:2:3:4:5:6":    "2001:db8:1:2::/64",
		"2001:db8:1:2:ffff::1":    "2001:db8:1:2::/64",
		"not an address":          "not an address",
		string(make([]byte, 100)): string(make([]byte, 64)),
	} {
		if got := ratelimit.AddressKey(in); got != want {
			t.Errorf("AddressKey(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestAllowRequestUsesTheClientAddress: behind CloudFront, two viewers on
// the same edge are counted apart.
func TestAllowRequestUsesTheClientAddress(t *testing.T) {
	st, err := bolt.Open(filepath.Join(t.TempDir(), "rl.db"), bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	lim := ratelimit.New(st, ratelimit.Edge{OriginSecret: "s3cret"}, nil)
	l := ratelimit.Limit{Name: "find", Max: 1, Per: time.Hour}
	req := func(viewer string) error {
		r := httptest.NewRequest("POST", "/api/prices/_find", nil)
		r.RemoteAddr = "130.176.189.21:443" // the edge
		r.Header.Set(ratelimit.OriginSecretHeader, "s3cret")
		r.Header.Set(ratelimit.ViewerAddressHeader, viewer)
		return lim.AllowRequest(r, l)
	}
	if err := req("203.0.113.1"); err != nil {
		t.Fatal(err)
	}
	if err := req("203.0.113.2"); err != nil {
		t.Fatalf("a second viewer behind the same edge: %v", err)
	}
	if err := req("203.0.113.1"); err == nil {
		t.Fatal("the first viewer's second request passed")
	}
}
