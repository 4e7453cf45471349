package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/oficina/oficina/shared/httpapi"
)

// stripeSignature is what Stripe sends on a webhook: one header whose value
// has commas in it. A handler verifying it must see exactly this string.
const stripeSignature = "t=1492774577,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd,v0=6ffbb59b2300aae63f272406069a9788598b792a944a07aba816edb039989a39"

// TestHeadersPassUnsplit: API Gateway hands a header over as one string;
// the handler must get it as one value, commas and all, and repeated
// headers joined by API Gateway stay joined.
func TestHeadersPassUnsplit(t *testing.T) {
	var got http.Header
	h := adapt(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Clone()
		w.WriteHeader(http.StatusNoContent)
	}))
	ev := events.APIGatewayV2HTTPRequest{
		Version: "2.0", RouteKey: "$default", RawPath: "/api/hooks/stripe",
		Headers: map[string]string{
			"stripe-signature": stripeSignature,
			"content-type":     "application/json; charset=utf-8",
			"accept":           "application/json, text/plain, */*",
			"x-forwarded-for":  "203.0.113.7, 198.51.100.2",
		},
		Cookies: []string{"AuthSession=abc", "XSRF-TOKEN=def"},
		Body:    `{"id":"evt_1"}`,
		RequestContext: events.APIGatewayV2HTTPRequestContext{
			DomainName: "api.example", HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: "POST", Path: "/api/hooks/stripe", SourceIP: "203.0.113.7"},
		},
	}
	res, err := h(context.Background(), ev)
	if err != nil || res.StatusCode != http.StatusNoContent {
		t.Fatalf("proxy: %d, %v", res.StatusCode, err)
	}
	for name, want := range map[string]string{
		"Stripe-Signature": stripeSignature,
		"Content-Type":     "application/json; charset=utf-8",
		"Accept":           "application/json, text/plain, */*",
		"X-Forwarded-For":  "203.0.113.7, 198.51.100.2",
	} {
		if v := got.Values(name); len(v) != 1 || v[0] != want {
			t.Errorf("%s reached the handler as %q, want the one value %q", name, v, want)
		}
	}
	if c := got.Values("Cookie"); strings.Join(c, "; ") != "AuthSession=abc; XSRF-TOKEN=def" {
		t.Errorf("cookies reached the handler as %q", c)
	}
}

// TestGzipThroughLambda: a gzipped answer leaves the function base64-encoded
// (API Gateway decodes it and passes the gzip bytes and Content-Encoding on
// to the client), and decodes back to the JSON the handler wrote.
func TestGzipThroughLambda(t *testing.T) {
	body := `{"rows":[` + strings.Repeat(`{"id":"cus-00000000000000000000000000000000"},`, 100) + `{}]}`
	h := adapt(httpapi.Compress(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, body)
	})))
	ev := events.APIGatewayV2HTTPRequest{
		Version: "2.0", RouteKey: "$default", RawPath: "/api/x/_all_docs",
		Headers: map[string]string{"accept-encoding": "gzip, deflate, br, zstd"},
		RequestContext: events.APIGatewayV2HTTPRequestContext{
			DomainName: "api.example", HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: "GET", Path: "/api/x/_all_docs"},
		},
	}
	res, err := h(context.Background(), ev)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("proxy: %d, %v", res.StatusCode, err)
	}
	if !res.IsBase64Encoded || res.Headers["Content-Encoding"] != "gzip" {
		t.Fatalf("base64 %v, headers %v", res.IsBase64Encoded, res.Headers)
	}
	raw, err := base64.StdEncoding.DecodeString(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil || string(plain) != body || !json.Valid(plain) {
		t.Fatalf("decoded body: %v %.100s", err, plain)
	}
	if len(raw) >= len(body)/2 {
		t.Errorf("gzip saved little: %d of %d bytes", len(raw), len(body))
	}
}
