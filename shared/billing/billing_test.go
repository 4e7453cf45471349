package billing_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/billing"
	"github.com/oficina/oficina/shared/billing/billingtest"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/plans"
)

func TestMain(m *testing.M) { os.Exit(billingtest.Main(m)) }

// fixture is a product wired to stripe-mock with a Group whose admin is
// ana and whose plain member is bia; the plan prices are seeded.
type fixture struct {
	e        *apptest.Env
	sm       *billingtest.Stripe
	ana, bia *apptest.Client
	db       string
}

func setup(t *testing.T, e *apptest.Env, sm *billingtest.Stripe) *fixture {
	t.Helper()
	if _, err := plans.Seed(context.Background(), e.App.Docs, plans.Defaults, false); err != nil {
		t.Fatal(err)
	}
	f := &fixture{e: e, sm: sm, ana: e.SignUp("ana@example.com"), bia: e.SignUp("bia@example.com")}
	f.db = e.Group(f.ana, "Oficina da Ana")
	e.Join(f.ana, f.bia, f.db, false)
	return f
}

func each(t *testing.T, fn func(t *testing.T, f *fixture)) {
	sm := billingtest.StartStripe(t)
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		sm.Reset()
		fn(t, setup(t, e, sm))
	}, sm.Option())
}

func (f *fixture) billing(t *testing.T, c *apptest.Client) map[string]any {
	t.Helper()
	return c.Do("GET", "/api/"+f.db+"/_billing", nil).Expect(t, http.StatusOK)
}

// checkout pays for plan as ana, through the test-only completion route.
func (f *fixture) checkout(t *testing.T, plan string) string {
	t.Helper()
	if f.billing(t, f.ana)["billing_email"] == "" {
		f.ana.Do("PUT", "/api/"+f.db+"/_billing/email", map[string]any{"email": "pay@example.com"}).Expect(t, http.StatusOK)
	}
	r := f.ana.Do("POST", "/api/"+f.db+"/_billing/checkout", map[string]any{"price_id": plans.ID(plan, false)}).Expect(t, http.StatusOK)
	sid := r["session_id"].(string)
	f.ana.Do("POST", "/api/"+f.db+"/_billing/checkout/"+sid+"/complete", map[string]any{}).Expect(t, http.StatusOK)
	return sid
}

func form(t *testing.T, reqs []billingtest.Request, n int) billingtest.Request {
	t.Helper()
	if len(reqs) != n {
		t.Fatalf("%d requests, want %d: %+v", len(reqs), n, reqs)
	}
	return reqs[n-1]
}

// TestCheckout: the billing e-mail comes first; an embedded Checkout
// session for the plan's price, the Group's new Stripe customer and the
// spec's metadata; the price made on demand and kept; bad input refused
// without a write; members who are not admins cannot pay.
func TestCheckout(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		e, db := f.e, f.db
		st := f.billing(t, f.ana)
		if st["plan"] != "free" || st["is_admin"] != true || st["publishable_key"] != billingtest.PublishableKey ||
			st["next_invoice"] != nil || st["switch_locked_until"] != nil || st["can_cancel"] != false || st["test_complete"] != true {
			t.Fatalf("a new Group's billing: %v", st)
		}
		pro := plans.ID("pro", false)
		e.Unchanged(db, func() {
			f.ana.Do("POST", "/api/"+db+"/_billing/checkout", map[string]any{"price_id": pro}).ExpectFields(t, "billing_email", "is invalid")
			for _, bad := range []string{"", "nope", "a@", "a b@example.com"} {
				f.ana.Do("PUT", "/api/"+db+"/_billing/email", map[string]any{"email": bad}).ExpectFields(t, "billing_email", "is invalid")
			}
			f.ana.Do("PUT", "/api/"+db+"/_billing/email", map[string]any{"email": 12}).Expect(t, http.StatusBadRequest)
			f.bia.Do("PUT", "/api/"+db+"/_billing/email", map[string]any{"email": "bia@example.com"}).Expect(t, http.StatusForbidden)
		})
		f.ana.Do("PUT", "/api/"+db+"/_billing/email", map[string]any{"email": " Pay@Example.com "}).Expect(t, http.StatusOK)
		if got := f.billing(t, f.ana)["billing_email"]; got != "pay@example.com" {
			t.Fatalf("billing e-mail %v", got)
		}
		if got := f.billing(t, f.bia); got["billing_email"] != "" || got["is_admin"] != false {
			t.Fatalf("a member's view shows admin fields: %v", got)
		}
		if len(f.sm.Requests("/v1/")) != 0 {
			t.Fatalf("Stripe called before a checkout: %+v", f.sm.Requests("/v1/"))
		}
		e.Unchanged(db, func() {
			for _, bad := range []string{"", "x", plans.ID("free", false), plans.ID("pro", true), "ppr-00000000000000000000000000000000"} {
				f.ana.Do("POST", "/api/"+db+"/_billing/checkout", map[string]any{"price_id": bad}).ExpectFields(t, "price_id", "is invalid")
			}
			f.bia.Do("POST", "/api/"+db+"/_billing/checkout", map[string]any{"price_id": pro}).Expect(t, http.StatusForbidden)
		})

		r := f.ana.Do("POST", "/api/"+db+"/_billing/checkout", map[string]any{"price_id": pro, "locale": "pt-BR", "theme": "dark"}).Expect(t, http.StatusOK)
		sid, _ := r["session_id"].(string)
		if !strings.HasPrefix(sid, "cs_") || r["publishable_key"] != billingtest.PublishableKey || r["test_complete"] != true {
			t.Fatalf("checkout answer %v", r)
		}
		cust := form(t, f.sm.Requests("/v1/customers"), 1)
		if cust.Method != "POST" || cust.Form.Get("email") != "pay@example.com" || cust.Form.Get("metadata[accountId]") != db {
			t.Fatalf("customer creation %+v", cust)
		}
		price := form(t, f.sm.Requests("/v1/prices"), 1)
		if price.Form.Get("recurring[usage_type]") != "metered" || price.Form.Get("transform_quantity[divide_by]") != "100" ||
			price.Form.Get("unit_amount") != "600" || price.Form.Get("recurring[interval]") != "month" || price.Form.Get("recurring[meter]") == "" {
			t.Fatalf("price creation %+v", price.Form)
		}
		s := form(t, f.sm.Requests("/v1/checkout/sessions"), 1)
		want := map[string]string{
			"ui_mode": "embedded", "mode": "subscription", "metadata[accountId]": db, "metadata[accountLivemode]": "false",
			"metadata[userLocale]": "pt", "metadata[userTheme]": "dark", "metadata[plan]": "pro", "client_reference_id": db,
			"subscription_data[metadata][accountId]": db,
		}
		for k, v := range want {
			if s.Form.Get(k) != v {
				t.Errorf("session %s = %q, want %q", k, s.Form.Get(k), v)
			}
		}
		if s.Form.Get("customer") == "" || s.Form.Get("line_items[0][price]") == "" || s.Form.Has("line_items[0][quantity]") ||
			s.Form.Get("metadata[accountRev]") == "" || !strings.Contains(s.Form.Get("return_url"), "/checkout?session_id={CHECKOUT_SESSION_ID}") {
			t.Fatalf("session params %v", s.Form)
		}
		// The price is kept: a second checkout makes none, and reuses the customer.
		stripePrice := e.Doc("prices", pro)["platform_price_id"]
		if stripePrice != s.Form.Get("line_items[0][price]") || stripePrice == "" {
			t.Fatalf("PlanPrice platform_price_id %v, session price %q", stripePrice, s.Form.Get("line_items[0][price]"))
		}
		f.ana.Do("POST", "/api/"+db+"/_billing/checkout", map[string]any{"price_id": pro}).Expect(t, http.StatusOK)
		if n := len(f.sm.Requests("/v1/prices")); n != 1 {
			t.Fatalf("%d price creations", n)
		}
		if n := len(f.sm.Requests("/v1/customers")); n != 1 {
			t.Fatalf("%d customer creations", n)
		}
		if got := form(t, f.sm.Requests("/v1/checkout/sessions"), 2).Form.Get("metadata[userLocale]"); got != "en" {
			t.Fatalf("locale of an English user %q", got)
		}
		// The fixed-price server plan: a licensed price of quantity 1.
		f.sm.Reset()
		f.ana.Do("POST", "/api/"+db+"/_billing/checkout", map[string]any{"price_id": plans.ID("server", false)}).Expect(t, http.StatusOK)
		if p := form(t, f.sm.Requests("/v1/prices"), 1).Form; p.Has("recurring[usage_type]") || p.Get("unit_amount") != "90000" {
			t.Fatalf("server price %v", p)
		}
		if q := form(t, f.sm.Requests("/v1/checkout/sessions"), 1).Form.Get("line_items[0][quantity]"); q != "1" {
			t.Fatalf("server quantity %q", q)
		}

		// Completing it (the test route standing in for stripe.com) makes the Group pro.
		e.Unchanged(db, func() {
			f.ana.Do("POST", "/api/"+db+"/_billing/checkout/cs_unknown/complete", map[string]any{}).Expect(t, http.StatusNotFound)
			f.bia.Do("POST", "/api/"+db+"/_billing/checkout/"+sid+"/complete", map[string]any{}).Expect(t, http.StatusForbidden)
		})
		f.ana.Do("POST", "/api/"+db+"/_billing/checkout/"+sid+"/complete", map[string]any{}).Expect(t, http.StatusOK)
		st = f.billing(t, f.ana)
		if st["plan"] != "pro" || st["switch_locked_until"] == nil || st["can_cancel"] != true || st["customer_id"] == "" || st["price_id"] != stripePrice {
			t.Fatalf("after checkout: %v", st)
		}
		if st["next_invoice"] == nil {
			t.Fatalf("no next invoice: %v", st)
		}
		// Paying again while subscribed, or within the lock, is refused.
		f.ana.Do("POST", "/api/"+db+"/_billing/checkout", map[string]any{"price_id": plans.ID("corp", false)}).Expect(t, http.StatusConflict)
		e.Drain()
		if events := paymentEvents(t, f); events == 0 {
			t.Fatal("no update_payment history event")
		}
		mem := f.ana.Do("POST", "/api/"+f.ana.ID+"/_find", map[string]any{"selector": map[string]any{"klass": "Membership", "db_name": db}}).Expect(t, http.StatusOK)
		if d := mem["docs"].([]any); len(d) != 1 || d[0].(map[string]any)["confirmed-plan"] != "pro" {
			t.Fatalf("the switcher's membership does not show pro: %v", d)
		}
	})
}

// paymentEvents counts the Group's update_payment history entries.
func paymentEvents(t *testing.T, f *fixture) int {
	t.Helper()
	h := f.ana.Do("POST", "/api/"+f.db+"/_find", map[string]any{"selector": map[string]any{"klass": "DocumentChange"}, "limit": 1000}).Expect(t, http.StatusOK)
	n := 0
	for _, d := range h["docs"].([]any) {
		for _, ev := range d.(map[string]any)["events"].([]any) {
			if ev == billing.EventUpdate {
				n++
			}
		}
	}
	return n
}

// TestSwitchLockAndFree: after a switch the plan is locked for 24 hours;
// then free is refused above 1,000 records, and accepted at 1,000, which
// cancels the subscription at the end of its period; cancel is for paying
// admins only.
func TestSwitchLockAndFree(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		e, db := f.e, f.db
		free := "/api/" + db + "/_design/subscription/_update/free/" + db
		cancel := "/api/" + db + "/_design/subscription/_update/cancel/" + db
		e.Unchanged(db, func() {
			f.ana.Do("PUT", cancel, map[string]any{}).ExpectError(t, http.StatusConflict, billing.MsgNoSubscription)
			f.ana.Do("PUT", "/api/"+db+"/_design/subscription/_update/free/acc-00000000000000000000000000000000", map[string]any{}).Expect(t, http.StatusNotFound)
		})
		// The SPA writes unconfirmed-plan with an id of its own; the
		// server's writes go to that document, never a second one.
		f.ana.Do("POST", "/api/"+db, map[string]any{"klass": "Adjustment", "key": "unconfirmed-plan", "label": "unconfirmed-plan", "value": "cancel"}).Expect(t, http.StatusCreated)
		f.checkout(t, "pro")
		adj := f.ana.Do("POST", "/api/"+db+"/_find", map[string]any{"selector": map[string]any{"klass": "Adjustment", "key": "unconfirmed-plan"}}).Expect(t, http.StatusOK)
		if d := adj["docs"].([]any); len(d) != 1 || d[0].(map[string]any)["value"] != "" {
			t.Fatalf("unconfirmed-plan adjustments after checkout: %v", d)
		}
		e.Unchanged(db, func() {
			f.ana.Do("PUT", free, map[string]any{}).ExpectError(t, http.StatusConflict, billing.MsgSwitchLocked)
			f.ana.Do("PUT", cancel, map[string]any{}).ExpectError(t, http.StatusConflict, billing.MsgSwitchLocked)
			f.bia.Do("PUT", free, map[string]any{}).Expect(t, http.StatusForbidden)
		})
		e.Clock.Advance(23 * time.Hour)
		f.ana.Do("PUT", free, map[string]any{}).ExpectError(t, http.StatusConflict, billing.MsgSwitchLocked)
		e.Clock.Advance(time.Hour + time.Second)
		// Sessions last 24 hours on the same clock: sign in again.
		f.ana.Do("POST", "/api/_session", map[string]any{"name": f.ana.Email, "password": apptest.Password}).Expect(t, http.StatusOK)

		// 1,001 records: free is refused with the catalogue's message.
		var rows []struct{ ID, Rev string }
		for part := 0; part < 3; part++ { // 1,001 in three requests (at most 500 each)
			n := []int{500, 500, 1}[part]
			docs := make([]any, n)
			for i := range docs {
				docs[i] = map[string]any{"klass": "Customer", "name": fmt.Sprintf("Customer %d-%04d", part, i)}
			}
			res := f.ana.Do("POST", "/api/"+db+"/_bulk_docs", map[string]any{"docs": docs})
			if res.Code != http.StatusCreated {
				t.Fatalf("bulk: %d %s", res.Code, res.Body)
			}
			var got []struct{ ID, Rev string }
			if err := json.Unmarshal(res.Body, &got); err != nil || len(got) != n {
				t.Fatalf("bulk rows: %v", err)
			}
			rows = append(rows, got...)
		}
		e.Drain()
		f.sm.Reset()
		e.Unchanged(db, func() {
			f.ana.Do("PUT", free, map[string]any{}).ExpectError(t, http.StatusUnprocessableEntity, billing.FreeOverLimitMessage(config.DefaultFreeRecords))
		})
		if len(f.sm.Requests("/v1/subscriptions")) != 0 {
			t.Fatal("a refused switch reached Stripe")
		}
		f.ana.Do("DELETE", "/api/"+db+"/"+rows[0].ID+"?rev="+rows[0].Rev, nil).Expect(t, http.StatusOK)
		e.Drain()
		r := f.ana.Do("PUT", free, map[string]any{}).Expect(t, http.StatusOK)
		if r["plan"] != "pro" || r["unconfirmed_plan"] != "free" {
			t.Fatalf("free: %v", r)
		}
		adj = f.ana.Do("POST", "/api/"+db+"/_find", map[string]any{"selector": map[string]any{"klass": "Adjustment", "key": "unconfirmed-plan"}}).Expect(t, http.StatusOK)
		if d := adj["docs"].([]any); len(d) != 1 || d[0].(map[string]any)["value"] != "free" {
			t.Fatalf("unconfirmed-plan adjustments: %v", d)
		}
		// The keys Stripe's state decides are the server's alone.
		e.Unchanged(db, func() {
			for _, key := range []string{"confirmed-plan", "platform_customer_id", "platform_price_id", "platform_subscription_id", "plan-switched-at"} {
				f.ana.Do("POST", "/api/"+db, map[string]any{"klass": "Adjustment", "key": key, "label": key, "value": "x"}).Expect(t, http.StatusForbidden)
			}
		})
		sub := form(t, f.sm.Requests("/v1/subscriptions/"), 1)
		if sub.Method != "POST" || sub.Form.Get("cancel_at_period_end") != "true" {
			t.Fatalf("subscription update %+v", sub)
		}
		st := f.billing(t, f.ana)
		if st["plan"] != "pro" || st["unconfirmed_plan"] != "free" || st["switch_locked_until"] == nil || st["can_cancel"] != false || st["free_record_limit"] != float64(config.DefaultFreeRecords) {
			t.Fatalf("after asking for free: %v", st)
		}
		f.ana.Do("PUT", cancel, map[string]any{}).ExpectError(t, http.StatusConflict, billing.MsgSwitchLocked)
	})
}

// event is a Stripe event signed with secret at ts.
func event(t *testing.T, id, typ string, live bool, object map[string]any, secret string, ts time.Time) (body []byte, sig string) {
	t.Helper()
	return billingtest.Event(t, id, typ, live, object, secret, ts)
}

func post(e *apptest.Env, body []byte, sig string) apptest.Response {
	var headers []string
	if sig != "" {
		headers = []string{"Stripe-Signature", sig}
	}
	return e.Anonymous().Do("POST", "/api/billing/webhook", body, headers...)
}

// TestWebhook: events verified with the endpoint secret, each applied
// once; forged, stale, unsigned and other-mode events are refused (400)
// and change nothing; the subscription's end makes the Group free; an
// invoice's payment shows on the Group.
func TestWebhook(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		e, db := f.e, f.db
		f.ana.Do("PUT", "/api/"+db+"/_billing/email", map[string]any{"email": "pay@example.com"}).Expect(t, http.StatusOK)
		r := f.ana.Do("POST", "/api/"+db+"/_billing/checkout", map[string]any{"price_id": plans.ID("corp", false)}).Expect(t, http.StatusOK)
		sid := r["session_id"].(string)
		cust := f.billing(t, f.ana)["customer_id"].(string)
		session := map[string]any{"id": sid, "object": "checkout.session", "customer": cust, "subscription": "sub_webhook1",
			"metadata": map[string]any{"accountId": db, "plan": "corp"}, "livemode": false}
		now := time.Now()
		body, sig := event(t, "evt_1", "checkout.session.completed", false, session, billingtest.WebhookSecret, now)

		e.Unchanged(db, func() {
			_, forged := event(t, "evt_1", "checkout.session.completed", false, session, "whsec_someone_else", now)
			post(e, body, forged).ExpectError(t, http.StatusBadRequest, billing.MsgBadSignature)
			staleBody, stale := event(t, "evt_1", "checkout.session.completed", false, session, billingtest.WebhookSecret, now.Add(-6*time.Minute))
			post(e, staleBody, stale).ExpectError(t, http.StatusBadRequest, billing.MsgBadSignature)
			post(e, body, "").ExpectError(t, http.StatusBadRequest, billing.MsgBadSignature)
			tampered := []byte(strings.Replace(string(body), `"corp"`, `"server"`, 1))
			post(e, tampered, sig).ExpectError(t, http.StatusBadRequest, billing.MsgBadSignature)
			liveBody, live := event(t, "evt_live", "checkout.session.completed", true, session, billingtest.WebhookSecret, now)
			post(e, liveBody, live).ExpectError(t, http.StatusBadRequest, billing.MsgBadSignature)
		})
		if got := f.billing(t, f.ana)["plan"]; got != "free" {
			t.Fatalf("refused events changed the plan to %v", got)
		}

		post(e, body, sig).Expect(t, http.StatusOK)
		st := f.billing(t, f.ana)
		if st["plan"] != "corp" || st["can_cancel"] != true {
			t.Fatalf("after checkout.session.completed: %v", st)
		}
		e.Drain()
		before := paymentEvents(t, f)
		e.Unchanged(db, func() {
			if r := post(e, body, sig).Expect(t, http.StatusOK); r["duplicate"] != true {
				t.Fatalf("replay: %v", r)
			}
		})

		// A subscription of someone else's customer changes nothing here.
		other := map[string]any{"id": "sub_other", "object": "subscription", "customer": "cus_nobody", "status": "canceled", "metadata": map[string]any{}}
		e.Unchanged(db, func() {
			b, s := event(t, "evt_2", "customer.subscription.deleted", false, other, billingtest.WebhookSecret, time.Now())
			post(e, b, s).Expect(t, http.StatusOK)
		})
		// An update of the subscription to another plan's price follows it.
		upd := map[string]any{"id": "sub_webhook1", "object": "subscription", "customer": cust, "status": "active",
			"metadata": map[string]any{"accountId": db, "plan": "pro"},
			"items":    map[string]any{"object": "list", "data": []any{map[string]any{"id": "si_1", "object": "subscription_item", "price": map[string]any{"id": "price_pro_2", "object": "price"}}}}}
		b, s := event(t, "evt_upd", "customer.subscription.updated", false, upd, billingtest.WebhookSecret, time.Now())
		post(e, b, s).Expect(t, http.StatusOK)
		if st := f.billing(t, f.ana); st["plan"] != "pro" || st["price_id"] != "price_pro_2" {
			t.Fatalf("after customer.subscription.updated: %v", st)
		}
		older := map[string]any{"id": "sub_webhook1", "object": "subscription", "customer": cust, "status": "active",
			"metadata": map[string]any{"accountId": db, "plan": "corp"}}
		e.Unchanged(db, func() {
			b, s := event(t, "evt_older", "customer.subscription.updated", false, older, billingtest.WebhookSecret, time.Now().Add(-time.Minute))
			post(e, b, s).Expect(t, http.StatusOK)
		})
		// A failed payment is noted; the subscription's end makes the Group free.
		inv := map[string]any{"id": "in_1", "object": "invoice", "customer": cust}
		b, s = event(t, "evt_3", "invoice.payment_failed", false, inv, billingtest.WebhookSecret, time.Now())
		post(e, b, s).Expect(t, http.StatusOK)
		sub := map[string]any{"id": "sub_webhook1", "object": "subscription", "customer": cust, "status": "canceled",
			"metadata": map[string]any{"accountId": db, "plan": "corp"}}
		b, s = event(t, "evt_4", "customer.subscription.deleted", false, sub, billingtest.WebhookSecret, time.Now())
		post(e, b, s).Expect(t, http.StatusOK)
		st = f.billing(t, f.ana)
		if st["plan"] != "free" || st["can_cancel"] != false || st["price_id"] != "" {
			t.Fatalf("after the subscription ended: %v", st)
		}
		// Stripe does not promise order: an update arriving after the end,
		// or older than the last applied event, changes nothing.
		e.Unchanged(db, func() {
			b, s := event(t, "evt_late", "customer.subscription.updated", false, upd, billingtest.WebhookSecret, time.Now())
			post(e, b, s).Expect(t, http.StatusOK)
		})
		if got := f.billing(t, f.ana)["plan"]; got != "free" {
			t.Fatalf("a late update revived the subscription: %v", got)
		}
		e.Drain()
		if after := paymentEvents(t, f); after < before+2 {
			t.Fatalf("update_payment events %d → %d", before, after)
		}
	})
}

// TestWebhookOtherCustomer: events whose metadata names a Group but whose
// Stripe customer is not the Group's own change nothing there — a paying
// Group's subscription ended or changed, a free Group given a plan, a
// checkout the server does not remember, an invoice — while the same
// event of the Group's own customer applies.
func TestWebhookOtherCustomer(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		e, db := f.e, f.db
		f.checkout(t, "pro")
		b, err := e.App.Accounts.Billing(context.Background(), db)
		if err != nil || b.SubscriptionID == "" || b.CustomerID == "" {
			t.Fatalf("after the checkout: %+v %v", b, err)
		}
		free := e.Group(f.ana, "Ana 2")
		cleo := e.SignUp("cleo@example.com")
		other := e.Group(cleo, "Cleo")
		cleo.Do("PUT", "/api/"+other+"/_billing/email", map[string]any{"email": "cleo@example.com"}).Expect(t, http.StatusOK)
		cleo.Do("POST", "/api/"+other+"/_billing/checkout", map[string]any{"price_id": plans.ID("corp", false)}).Expect(t, http.StatusOK)
		cleoCustomer := cleo.Do("GET", "/api/"+other+"/_billing", nil).Expect(t, http.StatusOK)["customer_id"].(string)
		e.Drain()
		items := map[string]any{"object": "list", "data": []any{map[string]any{"id": "si_x", "object": "subscription_item", "price": map[string]any{"id": "price_corp_x", "object": "price"}}}}
		n := 0
		send := func(typ string, object map[string]any) {
			t.Helper()
			n++
			body, sig := event(t, fmt.Sprintf("evt_other_%d", n), typ, false, object, billingtest.WebhookSecret, time.Now())
			post(e, body, sig).Expect(t, http.StatusOK)
		}
		for _, c := range []struct{ customer, sub string }{{"cus_nobody", b.SubscriptionID}, {cleoCustomer, "sub_cleo"}} {
			e.Unchanged(db, func() {
				send("customer.subscription.deleted", map[string]any{"id": c.sub, "object": "subscription", "customer": c.customer,
					"status": "canceled", "metadata": map[string]any{"accountId": db, "plan": "pro"}})
				send("customer.subscription.updated", map[string]any{"id": c.sub, "object": "subscription", "customer": c.customer,
					"status": "active", "metadata": map[string]any{"accountId": db, "plan": "corp"}, "items": items})
				send("checkout.session.completed", map[string]any{"id": "cs_forgotten_" + c.customer, "object": "checkout.session", "customer": c.customer,
					"subscription": c.sub, "metadata": map[string]any{"accountId": db, "plan": "corp"}, "livemode": false})
				send("invoice.payment_failed", map[string]any{"id": "in_other", "object": "invoice", "customer": c.customer})
			})
		}
		e.Unchanged(free, func() {
			send("customer.subscription.updated", map[string]any{"id": "sub_elsewhere", "object": "subscription", "customer": "cus_nobody",
				"status": "active", "metadata": map[string]any{"accountId": free, "plan": "corp"}, "items": items})
		})
		if st := f.billing(t, f.ana); st["plan"] != "pro" || st["customer_id"] != b.CustomerID {
			t.Fatalf("another customer's events changed the Group: %v", st)
		}
		// The Group's own customer: the same end applies.
		send("customer.subscription.deleted", map[string]any{"id": b.SubscriptionID, "object": "subscription", "customer": b.CustomerID,
			"status": "canceled", "metadata": map[string]any{"accountId": db, "plan": "pro"}})
		if st := f.billing(t, f.ana); st["plan"] != "free" {
			t.Fatalf("the Group's own subscription ended: %v", st)
		}
	})
}

// TestUsageReport: the daily job reports each paying Group's storage in
// MB once per day (the identifier is the Group and the day); a re-run
// sends nothing; the next day reports again; free Groups are not billed.
func TestUsageReport(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		e, db := f.e, f.db
		cleo := e.SignUp("cleo@example.com")
		e.Group(cleo, "Free Group") // free: never reported
		f.checkout(t, "pro")
		for i := range 3 {
			f.ana.Do("POST", "/api/"+db, map[string]any{"klass": "Customer", "name": fmt.Sprintf("Customer %d", i), "notes": strings.Repeat("x", 1000)}).Expect(t, http.StatusCreated)
		}
		e.Drain()
		job, ok := e.App.Modules.JobNamed(billing.JobUsage)
		if !ok {
			t.Fatal("no usage job")
		}
		day := time.Date(2026, 11, 24, 0, 15, 0, 0, time.UTC)
		run := func(at time.Time) {
			t.Helper()
			if err := job.Run(context.Background(), module.JobEvent{Job: billing.JobUsage, Time: at}); err != nil {
				t.Fatal(err)
			}
		}
		f.sm.Reset()
		run(day)
		ev := form(t, f.sm.Requests("/v1/billing/meter_events"), 1).Form
		if ev.Get("identifier") != db+"-2026-11-24" || ev.Get("event_name") != "oficina_storage_mb" ||
			ev.Get("payload[stripe_customer_id]") != f.billing(t, f.ana)["customer_id"] || ev.Get("timestamp") != fmt.Sprint(day.Unix()) {
			t.Fatalf("meter event %v", ev)
		}
		if ev.Get("payload[value]") != "1" { // a few KB: one started MB
			t.Fatalf("value %q", ev.Get("payload[value]"))
		}
		run(day.Add(time.Hour))
		if n := len(f.sm.Requests("/v1/billing/meter_events")); n != 1 {
			t.Fatalf("a re-run reported again: %d events", n)
		}
		run(day.Add(24 * time.Hour))
		if got := form(t, f.sm.Requests("/v1/billing/meter_events"), 2).Form.Get("identifier"); got != db+"-2026-11-25" {
			t.Fatalf("next day's identifier %q", got)
		}
		if billing.MB(0) != 0 || billing.MB(1) != 1 || billing.MB(1_000_000) != 1 || billing.MB(1_000_001) != 2 {
			t.Fatal("MB rounding")
		}
	})
}
