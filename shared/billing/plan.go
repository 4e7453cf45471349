package billing

import (
	"context"
	"time"

	"github.com/stripe/stripe-go/v83"

	"github.com/oficina/oficina/shared/accounts"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/stream"
)

// switchDown is PUT /api/{db}/_design/subscription/_update/{free|cancel}/{db}
// (admins; the SPA has written the unconfirmed-plan adjustment first):
//
//   - 409 MsgSwitchLocked within 24 hours of the last switch;
//   - free: 422 FreeOverLimitMessage above the free plan's records (1,000);
//   - cancel: 409 MsgNoSubscription on a Group that pays nothing;
//   - a subscription is cancelled at the end of its period (the webhook
//     then moves the Group to free, or to locked when it was cancelled
//     above the free plan's records); a paid plan without a subscription
//     (set by an operator) goes to free at once.
//
// It answers {"ok": true, "id": db, "plan": <confirmed plan>,
// "unconfirmed_plan": fn}.
func (m *Module) switchDown(ctx context.Context, c module.UpdateCall, fn string) (module.UpdateResult, error) {
	if c.DocID != c.DB {
		return module.UpdateResult{}, fault.New(fault.NotFound, MsgMissing)
	}
	b, err := m.billingOf(ctx, c.DB)
	if err != nil {
		return module.UpdateResult{}, err
	}
	if err := m.checkLock(b); err != nil {
		return module.UpdateResult{}, err
	}
	if fn == "free" {
		n, err := m.records(ctx, c.DB)
		if err != nil {
			return module.UpdateResult{}, err
		}
		if n > m.freeRecords {
			return module.UpdateResult{}, fault.New(fault.Unprocessable, FreeOverLimitMessage(m.freeRecords))
		}
	}
	if fn == "cancel" && b.SubscriptionID == "" && b.Plan != PlanPro && b.Plan != PlanCorp {
		return module.UpdateResult{}, fault.New(fault.Conflict, MsgNoSubscription)
	}
	now := m.now().UTC().Format(time.RFC3339Nano)
	ch := accounts.BillingChange{UnconfirmedPlan: ptr(fn), SwitchedAt: &now}
	switch {
	case b.SubscriptionID != "":
		sc, _, err := m.client(ctx, b.Livemode)
		if err != nil {
			return module.UpdateResult{}, err
		}
		_, err = sc.V1Subscriptions.Update(ctx, b.SubscriptionID, &stripe.SubscriptionUpdateParams{
			CancelAtPeriodEnd: stripe.Bool(true),
			Metadata:          map[string]string{"oficinaAfter": fn},
		})
		if err != nil {
			return module.UpdateResult{}, stripeErr("cancel subscription", err)
		}
	case b.Plan != PlanFree:
		// Nothing to cancel at Stripe: the switch is immediate.
		ch.Plan, ch.UnconfirmedPlan = ptr(PlanFree), ptr("")
		if fn == "cancel" {
			n, err := m.records(ctx, c.DB)
			if err != nil {
				return module.UpdateResult{}, err
			}
			if n > m.freeRecords {
				ch.Plan = ptr(PlanLocked)
			}
		}
	default:
		ch.UnconfirmedPlan = ptr("") // already free: nothing changes but the lock
	}
	if err := m.acc.SetBilling(ctx, c.Principal, c.DB, ch); err != nil {
		return module.UpdateResult{}, err
	}
	plan := b.Plan
	if ch.Plan != nil {
		plan = *ch.Plan
	}
	return module.UpdateResult{Extra: map[string]any{"ok": true, "id": c.DB, "plan": plan, "unconfirmed_plan": *ch.UnconfirmedPlan}}, nil
}

// records counts a Group's records as the plan limits do: the change
// stream's exact counters, over the klasses that count (phones and
// addresses are adjustments, and adjustments, memberships, history and
// the other kept-aside klasses are not records).
func (m *Module) records(ctx context.Context, db string) (int64, error) {
	c, err := stream.Read(ctx, m.st, db)
	if err != nil {
		return 0, err
	}
	var n int64
	for _, k := range c.Klass {
		n += k.Records
	}
	return n, nil
}
