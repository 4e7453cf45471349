package accounts

import (
	"context"
	"errors"
	"fmt"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/store"
)

// Billing keys: server-written adjustments of a Group that the payment
// provider's state decides (shared/billing writes them; clients cannot).
const (
	KeyConfirmedPlan   = "confirmed-plan"
	KeyUnconfirmedPlan = "unconfirmed-plan" // written by admins too (the SPA, before a switch)
	KeyCustomerID      = "platform_customer_id"
	KeyPriceID         = "platform_price_id"
	KeySubscriptionID  = "platform_subscription_id"
	KeyPlanSwitchedAt  = "plan-switched-at"
	KeyInvoiceStatus   = "platform_invoice_status" // "paid" | "payment_failed" and the invoice id
)

// Billing is what the billing module reads of a Group in one call.
type Billing struct {
	Plan            string // confirmed-plan
	UnconfirmedPlan string
	CustomerID      string
	PriceID         string
	SubscriptionID  string
	SwitchedAt      string // RFC 3339, "" when never switched
	Livemode        bool   // the account record's livemode
	BillingEmail    string
	AccountRev      string // the account record's revision (checkout metadata)
}

// BillingChange sets the non-nil fields; Plan also stamps SwitchedAt when
// it changes the confirmed plan.
type BillingChange struct {
	Plan, UnconfirmedPlan, CustomerID, PriceID, SubscriptionID, SwitchedAt, BillingEmail, InvoiceStatus *string
}

// Billing reads a Group's billing state (store.ErrNotFound when the Group
// does not exist). Access is the caller's to check.
func (s *Service) Billing(ctx context.Context, accID string) (Billing, error) {
	if !isGroupDB(accID) {
		return Billing{}, store.ErrNotFound
	}
	a, err := s.loadAccount(ctx, accID)
	if err != nil {
		return Billing{}, err
	}
	b := Billing{AccountRev: a.Rev, BillingEmail: str(a.Body["billing_email"])}
	b.Livemode, _ = a.Body["livemode"].(bool)
	for key, dst := range map[string]*string{
		KeyConfirmedPlan: &b.Plan, KeyUnconfirmedPlan: &b.UnconfirmedPlan, KeyCustomerID: &b.CustomerID,
		KeyPriceID: &b.PriceID, KeySubscriptionID: &b.SubscriptionID, KeyPlanSwitchedAt: &b.SwitchedAt,
	} {
		v, err := s.Setting(ctx, accID, key)
		if err != nil {
			return Billing{}, err
		}
		*dst = str(v)
	}
	if b.Plan == "" {
		b.Plan = str(a.Body["v7_plan"])
	}
	if b.CustomerID == "" {
		b.CustomerID = str(a.Body["platform_customer_id"])
	}
	return b, nil
}

// SetBilling writes a Group's billing state as p (a system write: the
// rules that keep these keys from clients let it through): the
// adjustments, the account record's mirror fields (v7_plan,
// platform_customer_id, platform_price_id, billing_email) and, when the
// plan changes, the plan its memberships show in the account switcher.
func (s *Service) SetBilling(ctx context.Context, p *access.Principal, accID string, ch BillingChange) error {
	if !isGroupDB(accID) {
		return store.ErrNotFound
	}
	sets := []struct {
		key string
		v   *string
	}{
		{KeyConfirmedPlan, ch.Plan}, {KeyUnconfirmedPlan, ch.UnconfirmedPlan}, {KeyCustomerID, ch.CustomerID},
		{KeyPriceID, ch.PriceID}, {KeySubscriptionID, ch.SubscriptionID}, {KeyPlanSwitchedAt, ch.SwitchedAt},
		{"billing-email", ch.BillingEmail}, {KeyInvoiceStatus, ch.InvoiceStatus},
	}
	for _, kv := range sets {
		if kv.v == nil {
			continue
		}
		if err := s.setServerSetting(ctx, p, accID, kv.key, *kv.v); err != nil {
			return err
		}
	}
	_, err := s.update(ctx, p, ids.AccountsDB, accID, func(body map[string]any) error {
		changed := false
		set := func(field string, v *string) {
			if v != nil && str(body[field]) != *v {
				body[field], changed = *v, true
			}
		}
		set("v7_plan", ch.Plan)
		set("platform_customer_id", ch.CustomerID)
		set("platform_price_id", ch.PriceID)
		set("billing_email", ch.BillingEmail)
		if !changed {
			return errUnchanged
		}
		return nil
	})
	if err != nil && !errors.Is(err, errUnchanged) {
		return fmt.Errorf("account record of %s: %w", accID, err)
	}
	if ch.Plan != nil {
		s.syncMembershipPlan(ctx, p, accID, *ch.Plan)
	}
	return nil
}

// setServerSetting writes one adjustment by its fixed id (created when
// missing), leaving an unchanged value unwritten.
func (s *Service) setServerSetting(ctx context.Context, p *access.Principal, db, key, value string) error {
	id, err := s.settingID(ctx, db, key)
	if err != nil {
		return err
	}
	_, err = s.update(ctx, p, db, id, func(body map[string]any) error {
		if str(body["value"]) == value {
			return errUnchanged
		}
		body["value"] = value
		return nil
	})
	if errors.Is(err, store.ErrNotFound) {
		_, err = s.save(ctx, p, db, id, "", map[string]any{"klass": KlassAdjustment, "key": key, "label": key, "value": value})
		if errors.Is(err, store.ErrConflict) { // created meanwhile: set it
			return s.setServerSetting(ctx, p, db, key, value)
		}
	}
	if err != nil && !errors.Is(err, errUnchanged) {
		return fmt.Errorf("adjustment %s of %s: %w", key, db, err)
	}
	return nil
}

// syncMembershipPlan copies a new plan into the Group's memberships and
// their mirrors (the account switcher's plan icon). Failures are logged.
func (s *Service) syncMembershipPlan(ctx context.Context, p *access.Principal, accID, plan string) {
	mems, err := s.memberships(ctx, accID)
	if err != nil {
		s.log.ErrorContext(ctx, "plan of memberships", "account", accID, "err", err)
		return
	}
	set := func(body map[string]any) error {
		if str(body[KeyConfirmedPlan]) == plan {
			return errUnchanged
		}
		body[KeyConfirmedPlan] = plan
		return nil
	}
	for _, m := range mems {
		if _, err := s.update(ctx, p, accID, m.id, set); err != nil && !errors.Is(err, errUnchanged) {
			s.log.ErrorContext(ctx, "plan of membership", "account", accID, "membership", m.id, "err", err)
		}
		if uid, err := s.memberUserID(ctx, m.body); err == nil && uid != "" {
			if _, err := s.update(ctx, p, uid, m.id, set); err != nil && !errors.Is(err, errUnchanged) && !errors.Is(err, store.ErrNotFound) {
				s.log.ErrorContext(ctx, "plan of mirror", "user", uid, "membership", m.id, "err", err)
			}
		}
	}
}

// settingID is the id of a Group's adjustment for key: the fixed id, or
// the id of one a client made (the SPA writes unconfirmed-plan with an id
// of its own), so the server never makes a second document for a key.
func (s *Service) settingID(ctx context.Context, db, key string) (string, error) {
	id := adjustmentID(db, key)
	if _, _, err := s.get(ctx, db, id); err == nil || !errors.Is(err, store.ErrNotFound) {
		return id, err
	}
	q := store.ListQuery{Klass: KlassAdjustment, Limit: 200}
	for {
		page, err := s.st.List(ctx, db, q)
		if err != nil {
			return "", fmt.Errorf("list adjustments of %s: %w", db, err)
		}
		for _, d := range page.Docs {
			b, err := docs.Decode(d.Body)
			if err != nil {
				return "", fmt.Errorf("decode %s/%s: %w", db, d.ID, err)
			}
			if str(b["key"]) == key {
				return d.ID, nil
			}
		}
		if page.Next == "" {
			return id, nil
		}
		q.After = page.Next
	}
}
