package billing

import "github.com/oficina/oficina/shared/module"

// APIDocs implements module.Documented.
func (m *Module) APIDocs() module.Docs {
	price := "ppr-8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a"
	locked := "2026-06-28"
	docs := module.Docs{
		"GET /api/{db}/_billing": {
			Summary: "The Group's plan and what the billing page shows: billing email, next invoice, whether a switch or a cancel is allowed",
			Answer: Status{Plan: "pro", Livemode: true, BillingEmail: "pay@example.com", CustomerID: "cus_Q1w2e3r4", PriceID: price,
				NextInvoice: &Invoice{Amount: 4900, Currency: "brl", Date: "2026-06-28"}, SwitchLockedUntil: &locked, CanCancel: true, IsAdmin: true,
				PublishableKey: "pk_live_…", FreeRecordLimit: 1000},
		},
		"PUT /api/{db}/_billing/email": {
			Summary: "Sets the Group's billing email (422 on billing_email when it is not an address)",
			Body:    map[string]any{"email": "pay@example.com"},
			Answer:  map[string]any{"billing_email": "pay@example.com"},
		},
		"POST /api/{db}/_billing/checkout": {
			Summary: "Starts a Stripe Checkout session for a plan price; the SPA mounts the embedded form with client_secret",
			Body:    map[string]any{"price_id": price, "locale": "pt-BR", "theme": "dark"},
			Answer:  CheckoutAnswer{SessionID: "cs_live_a1b2c3", ClientSecret: "cs_live_a1b2c3_secret_…", PublishableKey: "pk_live_…"},
		},
		"POST /api/{db}/_billing/checkout/{session}/complete": {
			Summary: "Test servers only (--stripe-test-checkout=on): completes a checkout session as Stripe's event would",
			Path:    []module.Param{{Name: "session", About: "the session_id checkout answered", Example: "cs_test_a1b2c3"}},
			Answer:  map[string]any{"ok": true, "plan": "pro"},
		},
		"POST /api/billing/webhook": {
			Summary: "Stripe's events (checkout completed, subscription updated or deleted, invoice paid or failed), verified by Stripe-Signature",
			Notes:   "An event seen before is answered 200 and not applied again; one that fails to apply is answered 500, so Stripe retries it.",
			Body:    map[string]any{"id": "evt_1", "type": "checkout.session.completed", "livemode": true, "data": map[string]any{"object": map[string]any{"id": "cs_live_a1b2c3"}}},
			Answer:  map[string]any{"received": true},
		},
	}
	for fn, what := range map[string]string{"free": "Switches the Group to the free plan (refused above the free record limit)", "cancel": "Cancels the Group's subscription at the end of the period"} {
		docs["PUT /api/{db}/_design/"+ddoc+"/_update/"+fn+"/{docid}"] = module.Doc{
			Summary: what,
			Path:    []module.Param{{Name: "docid", About: "the Group's own id (its Account record)", Example: module.ExampleDB}},
			Answer:  map[string]any{"ok": true, "id": module.ExampleDB, "plan": "pro", "unconfirmed_plan": "free"},
		}
	}
	return docs
}
