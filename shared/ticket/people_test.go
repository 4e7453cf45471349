package ticket_test

import (
	"net/http"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
)

// people reads GET /api/{db}/_members as c.
func people(t *testing.T, c *apptest.Client, db string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, p := range c.Do("GET", "/api/"+db+"/_members", nil).Expect(t, http.StatusOK)["people"].([]any) {
		out = append(out, p.(map[string]any))
	}
	return out
}

// TestAssignPeople (issue 22 item 1): technicians and reviewers are the
// Group's members by their own names — never the Group's name, which every
// membership record carries — and a member who left stays named on the
// tickets assigned to them, marked as gone, while those tickets still move.
func TestAssignPeople(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		s := newShop(t, e)
		got := people(t, s.bia, s.db)
		if len(got) != 2 || got[0]["name"] != "ana" || got[0]["user_id"] != s.ana.ID || got[0]["admin"] != true ||
			got[1]["name"] != "bia" || got[1]["user_id"] != s.bia.ID || got[1]["left"] != nil {
			t.Fatalf("members: %v", got)
		}
		for _, p := range got {
			if p["name"] == "Oficina da Ana" {
				t.Fatalf("a member is named after the Group: %v", got)
			}
		}
		// A user's new name shows at once.
		u := s.bia.Do("GET", "/api/_users/"+s.bia.ID, nil).Expect(t, http.StatusOK)
		s.bia.Do("PUT", "/api/_users/"+s.bia.ID+"?rev="+u["_rev"].(string), map[string]any{"fullname": "Bia Técnica", "current_password": apptest.Password}).Expect(t, http.StatusCreated)
		if got := people(t, s.ana, s.db); got[1]["name"] != "Bia Técnica" {
			t.Fatalf("renamed: %v", got)
		}
		// Only members ask; another Group's people are not listed; a personal db has none.
		s.zed.Do("GET", "/api/"+s.db+"/_members", nil).ExpectError(t, http.StatusForbidden, "You are not allowed to access this data.")
		s.bia.Do("GET", "/api/"+s.bia.ID+"/_members", nil).Expect(t, http.StatusNotFound)

		id := s.ticket(t, map[string]any{"technical_id": s.bia.ID, "reviewer_id": s.ana.ID})
		mems := s.ana.Do("POST", "/api/"+s.db+"/_find", map[string]any{"selector": map[string]any{"klass": "Membership", "user_id": s.bia.ID}}).Expect(t, http.StatusOK)["docs"].([]any)
		mem := mems[0].(map[string]any)
		s.ana.Do("DELETE", "/api/"+s.db+"/"+mem["_id"].(string)+"?rev="+mem["_rev"].(string), nil).Expect(t, http.StatusOK)

		got = people(t, s.ana, s.db)
		if len(got) != 2 || got[0]["user_id"] != s.ana.ID || got[1]["user_id"] != s.bia.ID || got[1]["left"] != true || got[1]["name"] != "Bia Técnica" || got[1]["email"] != nil {
			t.Fatalf("after bia left: %v", got)
		}
		// The ticket keeps its technician and still moves on.
		s.put(s.ana, id, map[string]any{"status": "doing"}).Expect(t, http.StatusCreated)
		if d := e.Doc(s.db, id); d["technical_id"] != s.bia.ID || d["status"] != "doing" {
			t.Fatalf("ticket after the technician left: %v", d)
		}
		// But nobody newly assigns someone who left, on any route.
		other := s.create(t, s.ana, map[string]any{"klass": "Ticket", "content": "Outro"})
		e.Unchanged(s.db, func() {
			s.put(s.ana, other, map[string]any{"technical_id": s.bia.ID}).ExpectFields(t, "technical_id", "must exist")
			s.ana.Do("POST", "/api/"+s.db, map[string]any{"klass": "Ticket", "content": "x", "reviewer_id": s.bia.ID}).ExpectFields(t, "reviewer_id", "must exist")
		})
		// Coming back makes them a member again, listed once.
		e.Join(s.ana, s.bia, s.db, false)
		got = people(t, s.ana, s.db)
		if len(got) != 2 || got[1]["user_id"] != s.bia.ID || got[1]["left"] != nil {
			t.Fatalf("after bia came back: %v", got)
		}
	})
}
