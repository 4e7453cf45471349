package live_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/httpapi"
	"github.com/oficina/oficina/shared/live"
)

// managementAPI is a test double of API Gateway's connection management
// endpoint, and only of it: POST and DELETE /<stage>/@connections/{id},
// SigV4-signed, answering 410 for connections it was told are gone.
type managementAPI struct {
	t    *testing.T
	url  string
	mu   sync.Mutex
	got  map[string][]map[string]any // posted messages by connection
	gone map[string]bool
	cut  []string // connections the server disconnected
	// throttle answers that many posts to a connection 429 before taking one.
	throttle map[string]int
}

func newManagementAPI(t *testing.T) *managementAPI {
	m := &managementAPI{t: t, got: map[string][]map[string]any{}, gone: map[string]bool{}, throttle: map[string]int{}}
	srv := httptest.NewServer(http.HandlerFunc(m.serve))
	t.Cleanup(srv.Close)
	m.url = srv.URL + "/live"
	return m
}

func (m *managementAPI) serve(w http.ResponseWriter, r *http.Request) {
	id, ok := strings.CutPrefix(r.URL.EscapedPath(), "/live/@connections/")
	auth := r.Header.Get("Authorization")
	if !ok || !strings.HasPrefix(auth, "AWS4-HMAC-SHA256 ") || !strings.Contains(auth, "/us-east-1/execute-api/aws4_request") {
		m.t.Errorf("management API: %s %s, Authorization %q", r.Method, r.URL, auth)
		http.Error(w, `{"message":"Forbidden"}`, http.StatusForbidden)
		return
	}
	id, _ = url.PathUnescape(id)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.gone[id] {
		w.Header().Set("x-amzn-ErrorType", "GoneException")
		http.Error(w, `{"message":"Gone"}`, http.StatusGone)
		return
	}
	switch r.Method {
	case http.MethodPost:
		if m.throttle[id] > 0 {
			m.throttle[id]--
			http.Error(w, `{"message":"Too Many Requests"}`, http.StatusTooManyRequests)
			return
		}
		b, _ := io.ReadAll(r.Body)
		var msg map[string]any
		if err := json.Unmarshal(b, &msg); err != nil {
			m.t.Errorf("posted %q: %v", b, err)
		}
		m.got[id] = append(m.got[id], msg)
	case http.MethodDelete:
		m.cut = append(m.cut, id)
		m.gone[id] = true
		w.WriteHeader(http.StatusNoContent)
	default:
		http.Error(w, `{"message":"Not found"}`, http.StatusNotFound)
	}
}

// take returns and clears what was posted to conn.
func (m *managementAPI) take(conn string) []map[string]any {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := m.got[conn]
	delete(m.got, conn)
	return out
}

func (m *managementAPI) setGone(conn string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.gone[conn] = true
}

// cloudEnv is the live function as API Gateway calls it, on DynamoDB Local.
type cloudEnv struct {
	e      *apptest.Env
	cloud  *live.Cloud
	lambda live.Lambda
	mgmt   *managementAPI
	seen   int // changes of e already handed to the cloud
}

func newCloudEnv(t *testing.T) *cloudEnv {
	e := apptest.New(t, apptest.Dynamo)
	mgmt := newManagementAPI(t)
	awsCfg := aws.Config{Region: "us-east-1", Credentials: credentials.NewStaticCredentialsProvider("AKIDTEST", "secret", "")}
	cloud := live.NewCloud(live.CloudOptions{DB: e.Dynamo, Table: e.Table, Poster: live.NewManagement(mgmt.url, awsCfg), Store: e.Store, Auth: e.App.Auth})
	api := httpapi.New(httpapi.Deps{Store: e.Store, Auth: e.App.Auth, Users: e.App.Auth, Live: live.Route(nil, cloud),
		Config: httpapi.Config{BaseURL: apptest.BaseURL, OriginSecret: "edge-secret-0123456789"}})
	return &cloudEnv{e: e, cloud: cloud, lambda: live.Lambda{API: api, Cloud: cloud}, mgmt: mgmt}
}

// connectEvent is API Gateway's $connect of c (nil: anonymous) through CloudFront.
func connectEvent(id string, c *apptest.Client, query map[string]string, header map[string]string) events.APIGatewayWebsocketProxyRequest {
	h := map[string]string{
		"Host": "abc123.execute-api.us-east-1.amazonaws.com", "Origin": apptest.BaseURL,
		"Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version": "13",
		"X-Oficina-Origin-Secret": "edge-secret-0123456789", "X-Oficina-Viewer-Address": "203.0.113.9",
	}
	q := map[string]string{}
	if c != nil {
		h["Cookie"], q["xsrf"] = c.CookieHeader()
	}
	for k, v := range query {
		q[k] = v
	}
	for k, v := range header {
		h[k] = v
	}
	return events.APIGatewayWebsocketProxyRequest{
		Headers: h, QueryStringParameters: q,
		RequestContext: events.APIGatewayWebsocketProxyRequestContext{
			EventType: "CONNECT", RouteKey: "$connect", ConnectionID: id, Stage: "live",
			Identity: events.APIGatewayRequestIdentity{SourceIP: "198.51.100.7"},
		},
	}
}

func (ce *cloudEnv) connect(t *testing.T, id string, c *apptest.Client) {
	t.Helper()
	res, err := ce.lambda.Handle(t.Context(), connectEvent(id, c, nil, nil))
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("$connect %s: %d %s %v", id, res.StatusCode, res.Body, err)
	}
}

func (ce *cloudEnv) message(t *testing.T, id string, msg any) []map[string]any {
	t.Helper()
	b, _ := json.Marshal(msg)
	res, err := ce.lambda.Handle(t.Context(), events.APIGatewayWebsocketProxyRequest{Body: string(b),
		RequestContext: events.APIGatewayWebsocketProxyRequestContext{EventType: "MESSAGE", RouteKey: "$default", ConnectionID: id}})
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("$default %s: %d %v", id, res.StatusCode, err)
	}
	return ce.mgmt.take(id)
}

// stream hands every change drained since the last call to the cloud, as
// the stream function does after applying a batch.
func (ce *cloudEnv) stream(t *testing.T) {
	t.Helper()
	ce.e.Drain()
	all := ce.e.Applied()
	ce.cloud.Applied(context.Background(), all[ce.seen:])
	ce.seen = len(all)
}

// items counts the table's items whose partition key is pk (and SK starting with skPrefix).
func (ce *cloudEnv) items(t *testing.T, pk, skPrefix string) []map[string]types.AttributeValue {
	t.Helper()
	out, err := ce.e.Dynamo.Query(t.Context(), &dynamodb.QueryInput{
		TableName: &ce.e.Table, ConsistentRead: aws.Bool(true),
		KeyConditionExpression:    aws.String("PK = :pk AND begins_with(SK, :sk)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: pk}, ":sk": &types.AttributeValueMemberS{Value: skPrefix}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return out.Items
}

// TestCloudConnect: $connect goes through the core's checks; an accepted
// connection is recorded with a TTL, under its user too.
func TestCloudConnect(t *testing.T) {
	ce := newCloudEnv(t)
	ana := ce.e.SignUp("ana@example.com")
	for _, tc := range []struct {
		name   string
		client *apptest.Client
		query  map[string]string
		header map[string]string
		code   int
	}{
		{"anonymous", nil, nil, nil, http.StatusUnauthorized},
		{"no XSRF token", ana, map[string]string{"xsrf": ""}, nil, http.StatusForbidden},
		{"another origin", ana, nil, map[string]string{"Origin": "https://evil.example"}, http.StatusForbidden},
		{"not through CloudFront", ana, nil, map[string]string{"X-Oficina-Origin-Secret": "guess"}, http.StatusForbidden},
		{"the site's tab", ana, nil, nil, http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id := "conn-" + strings.ReplaceAll(tc.name, " ", "-") + "="
			res, err := ce.lambda.Handle(t.Context(), connectEvent(id, tc.client, tc.query, tc.header))
			if err != nil || res.StatusCode != tc.code {
				t.Fatalf("got %d %s %v, want %d", res.StatusCode, res.Body, err, tc.code)
			}
			n := len(ce.items(t, "LIVE#"+id, "LIVE"))
			if (tc.code == http.StatusOK) != (n == 1) {
				t.Fatalf("%d connection items after a %d", n, res.StatusCode)
			}
		})
	}
	conn := ce.items(t, "LIVE#conn-the-site's-tab=", "LIVE")[0]
	if _, ok := conn["ttl"].(*types.AttributeValueMemberN); !ok {
		t.Fatalf("connection item without a ttl: %v", conn)
	}
	if got := ce.items(t, "LIVEUSER#"+ana.ID, "LIVE#"); len(got) != 1 {
		t.Fatalf("the user's connections: %v", got)
	}
}

// TestCloudPost: subscriptions in the Group's partition, notices posted
// through the management API to the Group's connections only, a gone
// connection dropped on 410, $disconnect forgetting everything.
// TestCloudPostTriesAgain: a notice API Gateway throttles is posted again
// (twice at most); past that it is given up, and the next one still goes.
func TestCloudPostTriesAgain(t *testing.T) {
	ce := newCloudEnv(t)
	e := ce.e
	ana := e.SignUp("ana@example.com")
	a := e.Group(ana, "Oficina da Ana")
	ce.stream(t)
	ce.connect(t, "ana-1", ana)
	ce.message(t, "ana-1", map[string]any{"subscribe": []string{a}})

	ce.mgmt.mu.Lock()
	ce.mgmt.throttle["ana-1"] = 2
	ce.mgmt.mu.Unlock()
	id := create(t, ana, a, customer("Bia"))
	ce.stream(t)
	if got := ce.mgmt.take("ana-1"); len(got) != 1 || got[0]["id"] != id {
		t.Fatalf("after two throttles: %v", got)
	}

	ce.mgmt.mu.Lock()
	ce.mgmt.throttle["ana-1"] = 3
	ce.mgmt.mu.Unlock()
	create(t, ana, a, customer("Caio"))
	ce.stream(t)
	if got := ce.mgmt.take("ana-1"); len(got) != 0 {
		t.Fatalf("after three throttles: %v", got)
	}
	id = create(t, ana, a, customer("Duda"))
	ce.stream(t)
	if got := ce.mgmt.take("ana-1"); len(got) != 1 || got[0]["id"] != id {
		t.Fatalf("the next notice: %v", got)
	}
}

func TestCloudPost(t *testing.T) {
	ce := newCloudEnv(t)
	e := ce.e
	ana := e.SignUp("ana@example.com")
	a := e.Group(ana, "Oficina da Ana")
	bob := e.SignUp("bob@example.com")
	b := e.Group(bob, "Oficina do Bob")
	ce.stream(t)
	ce.connect(t, "ana-1", ana)
	ce.connect(t, "ana-2", ana)
	ce.connect(t, "bob-1", bob)

	got := ce.message(t, "ana-1", map[string]any{"subscribe": []string{a, ana.ID}})
	if len(got) != 2 || got[0]["subscribed"] != a || got[1]["subscribed"] != ana.ID {
		t.Fatalf("subscribe: %v", got)
	}
	ce.message(t, "ana-2", map[string]any{"subscribe": []string{a}})
	if got := ce.message(t, "bob-1", map[string]any{"subscribe": []string{a, b}}); len(got) != 2 ||
		got[0]["refused"] != a || got[0]["reason"] != "You are not allowed to access this data." || got[1]["subscribed"] != b {
		t.Fatalf("bob subscribing: %v", got)
	}
	if subs := ce.items(t, "DB#"+a, "LIVE#"); len(subs) != 2 {
		t.Fatalf("subscriptions under the Group's key: %d", len(subs))
	}

	id := create(t, ana, a, customer("Bia"))
	doc := e.Doc(a, id)
	doc["name"] = "Bia Souza"
	ana.Do("PUT", "/api/"+a+"/"+id, doc).Expect(t, http.StatusCreated)
	ce.stream(t)
	for _, conn := range []string{"ana-1", "ana-2"} {
		got := ce.mgmt.take(conn)
		if len(got) != 1 || got[0]["db"] != a || got[0]["id"] != id || got[0]["klass"] != "Customer" || got[0]["seq"] != seqOf(t, ana, a, id) ||
			got[0]["rev"] != e.Doc(a, id)["_rev"] {
			t.Fatalf("%s heard %v (one notice, the newest of the batch, with its revision)", conn, got)
		}
		if _, ok := got[0]["name"]; ok {
			t.Fatalf("a notice carries the document: %v", got[0])
		}
	}
	if got := ce.mgmt.take("bob-1"); len(got) != 0 {
		t.Fatalf("bob heard %v", got)
	}

	// ana-2 went away without a $disconnect: the post finds it gone.
	ce.mgmt.setGone("ana-2")
	create(t, ana, a, customer("Caio"))
	ce.stream(t)
	if got := ce.mgmt.take("ana-1"); len(got) != 1 {
		t.Fatalf("ana-1 heard %v", got)
	}
	if n := len(ce.items(t, "LIVE#ana-2", "LIVE")) + len(ce.items(t, "DB#"+a, "LIVE#ana-2")) + len(ce.items(t, "LIVEUSER#"+ana.ID, "LIVE#ana-2")); n != 0 {
		t.Fatalf("%d items of a gone connection left", n)
	}

	// $disconnect forgets the connection and its subscriptions.
	if _, err := ce.lambda.Handle(t.Context(), events.APIGatewayWebsocketProxyRequest{RequestContext: events.APIGatewayWebsocketProxyRequestContext{EventType: "DISCONNECT", ConnectionID: "ana-1"}}); err != nil {
		t.Fatal(err)
	}
	if n := len(ce.items(t, "LIVE#ana-1", "LIVE")) + len(ce.items(t, "DB#"+a, "LIVE#")) + len(ce.items(t, "DB#"+ana.ID, "LIVE#")) + len(ce.items(t, "LIVEUSER#"+ana.ID, "LIVE#")); n != 0 {
		t.Fatalf("%d items left after $disconnect", n)
	}
	create(t, ana, a, customer("Duda"))
	ce.stream(t)
	if got := ce.mgmt.take("ana-1"); len(got) != 0 {
		t.Fatalf("a closed connection was posted %v", got)
	}
}

// TestCloudRemovedMember: the stream decides a removed member's
// subscriptions again before posting; an ended session is disconnected at
// its next message.
func TestCloudRemovedMember(t *testing.T) {
	ce := newCloudEnv(t)
	e := ce.e
	ana := e.SignUp("ana@example.com")
	a := e.Group(ana, "Oficina da Ana")
	carol := e.SignUp("carol@example.com")
	mem := join(t, ana, carol, a)
	ce.stream(t)
	ce.connect(t, "carol-1", carol)
	ce.message(t, "carol-1", map[string]any{"subscribe": []string{a, carol.ID}})

	removeMember(t, e, ana, a, mem)
	create(t, ana, a, customer("Bia")) // in the same stream batch as the removal
	ce.stream(t)
	refused := false
	for _, m := range ce.mgmt.take("carol-1") {
		if m["db"] == a {
			t.Fatalf("removed, carol heard %v", m)
		}
		refused = refused || m["refused"] == a
	}
	if !refused {
		t.Fatal("carol's subscription was not refused")
	}
	if subs := ce.items(t, "DB#"+a, "LIVE#"); len(subs) != 0 {
		t.Fatalf("the refused subscription is still recorded: %v", subs)
	}

	// The keep-alive is not answered (a pong would be a second billed
	// message), and a signed-out session is disconnected.
	if got := ce.message(t, "carol-1", map[string]any{"ping": 7}); len(got) != 0 {
		t.Fatalf("ping answered: %v", got)
	}
	carol.Do("DELETE", "/api/_session", nil).Expect(t, http.StatusOK)
	ce.message(t, "carol-1", map[string]any{"ping": 8})
	if len(ce.mgmt.cut) != 1 || ce.mgmt.cut[0] != "carol-1" || len(ce.items(t, "LIVE#carol-1", "LIVE")) != 0 {
		t.Fatalf("after signing out: disconnected %v", ce.mgmt.cut)
	}
}
