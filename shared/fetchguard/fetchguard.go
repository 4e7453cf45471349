// Package fetchguard is the HTTP client for fetching URLs that users give
// the server (feeds, articles, page titles of links): it refuses to reach
// the server's own networks. Every connection's resolved IP address is
// checked when the socket connects (a net.Dialer Control function), so a
// host name that resolves to a private address, a DNS answer that changes
// between checks (rebinding) and a redirect to an internal address are all
// refused the same way. Only http and https, only ports 80 and 443 unless
// configured, at most 5 redirects, and caps on the body size (after gzip)
// and on the whole exchange's time.
package fetchguard

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Defaults.
const (
	DefaultMaxBytes     = 10 << 20
	DefaultTimeout      = 15 * time.Second
	DefaultMaxRedirects = 5
	DefaultUserAgent    = "Oficina/1.0 (+https://oficina.app)"
)

// Options configures a Client. The zero value is the strict default.
type Options struct {
	// Allow lists networks let through although they are refused by
	// default: loopback for tests, an intranet on premises. Cloud metadata
	// addresses stay refused whatever Allow says.
	Allow []netip.Prefix
	// Ports are allowed besides 80 and 443; AnyPort allows every port.
	Ports   []int
	AnyPort bool
	// MaxBytes caps a response body after decompression (default 10 MB).
	MaxBytes int64
	// Timeout caps one whole exchange, redirects and body included
	// (default 15 s).
	Timeout time.Duration
	// MaxRedirects (default 5; negative: none followed).
	MaxRedirects int
	UserAgent    string
	// Resolver replaces the system resolver (tests answer with their own
	// DNS server to play a rebinding attack).
	Resolver *net.Resolver
}

// Client fetches URLs within the guard. It is safe for concurrent use and
// keeps connections alive between calls.
type Client struct {
	opts      Options
	transport *http.Transport
}

// New returns a client with opts.
func New(opts Options) *Client {
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxRedirects == 0 {
		opts.MaxRedirects = DefaultMaxRedirects
	}
	if opts.UserAgent == "" {
		opts.UserAgent = DefaultUserAgent
	}
	c := &Client{opts: opts}
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second, Control: c.control, Resolver: opts.Resolver}
	c.transport = &http.Transport{
		// No proxy from the environment: a proxy would connect for us and
		// the address check would see only the proxy.
		Proxy:                  nil,
		DialContext:            dialer.DialContext,
		ForceAttemptHTTP2:      true,
		MaxIdleConns:           256,
		MaxIdleConnsPerHost:    8,
		IdleConnTimeout:        90 * time.Second,
		TLSHandshakeTimeout:    10 * time.Second,
		ResponseHeaderTimeout:  opts.Timeout,
		MaxResponseHeaderBytes: 64 << 10,
	}
	return c
}

// Close drops idle connections.
func (c *Client) Close() { c.transport.CloseIdleConnections() }

// BlockedError is a refusal of the guard: a scheme, port or address the
// server must not reach.
type BlockedError struct {
	URL    string // the URL, when the refusal is about one
	Addr   string // the resolved address, when the refusal is about one
	Reason string
}

func (e *BlockedError) Error() string {
	switch {
	case e.Addr != "":
		return fmt.Sprintf("fetchguard: address %s refused: %s", e.Addr, e.Reason)
	case e.URL != "":
		return fmt.Sprintf("fetchguard: %s refused: %s", e.URL, e.Reason)
	}
	return "fetchguard: refused: " + e.Reason
}

// Errors of Get besides *BlockedError, network errors and timeouts.
var (
	ErrTooLarge         = errors.New("fetchguard: the response is larger than allowed")
	ErrTooManyRedirects = errors.New("fetchguard: too many redirects")
)

// IsBlocked reports whether err is a refusal of the guard.
func IsBlocked(err error) bool {
	var b *BlockedError
	return errors.As(err, &b)
}

// Failure words a failed Get for the person who named the URL; what is
// what was fetched ("feed", "page"), for "the page is too large".
func Failure(err error, what string) string {
	var blocked *BlockedError
	var dnsErr *net.DNSError
	var ne net.Error
	switch {
	case errors.As(err, &blocked):
		return "refused: " + blocked.Reason
	case errors.Is(err, ErrTooLarge):
		return "the " + what + " is too large"
	case errors.Is(err, ErrTooManyRedirects):
		return "too many redirects"
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return "timed out"
	case errors.As(err, &dnsErr):
		return "host not found"
	case strings.Contains(err.Error(), "certificate"):
		return "invalid TLS certificate"
	}
	return "could not connect"
}

// Response is a fetched answer with its whole body.
type Response struct {
	StatusCode int
	Header     http.Header
	Body       []byte
	// URL is where the answer came from, after redirects.
	URL *url.URL
	// Redirects is how many were followed; Permanent is true when there
	// were some and all of them were permanent (301, 308), so the caller
	// may remember URL instead of the one it asked for.
	Redirects int
	Permanent bool
}

// Get fetches raw with the extra request headers (conditional GETs, Accept).
// Any status is an answer; only failures to get one are errors.
func (c *Client) Get(ctx context.Context, raw string, header http.Header) (*Response, error) {
	u, err := c.checkURL(raw)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, &BlockedError{URL: raw, Reason: "not a valid URL"}
	}
	for k, v := range header {
		req.Header[k] = v
	}
	req.Header.Set("User-Agent", c.opts.UserAgent)
	redirects, permanent := 0, true
	client := &http.Client{Transport: c.transport, CheckRedirect: func(next *http.Request, via []*http.Request) error {
		if c.opts.MaxRedirects < 0 || len(via) > c.opts.MaxRedirects {
			return ErrTooManyRedirects
		}
		if _, err := c.checkURL(next.URL.String()); err != nil {
			return err
		}
		if next.Response != nil && next.Response.StatusCode != http.StatusMovedPermanently && next.Response.StatusCode != http.StatusPermanentRedirect {
			permanent = false
		}
		redirects++
		return nil
	}}
	res, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", u.Redacted(), err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, c.opts.MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("fetch %s: read body: %w", u.Redacted(), err)
	}
	if int64(len(body)) > c.opts.MaxBytes {
		return nil, fmt.Errorf("fetch %s: %w (%d bytes)", u.Redacted(), ErrTooLarge, c.opts.MaxBytes)
	}
	return &Response{
		StatusCode: res.StatusCode,
		Header:     res.Header,
		Body:       body,
		URL:        res.Request.URL,
		Redirects:  redirects,
		Permanent:  redirects > 0 && permanent,
	}, nil
}

// CheckURL reports whether the guard would start a fetch of raw (its scheme
// and port; the address is checked when connecting).
func (c *Client) CheckURL(raw string) error {
	_, err := c.checkURL(raw)
	return err
}

func (c *Client) checkURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Hostname() == "" {
		return nil, &BlockedError{URL: truncate(raw), Reason: "not an absolute URL"}
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, &BlockedError{URL: truncate(raw), Reason: "only http and https are fetched"}
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	if !c.portAllowed(port) {
		return nil, &BlockedError{URL: truncate(raw), Reason: "port " + port + " is not allowed"}
	}
	return u, nil
}

func (c *Client) portAllowed(port string) bool {
	n, err := strconv.Atoi(port)
	if err != nil || n < 1 || n > 65535 {
		return false
	}
	if c.opts.AnyPort || n == 80 || n == 443 {
		return true
	}
	for _, p := range c.opts.Ports {
		if p == n {
			return true
		}
	}
	return false
}

// control runs for every connection attempt, on the address actually being
// dialled (after DNS), before any packet leaves.
func (c *Client) control(network, address string, _ syscall.RawConn) error {
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return &BlockedError{Addr: address, Reason: "not an address"}
	}
	if !c.portAllowed(port) {
		return &BlockedError{Addr: address, Reason: "port " + port + " is not allowed"}
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return &BlockedError{Addr: address, Reason: "not an IP address"}
	}
	if reason := c.Refused(ip); reason != "" {
		return &BlockedError{Addr: ip.String(), Reason: reason}
	}
	return nil
}

// Refused returns why the guard refuses ip ("" when it may be reached).
func (c *Client) Refused(ip netip.Addr) string {
	ip = ip.Unmap()
	if isMetadata(ip) {
		return "cloud metadata service"
	}
	for _, p := range c.opts.Allow {
		if p.Contains(ip) {
			return ""
		}
	}
	return refusedReason(ip)
}

func truncate(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
