package servicedocs_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image/png"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-ical"
	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/servicedocs"
	"github.com/oficina/oficina/shared/store"
)

func TestMain(m *testing.M) { os.Exit(apptest.Main(m)) }

// shop is a Group with an admin, a member, a customer with a phone and an
// equipment, a category, and another Group with its own customer.
type shop struct {
	e                          *apptest.Env
	ana, bia, zed              *apptest.Client
	db, other                  string
	customer, equipment        string
	category, otherCustomer    string
	otherEquipment, otherTiket string
}

func newShop(t testing.TB, e *apptest.Env) *shop {
	s := &shop{e: e}
	s.ana, s.bia, s.zed = e.SignUp("ana@example.com"), e.SignUp("bia@example.com"), e.SignUp("zed@example.com")
	s.db = e.Group(s.ana, "Assistência Técnica São João")
	e.Join(s.ana, s.bia, s.db, false)
	s.setting(t, "country", "BR") // a Brazilian shop: phones are read as Brazilian numbers
	s.other = e.Group(s.zed, "Zed Reparos")
	s.customer = s.create(t, s.ana, map[string]any{"klass": "Customer", "name": "Cida Conceição", "phones": []any{map[string]any{"number": "+55 11 98888-7777", "main": true}}})
	s.equipment = s.create(t, s.ana, map[string]any{"klass": "Equipment", "identifier": "SN-123", "maker": "Câmera Sôny", "customer_id": s.customer})
	s.category = s.create(t, s.ana, map[string]any{"klass": "Category", "name": "Revisão"})
	s.otherCustomer = s.createIn(t, s.zed, s.other, map[string]any{"klass": "Customer", "name": "Cliente do Zed"})
	s.otherEquipment = s.createIn(t, s.zed, s.other, map[string]any{"klass": "Equipment", "identifier": "Z-1", "customer_id": s.otherCustomer})
	s.otherTiket = s.createIn(t, s.zed, s.other, map[string]any{"klass": "Ticket", "content": "Do Zed", "customer_id": s.otherCustomer})
	s.setting(t, "phones", []any{map[string]any{"number": "(11) 3333-4444", "description": "Balcão"}})
	s.setting(t, "addresses", []any{map[string]any{"street": "Rua das Acácias", "number": "12", "city": "São Paulo"}})
	s.setting(t, "receipt-configuration", "Garantia de 90 dias para o serviço executado.")
	return s
}

func (s *shop) create(t testing.TB, c *apptest.Client, body map[string]any) string {
	return s.createIn(t, c, s.db, body)
}

func (s *shop) createIn(t testing.TB, c *apptest.Client, db string, body map[string]any) string {
	t.Helper()
	return c.Do("POST", "/api/"+db, body).Expect(t, http.StatusCreated)["id"].(string)
}

func (s *shop) put(c *apptest.Client, id string, fields map[string]any) apptest.Response {
	cur := s.e.Doc(s.db, id)
	for k, v := range fields {
		cur[k] = v
	}
	return c.Do("PUT", "/api/"+s.db+"/"+id, cur)
}

// setting sets a Group adjustment, creating it when the Group has none.
func (s *shop) setting(t testing.TB, key string, value any) {
	t.Helper()
	r := s.ana.Do("POST", "/api/"+s.db+"/_find", map[string]any{"selector": map[string]any{"klass": "Adjustment", "key": key}}).Expect(t, http.StatusOK)
	if list := r["docs"].([]any); len(list) > 0 {
		adj := list[0].(map[string]any)
		adj["value"] = value
		s.ana.Do("PUT", "/api/"+s.db+"/"+adj["_id"].(string), adj).Expect(t, http.StatusCreated)
		return
	}
	s.create(t, s.ana, map[string]any{"klass": "Adjustment", "key": key, "label": key, "value": value})
}

func (s *shop) estimate(t *testing.T, fields map[string]any) string {
	t.Helper()
	body := map[string]any{"klass": "Estimate", "description": "Troca da tela e revisão", "customer_id": s.customer,
		"items": []any{
			map[string]any{"description": "Tela original", "quantity": 1, "value": 98050},
			map[string]any{"description": "Mão de obra", "quantity": 2, "value": 12700},
		}}
	for k, v := range fields {
		body[k] = v
	}
	return s.create(t, s.bia, body)
}

func num(v any) int64 {
	f, _ := v.(float64)
	return int64(f)
}

// TestEstimateRules: bad estimates are refused on every write route with a
// field error, writing nothing.
func TestEstimateRules(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		s := newShop(t, e)
		many := make([]any, 101)
		for i := range many {
			many[i] = map[string]any{"description": "Peça", "quantity": 1, "value": 100}
		}
		item := func(k string, v any) []any {
			it := map[string]any{"description": "Peça", "quantity": 1, "value": 100}
			it[k] = v
			return []any{it}
		}
		cases := []struct {
			name, field, msg string
			body             map[string]any
		}{
			{"no items", "items", "can't be blank", map[string]any{"items": []any{}}},
			{"a negative quantity", "items[0].quantity", "must be greater than or equal to 1", map[string]any{"items": item("quantity", -2)}},
			{"a fractional quantity", "items[0].quantity", "must be an integer", map[string]any{"items": item("quantity", 1.5)}},
			{"a non-numeric value", "items[0].value", "is not a number", map[string]any{"items": item("value", "dez reais")}},
			{"a negative value", "items[0].value", "must be greater than or equal to 0", map[string]any{"items": item("value", -100)}},
			{"a float value", "items[0].value", "must be an integer", map[string]any{"items": item("value", 10.5)}},
			{"an item without description", "items[0].description", "can't be blank", map[string]any{"items": item("description", " ")}},
			{"an unknown item field", "items[0].price", "is invalid", map[string]any{"items": item("price", 1)}},
			{"too many items", "items", "is too long (maximum is 100 items)", map[string]any{"items": many}},
			{"an unknown customer", "customer_id", "must exist", map[string]any{"customer_id": ids.New("cus")}},
			{"another Group's customer", "customer_id", "must exist", map[string]any{"customer_id": s.otherCustomer}},
			{"another Group's ticket", "ticket_id", "must exist", map[string]any{"ticket_id": s.otherTiket}},
			{"an unknown state", "state", "not in allowed list", map[string]any{"state": "paid"}},
			{"a bad validity", "valid_until", "is invalid", map[string]any{"valid_until": "31/12/2026"}},
		}
		for _, c := range cases {
			body := map[string]any{"klass": "Estimate", "description": "Orçamento", "customer_id": s.customer,
				"items": []any{map[string]any{"description": "Peça", "quantity": 1, "value": 100}}}
			maps.Copy(body, c.body)
			e.WriteRefused(t, s.bia, s.db, "est", c.name, body, c.field, c.msg)
		}
	})
}

// TestEstimateLifecycle: numbers, totals, the approval page, a decision
// recorded once, a decided estimate frozen, and the decision on the ticket.
func TestEstimateLifecycle(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		s := newShop(t, e)
		ticket := s.create(t, s.bia, map[string]any{"klass": "Ticket", "content": "Tela quebrada", "customer_id": s.customer, "equipment_id": s.equipment})
		id := s.estimate(t, map[string]any{"ticket_id": ticket, "number": 77, "total": 1, "approval_token": "forged", "decided_by_name": "forged",
			"valid_until": e.Clock.Now().AddDate(0, 0, 10).Format(time.DateOnly)})
		d := e.Doc(s.db, id)
		token, _ := d["approval_token"].(string)
		if num(d["number"]) != 1 || num(d["total"]) != 98050+2*12700 || d["state"] != "draft" || d["decided_by_name"] != nil || len(token) != 28 || token == "forged" {
			t.Fatalf("created estimate %v", d)
		}
		if second := e.Doc(s.db, s.estimate(t, nil)); num(second["number"]) != 2 {
			t.Fatalf("second estimate number %v", second["number"])
		}
		// A client cannot move the token or the total.
		s.put(s.bia, id, map[string]any{"approval_token": "x", "total": 5, "state": "sent"}).Expect(t, http.StatusCreated)
		if d := e.Doc(s.db, id); d["approval_token"] != token || num(d["total"]) != 123450 || d["state"] != "sent" {
			t.Fatalf("after PUT %v", d)
		}

		anon := e.Anonymous()
		page := anon.Do("GET", "/api/_public/estimates/"+token, nil).Expect(t, http.StatusOK)
		est := page["estimate"].(map[string]any)
		if num(est["total"]) != 123450 || est["state"] != "sent" || page["shop"].(map[string]any)["name"] != "Assistência Técnica São João" {
			t.Fatalf("approval page %v", page)
		}
		for _, hidden := range []string{"customer_id", "ticket_id", "approval_token", "created_by"} {
			if _, ok := est[hidden]; ok {
				t.Fatalf("approval page shows %s: %v", hidden, est)
			}
		}
		// Bad decisions change nothing.
		e.Unchanged(s.db, func() {
			anon.Do("POST", "/api/_public/estimates/"+token, map[string]any{"decision": "approve", "name": "  "}).ExpectFields(t, "name", "can't be blank")
			anon.Do("POST", "/api/_public/estimates/"+token, map[string]any{"decision": "maybe", "name": "Cida"}).ExpectFields(t, "decision", "not in allowed list")
			anon.Do("POST", "/api/_public/estimates/"+token, `{"decision":`).ExpectError(t, http.StatusBadRequest, "")
			anon.Do("POST", "/api/_public/estimates/"+token, map[string]any{"decision": 1}).ExpectError(t, http.StatusBadRequest, "")
			anon.Do("POST", "/api/_public/estimates/"+otherLast(token), map[string]any{"decision": "approve", "name": "Cida"}).ExpectError(t, http.StatusNotFound, servicedocs.MsgLinkGone)
			anon.Do("POST", "/api/_public/estimates/not-a-token", map[string]any{"decision": "approve", "name": "Cida"}).ExpectError(t, http.StatusNotFound, servicedocs.MsgLinkGone)
		})
		got := anon.Do("POST", "/api/_public/estimates/"+token, map[string]any{"decision": "approve", "name": "Cida Conceição", "note": "Pode fazer."}).Expect(t, http.StatusOK)
		if est := got["estimate"].(map[string]any); est["state"] != "approved" || est["decided_by_name"] != "Cida Conceição" || est["decision_note"] != "Pode fazer." || est["decided_at"] == nil {
			t.Fatalf("decision %v", got)
		}
		e.Unchanged(s.db, func() {
			anon.Do("POST", "/api/_public/estimates/"+token, map[string]any{"decision": "refuse", "name": "Outra"}).ExpectError(t, http.StatusConflict, servicedocs.MsgAlreadyApproved)
			s.put(s.ana, id, map[string]any{"description": "mudou"}).ExpectFields(t, "state", servicedocs.MsgDecided)
			s.put(s.ana, id, map[string]any{"state": "draft"}).ExpectFields(t, "state", servicedocs.MsgDecided)
		})
		// The decision is a comment on the ticket, and a status event in the timeline.
		r := s.ana.Do("POST", "/api/"+s.db+"/_find", map[string]any{"selector": map[string]any{"klass": "Comment", "item_id": ticket}}).Expect(t, http.StatusOK)
		comments := r["docs"].([]any)
		if len(comments) != 1 || !strings.Contains(comments[0].(map[string]any)["content"].(string), "Cida Conceição") {
			t.Fatalf("ticket comments %v", comments)
		}
		e.Drain()
		h := s.ana.Do("POST", "/api/"+s.db+"/_find", map[string]any{"selector": map[string]any{"klass": "DocumentChange", "item_id": id}}).Expect(t, http.StatusOK)
		if !strings.Contains(fmt.Sprint(h["docs"]), "status") {
			t.Fatalf("estimate history %v", h["docs"])
		}

		// Staff may decide at the counter too: who and when are recorded.
		other := s.estimate(t, nil)
		s.put(s.bia, other, map[string]any{"state": "refused"}).Expect(t, http.StatusCreated)
		if d := e.Doc(s.db, other); d["decided_by_name"] == nil || d["decided_at"] == nil {
			t.Fatalf("staff decision %v", d)
		}
		// An expired estimate's link is the catalogue's refusal.
		old := e.Doc(s.db, s.estimate(t, map[string]any{"valid_until": e.Clock.Now().AddDate(0, 0, -1).Format(time.DateOnly)}))
		anon.Do("GET", "/api/_public/estimates/"+old["approval_token"].(string), nil).ExpectError(t, http.StatusNotFound, servicedocs.MsgLinkGone)
	})
}

// TestEstimateShared (issue 22 item 16): sharing the approval link (copy,
// WhatsApp, e-mail) makes a draft sent, once, by any member; the customer
// never reads "Draft", even from a link that went out unshared; another
// Group cannot, and a decided estimate stays as it is.
func TestEstimateShared(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		s := newShop(t, e)
		id := s.estimate(t, nil)
		token := e.Doc(s.db, id)["approval_token"].(string)
		anon := e.Anonymous()
		if st := anon.Do("GET", "/api/_public/estimates/"+token, nil).Expect(t, http.StatusOK)["estimate"].(map[string]any)["state"]; st != "sent" {
			t.Fatalf("a draft reads %v to the customer, want sent", st)
		}
		url := "/api/" + s.db + "/_estimates/" + id + "/shared"
		e.Unchanged(s.db, func() {
			s.zed.Do("POST", url, map[string]any{}).ExpectError(t, http.StatusForbidden, "")
			anon.Do("POST", url, map[string]any{}).ExpectError(t, http.StatusUnauthorized, "")
			s.bia.Do("POST", "/api/"+s.db+"/_estimates/"+s.customer+"/shared", map[string]any{}).ExpectError(t, http.StatusNotFound, "")
		})
		if st := s.bia.Do("POST", url, map[string]any{}).Expect(t, http.StatusOK)["state"]; st != "sent" {
			t.Fatalf("shared: %v", st)
		}
		if d := e.Doc(s.db, id); d["state"] != "sent" || d["approval_token"] != token {
			t.Fatalf("after sharing %v", d)
		}
		e.Unchanged(s.db, func() {
			if st := s.bia.Do("POST", url, map[string]any{}).Expect(t, http.StatusOK)["state"]; st != "sent" {
				t.Fatalf("shared again: %v", st)
			}
		})
		anon.Do("POST", "/api/_public/estimates/"+token, map[string]any{"decision": "refuse", "name": "Cida"}).Expect(t, http.StatusOK)
		e.Unchanged(s.db, func() {
			if st := s.bia.Do("POST", url, map[string]any{}).Expect(t, http.StatusOK)["state"]; st != "refused" {
				t.Fatalf("shared after the decision: %v", st)
			}
		})
	})
}

// TestContractOnTicket: a ticket's contract is an active one of its customer.
func TestContractOnTicket(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		s := newShop(t, e)
		other := s.create(t, s.ana, map[string]any{"klass": "Customer", "name": "Outro"})
		active := s.create(t, s.ana, map[string]any{"klass": "Contract", "description": "Manutenção mensal", "customer_id": s.customer,
			"items": []any{map[string]any{"number": 1, "content": "Visita mensal"}, map[string]any{"number": 2, "content": "x", "marktodelete": true}}})
		if items := e.Doc(s.db, active)["items"].([]any); len(items) != 1 {
			t.Fatalf("contract items %v", items)
		}
		inactive := s.create(t, s.ana, map[string]any{"klass": "Contract", "description": "Antigo", "customer_id": s.customer, "active": false})
		theirs := s.create(t, s.ana, map[string]any{"klass": "Contract", "description": "Do outro", "customer_id": other})
		for name, c := range map[string]string{"inactive": inactive, "another customer's": theirs} {
			t.Run(name, func(t *testing.T) {
				e.Unchanged(s.db, func() {
					s.bia.Do("POST", "/api/"+s.db, map[string]any{"klass": "Ticket", "content": "x", "customer_id": s.customer, "contract_id": c}).
						ExpectFields(t, "contract_id", servicedocs.MsgContract)
				})
			})
		}
		s.bia.Do("POST", "/api/"+s.db, map[string]any{"klass": "Ticket", "content": "x", "customer_id": s.customer, "contract_id": s.e.Doc(s.db, active)["_id"]}).Expect(t, http.StatusCreated)
		s.bia.Do("POST", "/api/"+s.db, map[string]any{"klass": "Contract", "description": "x", "customer_id": s.otherCustomer}).ExpectFields(t, "customer_id", "must exist")
	})
}

// TestMaintenancePlan: the warranty end is computed; the plan lists what
// comes due within the days asked, overdue first.
func TestMaintenancePlan(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		s := newShop(t, e)
		today := e.Clock.Now()
		day := func(n int) string { return today.AddDate(0, 0, n).Format(time.DateOnly) }
		mk := func(next string) string {
			return s.create(t, s.bia, map[string]any{"klass": "Maintenance", "date": "2026-01-10", "warranty": 90, "equipment_id": s.equipment, "category_id": s.category, "next_maintenance": next})
		}
		soon, late, far, overdue := mk(day(20)), mk(day(50)), mk(day(200)), mk(day(-5))
		mk("")
		if d := e.Doc(s.db, soon); d["warranty_until"] != "2026-04-10" {
			t.Fatalf("warranty_until %v", d["warranty_until"])
		}
		s.put(s.bia, soon, map[string]any{"warranty": 0, "warranty_until": "2030-01-01"}).Expect(t, http.StatusCreated)
		if d := e.Doc(s.db, soon); d["warranty_until"] != nil {
			t.Fatalf("warranty_until without warranty %v", d["warranty_until"])
		}
		plan := func(days int) []string {
			r := s.bia.Do("GET", fmt.Sprintf("/api/%s/_maintenances/plan?days=%d", s.db, days), nil).Expect(t, http.StatusOK)
			var out []string
			for _, row := range r["rows"].([]any) {
				out = append(out, row.(map[string]any)["maintenance"].(map[string]any)["_id"].(string))
				if row.(map[string]any)["customer_id"] != s.customer {
					t.Fatalf("plan row without its customer: %v", row)
				}
			}
			if r["equipment"].(map[string]any)[s.equipment] != "Câmera Sôny SN-123" || r["customers"].(map[string]any)[s.customer] != "Cida Conceição" {
				t.Fatalf("plan names %v", r)
			}
			return out
		}
		if got := plan(30); !slices.Equal(got, []string{overdue, soon}) {
			t.Fatalf("30 days: %v", got)
		}
		if got := plan(60); !slices.Equal(got, []string{overdue, soon, late}) {
			t.Fatalf("60 days: %v", got)
		}
		_ = far
		s.bia.Do("GET", "/api/"+s.db+"/_maintenances/plan?days=0", nil).ExpectError(t, http.StatusBadRequest, "")
		s.bia.Do("GET", "/api/"+s.db+"/_maintenances/plan?days=x", nil).ExpectError(t, http.StatusBadRequest, "")
		s.bia.Do("POST", "/api/"+s.db, map[string]any{"klass": "Maintenance", "date": "2026-01-10", "equipment_id": s.otherEquipment}).ExpectFields(t, "equipment_id", "must exist")
	})
}

// TestStatusPage: the public page shows the ticket's progress and nothing
// internal; re-issuing the link kills the old one; tokens of a bad shape
// and unknown ones answer the same 404.
func TestStatusPage(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		s := newShop(t, e)
		id := s.create(t, s.bia, map[string]any{"klass": "Ticket", "content": "Não liga\nSegredo interno", "problem": "placa queimada", "customer_id": s.customer,
			"equipment_id": s.equipment, "technical_id": s.bia.ID, "estimation": "2026-12-20", "status_token": "forged"})
		s.create(t, s.bia, map[string]any{"klass": "Comment", "item_id": id, "content": "comentário interno"})
		token := e.Doc(s.db, id)["status_token"].(string)
		if token == "forged" || len(token) != 28 {
			t.Fatalf("status token %q", token)
		}
		for _, st := range []string{"doing", "done"} {
			s.put(s.bia, id, map[string]any{"status": st}).Expect(t, http.StatusCreated)
		}
		anon := e.Anonymous()
		r := anon.Do("GET", "/api/_public/status/"+token, nil)
		page := r.Expect(t, http.StatusOK)
		tk := page["ticket"].(map[string]any)
		if tk["status"] != "done" || tk["equipment"] != "Câmera Sôny SN-123" || tk["estimation"] != "2026-12-20" || num(tk["number"]) != 1 {
			t.Fatalf("status page %v", page)
		}
		var statuses []string
		for _, h := range tk["history"].([]any) {
			statuses = append(statuses, h.(map[string]any)["status"].(string))
		}
		if !slices.Equal(statuses, []string{"open", "doing", "done"}) {
			t.Fatalf("history %v", statuses)
		}
		for _, secret := range []string{"Segredo", "placa", "comentário", s.bia.ID, "bia@", "Cida"} {
			if bytes.Contains(r.Body, []byte(secret)) {
				t.Fatalf("status page shows %q: %s", secret, r.Body)
			}
		}
		// Only admins re-issue, only in their Group.
		s.bia.Do("POST", "/api/"+s.db+"/_tickets/"+id+"/status-link", nil).ExpectError(t, http.StatusForbidden, "")
		s.zed.Do("POST", "/api/"+s.db+"/_tickets/"+id+"/status-link", nil).ExpectError(t, http.StatusForbidden, "")
		s.zed.Do("POST", "/api/"+s.other+"/_tickets/"+id+"/status-link", nil).ExpectError(t, http.StatusNotFound, "")
		fresh := s.ana.Do("POST", "/api/"+s.db+"/_tickets/"+id+"/status-link", nil).Expect(t, http.StatusOK)["status_token"].(string)
		if fresh == token || e.Doc(s.db, id)["status_token"] != fresh {
			t.Fatalf("re-issued %q (was %q)", fresh, token)
		}
		gone := anon.Do("GET", "/api/_public/status/"+token, nil).ExpectError(t, http.StatusNotFound, servicedocs.MsgLinkGone)
		unknown := anon.Do("GET", "/api/_public/status/"+strings.Repeat("A", 27), nil).ExpectError(t, http.StatusNotFound, servicedocs.MsgLinkGone)
		if fmt.Sprint(gone) != fmt.Sprint(unknown) {
			t.Fatalf("revoked %v and unknown %v differ", gone, unknown)
		}
		anon.Do("GET", "/api/_public/status/"+strings.Repeat("A", 28), nil).ExpectError(t, http.StatusNotFound, servicedocs.MsgLinkGone)
		for _, bad := range []string{"x", strings.Repeat("A", 200), "%00", "%27%20OR%201=1"} {
			anon.Do("GET", "/api/_public/status/"+bad, nil).ExpectError(t, http.StatusNotFound, "")
		}
		anon.Do("GET", "/api/_public/status/..%2f..%2fetc", nil).ExpectError(t, http.StatusBadRequest, "")
		anon.Do("GET", "/api/_public/status/"+fresh, nil).Expect(t, http.StatusOK)
		// A deleted ticket's link dies with it.
		s.ana.Do("DELETE", "/api/"+s.db+"/"+id+"?rev="+e.Doc(s.db, id)["_rev"].(string), nil).Expect(t, http.StatusOK)
		anon.Do("GET", "/api/_public/status/"+fresh, nil).ExpectError(t, http.StatusNotFound, servicedocs.MsgLinkGone)
	})
}

// TestUntimedStatusToken: a link issued before tokens began with their
// time (27 characters, its record keyed by the token's hash alone) keeps
// opening the status page, and dies when it is re-issued.
func TestUntimedStatusToken(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ctx := context.Background()
		s := newShop(t, e)
		id := s.create(t, s.bia, map[string]any{"klass": "Ticket", "content": "Não liga", "customer_id": s.customer})
		const old = "q1w2e3r4t5y6u7i8o9p0a1s2d3f" // 20 bytes, base64url
		d, err := e.Store.Get(ctx, s.db, id)
		if err != nil {
			t.Fatal(err)
		}
		body := e.Doc(s.db, id)
		body["status_token"] = old
		delete(body, "_id")
		delete(body, "_rev")
		d.Body, _ = json.Marshal(body)
		if _, err := e.Store.Put(ctx, s.db, d); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256([]byte(old))
		link, _ := json.Marshal(map[string]string{"db": s.db, "id": id})
		if err := e.Store.PutRecord(ctx, store.Record{Kind: "public-link", Key: "status:" + hex.EncodeToString(sum[:]), Value: link}, false); err != nil {
			t.Fatal(err)
		}
		anon := e.Anonymous()
		if tk := anon.Do("GET", "/api/_public/status/"+old, nil).Expect(t, http.StatusOK)["ticket"].(map[string]any); num(tk["number"]) != 1 {
			t.Fatalf("status page of an untimed token: %v", tk)
		}
		fresh := s.ana.Do("POST", "/api/"+s.db+"/_tickets/"+id+"/status-link", nil).Expect(t, http.StatusOK)["status_token"].(string)
		if len(fresh) != 28 {
			t.Fatalf("re-issued %q", fresh)
		}
		anon.Do("GET", "/api/_public/status/"+old, nil).ExpectError(t, http.StatusNotFound, servicedocs.MsgLinkGone)
		anon.Do("GET", "/api/_public/status/"+fresh, nil).Expect(t, http.StatusOK)
	})
}

// pdfText extracts a PDF's text with poppler's pdftotext.
func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	dir := t.TempDir()
	in := filepath.Join(dir, "doc.pdf")
	if err := os.WriteFile(in, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-layout", in, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v: %s", err, out)
	}
	return string(out)
}

// pdfQR renders the PDF's first page with pdftoppm and decodes a QR code.
func pdfQR(t *testing.T, pdf []byte) string {
	t.Helper()
	dir := t.TempDir()
	in := filepath.Join(dir, "doc.pdf")
	if err := os.WriteFile(in, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("pdftoppm", "-png", "-r", "150", "-f", "1", "-l", "1", "-singlefile", in, filepath.Join(dir, "page")).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v: %s", err, out)
	}
	f, err := os.Open(filepath.Join(dir, "page.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		t.Fatal(err)
	}
	res, err := qrcode.NewQRCodeReader().Decode(bmp, map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_TRY_HARDER: true})
	if err != nil {
		t.Fatalf("no QR code on the page: %v", err)
	}
	return res.GetText()
}

func getPDF(t *testing.T, c *apptest.Client, path string) []byte {
	t.Helper()
	r := c.Do("GET", path, nil)
	if r.Code != http.StatusOK || r.Header.Get("Content-Type") != "application/pdf" || !bytes.HasPrefix(r.Body, []byte("%PDF-")) {
		t.Fatalf("GET %s: %d %s %.200s", path, r.Code, r.Header.Get("Content-Type"), r.Body)
	}
	return r.Body
}

// TestReceipts: the two-copy receipt, the contract receipt and the estimate
// print their fields in the user's language, with accents and R$, and
// their QR codes open the right pages; another Group's records are 404.
func TestReceipts(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		s := newShop(t, e)
		contract := s.create(t, s.ana, map[string]any{"klass": "Contract", "description": "Manutenção preventiva mensal", "payment_kind": "Boleto",
			"customer_id": s.customer, "items": []any{map[string]any{"number": 1, "content": "Uma visita técnica por mês"}}})
		id := s.create(t, s.bia, map[string]any{"klass": "Ticket", "content": "Não liga após queda d'água", "customer_id": s.customer,
			"equipment_id": s.equipment, "contract_id": contract})
		tk := e.Doc(s.db, id)
		statusURL := apptest.BaseURL + "/s/" + tk["status_token"].(string)

		pdf := getPDF(t, s.bia, "/api/"+s.db+"/_tickets/"+id+"/receipt.pdf?locale=pt-BR")
		text := pdfText(t, pdf)
		for _, want := range []string{"Assistência Técnica São João", "(11) 3333-4444", "Rua das Acácias 12", "Via do cliente", "Via da loja",
			"Ordem de serviço nº 1", "Cida Conceição", "Câmera Sôny SN-123", "Não liga após queda d'água", "Garantia de 90 dias", "Aberto"} {
			if strings.Count(text, want) < 1 {
				t.Errorf("receipt lacks %q:\n%s", want, text)
			}
		}
		if strings.Count(text, "Ordem de serviço nº 1") != 2 {
			t.Errorf("want two copies:\n%s", text)
		}
		if strings.Contains(text, "Manutenção preventiva") {
			t.Errorf("contract printed although contract-receipt is on-demand:\n%s", text)
		}
		if got := pdfQR(t, pdf); got != statusURL {
			t.Fatalf("QR %q, want %q", got, statusURL)
		}
		// English from the user's browser.
		en := pdfText(t, getPDF(t, s.bia, "/api/"+s.db+"/_tickets/"+id+"/receipt.pdf"))
		if !strings.Contains(en, "Customer copy") || !strings.Contains(en, "Service order nº 1") {
			t.Errorf("English receipt:\n%s", en)
		}

		cr := pdfText(t, getPDF(t, s.bia, "/api/"+s.db+"/_tickets/"+id+"/contract-receipt.pdf?locale=pt-BR"))
		for _, want := range []string{"Contrato — Ordem de serviço nº 1", "Manutenção preventiva mensal", "Boleto", "Uma visita técnica por mês", "Assinatura do cliente"} {
			if !strings.Contains(cr, want) {
				t.Errorf("contract receipt lacks %q:\n%s", want, cr)
			}
		}
		s.setting(t, "contract-receipt", "always")
		if both := pdfText(t, getPDF(t, s.bia, "/api/"+s.db+"/_tickets/"+id+"/receipt.pdf?locale=pt-BR")); !strings.Contains(both, "Uma visita técnica por mês") {
			t.Errorf("contract-receipt always: no contract page:\n%s", both)
		}
		plain := s.create(t, s.bia, map[string]any{"klass": "Ticket", "content": "Sem contrato"})
		s.bia.Do("GET", "/api/"+s.db+"/_tickets/"+plain+"/contract-receipt.pdf", nil).ExpectError(t, http.StatusNotFound, "")

		s.setting(t, "estimate-observation", "enabled")
		est := s.estimate(t, map[string]any{"observation": "Peças com garantia do fabricante", "valid_until": "2026-12-31"})
		ed := e.Doc(s.db, est)
		epdf := getPDF(t, s.bia, "/api/"+s.db+"/_estimates/"+est+"/receipt.pdf?locale=pt-BR")
		etext := pdfText(t, epdf)
		for _, want := range []string{"Orçamento nº 1", "Tela original", "Mão de obra", "R$ 980,50", "R$ 254,00", "R$ 1.234,50", "Peças com garantia do fabricante", "31/12/2026"} {
			if !strings.Contains(etext, want) {
				t.Errorf("estimate lacks %q:\n%s", want, etext)
			}
		}
		approve := apptest.BaseURL + "/e/" + ed["approval_token"].(string)
		if got := pdfQR(t, epdf); got != approve {
			t.Fatalf("estimate QR %q, want %q", got, approve)
		}
		// The currency is the Group's (a Brazilian shop's real), whatever the
		// language the PDF is printed in (issue 22 item 15).
		if en := pdfText(t, getPDF(t, s.bia, "/api/"+s.db+"/_estimates/"+est+"/receipt.pdf?locale=en")); !strings.Contains(en, "R$ 1,234.50") {
			t.Errorf("English estimate:\n%s", en)
		}

		// Another Group's ticket through this Group's db, or this Group's
		// through another's: nothing printed, nothing shown.
		for _, path := range []string{
			"/api/" + s.db + "/_tickets/" + s.otherTiket + "/receipt.pdf",
			"/api/" + s.db + "/_tickets/" + ids.New("tik") + "/receipt.pdf",
			"/api/" + s.db + "/_tickets/" + est + "/receipt.pdf",
			"/api/" + s.db + "/_estimates/" + id + "/receipt.pdf",
		} {
			r := s.bia.Do("GET", path, nil)
			r.ExpectError(t, http.StatusNotFound, "")
		}
		s.zed.Do("GET", "/api/"+s.db+"/_tickets/"+id+"/receipt.pdf", nil).ExpectError(t, http.StatusForbidden, "")
		e.Anonymous().Do("GET", "/api/"+s.db+"/_tickets/"+id+"/receipt.pdf", nil).ExpectError(t, http.StatusUnauthorized, "")
	})
}

// TestReceiptTermsAndSignatures (issue 22 item 17): both copies of the
// receipt carry the shop's contact, its terms (warranty, pickup deadline:
// the Group's receipt-terms, else a default in the receipt's language) and
// signature lines for the customer and the technician, however long the
// problem and the receipt text are.
func TestReceiptTermsAndSignatures(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		s := newShop(t, e)
		long := strings.Repeat("O aparelho desliga sozinho depois de alguns minutos de uso intenso. ", 12)
		id := s.create(t, s.bia, map[string]any{"klass": "Ticket", "content": long, "customer_id": s.customer, "equipment_id": s.equipment,
			"equipment_observation": strings.Repeat("Riscos na tampa. ", 20)})
		s.setting(t, "receipt-configuration", strings.Repeat("Horário: seg a sex, 9h às 18h. ", 20))
		twice := func(text string, wants ...string) {
			t.Helper()
			for _, want := range wants {
				if n := strings.Count(text, want); n != 2 {
					t.Errorf("%q %d times, want once on each copy:\n%s", want, n, text)
				}
			}
		}
		pt := pdfText(t, getPDF(t, s.bia, "/api/"+s.db+"/_tickets/"+id+"/receipt.pdf?locale=pt-BR"))
		twice(pt, "(11) 3333-4444", "Rua das Acácias 12", "Condições:", "Garantia: 90 dias", "Retirada:", "Assinatura do cliente", "Assinatura do técnico")
		en := pdfText(t, getPDF(t, s.bia, "/api/"+s.db+"/_tickets/"+id+"/receipt.pdf?locale=en"))
		twice(en, "Terms:", "Warranty: 90 days", "Pickup:", "Customer signature", "Technician signature")

		// The shop's own terms replace the default, in any language.
		e.Unchanged(s.db, func() {
			s.ana.Do("POST", "/api/"+s.db, map[string]any{"klass": "Adjustment", "key": "receipt-terms", "label": "receipt-terms", "value": 12}).ExpectFields(t, "value", "is invalid")
		})
		s.setting(t, "receipt-terms", "Garantia de 30 dias. Retirada em até 60 dias, depois cobramos a guarda.")
		own := pdfText(t, getPDF(t, s.bia, "/api/"+s.db+"/_tickets/"+id+"/receipt.pdf?locale=en"))
		twice(own, "Garantia de 30 dias.", "Customer signature", "Technician signature")
		if strings.Contains(own, "Warranty: 90 days") {
			t.Errorf("default terms printed beside the shop's:\n%s", own)
		}
	})
}

// pdfPages reads a PDF's page count and its first page's size in points with poppler's pdfinfo.
func pdfPages(t *testing.T, pdf []byte) (pages int, w, h float64) {
	t.Helper()
	f := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(f, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdfinfo", f).CombinedOutput()
	if err != nil {
		t.Fatalf("pdfinfo: %v: %s", err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(line, "Pages:"); ok {
			fmt.Sscan(strings.TrimSpace(v), &pages)
		}
		if v, ok := strings.CutPrefix(line, "Page size:"); ok {
			fmt.Sscanf(strings.TrimSpace(v), "%g x %g", &w, &h)
		}
	}
	return pages, w, h
}

// TestEquipmentLabels (issue 22 item 19): a printable PDF with one label
// per equipment item — its identifier, its customer's name, and the number
// and status-page QR code of its open service order — on a 62 mm label
// printer's tape (one 62 × 29 mm label a page) or an A4 sheet of 3 × 8.
func TestEquipmentLabels(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		s := newShop(t, e)
		done := s.create(t, s.bia, map[string]any{"klass": "Ticket", "content": "Antigo", "customer_id": s.customer, "equipment_id": s.equipment})
		s.put(s.bia, done, map[string]any{"status": "done"}).Expect(t, http.StatusCreated)
		open := s.create(t, s.bia, map[string]any{"klass": "Ticket", "content": "Não liga", "customer_id": s.customer, "equipment_id": s.equipment})
		statusURL := apptest.BaseURL + "/s/" + e.Doc(s.db, open)["status_token"].(string)
		spare := s.create(t, s.ana, map[string]any{"klass": "Equipment", "identifier": "NB-77", "maker": "Lenovo"})
		url := "/api/" + s.db + "/_equipment/labels.pdf?locale=pt-BR&ids=" + s.equipment + "," + spare

		tape := getPDF(t, s.bia, url+"&size=62mm")
		if pages, w, h := pdfPages(t, tape); pages != 2 || w < 175 || w > 176.5 || h < 81.5 || h > 83 {
			t.Fatalf("62 mm tape: %d pages of %g × %g pt, want 2 of 175.7 × 82.2", pages, w, h)
		}
		text := pdfText(t, tape)
		for _, want := range []string{"SN-123", "Câmera Sôny", "Cida Conceição", "Ordem de serviço nº 2", "NB-77", "Sem ordem de serviço aberta"} {
			if !strings.Contains(text, want) {
				t.Errorf("labels lack %q:\n%s", want, text)
			}
		}
		if got := pdfQR(t, tape); got != statusURL {
			t.Fatalf("label QR %q, want the open ticket's status page %q", got, statusURL)
		}
		a4 := getPDF(t, s.bia, url+"&size=a4")
		if pages, w, h := pdfPages(t, a4); pages != 1 || w < 595 || w > 596 || h < 841 || h > 842.5 {
			t.Fatalf("A4 sheet: %d pages of %g × %g pt", pages, w, h)
		}
		if text := pdfText(t, a4); !strings.Contains(text, "SN-123") || !strings.Contains(text, "NB-77") {
			t.Fatalf("A4 labels:\n%s", text)
		}
		many := make([]string, 25)
		for i := range many {
			many[i] = s.create(t, s.ana, map[string]any{"klass": "Equipment", "identifier": fmt.Sprintf("EQ-%d", i)})
		}
		if pages, _, _ := pdfPages(t, getPDF(t, s.bia, "/api/"+s.db+"/_equipment/labels.pdf?size=a4&ids="+strings.Join(many, ","))); pages != 2 {
			t.Fatalf("25 labels on %d A4 sheets, want 2", pages)
		}

		base := "/api/" + s.db + "/_equipment/labels.pdf?size=62mm&ids="
		s.bia.Do("GET", base, nil).ExpectFields(t, "ids", "can't be blank")
		s.bia.Do("GET", "/api/"+s.db+"/_equipment/labels.pdf?size=letter&ids="+s.equipment, nil).ExpectFields(t, "size", "not in allowed list")
		s.bia.Do("GET", base+strings.Join(make201(), ","), nil).ExpectFields(t, "ids", "is too long (maximum is 200 items)")
		s.bia.Do("GET", base+s.customer, nil).ExpectError(t, http.StatusNotFound, "")
		s.bia.Do("GET", base+s.otherEquipment, nil).ExpectError(t, http.StatusNotFound, "")
		s.zed.Do("GET", base+s.equipment, nil).ExpectError(t, http.StatusForbidden, "")
		e.Anonymous().Do("GET", base+s.equipment, nil).ExpectError(t, http.StatusUnauthorized, "")
	})
}

// make201 is 201 distinct (unknown) equipment ids.
func make201() []string {
	out := make([]string, 201)
	for i := range out {
		out[i] = ids.New("eqi")
	}
	return out
}

// TestCalendar: the feed at its secret URL parses with an independent
// iCalendar parser, keeps its UIDs across refreshes, and dies when the URL
// is re-issued.
func TestCalendar(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		s := newShop(t, e)
		next := e.Clock.Now().AddDate(0, 0, 10).Format(time.DateOnly)
		mai := s.create(t, s.bia, map[string]any{"klass": "Maintenance", "date": "2026-01-10", "equipment_id": s.equipment, "next_maintenance": next})
		tik := s.create(t, s.bia, map[string]any{"klass": "Ticket", "content": "Entrega", "estimation": next})
		s.create(t, s.bia, map[string]any{"klass": "Ticket", "content": "Sem data"})
		// A title long enough (and accented) that its summary folds (RFC 5545 §3.1).
		long := s.create(t, s.bia, map[string]any{"klass": "Ticket", "content": "Troca de tela, bateria e conector de carga — orçamento aprovado", "estimation": next})

		s.bia.Do("POST", "/api/"+s.db+"/_calendar/link", nil).ExpectError(t, http.StatusForbidden, "")
		url := s.ana.Do("POST", "/api/"+s.db+"/_calendar/link", nil).Expect(t, http.StatusOK)["url"].(string)
		path := strings.TrimPrefix(url, apptest.BaseURL)
		anon := e.Anonymous()
		uids := func() []string {
			r := anon.Do("GET", path, nil)
			if r.Code != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/calendar") {
				t.Fatalf("feed %d %s", r.Code, r.Body)
			}
			// Strictly RFC 5545 §3.1 first: CRLF line ends everywhere, folded lines included.
			lines, err := strictContentLines(r.Body)
			if err != nil {
				t.Fatalf("not RFC 5545 content lines: %v\n%q", err, r.Body)
			}
			if !slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, "conector de carga — orçamento") }) {
				t.Fatalf("the long summary is missing: %q", lines)
			}
			cal, err := ical.NewDecoder(bytes.NewReader(r.Body)).Decode()
			if err != nil {
				t.Fatalf("parse: %v\n%s", err, r.Body)
			}
			var out []string
			for _, ev := range cal.Events() {
				uid, _ := ev.Props.Text(ical.PropUID)
				start, err := ev.DateTimeStart(time.UTC)
				if err != nil || start.Format(time.DateOnly) != next {
					t.Fatalf("event %s starts %v (%v)", uid, start, err)
				}
				out = append(out, uid)
			}
			slices.Sort(out)
			return out
		}
		first := uids()
		want := []string{mai + "@oficina", tik + "@oficina", long + "@oficina"}
		slices.Sort(want)
		if !slices.Equal(first, want) {
			t.Fatalf("events %v, want %v", first, want)
		}
		s.put(s.bia, tik, map[string]any{"content": "Entrega urgente"}).Expect(t, http.StatusCreated)
		if again := uids(); !slices.Equal(again, first) {
			t.Fatalf("UIDs moved: %v then %v", first, again)
		}
		s.ana.Do("POST", "/api/"+s.db+"/_calendar/link", nil).Expect(t, http.StatusOK)
		anon.Do("GET", path, nil).ExpectError(t, http.StatusNotFound, servicedocs.MsgLinkGone)
	})
}

// strictContentLines reads an iCalendar stream as RFC 5545 §3.1 demands,
// refusing what lenient parsers (go-ical's included) let through: every
// line ends in CRLF — a bare LF or CR is an error, on folded lines too —
// and no line passes 75 octets. It returns the unfolded content lines.
func strictContentLines(b []byte) ([]string, error) {
	var out []string
	for n := 1; len(b) > 0; n++ {
		end := bytes.IndexAny(b, "\r\n")
		if end < 0 {
			return nil, fmt.Errorf("line %d: no line break at the end", n)
		}
		if b[end] != '\r' || end+1 >= len(b) || b[end+1] != '\n' {
			return nil, fmt.Errorf("line %d: a bare %q, not CRLF", n, b[end])
		}
		line := string(b[:end])
		if len(line) > 75 {
			return nil, fmt.Errorf("line %d: %d octets (at most 75)", n, len(line))
		}
		b = b[end+2:]
		if strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t") {
			if len(out) == 0 {
				return nil, fmt.Errorf("line %d: a continuation with nothing to continue", n)
			}
			out[len(out)-1] += line[1:]
			continue
		}
		out = append(out, line)
	}
	return out, nil
}

// otherLast is token with its last character changed (never to itself: a
// fixed replacement would be the real token once in every alphabet size).
func otherLast(token string) string {
	last := "A"
	if strings.HasSuffix(token, "A") {
		last = "B"
	}
	return token[:len(token)-1] + last
}
