package capacity_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/capacity"
	"github.com/oficina/oficina/shared/httpapi"
	"github.com/oficina/oficina/shared/live"
	"github.com/oficina/oficina/shared/store"
)

// The small shop's live updates: two people with a tab open each, 8 hours
// a day. API Gateway closes a WebSocket after 2 hours, so each tab opens
// 4 connections a day; the SPA's keep-alive goes every 8 minutes
// (web/src/lib/live.ts KEEPALIVE_MS).
const (
	liveTabs          = 2
	liveHours         = 8
	liveConnHours     = 2
	liveKeepaliveMins = 8
	liveOriginSecret  = "edge-secret-0123456789"
)

// postCounter is API Gateway's management API as the live runtime sees
// it: it counts the messages posted to connections.
type postCounter struct {
	mu    sync.Mutex
	posts int
}

func (p *postCounter) Post(context.Context, string, []byte) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.posts++
	return nil
}

func (p *postCounter) Disconnect(context.Context, string) error { return nil }

// measureLiveDay runs the shop's day of live updates on the cloud's
// runtime (shared/live.Cloud and Lambda on DynamoDB Local, as
// functions/live and the stream function run them): each tab's
// connections with their subscriptions (the Group and the user's own db)
// and keep-alives, and the notices of the day's changes posted to both
// tabs, one stream batch a change. It counts the live function's
// invocations, the messages both ways and the capacity units (metered
// like the API's; the stream's notices included).
func measureLiveDay(t testing.TB, e *apptest.Env, c *apptest.Client, db string, changes []store.Change) capacity.Live {
	t.Helper()
	ctx := context.Background()
	posts := &postCounter{}
	cloud := live.NewCloud(live.CloudOptions{DB: e.Dynamo, Table: e.Table, Poster: posts, Store: e.Store, Auth: e.App.Auth})
	api := httpapi.New(httpapi.Deps{Store: e.Store, Auth: e.App.Auth, Users: e.App.Auth, Live: live.Route(nil, cloud),
		Config: httpapi.Config{BaseURL: apptest.BaseURL, OriginSecret: liveOriginSecret}})
	fn := live.Lambda{API: api, Cloud: cloud}
	var day capacity.Live
	// A keep-alive's share, for a tab left open: its reads and writes.
	var keepaliveReads, keepaliveWrites float64
	invoke := func(ev events.APIGatewayWebsocketProxyRequest) {
		day.Invocations++
		res, err := fn.Handle(ctx, ev)
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d %s %v", ev.RequestContext.RouteKey, res.StatusCode, res.Body, err)
		}
	}
	message := func(id string, msg any) {
		day.ClientMessages++
		b, _ := json.Marshal(msg)
		invoke(events.APIGatewayWebsocketProxyRequest{Body: string(b),
			RequestContext: events.APIGatewayWebsocketProxyRequestContext{EventType: "MESSAGE", RouteKey: "$default", ConnectionID: id}})
	}
	cookie, xsrf := c.CookieHeader()
	connect := func(id string) {
		invoke(events.APIGatewayWebsocketProxyRequest{
			Headers: map[string]string{
				"Host": "abc123.execute-api.us-east-1.amazonaws.com", "Origin": apptest.BaseURL, "Cookie": cookie,
				"Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version": "13",
				"X-Oficina-Origin-Secret": liveOriginSecret, "X-Oficina-Viewer-Address": "203.0.113.9",
			},
			QueryStringParameters: map[string]string{"xsrf": xsrf},
			RequestContext: events.APIGatewayWebsocketProxyRequestContext{EventType: "CONNECT", RouteKey: "$connect", ConnectionID: id, Stage: "live",
				Identity: events.APIGatewayRequestIdentity{SourceIP: "198.51.100.7"}},
		})
		message(id, map[string]any{"subscribe": []string{db, c.ID}})
	}
	disconnect := func(id string) {
		invoke(events.APIGatewayWebsocketProxyRequest{
			RequestContext: events.APIGatewayWebsocketProxyRequestContext{EventType: "DISCONNECT", RouteKey: "$disconnect", ConnectionID: id}})
	}

	r0, w0, _ := e.Meter.Totals()
	const conns = liveHours / liveConnHours
	const pings = liveConnHours * 60 / liveKeepaliveMins
	for n := range conns {
		for tab := range liveTabs {
			connect(fmt.Sprintf("tab%d-%d", tab, n))
		}
		if n == 0 {
			// The day's notices, to both tabs.
			for _, ch := range changes {
				cloud.Applied(ctx, []store.Change{ch})
			}
		}
		for range pings {
			for tab := range liveTabs {
				k0, kw0, _ := e.Meter.Totals()
				message(fmt.Sprintf("tab%d-%d", tab, n), map[string]any{"ping": 1})
				k1, kw1, _ := e.Meter.Totals()
				keepaliveReads, keepaliveWrites = keepaliveReads+k1-k0, keepaliveWrites+kw1-kw0
			}
		}
		for tab := range liveTabs {
			disconnect(fmt.Sprintf("tab%d-%d", tab, n))
		}
	}
	r1, w1, _ := e.Meter.Totals()
	day.ServerMessages = posts.posts
	day.ConnectionMinutes = liveTabs * liveHours * 60
	day.Reads, day.Writes = r1-r0, w1-w0
	n := float64(conns * pings * liveTabs)
	day.KeepaliveReads, day.KeepaliveWrites = keepaliveReads/n, keepaliveWrites/n
	return day
}
