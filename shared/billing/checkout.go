package billing

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/stripe/stripe-go/v83"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/accounts"
	"github.com/oficina/oficina/shared/auth"
	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/httpjson"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/store"
)

// Status is the answer of GET /api/{db}/_billing (the contract with the
// billing screens). Admin-only fields are blank for other members.
type Status struct {
	Plan              string   `json:"plan"`
	UnconfirmedPlan   string   `json:"unconfirmed_plan"`
	Livemode          bool     `json:"livemode"`
	BillingEmail      string   `json:"billing_email"`
	CustomerID        string   `json:"customer_id"`
	PriceID           string   `json:"price_id"`
	NextInvoice       *Invoice `json:"next_invoice"`
	SwitchLockedUntil *string  `json:"switch_locked_until"`
	CanCancel         bool     `json:"can_cancel"`
	IsAdmin           bool     `json:"is_admin"`
	PublishableKey    string   `json:"publishable_key"`
	// TestComplete: the test-only completion route is on (--stripe-test-checkout).
	TestComplete bool `json:"test_complete"`
	// FreeRecordLimit is the free plan's record limit (--free-records):
	// the plan chooser refuses a switch to free above it before asking.
	FreeRecordLimit int64 `json:"free_record_limit"`
}

// Invoice is the next invoice's summary.
type Invoice struct {
	Amount   int64  `json:"amount"`
	Currency string `json:"currency"`
	Date     string `json:"date"` // YYYY-MM-DD
}

// lockedUntil is when a Group may switch again (zero when it may now).
func (m *Module) lockedUntil(b accounts.Billing) time.Time {
	at, err := time.Parse(time.RFC3339Nano, b.SwitchedAt)
	if err != nil {
		return time.Time{}
	}
	if until := at.Add(SwitchLock); m.now().Before(until) {
		return until
	}
	return time.Time{}
}

func (m *Module) checkLock(b accounts.Billing) error {
	if !m.lockedUntil(b).IsZero() {
		return fault.New(fault.Conflict, MsgSwitchLocked)
	}
	return nil
}

func isAdmin(ctx context.Context, st store.Store, p *access.Principal, db string) bool {
	return access.Check(ctx, st, p, db, access.Admin) == nil
}

// billingOf reads a Group's billing state; an unknown Group is 404.
func (m *Module) billingOf(ctx context.Context, db string) (accounts.Billing, error) {
	b, err := m.acc.Billing(ctx, db)
	if errors.Is(err, store.ErrNotFound) {
		return b, fault.New(fault.NotFound, MsgMissing)
	}
	if b.Plan == "" {
		b.Plan = PlanFree
	}
	return b, err
}

// status answers GET /api/{db}/_billing.
func (m *Module) status(w http.ResponseWriter, r *http.Request) error {
	ctx, db := r.Context(), r.PathValue("db")
	b, err := m.billingOf(ctx, db)
	if err != nil {
		return err
	}
	admin := isAdmin(ctx, m.st, module.Principal(r), db)
	s := Status{Plan: b.Plan, UnconfirmedPlan: b.UnconfirmedPlan, Livemode: b.Livemode, IsAdmin: admin, TestComplete: m.cfg.TestCheckout,
		FreeRecordLimit: m.freeRecords}
	if until := m.lockedUntil(b); !until.IsZero() {
		s.SwitchLockedUntil = ptr(until.UTC().Format(time.RFC3339))
	}
	if k, err := m.keys.get(ctx, b.Livemode); err == nil {
		s.PublishableKey = k.Publishable
	}
	if admin {
		s.BillingEmail, s.CustomerID, s.PriceID = b.BillingEmail, b.CustomerID, b.PriceID
		s.CanCancel = (b.Plan == PlanPro || b.Plan == PlanCorp) && b.SubscriptionID != "" && b.UnconfirmedPlan == ""
		s.NextInvoice = m.nextInvoice(ctx, b)
	}
	httpjson.Write(w, http.StatusOK, s)
	return nil
}

// nextInvoice previews the subscription's next invoice (nil without a
// subscription, or when Stripe cannot say: the page shows none).
func (m *Module) nextInvoice(ctx context.Context, b accounts.Billing) *Invoice {
	if b.SubscriptionID == "" || b.CustomerID == "" {
		return nil
	}
	sc, _, err := m.client(ctx, b.Livemode)
	if err != nil {
		return nil
	}
	inv, err := sc.V1Invoices.CreatePreview(ctx, &stripe.InvoiceCreatePreviewParams{
		Customer: stripe.String(b.CustomerID), Subscription: stripe.String(b.SubscriptionID),
	})
	if err != nil {
		m.log.WarnContext(ctx, "next invoice preview", "err", err)
		return nil
	}
	at := inv.NextPaymentAttempt
	if at == 0 {
		at = inv.PeriodEnd
	}
	return &Invoice{Amount: inv.AmountDue, Currency: string(inv.Currency), Date: time.Unix(at, 0).UTC().Format(time.DateOnly)}
}

// setEmail answers PUT /api/{db}/_billing/email {email}.
func (m *Module) setEmail(w http.ResponseWriter, r *http.Request) error {
	ctx, db := r.Context(), r.PathValue("db")
	var in struct {
		Email string `json:"email"`
	}
	if err := httpjson.Decode(w, r, maxBody, &in); err != nil {
		return err
	}
	addr := auth.NormEmail(in.Email)
	if !auth.ValidEmail(addr) {
		return fault.Invalid(map[string][]string{"billing_email": {fault.IsInvalid}})
	}
	if _, err := m.billingOf(ctx, db); err != nil {
		return err
	}
	if err := m.acc.SetBilling(ctx, module.Principal(r), db, accounts.BillingChange{BillingEmail: &addr}); err != nil {
		return err
	}
	httpjson.Write(w, http.StatusOK, map[string]string{"billing_email": addr})
	return nil
}

// planPrice is a PlanPrice record.
type planPrice struct {
	ID              string `json:"_id"`
	Rev             string `json:"_rev"`
	Plan            string `json:"group_plan"`
	UnitAmount      int64  `json:"unit_amount"`
	UnitMB          int64  `json:"unit_mb"`
	Livemode        bool   `json:"livemode"`
	Active          bool   `json:"active"`
	PlatformPriceID string `json:"platform_price_id"`
}

// loadPrice reads an active paid PlanPrice of the Group's mode; anything
// else is the field error the checkout answers.
func (m *Module) loadPrice(ctx context.Context, id string, livemode bool) (planPrice, store.Doc, error) {
	bad := fault.Invalid(map[string][]string{"price_id": {fault.IsInvalid}})
	if p, ok := ids.Parse(id); !ok || p != "ppr" {
		return planPrice{}, store.Doc{}, bad
	}
	d, err := m.st.Get(ctx, ids.PricesDB, id)
	if errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrDeleted) {
		return planPrice{}, store.Doc{}, bad
	}
	if err != nil {
		return planPrice{}, store.Doc{}, err
	}
	var p planPrice
	if err := json.Unmarshal(d.Body, &p); err != nil {
		return planPrice{}, store.Doc{}, fmt.Errorf("decode price %s: %w", id, err)
	}
	p.ID, p.Rev = d.ID, d.Rev
	if !p.Active || p.Livemode != livemode || !slices.Contains([]string{PlanPro, PlanCorp, PlanServer}, p.Plan) {
		return planPrice{}, store.Doc{}, bad
	}
	return p, d, nil
}

// sessionInfo is what the server remembers of a checkout session it made.
type sessionInfo struct {
	DB          string `json:"db"`
	Plan        string `json:"plan"`
	PlanPriceID string `json:"plan_price_id"`
	PriceID     string `json:"price_id"`
	CustomerID  string `json:"customer_id"`
	Livemode    bool   `json:"livemode"`
}

// CheckoutAnswer is the answer of POST /api/{db}/_billing/checkout.
type CheckoutAnswer struct {
	SessionID      string `json:"session_id"`
	ClientSecret   string `json:"client_secret"`
	PublishableKey string `json:"publishable_key"`
	TestComplete   bool   `json:"test_complete"`
}

// checkout answers POST /api/{db}/_billing/checkout {price_id, locale?, theme?}.
func (m *Module) checkout(w http.ResponseWriter, r *http.Request) error {
	ctx, db, p := r.Context(), r.PathValue("db"), module.Principal(r)
	var in struct {
		PriceID string `json:"price_id"`
		Locale  string `json:"locale"`
		Theme   string `json:"theme"`
	}
	if err := httpjson.Decode(w, r, maxBody, &in); err != nil {
		return err
	}
	b, err := m.billingOf(ctx, db)
	if err != nil {
		return err
	}
	price, _, err := m.loadPrice(ctx, in.PriceID, b.Livemode)
	if err != nil {
		return err
	}
	if b.BillingEmail == "" {
		return fault.Invalid(map[string][]string{"billing_email": {fault.IsInvalid}})
	}
	if err := m.checkLock(b); err != nil {
		return err
	}
	if b.SubscriptionID != "" {
		return fault.New(fault.Conflict, MsgHasSubscribed)
	}
	sc, k, err := m.client(ctx, b.Livemode)
	if err != nil {
		return err
	}
	customer := b.CustomerID
	if customer == "" {
		c, err := sc.V1Customers.Create(ctx, &stripe.CustomerCreateParams{
			Email: stripe.String(b.BillingEmail), Metadata: map[string]string{"accountId": db},
			Params: stripe.Params{IdempotencyKey: stripe.String("customer-" + db + "-" + b.AccountRev)},
		})
		if err != nil {
			return stripeErr("create customer", err)
		}
		customer = c.ID
		if err := m.rememberCustomer(ctx, customer, db); err != nil {
			return err
		}
		if err := m.acc.SetBilling(ctx, p, db, accounts.BillingChange{CustomerID: &customer}); err != nil {
			return err
		}
	}
	stripePrice, err := m.stripePrice(ctx, sc, price)
	if err != nil {
		return err
	}
	item := &stripe.CheckoutSessionCreateLineItemParams{Price: stripe.String(stripePrice)}
	if price.UnitMB == 0 {
		item.Quantity = stripe.Int64(1) // metered prices take no quantity
	}
	locale := in.Locale
	if locale == "" && p != nil {
		locale = p.Locale
	}
	theme := "light"
	if in.Theme == "dark" {
		theme = "dark"
	}
	meta := map[string]string{
		"accountId": db, "accountRev": b.AccountRev, "accountLivemode": strconv.FormatBool(b.Livemode),
		"userLocale": stripeLocale(locale), "userTheme": theme, "plan": price.Plan, "planPriceId": price.ID,
	}
	s, err := sc.V1CheckoutSessions.Create(ctx, &stripe.CheckoutSessionCreateParams{
		UIMode:            stripe.String(string(stripe.CheckoutSessionUIModeEmbedded)),
		Mode:              stripe.String(string(stripe.CheckoutSessionModeSubscription)),
		Customer:          stripe.String(customer),
		LineItems:         []*stripe.CheckoutSessionCreateLineItemParams{item},
		ReturnURL:         stripe.String(m.base + "/checkout?session_id={CHECKOUT_SESSION_ID}"),
		ClientReferenceID: stripe.String(db),
		Metadata:          meta,
		SubscriptionData:  &stripe.CheckoutSessionCreateSubscriptionDataParams{Metadata: map[string]string{"accountId": db, "plan": price.Plan}},
	})
	if err != nil {
		return stripeErr("create checkout session", err)
	}
	info := sessionInfo{DB: db, Plan: price.Plan, PlanPriceID: price.ID, PriceID: stripePrice, CustomerID: customer, Livemode: b.Livemode}
	raw, _ := json.Marshal(info)
	if err := m.st.PutRecord(ctx, store.Record{Kind: kindSession, Key: s.ID, Value: raw, ExpiresAt: time.Now().Add(sessionMemory)}, false); err != nil {
		return fmt.Errorf("remember session: %w", err)
	}
	m.log.InfoContext(ctx, "checkout session", "account", db, "plan", price.Plan, "session", s.ID)
	httpjson.Write(w, http.StatusOK, CheckoutAnswer{SessionID: s.ID, ClientSecret: s.ClientSecret, PublishableKey: k.Publishable, TestComplete: m.cfg.TestCheckout})
	return nil
}

// stripeLocale is the locale the checkout is told: pt-BR is sent as pt.
func stripeLocale(l string) string {
	if l == "pt-BR" || l == "pt" {
		return "pt"
	}
	return "en"
}

func (m *Module) rememberCustomer(ctx context.Context, customer, db string) error {
	if err := m.st.PutRecord(ctx, store.Record{Kind: kindCustomer, Key: customer, Value: []byte(db)}, false); err != nil {
		return fmt.Errorf("remember customer: %w", err)
	}
	return nil
}

// stripePrice returns the Stripe price of a PlanPrice, making the product,
// the price (and, for storage plans, the meter) on its first checkout and
// writing the id back to the PlanPrice.
func (m *Module) stripePrice(ctx context.Context, sc *stripe.Client, p planPrice) (string, error) {
	if p.PlatformPriceID != "" {
		return p.PlatformPriceID, nil
	}
	params := &stripe.PriceCreateParams{
		Currency:    stripe.String(string(stripe.CurrencyUSD)),
		UnitAmount:  stripe.Int64(p.UnitAmount),
		ProductData: &stripe.PriceCreateProductDataParams{Name: stripe.String("Oficina " + p.Plan)},
		Recurring:   &stripe.PriceCreateRecurringParams{Interval: stripe.String(string(stripe.PriceRecurringIntervalMonth))},
		Metadata:    map[string]string{"planPriceId": p.ID, "plan": p.Plan},
		Params:      stripe.Params{IdempotencyKey: stripe.String("price-" + p.ID + "-" + p.Rev)},
	}
	if p.UnitMB > 0 {
		meter, err := m.meter(ctx, sc)
		if err != nil {
			return "", err
		}
		params.Recurring.UsageType = stripe.String(string(stripe.PriceRecurringUsageTypeMetered))
		params.Recurring.Meter = stripe.String(meter)
		// The meter counts MB; a unit is unit_mb of them, a started unit billed whole.
		params.TransformQuantity = &stripe.PriceCreateTransformQuantityParams{DivideBy: stripe.Int64(p.UnitMB), Round: stripe.String("up")}
	}
	price, err := sc.V1Prices.Create(ctx, params)
	if err != nil {
		return "", stripeErr("create price", err)
	}
	if err := m.savePlatformPrice(ctx, p.ID, price.ID); err != nil {
		return "", err
	}
	return price.ID, nil
}

// savePlatformPrice writes a Stripe price id into a PlanPrice that has
// none (a concurrent first checkout's id stands).
func (m *Module) savePlatformPrice(ctx context.Context, id, priceID string) error {
	for attempt := 0; attempt < 5; attempt++ {
		d, err := m.st.Get(ctx, ids.PricesDB, id)
		if err != nil {
			return fmt.Errorf("read price %s: %w", id, err)
		}
		body, err := docs.Decode(d.Body)
		if err != nil {
			return fmt.Errorf("decode price %s: %w", id, err)
		}
		if s, _ := body["platform_price_id"].(string); s != "" {
			return nil
		}
		body["platform_price_id"] = priceID
		delete(body, "_id")
		delete(body, "_rev")
		_, err = m.docs.Save(ctx, system, ids.PricesDB, id, d.Rev, body)
		if !errors.Is(err, store.ErrConflict) {
			if err != nil {
				return fmt.Errorf("save platform price of %s: %w", id, err)
			}
			return nil
		}
	}
	return fmt.Errorf("save platform price of %s: %w", id, store.ErrConflict)
}

// meter returns the id of the storage meter, made when missing.
func (m *Module) meter(ctx context.Context, sc *stripe.Client) (string, error) {
	for mt, err := range sc.V1BillingMeters.List(ctx, &stripe.BillingMeterListParams{Status: stripe.String("active")}) {
		if err != nil {
			return "", stripeErr("list meters", err)
		}
		if mt.EventName == m.cfg.MeterEvent {
			return mt.ID, nil
		}
	}
	mt, err := sc.V1BillingMeters.Create(ctx, &stripe.BillingMeterCreateParams{
		DisplayName:        stripe.String("Oficina storage (MB)"),
		EventName:          stripe.String(m.cfg.MeterEvent),
		DefaultAggregation: &stripe.BillingMeterCreateDefaultAggregationParams{Formula: stripe.String("last")},
		Params:             stripe.Params{IdempotencyKey: stripe.String("meter-" + m.cfg.MeterEvent)},
	})
	if err != nil {
		return "", stripeErr("create meter", err)
	}
	return mt.ID, nil
}

// completeForTest answers POST /api/{db}/_billing/checkout/{session}/complete
// when --stripe-test-checkout=on: it applies what Stripe's
// checkout.session.completed event would, for the e2e walk whose
// embedded frame cannot reach stripe.com. Off (always in the cloud) it is 404.
func (m *Module) completeForTest(w http.ResponseWriter, r *http.Request) error {
	ctx, db := r.Context(), r.PathValue("db")
	if !m.cfg.TestCheckout {
		return fault.New(fault.NotFound, MsgMissing)
	}
	info, err := m.session(ctx, r.PathValue("session"))
	if err != nil || info.DB != db {
		return fault.New(fault.NotFound, MsgMissing)
	}
	sc, _, err := m.client(ctx, info.Livemode)
	if err != nil {
		return err
	}
	s, err := sc.V1CheckoutSessions.Retrieve(ctx, r.PathValue("session"), nil)
	if err != nil {
		return stripeErr("retrieve session", err)
	}
	sub := "sub_test_" + r.PathValue("session")
	if s.Subscription != nil && s.Subscription.ID != "" {
		sub = s.Subscription.ID
	}
	if err := m.applyCheckout(ctx, module.Principal(r), info, sub); err != nil {
		return err
	}
	httpjson.Write(w, http.StatusOK, map[string]any{"ok": true, "plan": info.Plan})
	return nil
}

// session reads a remembered checkout session.
func (m *Module) session(ctx context.Context, id string) (sessionInfo, error) {
	rec, err := m.st.GetRecord(ctx, kindSession, id)
	if err != nil {
		return sessionInfo{}, err
	}
	var info sessionInfo
	if err := json.Unmarshal(rec.Value, &info); err != nil {
		return sessionInfo{}, fmt.Errorf("decode session %s: %w", id, err)
	}
	return info, nil
}

// applyCheckout makes a completed checkout the Group's plan.
func (m *Module) applyCheckout(ctx context.Context, p *access.Principal, info sessionInfo, subscription string) error {
	now := m.now().UTC().Format(time.RFC3339Nano)
	return m.acc.SetBilling(ctx, p, info.DB, accounts.BillingChange{
		Plan: &info.Plan, UnconfirmedPlan: ptr(""), CustomerID: &info.CustomerID, PriceID: &info.PriceID,
		SubscriptionID: &subscription, SwitchedAt: &now,
	})
}

// maxBody bounds the JSON bodies of the billing routes.
const maxBody = 16 << 10
