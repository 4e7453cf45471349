package ratelimit

import (
	"crypto/subtle"
	"encoding/json"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// Headers CloudFront adds on the way to the API (infra-cdk/lib/site.ts):
// the origin secret as a custom origin header, and the viewer's address,
// written by a viewer-request function from event.viewer.ip. A client can
// send either header itself, so the viewer address counts only when the
// secret checks out.
const (
	OriginSecretHeader  = "X-Oficina-Origin-Secret"
	ViewerAddressHeader = "X-Oficina-Viewer-Address"
)

// RequestContextHeader is where the AWS Lambda Web Adapter puts the
// invocation's request context (JSON) on every request it forwards to the
// server, replacing any value the client sent.
const RequestContextHeader = "X-Amzn-Request-Context"

// Edge is how requests reach the API. The zero value is a server that
// takes calls directly (the local server): no secret is required and the
// client address is the connection's.
type Edge struct {
	// OriginSecret, when set, is the value CloudFront sends in
	// OriginSecretHeader. Requests without it did not come through the
	// site's address (e.g. a direct call to the API Gateway endpoint).
	OriginSecret string
	// RequestContext says the server runs behind the AWS Lambda Web
	// Adapter (functions/webdav on its Function URL), where every caller
	// is the adapter on loopback: the client address is then the sourceIp
	// of the request context the adapter forwards in RequestContextHeader.
	// Only set it on Lambda: anywhere else the header is the client's own.
	RequestContext bool
}

// Required reports whether requests must carry the origin secret.
func (e Edge) Required() bool { return e.OriginSecret != "" }

// Verified reports whether r carries the origin secret (constant-time).
func (e Edge) Verified(r *http.Request) bool {
	if e.OriginSecret == "" {
		return false
	}
	got := r.Header.Get(OriginSecretHeader)
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(e.OriginSecret)) == 1
}

// ClientAddress is the one answer to "who is calling" for throttling and
// rate limits: the viewer address CloudFront reports when r carries the
// origin secret, the request context's sourceIp behind the Lambda Web
// Adapter (Edge.RequestContext), otherwise the connection's source address
// (API Gateway's sourceIp on Lambda, which behind CloudFront is the edge's,
// or the TCP peer locally). The result is an IP address in canonical form,
// or the raw remote address when that is not one.
func (e Edge) ClientAddress(r *http.Request) string {
	if e.Verified(r) {
		if a, ok := parseAddr(r.Header.Get(ViewerAddressHeader)); ok {
			return a.String()
		}
	}
	if e.RequestContext {
		if a, ok := contextSource(r.Header.Get(RequestContextHeader)); ok {
			return a.String()
		}
	}
	if a, ok := parseAddr(r.RemoteAddr); ok {
		return a.String()
	}
	return r.RemoteAddr
}

// requestContext is what ClientAddress reads of a forwarded request
// context: http.sourceIp in a Function URL's (and an HTTP API's, payload
// 2.0), identity.sourceIp in a REST API's.
type requestContext struct {
	HTTP struct {
		SourceIP string `json:"sourceIp"`
	} `json:"http"`
	Identity struct {
		SourceIP string `json:"sourceIp"`
	} `json:"identity"`
}

// contextSource reads the caller's address from a request context.
func contextSource(raw string) (netip.Addr, bool) {
	if raw == "" {
		return netip.Addr{}, false
	}
	var rc requestContext
	if err := json.Unmarshal([]byte(raw), &rc); err != nil {
		return netip.Addr{}, false
	}
	if a, ok := parseAddr(rc.HTTP.SourceIP); ok {
		return a, true
	}
	return parseAddr(rc.Identity.SourceIP)
}

// parseAddr reads "ip", "ip:port" or "[ipv6]:port".
func parseAddr(s string) (netip.Addr, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return netip.Addr{}, false
	}
	if a, err := netip.ParseAddr(s); err == nil {
		return a.Unmap(), true
	}
	if host, _, err := net.SplitHostPort(s); err == nil {
		if a, err := netip.ParseAddr(host); err == nil {
			return a.Unmap(), true
		}
	}
	return netip.Addr{}, false
}

// AddressKey is the key a client address is counted under: an IPv4
// address as is, an IPv6 address by its /64 (one subscriber usually holds a
// whole /64, so counting single addresses would not limit anyone).
func AddressKey(addr string) string {
	a, err := netip.ParseAddr(addr)
	if err != nil {
		if len(addr) > 64 {
			addr = addr[:64]
		}
		return addr
	}
	if a.Is6() {
		if p, err := a.Prefix(64); err == nil {
			return p.String()
		}
	}
	return a.String()
}
