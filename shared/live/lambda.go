package live

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/aws/aws-lambda-go/events"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/httpjson"
)

// connectionKey carries API Gateway's connection id from the $connect
// event to the route; only this package sets it, so no client can.
type connectionKey struct{}

// withConnection marks a request as API Gateway's $connect of id.
func withConnection(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, connectionKey{}, id)
}

// Route is the handler of GET /api/_live (httpapi.Deps.Live), after the
// core has checked the handshake's origin, XSRF token and credentials: on
// API Gateway's $connect it records the connection (Cloud), otherwise the
// local hub upgrades it. Either may be nil where it does not run.
func Route(hub *Hub, cloud *Cloud) func(w http.ResponseWriter, r *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		if id, ok := r.Context().Value(connectionKey{}).(string); ok {
			if cloud == nil {
				return fault.New(fault.NotFound, "missing")
			}
			if err := cloud.Connect(r.Context(), id, access.PrincipalFrom(r.Context())); err != nil {
				return err
			}
			w.WriteHeader(http.StatusOK)
			return nil
		}
		if hub == nil {
			return fault.New(fault.NotFound, "missing")
		}
		return hub.Serve(w, r)
	}
}

// Lambda serves API Gateway's WebSocket routes (functions/live).
type Lambda struct {
	// API is the product's HTTP handler: $connect goes through it as
	// GET /api/_live, so the origin secret, the origin, the XSRF token and
	// the credentials are checked exactly as for a local upgrade.
	API   http.Handler
	Cloud *Cloud
}

// Handle answers one WebSocket event. For $connect, a status other than
// 200 refuses the connection with it.
func (l Lambda) Handle(ctx context.Context, ev events.APIGatewayWebsocketProxyRequest) (events.APIGatewayProxyResponse, error) {
	id := ev.RequestContext.ConnectionID
	switch ev.RequestContext.EventType {
	case "CONNECT":
		return l.connect(ctx, id, ev), nil
	case "DISCONNECT":
		return ok(), l.Cloud.Disconnect(ctx, id)
	default:
		body := []byte(ev.Body)
		if ev.IsBase64Encoded {
			// A binary frame: not a message of the protocol.
			body = nil
		}
		return ok(), l.Cloud.Message(ctx, id, body)
	}
}

func ok() events.APIGatewayProxyResponse {
	return events.APIGatewayProxyResponse{StatusCode: http.StatusOK}
}

func (l Lambda) connect(ctx context.Context, id string, ev events.APIGatewayWebsocketProxyRequest) events.APIGatewayProxyResponse {
	q := url.Values{}
	for k, vs := range ev.MultiValueQueryStringParameters {
		q[k] = vs
	}
	for k, v := range ev.QueryStringParameters {
		if _, ok := q[k]; !ok {
			q.Set(k, v)
		}
	}
	h := http.Header{}
	for k, vs := range ev.MultiValueHeaders {
		for _, v := range vs {
			h.Add(k, v)
		}
	}
	for k, v := range ev.Headers {
		if h.Get(k) == "" {
			h.Set(k, v)
		}
	}
	r, _ := http.NewRequestWithContext(withConnection(ctx, id), http.MethodGet, "/api/_live", nil)
	r.URL.RawQuery = q.Encode()
	r.RequestURI = r.URL.RequestURI()
	r.Header = h
	r.Host = h.Get("Host")
	r.RemoteAddr = ev.RequestContext.Identity.SourceIP + ":0"
	w := httpjson.NewRecorder()
	l.API.ServeHTTP(w, r)
	return events.APIGatewayProxyResponse{StatusCode: w.Status, Body: strings.TrimSpace(w.Body.String()), Headers: map[string]string{"Content-Type": w.Header().Get("Content-Type")}}
}
