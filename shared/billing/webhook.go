package billing

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/stripe/stripe-go/v83"
	"github.com/stripe/stripe-go/v83/webhook"

	"github.com/oficina/oficina/shared/accounts"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/httpjson"
	"github.com/oficina/oficina/shared/store"
)

// webhook answers POST /api/billing/webhook: the Stripe-Signature header
// must verify with a mode's endpoint secret within the tolerance (else
// 400, nothing changes); an event id seen before is answered 200 and not
// applied again; an event that fails to apply is forgotten and answered
// 500, so Stripe's retry applies it.
func (m *Module) webhook(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	payload, err := io.ReadAll(r.Body)
	if err != nil {
		return fault.Wrap(fault.TooLarge, "Request body too large", err)
	}
	sig := r.Header.Get("Stripe-Signature")
	var ev stripe.Event
	verified := false
	for _, live := range []bool{false, true} {
		k, err := m.keys.get(ctx, live)
		if err != nil {
			return err
		}
		if k.Webhook == "" {
			continue
		}
		ev, err = webhook.ConstructEventWithOptions(payload, sig, k.Webhook, webhook.ConstructEventOptions{
			Tolerance: webhookTolerance, IgnoreAPIVersionMismatch: true,
		})
		if err == nil && ev.Livemode == live {
			verified = true
			break
		}
	}
	if !verified {
		m.log.WarnContext(ctx, "stripe webhook refused", "signature", sig != "")
		return fault.New(fault.BadRequest, MsgBadSignature)
	}
	if ev.ID == "" {
		return fault.New(fault.BadRequest, MsgBadSignature)
	}
	err = m.st.PutRecord(ctx, store.Record{Kind: kindEvent, Key: ev.ID, Value: []byte(ev.Type), ExpiresAt: time.Now().Add(eventMemory)}, true)
	if errors.Is(err, store.ErrExists) {
		httpjson.Write(w, http.StatusOK, map[string]any{"received": true, "duplicate": true})
		return nil
	}
	if err != nil {
		return fmt.Errorf("remember event %s: %w", ev.ID, err)
	}
	if err := m.apply(ctx, ev); err != nil {
		// Forget it, so Stripe's retry applies it.
		if derr := m.st.Transact(context.WithoutCancel(ctx), []store.RecordWrite{{Record: store.Record{Kind: kindEvent, Key: ev.ID}, Delete: true}}); derr != nil {
			m.log.ErrorContext(ctx, "forget stripe event", "event", ev.ID, "err", derr)
		}
		return fmt.Errorf("apply stripe event %s (%s): %w", ev.ID, ev.Type, err)
	}
	httpjson.Write(w, http.StatusOK, map[string]any{"received": true})
	return nil
}

// apply turns one event into the Group's state. Events of other types, or
// for Groups this server does not know, change nothing.
func (m *Module) apply(ctx context.Context, ev stripe.Event) error {
	switch ev.Type {
	case "checkout.session.completed":
		var s stripe.CheckoutSession
		if err := json.Unmarshal(ev.Data.Raw, &s); err != nil {
			return fmt.Errorf("decode session: %w", err)
		}
		info, err := m.session(ctx, s.ID)
		if errors.Is(err, store.ErrNotFound) {
			// Made long ago (the server forgets sessions after two days):
			// the metadata names the plan, and the customer must be the
			// Group's own, which the server made at the checkout.
			db, err := m.groupOf(ctx, s.Customer, s.Metadata)
			if err != nil || db == "" {
				return err
			}
			info = sessionInfo{DB: db, Plan: s.Metadata["plan"], Livemode: s.Livemode, CustomerID: s.Customer.ID}
		} else if err != nil {
			return err
		}
		if info.DB != s.Metadata["accountId"] || info.DB == "" {
			m.log.WarnContext(ctx, "checkout session of an unknown Group", "session", s.ID)
			return nil
		}
		if ok, err := m.sameMode(ctx, info.DB, ev.Livemode); err != nil || !ok {
			return err
		}
		sub := ""
		if s.Subscription != nil {
			sub = s.Subscription.ID
		}
		return m.applyCheckout(ctx, system, info, sub)

	case "customer.subscription.updated", "customer.subscription.deleted":
		var sub stripe.Subscription
		if err := json.Unmarshal(ev.Data.Raw, &sub); err != nil {
			return fmt.Errorf("decode subscription: %w", err)
		}
		db, err := m.groupOf(ctx, sub.Customer, sub.Metadata)
		if err != nil || db == "" {
			return err
		}
		if ok, err := m.sameMode(ctx, db, ev.Livemode); err != nil || !ok {
			return err
		}
		return m.applySubscription(ctx, db, &sub, ev.Type == "customer.subscription.deleted", ev.Created)

	case "invoice.paid", "invoice.payment_failed":
		var inv stripe.Invoice
		if err := json.Unmarshal(ev.Data.Raw, &inv); err != nil {
			return fmt.Errorf("decode invoice: %w", err)
		}
		db, err := m.groupOf(ctx, inv.Customer, nil)
		if err != nil || db == "" {
			return err
		}
		if ok, err := m.sameMode(ctx, db, ev.Livemode); err != nil || !ok {
			return err
		}
		status := "paid"
		if ev.Type == "invoice.payment_failed" {
			status = "payment_failed"
		}
		return m.acc.SetBilling(ctx, system, db, accounts.BillingChange{InvoiceStatus: ptr(status + " " + inv.ID)})
	}
	return nil
}

// groupOf finds the Group whose own Stripe customer c is: the Group the
// server made the customer for (remembered at the checkout), else the
// Group meta names (a customer made elsewhere, say by an operator), and in
// either case only while c is that Group's customer. So an event of
// another customer changes nothing, whatever Group its metadata names.
func (m *Module) groupOf(ctx context.Context, c *stripe.Customer, meta map[string]string) (string, error) {
	if c == nil || c.ID == "" {
		m.log.WarnContext(ctx, "stripe event without a customer")
		return "", nil
	}
	db := meta["accountId"]
	rec, err := m.st.GetRecord(ctx, kindCustomer, c.ID)
	switch {
	case err == nil:
		db = string(rec.Value)
	case !errors.Is(err, store.ErrNotFound):
		return "", err
	}
	if db == "" {
		m.log.WarnContext(ctx, "stripe event for an unknown customer", "customer", c.ID)
		return "", nil
	}
	b, err := m.acc.Billing(ctx, db)
	if errors.Is(err, store.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	if b.CustomerID != c.ID {
		m.log.WarnContext(ctx, "stripe event for another customer than the Group's", "account", db, "customer", c.ID)
		return "", nil
	}
	return db, nil
}

// sameMode: a live event never changes a test Group, nor the reverse.
func (m *Module) sameMode(ctx context.Context, db string, live bool) (bool, error) {
	b, err := m.acc.Billing(ctx, db)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if b.Livemode != live {
		m.log.WarnContext(ctx, "stripe event of the other mode ignored", "account", db, "live", live)
		return false, nil
	}
	return true, nil
}

// applySubscription follows a subscription's state: active or trialing
// keeps (or sets) the plan of its price; ended, the Group goes to free, or
// to locked when it was cancelled above the free plan's records.
//
// Stripe does not promise order: an event older than the last one applied
// for the subscription, or any event of a subscription that has ended,
// changes nothing.
func (m *Module) applySubscription(ctx context.Context, db string, sub *stripe.Subscription, deleted bool, created int64) error {
	b, err := m.acc.Billing(ctx, db)
	if err != nil {
		return err
	}
	if b.SubscriptionID != "" && sub.ID != b.SubscriptionID {
		m.log.InfoContext(ctx, "event of an older subscription ignored", "account", db, "subscription", sub.ID)
		return nil
	}
	seen, err := m.subscriptionSeen(ctx, sub.ID)
	if err != nil {
		return err
	}
	if seen.Ended || created < seen.Created {
		m.log.InfoContext(ctx, "stale subscription event ignored", "account", db, "subscription", sub.ID)
		return nil
	}
	ended := deleted || sub.Status == stripe.SubscriptionStatusCanceled || sub.Status == stripe.SubscriptionStatusIncompleteExpired ||
		sub.Status == stripe.SubscriptionStatusUnpaid
	if err := m.rememberSubscription(ctx, sub.ID, subSeen{Created: created, Ended: ended}); err != nil {
		return err
	}
	if !ended {
		plan := sub.Metadata["plan"]
		priceID := ""
		if sub.Items != nil && len(sub.Items.Data) > 0 && sub.Items.Data[0].Price != nil {
			priceID = sub.Items.Data[0].Price.ID
		}
		if plan == "" || plan == b.Plan {
			if priceID == "" || priceID == b.PriceID {
				return nil
			}
			return m.acc.SetBilling(ctx, system, db, accounts.BillingChange{PriceID: &priceID})
		}
		return m.acc.SetBilling(ctx, system, db, accounts.BillingChange{Plan: &plan, PriceID: &priceID, SubscriptionID: &sub.ID})
	}
	next := PlanFree
	if b.UnconfirmedPlan == "cancel" {
		n, err := m.records(ctx, db)
		if err != nil {
			return err
		}
		if n > m.freeRecords {
			next = PlanLocked
		}
	}
	// The switch was when it was asked for (switchDown stamped it).
	return m.acc.SetBilling(ctx, system, db, accounts.BillingChange{
		Plan: &next, UnconfirmedPlan: ptr(""), PriceID: ptr(""), SubscriptionID: ptr(""),
	})
}

// subSeen is what the server remembers of a subscription's events.
type subSeen struct {
	Created int64 `json:"created"` // the latest applied event's creation time
	Ended   bool  `json:"ended"`
}

func (m *Module) subscriptionSeen(ctx context.Context, id string) (subSeen, error) {
	rec, err := m.st.GetRecord(ctx, kindSubscription, id)
	if errors.Is(err, store.ErrNotFound) {
		return subSeen{}, nil
	}
	if err != nil {
		return subSeen{}, err
	}
	var s subSeen
	if err := json.Unmarshal(rec.Value, &s); err != nil {
		return subSeen{}, fmt.Errorf("decode subscription %s: %w", id, err)
	}
	return s, nil
}

func (m *Module) rememberSubscription(ctx context.Context, id string, s subSeen) error {
	raw, _ := json.Marshal(s)
	if err := m.st.PutRecord(ctx, store.Record{Kind: kindSubscription, Key: id, Value: raw, ExpiresAt: time.Now().Add(400 * 24 * time.Hour)}, false); err != nil {
		return fmt.Errorf("remember subscription %s: %w", id, err)
	}
	return nil
}
