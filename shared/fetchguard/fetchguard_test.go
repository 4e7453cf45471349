package fetchguard

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/dns/dnsmessage"
)

var loopback = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}

// allowLoopback is the guard as the tests' happy paths use it: the test
// server is on loopback, on a random port.
func allowLoopback() *Client { return New(Options{Allow: loopback, AnyPort: true}) }

func TestRefusedAddresses(t *testing.T) {
	strict := New(Options{})
	allowing := New(Options{Allow: append(loopback, netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("169.254.0.0/16"))})
	for _, tc := range []struct {
		ip              string
		strict, allowed bool // reachable by default, with the allow list
	}{
		{"93.184.216.34", true, true},
		{"8.8.8.8", true, true},
		{"2606:4700:4700::1111", true, true},
		{"127.0.0.1", false, true},
		{"127.1.2.3", false, true},
		{"::1", false, true},
		{"::ffff:127.0.0.1", false, true}, // IPv4-mapped loopback
		{"10.1.2.3", false, true},
		{"172.16.0.1", false, false},
		{"172.31.255.255", false, false},
		{"192.168.1.1", false, false},
		{"100.64.0.1", false, false}, // CGNAT
		{"100.127.255.254", false, false},
		{"169.254.10.10", false, true},    // link-local
		{"169.254.169.254", false, false}, // metadata: never, even when allowed
		{"169.254.170.2", false, false},
		{"100.100.100.200", false, false},
		{"fd00:ec2::254", false, false},
		{"0.0.0.0", false, false},
		{"::", false, false},
		{"224.0.0.1", false, false},
		{"239.255.255.250", false, false},
		{"255.255.255.255", false, false},
		{"240.0.0.1", false, false},
		{"192.0.2.1", false, false},
		{"198.18.0.1", false, false},
		{"fc00::1", false, false},
		{"fd12:3456::1", false, false},
		{"fe80::1", false, false},
		{"ff02::1", false, false},
		{"2001:db8::1", false, false},
		{"2001:0:4136:e378:8000:63bf:3fff:fdd2", false, false}, // Teredo
		{"64:ff9b::10.0.0.1", false, false},                    // NAT64 of a private address
		{"64:ff9b::169.254.169.254", false, false},             // NAT64 of the metadata service
		{"64:ff9b::8.8.8.8", true, true},                       // NAT64 of a public address
		{"2002:7f00:1::", false, false},                        // 6to4 of 127.0.0.1
		{"2002:0808:0808::", true, true},                       // 6to4 of 8.8.8.8
	} {
		ip := netip.MustParseAddr(tc.ip)
		if got := strict.Refused(ip) == ""; got != tc.strict {
			t.Errorf("default guard, %s: reachable %v, want %v (%q)", tc.ip, got, tc.strict, strict.Refused(ip))
		}
		if got := allowing.Refused(ip) == ""; got != tc.allowed {
			t.Errorf("allowing guard, %s: reachable %v, want %v (%q)", tc.ip, got, tc.allowed, allowing.Refused(ip))
		}
	}
}

func TestHappyPath(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") == `"v1"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", `"v1"`)
		fmt.Fprint(w, "<rss/>")
	}))
	defer srv.Close()
	c := allowLoopback()
	res, err := c.Get(context.Background(), srv.URL+"/feed", nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 || string(res.Body) != "<rss/>" || res.Header.Get("ETag") != `"v1"` || res.Redirects != 0 || res.Permanent {
		t.Fatalf("%+v", res)
	}
	res, err = c.Get(context.Background(), srv.URL+"/feed", http.Header{"If-None-Match": {`"v1"`}})
	if err != nil || res.StatusCode != http.StatusNotModified {
		t.Fatalf("conditional GET: %v %+v", err, res)
	}
}

// TestRefusesByDefault: the strict guard (the default) refuses the loopback
// server by its address, whatever the URL says.
func TestRefusesByDefault(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Error("the guard let a request reach a loopback server")
	}))
	defer srv.Close()
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	c := New(Options{AnyPort: true}) // only the address check is left
	for _, u := range []string{
		srv.URL,
		fmt.Sprintf("http://localhost:%d/", port),
		fmt.Sprintf("http://[::ffff:127.0.0.1]:%d/", port),
	} {
		_, err := c.Get(context.Background(), u, nil)
		if !IsBlocked(err) {
			t.Errorf("%s: %v, want a refusal", u, err)
		}
	}
	// Odd spellings of 127.0.0.1 are not addresses to Go's resolver: they
	// fail without connecting (the handler above would notice).
	for _, u := range []string{fmt.Sprintf("http://127.000.000.001:%d/", port), fmt.Sprintf("http://2130706433:%d/", port)} {
		if _, err := c.Get(context.Background(), u, nil); err == nil {
			t.Errorf("%s: fetched", u)
		}
	}
}

// TestRefusesURLs: schemes, ports and malformed URLs are refused before any
// connection.
func TestRefusesURLs(t *testing.T) {
	c := New(Options{})
	for _, u := range []string{
		"file:///etc/passwd", "ftp://example.com/feed", "gopher://example.com/", "javascript:alert(1)",
		"data:text/html,<script>", "//example.com/feed", "/feed", "", "http://", "http://:80/",
		"http://example.com:8080/feed", "https://example.com:22/", "http://example.com:0/", "http://example.com:99999/",
	} {
		if err := c.CheckURL(u); !IsBlocked(err) {
			t.Errorf("%q: %v, want a refusal", u, err)
		}
		if _, err := c.Get(context.Background(), u, nil); !IsBlocked(err) {
			t.Errorf("Get %q: %v, want a refusal", u, err)
		}
	}
	if err := New(Options{Ports: []int{8080}}).CheckURL("http://example.com:8080/"); err != nil {
		t.Errorf("configured port: %v", err)
	}
}

// TestRedirects: followed up to 5, each target checked like the first URL
// (scheme, port, and the address at connect time).
func TestRedirects(t *testing.T) {
	mux := http.NewServeMux()
	var srv *httptest.Server
	mux.HandleFunc("/chain/{n}", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.PathValue("n"))
		if n == 0 {
			fmt.Fprint(w, "end")
			return
		}
		http.Redirect(w, r, fmt.Sprintf("/chain/%d", n-1), http.StatusMovedPermanently)
	})
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/chain/0", http.StatusPermanentRedirect)
	})
	mux.HandleFunc("/temp", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/moved", http.StatusFound)
	})
	mux.HandleFunc("/to", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("u"), http.StatusFound)
	})
	srv = httptest.NewServer(mux)
	defer srv.Close()
	c := allowLoopback()
	ctx := context.Background()

	res, err := c.Get(ctx, srv.URL+"/chain/5", nil)
	if err != nil || string(res.Body) != "end" || res.Redirects != 5 || !res.Permanent || res.URL.Path != "/chain/0" {
		t.Fatalf("5 redirects: %v %+v", err, res)
	}
	if _, err := c.Get(ctx, srv.URL+"/chain/6", nil); !errors.Is(err, ErrTooManyRedirects) {
		t.Fatalf("6 redirects: %v", err)
	}
	res, err = c.Get(ctx, srv.URL+"/temp", nil)
	if err != nil || res.Permanent || res.Redirects != 2 {
		t.Fatalf("a temporary redirect in the chain: %v %+v", err, res)
	}

	// The test server is allowed; what it redirects to is checked again.
	strictPorts := New(Options{Allow: loopback, Ports: []int{srv.Listener.Addr().(*net.TCPAddr).Port}})
	for _, target := range []string{
		"http://10.0.0.1/",                         // private
		"http://169.254.169.254/latest/meta-data/", // metadata
		"http://[fd00:ec2::254]/",                  // metadata, IPv6
		"http://192.168.0.1/",                      // private
		"file:///etc/passwd",                       // scheme
		"http://127.0.0.1:22/",                     // port
	} {
		_, err := strictPorts.Get(ctx, srv.URL+"/to?u="+target, nil)
		if !IsBlocked(err) {
			t.Errorf("redirect to %s: %v, want a refusal", target, err)
		}
	}
	// And the default guard refuses a redirect to loopback.
	_, err = New(Options{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}, AnyPort: true}).Get(ctx, srv.URL+"/to?u=http://[::1]:1/", nil)
	if !IsBlocked(err) {
		t.Errorf("redirect to ::1: %v", err)
	}
}

// TestSizeAndTime: bodies over the cap (also once decompressed) and slow
// servers give errors.
func TestSizeAndTime(t *testing.T) {
	big := bytes.Repeat([]byte("a"), 3<<20)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(big)
	zw.Close()
	mux := http.NewServeMux()
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) { w.Write(big) })
	mux.HandleFunc("/bomb", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(gz.Bytes())
	})
	mux.HandleFunc("/small-gzip", func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			t.Error("no Accept-Encoding: gzip")
		}
		w.Header().Set("Content-Encoding", "gzip")
		zw := gzip.NewWriter(w)
		zw.Write([]byte("hello"))
		zw.Close()
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(3 * time.Second):
		case <-r.Context().Done():
		}
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	c := New(Options{Allow: loopback, AnyPort: true, MaxBytes: 1 << 20, Timeout: 300 * time.Millisecond})
	ctx := context.Background()
	if gz.Len() > 1<<20 {
		t.Fatalf("the bomb is %d bytes compressed", gz.Len())
	}
	for _, p := range []string{"/big", "/bomb"} {
		if _, err := c.Get(ctx, srv.URL+p, nil); !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s: %v, want ErrTooLarge", p, err)
		}
	}
	res, err := c.Get(ctx, srv.URL+"/small-gzip", nil)
	if err != nil || string(res.Body) != "hello" {
		t.Fatalf("gzip: %v %+v", err, res)
	}
	start := time.Now()
	if _, err := c.Get(ctx, srv.URL+"/slow", nil); err == nil || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("slow: %v", err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("the timeout took %v", took)
	}
}

// TestRebinding: a public-looking host name whose DNS answer is a loopback
// address (what a rebinding attacker answers on the second lookup) is
// refused, because the address is checked when connecting, not the name.
func TestRebinding(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "internal") }))
	defer srv.Close()
	resolver := fakeDNS(t, netip.MustParseAddr("127.0.0.1"))
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	u := fmt.Sprintf("http://feeds.attacker.example:%d/", port)

	_, err := New(Options{AnyPort: true, Resolver: resolver}).Get(context.Background(), u, nil)
	if !IsBlocked(err) {
		t.Fatalf("a name resolving to loopback: %v, want a refusal", err)
	}
	// The same name through a guard that allows loopback reaches the
	// server: the refusal above was the address check, not a DNS failure.
	res, err := New(Options{AnyPort: true, Resolver: resolver, Allow: loopback}).Get(context.Background(), u, nil)
	if err != nil || string(res.Body) != "internal" {
		t.Fatalf("allowed: %v %+v", err, res)
	}
}

// fakeDNS answers every A question with addr (and AAAA with nothing).
func fakeDNS(t *testing.T, addr netip.Addr) *net.Resolver {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	go func() {
		buf := make([]byte, 512)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			var p dnsmessage.Parser
			h, err := p.Start(buf[:n])
			if err != nil {
				continue
			}
			q, err := p.Question()
			if err != nil {
				continue
			}
			b := dnsmessage.NewBuilder(nil, dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true})
			b.EnableCompression()
			_ = b.StartQuestions()
			_ = b.Question(q)
			_ = b.StartAnswers()
			if q.Type == dnsmessage.TypeA {
				_ = b.AResource(dnsmessage.ResourceHeader{Name: q.Name, Class: dnsmessage.ClassINET, TTL: 0}, dnsmessage.AResource{A: addr.As4()})
			}
			msg, err := b.Finish()
			if err == nil {
				_, _ = pc.WriteTo(msg, from)
			}
		}
	}()
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "udp", pc.LocalAddr().String())
	}}
}

func TestFailure(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&BlockedError{Reason: "loopback address"}, "refused: loopback address"},
		{fmt.Errorf("get: %w", ErrTooLarge), "the page is too large"},
		{ErrTooManyRedirects, "too many redirects"},
		{context.DeadlineExceeded, "timed out"},
		{&net.DNSError{Err: "no such host", Name: "x.invalid", IsNotFound: true}, "host not found"},
		{errors.New("tls: failed to verify certificate: x509"), "invalid TLS certificate"},
		{errors.New("connection refused"), "could not connect"},
	} {
		if got := Failure(tc.err, "page"); got != tc.want {
			t.Errorf("Failure(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}
