// Package billing is how a Group pays (SPEC.md §1, §2 "Billing, plans and
// checkout", §4 plan change, §9; issue 15 §1–§2): Stripe through stripe-go.
//
//   - Checkout: an embedded Checkout session for a plan price, with the
//     Group's Stripe customer (made on the first checkout from the billing
//     e-mail) and the spec's metadata; live or test keys by the Group's
//     livemode.
//   - Webhooks at /api/billing/webhook: signature checked with the
//     endpoint secret, each event applied once, turning Stripe's state
//     into the Group's confirmed-plan, platform_* adjustments and
//     update_payment history events.
//   - Plan changes: free and cancel through the subscription update
//     handlers, locked for 24 hours after a switch; free refused above
//     1,000 records.
//   - Metered usage: a daily job reports each paying Group's storage
//     (documents and files, MB of 1,000,000 bytes) as a billing meter
//     event, once per Group and day.
//
// Stripe prices are made on demand: a PlanPrice without a
// platform_price_id gets a product and a monthly price (metered on the
// storage meter for pro and corp, a fixed amount for the server) at its
// first checkout, and the id is written back to the PlanPrice; an operator
// who prefers prices made in the dashboard writes their ids there instead.
package billing

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"time"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/accounts"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/mail"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/ratelimit"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/stream"
)

// Plans (SPEC.md §4 group_plan).
const (
	PlanFree   = "free"
	PlanPro    = "pro"
	PlanCorp   = "corp"
	PlanServer = "server"
	PlanLocked = "locked"
)

// Limits of SPEC.md §9.
const (
	SwitchLock       = 24 * time.Hour
	BytesPerMB       = 1_000_000 // sizes are base 1000
	eventMemory      = 30 * 24 * time.Hour
	usageMemory      = 40 * 24 * time.Hour
	sessionMemory    = 48 * time.Hour
	webhookTolerance = 5 * time.Minute
)

// Messages this package raises (the SPA keys its texts by them).
const (
	MsgSwitchLocked   = "Switching plans is locked for 24 hours after a switch"
	MsgNotConfigured  = "Payments are not set up on this server"
	MsgHasSubscribed  = "This Group already has a subscription: cancel it before choosing another plan"
	MsgNoSubscription = "This Group has no subscription to cancel"
	MsgBadSignature   = "Invalid Stripe signature"
	MsgMissing        = "missing"
)

// FreeOverLimitMessage refuses a switch to free above limit records.
func FreeOverLimitMessage(limit int64) string {
	return fmt.Sprintf("This Group has more than %s records: delete records before switching to free", mail.FormatInt(limit, mail.DefaultLocale))
}

// Names on the seam.
const (
	JobUsage    = "billing.usage"
	EventUpdate = "update_payment" // the timeline event of a billing change
	ddoc        = "subscription"

	kindEvent    = "stripe-event"    // event id → applied
	kindUsage    = "billing-usage"   // db/date → reported
	kindSession  = "billing-session" // checkout session id → sessionInfo
	kindCustomer = "billing-customer"
	// subscription id → the latest applied event's time, and whether it ended
	kindSubscription = "billing-subscription"
)

// Accounts is what the module needs of Groups (accounts.Service).
type Accounts interface {
	Billing(ctx context.Context, accID string) (accounts.Billing, error)
	SetBilling(ctx context.Context, p *access.Principal, accID string, ch accounts.BillingChange) error
}

// Module is the billing module.
type Module struct {
	st    store.Store
	docs  *docs.Service
	acc   Accounts
	cfg   config.Stripe
	base  string
	log   *slog.Logger
	now   func() time.Time
	keys  *keySource
	httpc *http.Client
	// freeRecords is the free plan's record limit (--free-records).
	freeRecords int64
}

// New builds the module from the seam's deps and the accounts service.
func New(d module.Deps, acc Accounts) *Module {
	log, now := d.Logger(), d.Clock()
	m := &Module{st: d.Store, docs: d.Docs, acc: acc, cfg: d.Config.Stripe, base: d.BaseURL, log: log, now: now,
		httpc: &http.Client{Timeout: 20 * time.Second}, freeRecords: cmp.Or(d.Config.FreeRecords, config.DefaultFreeRecords)}
	m.keys = newKeySource(d.Config.Stripe, d.AWS, log)
	return m
}

// Name implements module.Module.
func (m *Module) Name() string { return "billing" }

// webhookLimit: Stripe retries and bursts; far above a person's clicks.
var webhookLimit = ratelimit.Limit{Name: "stripe-webhook", Max: 600, Per: time.Minute}

// Register implements module.Module:
//
//	GET  /api/{db}/_billing                          (read) the plan and what the billing page shows
//	PUT  /api/{db}/_billing/email {email}            (admin) the billing e-mail; 422 "is invalid"
//	POST /api/{db}/_billing/checkout {price_id, locale?, theme?} (admin) → {session_id, client_secret, publishable_key}
//	POST /api/{db}/_billing/checkout/{session}/complete (admin; --stripe-test-checkout=on only)
//	PUT  /api/{db}/_design/subscription/_update/{free|cancel}/{db} (admin)
//	POST /api/billing/webhook                        (public, Stripe-Signature)
func (m *Module) Register(r *module.Registry) error {
	r.Route(module.Route{Pattern: "GET /api/{db}/_billing", Access: module.AccessRead, Handle: m.status})
	r.Route(module.Route{Pattern: "PUT /api/{db}/_billing/email", Access: module.AccessAdmin, Handle: m.setEmail})
	r.Route(module.Route{Pattern: "POST /api/{db}/_billing/checkout", Access: module.AccessAdmin, Handle: m.checkout})
	r.Route(module.Route{Pattern: "POST /api/{db}/_billing/checkout/{session}/complete", Access: module.AccessAdmin, Handle: m.completeForTest})
	r.Route(module.Route{Pattern: "POST /api/billing/webhook", Access: module.AccessPublic, Limit: &webhookLimit, MaxBody: 512 << 10, Handle: m.webhook})
	for _, fn := range []string{"free", "cancel"} {
		r.Update(module.Update{DDoc: ddoc, Fn: fn, WithID: true, Access: module.AccessAdmin, Klass: accounts.KlassAccount,
			Handle: func(ctx context.Context, c module.UpdateCall) (module.UpdateResult, error) {
				return m.switchDown(ctx, c, fn)
			}})
	}
	m.RegisterWrites(r)
	m.RegisterJobs(r)
	return nil
}

// RegisterWrites implements module.WritePath: the payment timeline events.
func (m *Module) RegisterWrites(r *module.Registry) { RegisterWrites(r) }

// RegisterWrites registers billing's write-path parts, which need no
// module: the stream function registers them without building the module
// (and so without its Stripe client and secret reader).
func RegisterWrites(r *module.Registry) {
	r.Actor(module.Actor{ID: system.UserID, Name: module.L("Payments (Stripe)", "Pagamentos (Stripe)")})
	r.Events(accounts.KlassAdjustment, paymentEvents)
}

// RegisterJobs implements module.JobRunner: the daily storage usage report.
func (m *Module) RegisterJobs(r *module.Registry) {
	r.Job(module.Job{Name: JobUsage, Schedule: "cron(15 0 * * ? *)", Group: m.reportGroupUsage, Run: module.EachGroup(m.st, m.reportGroupUsage)})
}

// billingKeys are the adjustments whose changes are payment events.
var billingKeys = []string{accounts.KeyConfirmedPlan, accounts.KeyCustomerID, accounts.KeyPriceID,
	accounts.KeySubscriptionID, accounts.KeyInvoiceStatus}

// paymentEvents marks a change of a billing adjustment as update_payment
// on the Group's timeline.
func paymentEvents(old, new stream.Fields) []string {
	if new == nil || !slices.Contains(billingKeys, new.Str("key")) {
		return nil
	}
	if old != nil && fmt.Sprint(old["value"]) == fmt.Sprint(new["value"]) {
		return nil
	}
	return []string{EventUpdate}
}

// system is who the webhook's writes are recorded as.
var system = &access.Principal{UserID: "_billing", Name: "_billing", Label: "Stripe"}

func ptr[T any](v T) *T { return &v }
