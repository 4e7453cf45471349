package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/aws/aws-lambda-go/events"
	"github.com/awslabs/aws-lambda-go-api-proxy/core"
)

// adapt turns API Gateway v2 events into requests for h and its answers
// into events, as aws-lambda-go-api-proxy's httpadapter.NewV2 does, except
// for headers: the library splits every header it does not know to be
// single-valued at commas, so Stripe-Signature (t=…,v1=…,v0=…) or Accept
// reach the handler as several values. API Gateway hands each header over
// as one string (repeated headers already joined with commas, as HTTP
// allows), and that string is what the handler gets.
func adapt(h http.Handler) proxyFunc {
	var accessor core.RequestAccessorV2
	return func(ctx context.Context, ev events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
		req, err := accessor.EventToRequestWithContext(ctx, ev)
		if err != nil {
			return core.GatewayTimeoutV2(), fmt.Errorf("api: convert the event to a request: %w", err)
		}
		for name, value := range ev.Headers {
			if strings.EqualFold(name, "cookie") {
				continue // the library has added the event's cookies
			}
			req.Header[http.CanonicalHeaderKey(name)] = []string{value}
		}
		w := core.NewProxyResponseWriterV2()
		h.ServeHTTP(w, req)
		// A body that is not UTF-8 (gzip) goes out base64-encoded.
		res, err := w.GetProxyResponse()
		if err != nil {
			return core.GatewayTimeoutV2(), fmt.Errorf("api: build the response: %w", err)
		}
		return res, nil
	}
}
