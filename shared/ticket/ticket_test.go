package ticket_test

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"sync"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/stream"
	"github.com/oficina/oficina/shared/ticket"
)

func TestMain(m *testing.M) { os.Exit(apptest.Main(m)) }

// shop is a Group with an admin, a technician member, a customer with an
// equipment, and another Group with its own customer.
type shop struct {
	e                       *apptest.Env
	ana, bia, zed           *apptest.Client
	db, other               string
	customer, equipment     string
	otherCustomer, category string
}

func newShop(t *testing.T, e *apptest.Env) *shop {
	s := &shop{e: e}
	s.ana, s.bia, s.zed = e.SignUp("ana@example.com"), e.SignUp("bia@example.com"), e.SignUp("zed@example.com")
	s.db = e.Group(s.ana, "Oficina da Ana")
	e.Join(s.ana, s.bia, s.db, false)
	s.setting(t, "country", "BR") // a Brazilian shop: phones are read as Brazilian numbers
	s.other = e.Group(s.zed, "Zed Reparos")
	s.customer = s.create(t, s.ana, map[string]any{"klass": "Customer", "name": "Cida Campos", "phones": []any{map[string]any{"number": "11 98888-7777", "main": true}}})
	s.equipment = s.create(t, s.ana, map[string]any{"klass": "Equipment", "identifier": "SN-123", "maker": "Câmera Sôny", "customer_id": s.customer})
	s.category = s.create(t, s.ana, map[string]any{"klass": "Category", "name": "Troca de tela", "color": "#FF0000", "checklist": "Desmontar\n\n  Trocar a tela \nTestar"})
	s.otherCustomer = s.createIn(t, s.zed, s.other, map[string]any{"klass": "Customer", "name": "Cliente do Zed"})
	return s
}

func (s *shop) create(t *testing.T, c *apptest.Client, body map[string]any) string {
	return s.createIn(t, c, s.db, body)
}

func (s *shop) createIn(t *testing.T, c *apptest.Client, db string, body map[string]any) string {
	t.Helper()
	return c.Do("POST", "/api/"+db, body).Expect(t, http.StatusCreated)["id"].(string)
}

func (s *shop) ticket(t *testing.T, fields map[string]any) string {
	t.Helper()
	body := map[string]any{"klass": "Ticket", "content": "Tela quebrada\nNão liga"}
	for k, v := range fields {
		body[k] = v
	}
	return s.create(t, s.bia, body)
}

// put updates a document of the shop with fields, as c.
func (s *shop) put(c *apptest.Client, id string, fields map[string]any) apptest.Response {
	cur := s.e.Doc(s.db, id)
	for k, v := range fields {
		cur[k] = v
	}
	return c.Do("PUT", "/api/"+s.db+"/"+id, cur)
}

func (s *shop) setting(t *testing.T, key, value string) {
	t.Helper()
	r := s.ana.Do("POST", "/api/"+s.db+"/_find", map[string]any{"selector": map[string]any{"klass": "Adjustment", "key": key}}).Expect(t, http.StatusOK)
	adj := r["docs"].([]any)[0].(map[string]any)
	adj["value"] = value
	s.ana.Do("PUT", "/api/"+s.db+"/"+adj["_id"].(string), adj).Expect(t, http.StatusCreated)
}

// TestTicketRules: every rule refuses the same bad input on each write
// route (POST, PUT, _bulk_docs) with a field error, writing nothing.
func TestTicketRules(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		s := newShop(t, e)
		cases := []struct {
			name, field, msg string
			body             map[string]any
		}{
			{"no problem reported", "content", "can't be blank", map[string]any{"content": "  "}},
			{"unknown priority", "priority", "not in allowed list", map[string]any{"priority": "urgent"}},
			{"unknown status", "status", "not in allowed list", map[string]any{"status": "lost"}},
			{"unknown kind", "ticket_kind", "not in allowed list", map[string]any{"ticket_kind": "epic"}},
			{"unknown customer", "customer_id", "must exist", map[string]any{"customer_id": ids.New("cus")}},
			{"another Group's customer", "customer_id", "must exist", map[string]any{"customer_id": s.otherCustomer}},
			{"a customer id naming a category", "customer_id", "must exist", map[string]any{"customer_id": s.category}},
			{"a technician who is not a member", "technical_id", "must exist", map[string]any{"technical_id": s.zed.ID}},
			{"a reviewer who does not exist", "reviewer_id", "must exist", map[string]any{"reviewer_id": ids.New("usr")}},
			{"an equipment of another customer", "equipment_id", "belongs to another customer",
				map[string]any{"customer_id": s.create(t, s.ana, map[string]any{"klass": "Customer", "name": "Outro"}), "equipment_id": s.equipment}},
			{"a bad estimated date", "estimation", "is invalid", map[string]any{"estimation": "amanhã"}},
		}
		for _, c := range cases {
			body := map[string]any{"klass": "Ticket", "content": "Tela quebrada"}
			maps.Copy(body, c.body)
			e.WriteRefused(t, s.bia, s.db, "tik", c.name, body, c.field, c.msg)
		}
	})
}

// TestTicketDerivedFields: number, title and status time are the server's.
func TestTicketDerivedFields(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		s := newShop(t, e)
		long := "A tela do aparelho chegou quebrada em três lugares diferentes e o cliente pediu orçamento urgente"
		id := s.ticket(t, map[string]any{"number": 999, "title": "forged", "content": long, "customer_id": s.customer, "equipment_id": s.equipment, "technical_id": s.bia.ID})
		d := e.Doc(s.db, id)
		if d["number"] != float64(1) || d["title"] != []any{long}[0].(string)[:60] && d["title"] != string([]rune(long)[:60]) {
			t.Fatalf("number %v title %q", d["number"], d["title"])
		}
		if d["status"] != "open" || d["priority"] != "medium" || d["status_at"] != d["created_at"] {
			t.Fatalf("defaults: %v", d)
		}
		second := s.ticket(t, nil)
		if got := e.Doc(s.db, second); got["number"] != float64(2) || got["title"] != "Tela quebrada" {
			t.Fatalf("second ticket %v %q", got["number"], got["title"])
		}
		// An update keeps the number whatever the client sends, and re-derives the title.
		s.put(s.bia, id, map[string]any{"number": 7, "content": "Só a bateria"}).Expect(t, http.StatusCreated)
		if got := e.Doc(s.db, id); got["number"] != float64(1) || got["title"] != "Só a bateria" {
			t.Fatalf("after update: %v %q", got["number"], got["title"])
		}
	})
}

// TestStatusMatrix: the allowed moves go through, the others are refused
// with a field error and write nothing; close and open are history events.
func TestStatusMatrix(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		s := newShop(t, e)
		id := s.ticket(t, nil)
		walk := []struct {
			to string
			ok bool
		}{
			{"review", false}, {"doing", true}, {"review", true}, {"done", true}, {"doing", false},
			{"cancel", false}, {"open", true}, {"block", true}, {"done", false}, {"cancel", true}, {"open", true},
		}
		for _, step := range walk {
			from := e.Doc(s.db, id)["status"]
			r := s.put(s.bia, id, map[string]any{"status": step.to})
			if step.ok {
				r.Expect(t, http.StatusCreated)
				if got := e.Doc(s.db, id); got["status_at"] != got["updated_at"] {
					t.Fatalf("%v → %s: status_at %v, updated_at %v", from, step.to, got["status_at"], got["updated_at"])
				}
				continue
			}
			e.Unchanged(s.db, func() {
				s.put(s.bia, id, map[string]any{"status": step.to}).ExpectFields(t, "status", ticket.MsgTransition)
			})
		}
		e.Drain()
		hist := s.ana.Do("POST", "/api/"+s.db+"/_find", map[string]any{
			"selector": map[string]any{"klass": "DocumentChange", "item_id": id}, "sort": []any{map[string]any{"seq": "asc"}}, "limit": 100,
		}).Expect(t, http.StatusOK)["docs"].([]any)
		var events []string
		for _, h := range hist {
			for _, ev := range h.(map[string]any)["events"].([]any) {
				if ev == "close" || ev == "open" {
					events = append(events, ev.(string))
				}
			}
		}
		if want := []string{"close", "open", "close", "open"}; !slices.Equal(events, want) {
			t.Fatalf("close/open events %v, want %v", events, want)
		}
		if !ticket.CanMove("done", "open") || ticket.CanMove("done", "doing") || ticket.CanMove("open", "review") {
			t.Fatal("matrix")
		}
	})
}

// TestRelateEquipment: an equipment of another customer is accepted only
// when the ticket asks to relate it, and then it changes owner.
func TestRelateEquipment(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		s := newShop(t, e)
		other := s.create(t, s.ana, map[string]any{"klass": "Customer", "name": "Dora"})
		s.ticket(t, map[string]any{"customer_id": other, "equipment_id": s.equipment, "relate_equipment_to_customer": true})
		if got := e.Doc(s.db, s.equipment)["customer_id"]; got != other {
			t.Fatalf("equipment owner %v, want %s", got, other)
		}
		eq := e.Doc(s.db, s.equipment)
		if eq["search"] != "sn-123 camera sony" {
			t.Fatalf("equipment search %q", eq["search"])
		}
	})
}

// TestTicketNumbers: 50 concurrent creates get 50 distinct consecutive
// numbers, on both stores.
func TestTicketNumbers(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		s := newShop(t, e)
		const n = 50
		got := make([]string, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c := s.bia
				if i%2 == 0 {
					c = s.ana
				}
				r := c.Do("POST", "/api/"+s.db, map[string]any{"klass": "Ticket", "content": fmt.Sprintf("ticket %d", i)})
				if r.Code != http.StatusCreated {
					t.Errorf("create %d: %d %s", i, r.Code, r.Body)
					return
				}
				got[i] = r.JSON(t)["id"].(string)
			}()
		}
		wg.Wait()
		var numbers []int
		for _, id := range got {
			numbers = append(numbers, int(e.Doc(s.db, id)["number"].(float64)))
		}
		slices.Sort(numbers)
		for i, num := range numbers {
			if num != i+1 {
				t.Fatalf("numbers %v, want 1..%d", numbers, n)
			}
		}
	})
}

// TestChecklist: with the feature on, a ticket of a category gets the
// category's lines; ticking moves the ticket's progress; a category change
// never drops ticked items unless asked.
func TestChecklist(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		s := newShop(t, e)
		// On in a new Group (issue 22 item 3): the first ticket of a category gets its lines.
		first := s.ticket(t, map[string]any{"category_id": s.category})
		if p, _ := e.Doc(s.db, first)["checklist"].(map[string]any); p["total"] != float64(3) {
			t.Fatalf("a new Group's first ticket: checklist %v", p)
		}
		// Turned off: no checklist.
		s.setting(t, "checklist", "disabled")
		off := s.ticket(t, map[string]any{"category_id": s.category})
		if _, ok := e.Doc(s.db, off)["checklist"]; ok {
			t.Fatal("a checklist with the feature off")
		}
		// Only an admin may switch it on.
		e.Unchanged(s.db, func() {
			r := s.bia.Do("POST", "/api/"+s.db+"/_find", map[string]any{"selector": map[string]any{"klass": "Adjustment", "key": "checklist"}}).Expect(t, http.StatusOK)
			adj := r["docs"].([]any)[0].(map[string]any)
			adj["value"] = "enabled"
			s.bia.Do("PUT", "/api/"+s.db+"/"+adj["_id"].(string), adj).ExpectError(t, http.StatusForbidden, "")
		})
		s.setting(t, "checklist", "enabled")
		id := s.ticket(t, map[string]any{"category_id": s.category})
		tk := e.Doc(s.db, id)
		cl := s.bia.Do("POST", "/api/"+s.db+"/_find", map[string]any{"selector": map[string]any{"klass": "TicketChecklist", "ticket": id}}).Expect(t, http.StatusOK)["docs"].([]any)
		if len(cl) != 1 {
			t.Fatalf("%d checklists", len(cl))
		}
		chk := cl[0].(map[string]any)
		items := chk["payload"].([]any)
		if len(items) != 3 || items[1].(map[string]any)["text"] != "Trocar a tela" {
			t.Fatalf("checklist %v", items)
		}
		_ = tk
		toggle := func(c *apptest.Client, index int, text string, done bool) apptest.Response {
			return c.Do("PUT", "/api/"+s.db+"/_design/checklist/_update/toggle/"+chk["_id"].(string), map[string]any{"index": index, "text": text, "done": done})
		}
		r := toggle(s.bia, 1, "Trocar a tela", true).Expect(t, http.StatusOK)
		if p := r["progress"].(map[string]any); p["done"] != float64(1) || p["total"] != float64(3) {
			t.Fatalf("progress %v", p)
		}
		if p := e.Doc(s.db, id)["checklist"].(map[string]any); p["done"] != float64(1) || p["total"] != float64(3) {
			t.Fatalf("the ticket's progress %v", p)
		}
		e.Unchanged(s.db, func() {
			toggle(s.bia, 7, "x", true).ExpectFields(t, "index", "is invalid")
			toggle(s.bia, 0, "Not that one", true).ExpectError(t, http.StatusConflict, "")
			toggle(s.zed, 0, "Desmontar", true).ExpectError(t, http.StatusForbidden, "")
			s.bia.Do("PUT", "/api/"+s.db+"/_design/checklist/_update/toggle/"+id, map[string]any{"index": 0, "done": true}).ExpectError(t, http.StatusNotFound, "")
		})
		// A new category keeps the ticked item and adds the new lines.
		other := s.create(t, s.ana, map[string]any{"klass": "Category", "name": "Bateria", "checklist": "Trocar a bateria\nTestar"})
		s.put(s.bia, id, map[string]any{"category_id": other}).Expect(t, http.StatusCreated)
		got := itemsOf(t, e, s.db, chk["_id"].(string))
		if want := []string{"Desmontar", "Trocar a tela*", "Testar", "Trocar a bateria"}; !slices.Equal(got, want) {
			t.Fatalf("merged checklist %v, want %v", got, want)
		}
		// Asked to, a category change replaces it.
		s.put(s.bia, id, map[string]any{"category_id": s.category, "checklist_replace": true}).Expect(t, http.StatusCreated)
		if got := itemsOf(t, e, s.db, chk["_id"].(string)); !slices.Equal(got, []string{"Desmontar", "Trocar a tela", "Testar"}) {
			t.Fatalf("replaced checklist %v", got)
		}
		if _, stored := e.Doc(s.db, id)["checklist_replace"]; stored {
			t.Fatal("the one-off instruction was stored")
		}
	})
}

func itemsOf(t *testing.T, e *apptest.Env, db, id string) []string {
	t.Helper()
	var out []string
	for _, it := range e.Doc(db, id)["payload"].([]any) {
		m := it.(map[string]any)
		s := m["text"].(string)
		if m["done"] == true {
			s += "*"
		}
		out = append(out, s)
	}
	return out
}

// TestComments: a comment names a record of its Group; the server stamps
// author, date and the record's klass; only the author changes it.
func TestComments(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		s := newShop(t, e)
		tk := s.ticket(t, nil)
		id := s.create(t, s.bia, map[string]any{"klass": "Comment", "content": "Peça encomendada", "item_id": tk, "user": map[string]any{"_id": s.ana.ID}, "item_type": "Invoice"})
		c := e.Doc(s.db, id)
		if c["item_type"] != "Ticket" || c["user"].(map[string]any)["_id"] != s.bia.ID || c["date"] != c["created_at"] {
			t.Fatalf("comment %v", c)
		}
		e.Unchanged(s.db, func() {
			s.bia.Do("POST", "/api/"+s.db, map[string]any{"klass": "Comment", "content": "x", "item_id": s.otherCustomer}).ExpectFields(t, "item_id", "must exist")
			s.bia.Do("POST", "/api/"+s.db, map[string]any{"klass": "Comment", "content": "x", "item_id": ids.New("tik")}).ExpectFields(t, "item_id", "must exist")
			s.bia.Do("POST", "/api/"+s.db, map[string]any{"klass": "Comment", "content": "", "item_id": tk}).ExpectFields(t, "content", "can't be blank")
		})
		// Another member may not edit it; an admin may; the author may.
		cur := e.Doc(s.db, id)
		cur["content"] = "edited"
		s.bia.Do("PUT", "/api/"+s.db+"/"+id, cur).Expect(t, http.StatusCreated)
		bob := e.SignUp("bob@example.com")
		e.Join(s.ana, bob, s.db, false)
		cur = e.Doc(s.db, id)
		cur["content"] = "not mine"
		e.Unchanged(s.db, func() {
			bob.Do("PUT", "/api/"+s.db+"/"+id, cur).ExpectError(t, http.StatusForbidden, ticket.MsgCommentAuthor)
			bob.Do("DELETE", "/api/"+s.db+"/"+id+"?rev="+cur["_rev"].(string), nil).ExpectError(t, http.StatusForbidden, ticket.MsgCommentAuthor)
		})
		s.ana.Do("PUT", "/api/"+s.db+"/"+id, cur).Expect(t, http.StatusCreated)
		e.Drain()
		hist := s.ana.Do("POST", "/api/"+s.db+"/_find", map[string]any{"selector": map[string]any{"klass": "DocumentChange", "item_id": id, "event": "create"}}).Expect(t, http.StatusOK)["docs"].([]any)
		if len(hist) != 1 || !slices.Contains(hist[0].(map[string]any)["events"].([]any), any("comment")) {
			t.Fatalf("history of the comment: %v", hist)
		}
	})
}

// TestCountsUnderReplay: after random creates, moves and deletes, the
// ticket counts equal a recount, a shuffled redelivery moves nothing, and
// the by-status view agrees with the documents.
func TestCountsUnderReplay(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		s := newShop(t, e)
		r := rand.New(rand.NewPCG(11, 12))
		var live []string
		for i := range 60 {
			switch {
			case len(live) < 5 || r.IntN(3) == 0:
				live = append(live, s.ticket(t, map[string]any{"priority": ticket.Priorities[r.IntN(3)]}))
			case r.IntN(4) == 0:
				j := r.IntN(len(live))
				d := e.Doc(s.db, live[j])
				s.bia.Do("DELETE", "/api/"+s.db+"/"+live[j]+"?rev="+d["_rev"].(string), nil).Expect(t, http.StatusOK)
				live = slices.Delete(live, j, j+1)
			default:
				id := live[r.IntN(len(live))]
				cur := e.Doc(s.db, id)["status"].(string)
				next := ticket.Transitions(cur)
				s.put(s.bia, id, map[string]any{"status": next[r.IntN(len(next))], "priority": ticket.Priorities[i%3]}).Expect(t, http.StatusCreated)
			}
		}
		before := e.CheckCounts(s.db)
		e.Replay(3)
		after := e.CheckCounts(s.db)
		if fmt.Sprint(before) != fmt.Sprint(after) {
			t.Fatalf("a replay moved the counts:\n%v\n%v", before, after)
		}
		byStatus := map[string]int64{}
		for _, id := range live {
			byStatus[e.Doc(s.db, id)["status"].(string)]++
		}
		if got := after.Tally(ticket.TallyByStatus); fmt.Sprint(got) != fmt.Sprint(byStatus) {
			t.Fatalf("by status %v, want %v", got, byStatus)
		}
		if after.Klass["Ticket"].Records != int64(len(live)) {
			t.Fatalf("%d tickets counted, %d live", after.Klass["Ticket"].Records, len(live))
		}
		_ = stream.Counts{}
	})
}

// TestBoard: the open tickets, the latest closed ones, exact counts and
// the customers' names, to members only.
func TestBoard(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		s := newShop(t, e)
		open := s.ticket(t, map[string]any{"customer_id": s.customer})
		doing := s.ticket(t, map[string]any{"status": "doing"})
		var closed []string
		for range 3 {
			id := s.ticket(t, map[string]any{"status": "doing"})
			s.put(s.bia, id, map[string]any{"status": "done"}).Expect(t, http.StatusCreated)
			closed = append(closed, id)
		}
		e.Drain()
		b := s.bia.Do("GET", "/api/"+s.db+"/_tickets/board?closed=2", nil).Expect(t, http.StatusOK)
		var got []string
		for _, d := range b["tickets"].([]any) {
			got = append(got, d.(map[string]any)["_id"].(string))
		}
		if want := []string{open, doing, closed[2], closed[1]}; !slices.Equal(got, want) {
			t.Fatalf("board tickets %v, want %v", got, want)
		}
		counts := b["counts"].(map[string]any)
		if counts["open"] != float64(1) || counts["doing"] != float64(1) || counts["done"] != float64(3) {
			t.Fatalf("counts %v", counts)
		}
		if b["customers"].(map[string]any)[s.customer] != "Cida Campos" {
			t.Fatalf("customers %v", b["customers"])
		}
		s.zed.Do("GET", "/api/"+s.db+"/_tickets/board", nil).ExpectError(t, http.StatusForbidden, "")
		s.bia.Do("GET", "/api/"+s.db+"/_tickets/board?closed=9999", nil).ExpectError(t, http.StatusBadRequest, "closed")
	})
}

// TestChecklistsForOpenTickets (issue 22 item 3): turning checklists on
// offers to give the open tickets of categories with lines the checklist
// they missed; the offer counts them, giving them runs once (again: none),
// and closed tickets, tickets without a category or with a category
// without lines, and tickets that have one are left alone. Admins only.
func TestChecklistsForOpenTickets(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		s := newShop(t, e)
		had := s.ticket(t, map[string]any{"category_id": s.category})
		s.setting(t, "checklist", "disabled")
		blank := s.create(t, s.ana, map[string]any{"klass": "Category", "name": "Sem lista"})
		a := s.ticket(t, map[string]any{"category_id": s.category})
		b := s.ticket(t, map[string]any{"category_id": s.category, "priority": "high"})
		closed := s.ticket(t, map[string]any{"category_id": s.category})
		s.put(s.bia, closed, map[string]any{"status": "done"}).Expect(t, http.StatusCreated)
		none := s.ticket(t, nil)
		noLines := s.ticket(t, map[string]any{"category_id": blank})
		url := "/api/" + s.db + "/_tickets/checklists"

		if n := s.ana.Do("GET", url, nil).Expect(t, http.StatusOK)["tickets"]; n != float64(2) {
			t.Fatalf("offer counts %v, want 2", n)
		}
		e.Unchanged(s.db, func() {
			s.bia.Do("GET", url, nil).ExpectError(t, http.StatusForbidden, "")
			s.bia.Do("POST", url, map[string]any{}).ExpectError(t, http.StatusForbidden, "")
			s.ana.Do("POST", url, map[string]any{}).ExpectFields(t, "checklist", "is disabled")
			s.zed.Do("POST", url, map[string]any{}).ExpectError(t, http.StatusForbidden, "")
		})
		s.setting(t, "checklist", "enabled")
		if n := s.ana.Do("POST", url, map[string]any{}).Expect(t, http.StatusOK)["added"]; n != float64(2) {
			t.Fatalf("added %v, want 2", n)
		}
		e.Drain()
		for _, id := range []string{had, a, b} {
			if p, _ := e.Doc(s.db, id)["checklist"].(map[string]any); p["total"] != float64(3) || p["done"] != float64(0) {
				t.Fatalf("ticket %s: checklist %v", id, p)
			}
		}
		for _, id := range []string{closed, none, noLines} {
			if _, ok := e.Doc(s.db, id)["checklist"]; ok {
				t.Fatalf("ticket %s got a checklist", id)
			}
		}
		if n := s.ana.Do("GET", url, nil).Expect(t, http.StatusOK)["tickets"]; n != float64(0) {
			t.Fatalf("offer after: %v", n)
		}
		e.Unchanged(s.db, func() {
			if n := s.ana.Do("POST", url, map[string]any{}).Expect(t, http.StatusOK)["added"]; n != float64(0) {
				t.Fatalf("added again %v", n)
			}
		})
		e.CheckCounts(s.db)
	})
}
