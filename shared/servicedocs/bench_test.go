package servicedocs_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
)

// BenchmarkReceipt times the two-copy receipt through the API (the ticket,
// customer, equipment and the Group's settings read, the PDF drawn with its
// QR codes) on the embedded store. Target: p50 ≤ 30 ms.
//
//	go test -run '^$' -bench 'Receipt|StatusPage' -benchtime 200x ./shared/servicedocs/
func BenchmarkReceipt(b *testing.B) {
	e := apptest.New(b, apptest.Bolt)
	s := newShop(b, e)
	id := s.bia.Do("POST", "/api/"+s.db, map[string]any{"klass": "Ticket", "content": "Não liga após queda d'água\nTela trincada",
		"customer_id": s.customer, "equipment_id": s.equipment}).Expect(b, http.StatusCreated)["id"].(string)
	e.Measure(b, func() apptest.Response {
		return s.bia.Do("GET", "/api/"+s.db+"/_tickets/"+id+"/receipt.pdf?locale=pt-BR", nil)
	})
}

// BenchmarkStatusPage times the public status page (token lookup, the
// ticket, its equipment and the shop's contacts) on the embedded store.
// Target: p50 ≤ 5 ms.
func BenchmarkStatusPage(b *testing.B) {
	e := apptest.New(b, apptest.Bolt)
	s := newShop(b, e)
	id := s.bia.Do("POST", "/api/"+s.db, map[string]any{"klass": "Ticket", "content": "Não liga", "customer_id": s.customer,
		"equipment_id": s.equipment}).Expect(b, http.StatusCreated)["id"].(string)
	token := e.Doc(s.db, id)["status_token"].(string)
	anon := e.Anonymous()
	n := 0
	e.Measure(b, func() apptest.Response {
		// A new address per call: the page's rate limit is not what is measured.
		n++
		anon.IP = fmt.Sprintf("10.%d.%d.%d", n>>16&255, n>>8&255, n&255)
		return anon.Do("GET", "/api/_public/status/"+token, nil)
	})
}
