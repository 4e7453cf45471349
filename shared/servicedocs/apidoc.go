package servicedocs

import "github.com/oficina/oficina/shared/module"

// APIDocs implements module.Documented.
func (m *Module) APIDocs() module.Docs {
	locale := []module.Param{{Name: "locale", About: "en or pt-BR (default: the user's, the browser's, the Group's)", Example: "pt-BR"}}
	pdf := func(summary, name string) module.Doc {
		return module.Doc{Summary: summary, Query: locale, Answer: module.File{Type: "application/pdf", About: "the sheet, A4", Name: name}}
	}
	exampleShop := shop{Name: "Oficina da Ana", Phones: []any{"+55 11 5555-0101"}, Addresses: []any{"Rua das Flores 12, São Paulo"}}
	estimate := map[string]any{"state": "sent", "number": 42, "description": "New compressor", "total": 125000, "valid_until": "2026-07-31",
		"items": []map[string]any{{"description": "Compressor", "quantity": 1, "value": 125000}}}
	token := func(field string) map[string]any { return map[string]any{field: "q7Xc2mB9vR4tL8wZ1kN6pH3sD5fJ0aYe"} }
	return module.Docs{
		"GET /api/{db}/_equipment/labels.pdf": {
			Summary: "Printable labels, one per equipment item: its number, the customer's name and a QR code to its open ticket's status page",
			Query: append([]module.Param{
				{Name: "ids", About: "equipment ids, comma-separated (at most 200)", Example: module.ExampleID("eqi")},
				{Name: "size", About: "62mm (label printer, the default) or a4 (a sheet of 3 × 8)", Example: "62mm"}}, locale...),
			Answer: module.File{Type: "application/pdf", About: "the labels", Name: "labels.pdf"},
		},
		"POST /api/{db}/_estimates/{id}/shared": {
			Summary: "Marks a draft estimate as sent when its approval link is shared (copied, sent by WhatsApp or e-mail); other states are left as they are",
			Answer:  map[string]any{"state": "sent"},
		},
		"GET /api/{db}/_maintenances/plan": {
			Summary: "The maintenances due within the coming days, overdue first, with their equipment's and customers' names",
			Query:   []module.Param{{Name: "days", About: "days ahead (default 90)", Example: "90"}},
			Answer: map[string]any{
				"rows":      []map[string]any{{"maintenance": map[string]any{"_id": module.ExampleID("mai"), "next_maintenance": "2026-06-01"}, "days_left": -3, "customer_id": module.ExampleID("cus")}},
				"equipment": map[string]string{module.ExampleID("eqi"): "Split 12000 BTU"},
				"customers": map[string]string{module.ExampleID("cus"): "Bia Souza"},
			},
		},
		"GET /api/{db}/_tickets/{id}/receipt.pdf":          pdf("The ticket's two-copy receipt (and the contract receipt after it when the Group asks for it always)", "receipt.pdf"),
		"GET /api/{db}/_tickets/{id}/contract-receipt.pdf": pdf("The ticket's contract receipt", "contract-receipt.pdf"),
		"GET /api/{db}/_estimates/{id}/receipt.pdf":        pdf("The estimate, with the QR code of its approval page", "estimate.pdf"),
		"POST /api/{db}/_tickets/{id}/status-link": {
			Summary: "Issues a new status page link for the ticket's customer; the old link stops working",
			Answer:  token("status_token"),
		},
		"POST /api/{db}/_estimates/{id}/approval-link": {
			Summary: "Issues a new approval link for the estimate; the old link stops working",
			Answer:  token("approval_token"),
		},
		"POST /api/{db}/_calendar/link": {
			Summary: "Issues the Group's calendar feed URL (maintenances and due tickets, RFC 5545); the old URL stops working",
			Answer:  map[string]any{"url": "https://oficina.example/api/_public/calendar/q7Xc2mB9vR4tL8wZ1kN6pH3sD5fJ0aYe.ics"},
		},
		"GET /api/_public/status/{token}": {
			Summary: "A ticket's status page for its customer: number, title, equipment, status history, estimated date (never notes, people or prices)",
			Answer: map[string]any{"locale": "pt-BR", "shop": exampleShop, "ticket": map[string]any{
				"number": 1042, "title": "Split does not cool", "equipment": "Split 12000 BTU", "status": "waiting-parts", "estimation": "2026-06-03",
				"created_at": "2026-05-28T13:02:11.000Z", "history": []map[string]any{{"status": "open", "at": "2026-05-28T13:02:11.000Z"}}}},
		},
		"GET /api/_public/estimates/{token}": {
			Summary: "An estimate's approval page for the customer (a decided one shows its decision; an expired one is 404)",
			Answer:  map[string]any{"locale": "pt-BR", "shop": exampleShop, "estimate": estimate},
		},
		"POST /api/_public/estimates/{token}": {
			Summary: "Records the customer's decision on an estimate, once (a second one is 409 with the decision made)",
			Body:    map[string]any{"decision": "approve", "name": "Bia Souza", "note": "Please call before coming"},
			Answer:  map[string]any{"locale": "pt-BR", "shop": exampleShop, "estimate": estimate},
		},
		"GET /api/_public/calendar/{token}": {
			Summary: "The Group's calendar feed, for Google Calendar or Outlook to subscribe to (the path ends in .ics)",
			Answer:  module.File{Type: "text/calendar", About: "RFC 5545 events: coming maintenances and open tickets' due dates", Name: "oficina.ics"},
		},
	}
}
