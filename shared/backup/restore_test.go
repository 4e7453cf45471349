package backup_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/accounts"
	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/billing"
	"github.com/oficina/oficina/shared/billing/billingtest"
	"github.com/oficina/oficina/shared/plans"
)

// serverKeys are the Group adjustments only the server writes that a
// paying Group has and a new one lacks (accounts.IsServerKey).
var serverKeys = []string{accounts.KeyCustomerID, accounts.KeyPriceID, accounts.KeySubscriptionID,
	accounts.KeyPlanSwitchedAt, accounts.KeyInvoiceStatus}

// TestRestoreLeavesServerSettings: a backup of a paying Group (a Stripe
// customer, price and subscription from a checkout against stripe-mock,
// the 24-hour switch lock, a paid invoice) restored into a new Group
// copies none of them: the new Group is free, unlocked, has no customer,
// and cannot cancel the original's subscription. The original keeps its
// own.
func TestRestoreLeavesServerSettings(t *testing.T) {
	sm := billingtest.StartStripe(t)
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		sm.Reset()
		ctx := context.Background()
		if _, err := plans.Seed(ctx, e.App.Docs, plans.Defaults, false); err != nil {
			t.Fatal(err)
		}
		ana := e.SignUp("ana@example.com")
		db := e.Group(ana, "Oficina da Ana")
		api := "/api/" + db
		ana.Do("POST", api, map[string]any{"klass": "Customer", "name": "Bia"}).Expect(t, http.StatusCreated)
		ana.Do("PUT", api+"/_billing/email", map[string]any{"email": "pay@example.com"}).Expect(t, http.StatusOK)
		sid := ana.Do("POST", api+"/_billing/checkout", map[string]any{"price_id": plans.ID("pro", false)}).Expect(t, http.StatusOK)["session_id"].(string)
		ana.Do("POST", api+"/_billing/checkout/"+sid+"/complete", map[string]any{}).Expect(t, http.StatusOK)
		paid := ana.Do("GET", api+"/_billing", nil).Expect(t, http.StatusOK)
		inv := map[string]any{"id": "in_restore", "object": "invoice", "customer": paid["customer_id"]}
		body, sig := billingtest.Event(t, "evt_restore_paid", "invoice.paid", false, inv, billingtest.WebhookSecret, time.Now())
		e.Anonymous().Do("POST", "/api/billing/webhook", body, "Stripe-Signature", sig).Expect(t, http.StatusOK)
		for _, key := range serverKeys {
			if v, err := e.App.Accounts.Setting(ctx, db, key); err != nil || v == "" || v == nil {
				t.Fatalf("the paying Group's %s: %v %v", key, v, err)
			}
		}
		if paid["plan"] != "pro" || paid["switch_locked_until"] == nil {
			t.Fatalf("the paying Group: %v", paid)
		}
		e.Drain()

		id := ana.Do("POST", api+"/_backups", nil).Expect(t, http.StatusAccepted)["id"].(string)
		restored := ana.Do("POST", api+"/_backups/"+id+"/restore", map[string]any{"name": "Ana (restored)"}).Expect(t, http.StatusCreated)["db"].(string)
		e.Drain()

		for _, key := range serverKeys {
			if v, err := e.App.Accounts.Setting(ctx, restored, key); err != nil || v != nil {
				t.Errorf("the restored Group has %s = %v (%v)", key, v, err)
			}
		}
		// No server-only adjustment of the original came along (the new
		// Group's own creator and plan are written when it is made).
		copied := docsOf(t, e, restored)
		for id, d := range docsOf(t, e, db) {
			if key, _ := d["key"].(string); d["klass"] == "Adjustment" && accounts.IsServerKey(key) && copied[id] != nil {
				t.Errorf("server key %s restored from the backup: %v", key, copied[id])
			}
		}
		st := ana.Do("GET", "/api/"+restored+"/_billing", nil).Expect(t, http.StatusOK)
		if st["plan"] != "free" || st["customer_id"] != "" || st["price_id"] != "" || st["switch_locked_until"] != nil || st["can_cancel"] != false {
			t.Fatalf("the restored Group's billing: %v", st)
		}
		sm.Reset()
		cancel := "/api/" + restored + "/_design/subscription/_update/cancel/" + restored
		e.Unchanged(restored, func() {
			ana.Do("PUT", cancel, map[string]any{}).ExpectError(t, http.StatusConflict, billing.MsgNoSubscription)
		})
		if reqs := sm.Requests("/v1/subscriptions"); len(reqs) != 0 {
			t.Fatalf("the restored Group reached the original's subscription: %+v", reqs)
		}
		// Not locked: a free Group switching to free is no switch at all,
		// but never the lock's 409.
		if r := ana.Do("PUT", "/api/"+restored+"/_design/subscription/_update/free/"+restored, map[string]any{}); r.Code == http.StatusConflict {
			t.Fatalf("the restored Group is locked: %s", r.Body)
		}
		if got := ana.Do("GET", api+"/_billing", nil).Expect(t, http.StatusOK); got["customer_id"] != paid["customer_id"] || got["plan"] != "pro" {
			t.Fatalf("the original's billing after the restore: %v", got)
		}
	}, sm.Option())
}
