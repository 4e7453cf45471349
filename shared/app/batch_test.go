package app_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
)

// batchAnswers posts reads to /api/_batch and returns each read's status and body.
func batchAnswers(t *testing.T, c *apptest.Client, reads ...map[string]any) []struct {
	Status int
	Body   json.RawMessage
} {
	t.Helper()
	r := c.Do("POST", "/api/_batch", map[string]any{"requests": reads})
	if r.Code != http.StatusOK {
		t.Fatalf("batch: %d %s", r.Code, r.Body)
	}
	var out struct {
		Responses []struct {
			Status int
			Body   json.RawMessage
		}
	}
	if err := json.Unmarshal(r.Body, &out); err != nil || len(out.Responses) != len(reads) {
		t.Fatalf("batch answer: %v %s", err, r.Body)
	}
	return out.Responses
}

func get(path string) map[string]any { return map[string]any{"method": "GET", "path": path} }

// TestBatchAnswersEachReadAsAlone: a batch's reads are answered with the
// status and body each gets when asked alone (a document, a _find, a view,
// a missing document, a read refused), in the order asked.
func TestBatchAnswersEachReadAsAlone(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ana := e.SignUp("ana@example.com")
		bob := e.SignUp("bob@example.com")
		db := e.Group(ana, "Oficina da Ana")
		other := e.Group(bob, "Oficina do Bob")
		tik := ana.Do("POST", "/api/"+db, map[string]any{"klass": "Ticket", "content": "Trocar a tela", "priority": "high", "status": "open"}).Expect(t, http.StatusCreated)["id"].(string)
		ana.Do("POST", "/api/"+db, map[string]any{"klass": "Comment", "content": "Tela pedida", "item_id": tik, "item_type": "Ticket"}).Expect(t, http.StatusCreated)
		e.Drain()
		find := map[string]any{"selector": map[string]any{"klass": "Comment", "item_id": tik}, "sort": []any{map[string]any{"created_at": "desc"}}, "limit": 50}
		reads := []struct {
			method, path string
			body         any
		}{
			{"GET", "/api/" + db + "/" + tik, nil},
			{"POST", "/api/" + db + "/_find", find},
			{"GET", "/api/" + db + "/_design/count-by-open-ticket-priority/_view/all?group_level=0", nil},
			{"GET", "/api/" + db + "/tik-00000000000000000000000000000000", nil},
			{"GET", "/api/" + other + "/_all_docs", nil},
			{"GET", "/api/" + db + "/_changes?since=0&limit=2", nil},
		}
		var asked []map[string]any
		for _, r := range reads {
			q := map[string]any{"method": r.method, "path": r.path}
			if r.body != nil {
				q["body"] = r.body
			}
			asked = append(asked, q)
		}
		got := batchAnswers(t, ana, asked...)
		for i, r := range reads {
			alone := ana.Do(r.method, r.path, r.body)
			if got[i].Status != alone.Code {
				t.Errorf("%s %s: %d in the batch, %d alone", r.method, r.path, got[i].Status, alone.Code)
			}
			var a, b any
			_ = json.Unmarshal(got[i].Body, &a)
			_ = json.Unmarshal(alone.Body, &b)
			if fmt.Sprint(a) != fmt.Sprint(b) {
				t.Errorf("%s %s:\nbatch %s\nalone %s", r.method, r.path, got[i].Body, alone.Body)
			}
		}
		if got[0].Status != http.StatusOK || got[3].Status != http.StatusNotFound || got[4].Status != http.StatusForbidden && got[4].Status != http.StatusNotFound {
			t.Fatalf("statuses %d %d %d", got[0].Status, got[3].Status, got[4].Status)
		}
		if strings.Contains(string(got[4].Body), other) {
			t.Fatalf("another Group's db in the answer: %s", got[4].Body)
		}

		// A read whose answer is not JSON (a PDF) is asked alone.
		pdf := batchAnswers(t, ana, get("/api/"+db+"/_tickets/"+tik+"/receipt.pdf?locale=en"))
		if pdf[0].Status != http.StatusNotAcceptable || !strings.Contains(string(pdf[0].Body), "request it alone") {
			t.Fatalf("a PDF in a batch: %d %s", pdf[0].Status, pdf[0].Body)
		}
		// Anonymous: each read is refused as it would be alone.
		anon := batchAnswers(t, e.Anonymous(), get("/api/"+db+"/"+tik))
		if anon[0].Status != http.StatusUnauthorized {
			t.Fatalf("anonymous read: %d %s", anon[0].Status, anon[0].Body)
		}
	})
}

// TestBatchRefusesWhatIsNotAReadList: a batch of anything but reads, or a
// malformed one, is refused whole with a clear error and changes nothing.
func TestBatchRefusesWhatIsNotAReadList(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ana := e.SignUp("ana@example.com")
		db := e.Group(ana, "Oficina da Ana")
		tik := ana.Do("POST", "/api/"+db, map[string]any{"klass": "Ticket", "content": "Trocar a tela", "priority": "high", "status": "open"}).Expect(t, http.StatusCreated)["id"].(string)
		e.Drain()
		doc := e.Doc(db, tik)
		many := make([]any, 21)
		for i := range many {
			many[i] = get("/api/" + db + "/" + tik)
		}
		cases := []struct {
			name   string
			body   any
			reason string
		}{
			{"malformed JSON", `{"requests": [`, ""},
			{"not an object", `[1, 2]`, ""},
			{"no reads", map[string]any{"requests": []any{}}, "from 1 to 20"},
			{"21 reads", map[string]any{"requests": many}, "from 1 to 20"},
			{"a PUT", map[string]any{"requests": []any{map[string]any{"method": "PUT", "path": "/api/" + db + "/" + tik, "body": doc}}}, "GET or POST"},
			{"a write by POST", map[string]any{"requests": []any{map[string]any{"method": "POST", "path": "/api/" + db, "body": map[string]any{"klass": "Ticket", "content": "x"}}}}, "_find and _all_docs"},
			{"an update handler", map[string]any{"requests": []any{map[string]any{"method": "POST", "path": "/api/" + db + "/_design/status/_update/x", "body": map[string]any{}}}}, "_find and _all_docs"},
			{"a DELETE", map[string]any{"requests": []any{map[string]any{"method": "DELETE", "path": "/api/" + db + "/" + tik + "?rev=" + doc["_rev"].(string)}}}, "GET or POST"},
			{"a batch in a batch", map[string]any{"requests": []any{map[string]any{"method": "POST", "path": "/api/_batch", "body": map[string]any{}}}}, "cannot be batched"},
			{"the live channel", map[string]any{"requests": []any{get("/api/_live")}}, "cannot be batched"},
			{"a long poll", map[string]any{"requests": []any{get("/api/" + db + "/_changes?feed=longpoll&since=now")}}, "normal _changes"},
			{"another host", map[string]any{"requests": []any{get("https://evil.example/api/" + db)}}, "/api/ path"},
			{"outside the API", map[string]any{"requests": []any{get("/metrics")}}, "/api/ path"},
			{"a climb out", map[string]any{"requests": []any{get("/api/../../etc/passwd")}}, "/api/ path"},
			{"a GET with a body", map[string]any{"requests": []any{map[string]any{"method": "GET", "path": "/api/" + db, "body": map[string]any{}}}}, "no body"},
			{"a _find without JSON", map[string]any{"requests": []any{map[string]any{"method": "POST", "path": "/api/" + db + "/_find"}}}, "body must be JSON"},
			{"a wrong type", map[string]any{"requests": []any{map[string]any{"method": 1, "path": "/api/" + db}}}, ""},
		}
		e.Unchanged(db, func() {
			for _, c := range cases {
				r := ana.Do("POST", "/api/_batch", c.body)
				if r.Code != http.StatusBadRequest {
					t.Errorf("%s: %d %s", c.name, r.Code, r.Body)
					continue
				}
				r.ExpectError(t, http.StatusBadRequest, c.reason)
			}
		})
		if got := e.Doc(db, tik); got["_rev"] != doc["_rev"] {
			t.Fatalf("the ticket changed: %v", got)
		}
	})
}
