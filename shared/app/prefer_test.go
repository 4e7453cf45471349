package app_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/ids"
)

// TestSaveReturnsRepresentation: with "Prefer: return=representation" a
// document's save (POST and PUT, create and update) also answers the
// document as stored, exactly what a GET then reads (the server's stamps,
// a ticket's number and status history); without it the answer stays
// CouchDB's {"id","ok","rev"}. A refused save answers its error alone.
func TestSaveReturnsRepresentation(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		c := e.SignUp("ana@example.com")
		db := e.Group(c, "Oficina")
		prefer := []string{"Prefer", "return=representation"}
		check := func(step string, r apptest.Response) string {
			t.Helper()
			if r.Code != http.StatusCreated || r.Header.Get("Preference-Applied") != "return=representation" {
				t.Fatalf("%s: %d %q %s", step, r.Code, r.Header.Get("Preference-Applied"), r.Body)
			}
			var got struct {
				ID, Rev string
				OK      bool
				Doc     json.RawMessage
			}
			if err := json.Unmarshal(r.Body, &got); err != nil || !got.OK || got.ID == "" || r.Header.Get("ETag") != `"`+got.Rev+`"` {
				t.Fatalf("%s: %v %s", step, err, r.Body)
			}
			read := c.Do("GET", "/api/"+db+"/"+got.ID, nil)
			if read.Code != http.StatusOK || !bytes.Equal(bytes.TrimSpace(read.Body), got.Doc) {
				t.Fatalf("%s: the answer's doc\n%s\nis not what GET reads\n%s", step, got.Doc, read.Body)
			}
			return got.Rev
		}
		ticket := map[string]any{"klass": "Ticket", "content": "Troca de embreagem", "status": "open", "priority": "high"}
		r := c.Do("POST", "/api/"+db, ticket, prefer...)
		rev := check("POST a ticket", r)
		var created map[string]any
		_ = json.Unmarshal(r.Body, &created)
		doc := created["doc"].(map[string]any)
		if doc["number"] == nil || doc["created_by"] == nil || doc["status_history"] == nil {
			t.Fatalf("the ticket's answer lacks the server's fields: %v", doc)
		}
		id := doc["_id"].(string)
		check("PUT the ticket moved on", c.Do("PUT", "/api/"+db+"/"+id+"?rev="+rev, map[string]any{"klass": "Ticket", "content": "Troca de embreagem", "status": "doing", "priority": "high"}, "Prefer", "handling=lenient, return=representation"))
		check("PUT a new customer", c.Do("PUT", "/api/"+db+"/"+ids.New("cus"), map[string]any{"klass": "Customer", "name": "Ana"}, prefer...))

		plain := c.Do("POST", "/api/"+db, map[string]any{"klass": "Customer", "name": "Bia"})
		var couch map[string]any
		if err := json.Unmarshal(plain.Body, &couch); err != nil || plain.Code != http.StatusCreated || len(couch) != 3 || plain.Header.Get("Preference-Applied") != "" {
			t.Fatalf("without Prefer: %d %s", plain.Code, plain.Body)
		}
		stale := c.Do("PUT", "/api/"+db+"/"+id+"?rev="+rev, map[string]any{"klass": "Ticket", "content": "x", "status": "open"}, prefer...)
		if stale.Code != http.StatusConflict || bytes.Contains(stale.Body, []byte(`"doc"`)) {
			t.Fatalf("a stale save: %d %s", stale.Code, stale.Body)
		}
	})
}
