// Package servicedocs is the paper of a repair shop (SPEC.md §2 "Ticket
// receipts", §3 Estimate/Contract/Maintenance): estimates with their items
// and the customer's approval by link, contracts, maintenances and their
// plan, the printable receipts (PDF with a QR code), the public status page
// of a ticket and the Group's calendar feed. It sits beside shared/ticket on
// the module seam and adds to the Ticket klass only what these documents
// need (the status token and its history, the contract check).
package servicedocs

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/ratelimit"
	"github.com/oficina/oficina/shared/schema"
	"github.com/oficina/oficina/shared/store"
)

// Klasses of the service documents.
const (
	KlassEstimate    = "Estimate"
	KlassContract    = "Contract"
	KlassMaintenance = "Maintenance"
	KlassTicket      = "Ticket"
	KlassCustomer    = "Customer"
	KlassEquipment   = "Equipment"
	KlassCategory    = "Category"
)

// Estimate states (draft → sent → approved | refused).
var States = []string{"draft", "sent", "approved", "refused"}

// Limits of an estimate.
const (
	maxEstimateItems = 100
	maxQuantity      = 100_000
	maxItemValue     = 1_000_000_000 // ten million in cents per unit
	maxHistory       = 100           // status changes kept on a ticket for its status page
)

var schemas = []schema.Klass{
	{Name: KlassEstimate, Fields: []schema.Field{
		{Name: "number", Type: schema.Int, ReadOnly: true},
		{Name: "description", Type: schema.Text, Required: true, Max: 10_000},
		{Name: "customer_id", Type: schema.Ref, Ref: KlassCustomer, Required: true},
		{Name: "ticket_id", Type: schema.Ref, Ref: KlassTicket},
		{Name: "observation", Type: schema.Text, Max: 10_000},
		{Name: "valid_until", Type: schema.Date},
		{Name: "state", Type: schema.Enum, Enum: States, Default: "draft"},
		{Name: "items", Type: schema.Items, Required: true, Max: maxEstimateItems, Items: []schema.Field{
			{Name: "description", Type: schema.String, Required: true, Max: 200},
			{Name: "quantity", Type: schema.Int, Required: true, Min: schema.Int64(1), MaxValue: schema.Int64(maxQuantity)},
			{Name: "value", Type: schema.Money, Required: true, Min: schema.Int64(0), MaxValue: schema.Int64(maxItemValue)},
		}},
		{Name: "total", Type: schema.Money, ReadOnly: true},
		{Name: "decided_at", Type: schema.DateTime, ReadOnly: true},
		{Name: "decided_by_name", Type: schema.String, ReadOnly: true},
		{Name: "decision_note", Type: schema.Text, ReadOnly: true},
		{Name: "approval_token", Type: schema.String, ReadOnly: true},
	}},
	{Name: KlassContract, Fields: []schema.Field{
		{Name: "description", Type: schema.Text, Required: true, Max: 10_000},
		{Name: "customer_id", Type: schema.Ref, Ref: KlassCustomer, Required: true},
		{Name: "payment_kind", Type: schema.String, Max: 100},
		{Name: "active", Type: schema.Bool, Default: true},
		{Name: "items", Type: schema.Items, Max: 200, Items: []schema.Field{
			{Name: "number", Type: schema.Int, Min: schema.Int64(1), MaxValue: schema.Int64(10_000)},
			{Name: "content", Type: schema.Text, Required: true, Max: 10_000},
		}},
	}},
	{Name: KlassMaintenance, Fields: []schema.Field{
		{Name: "date", Type: schema.Date, Required: true},
		{Name: "next_maintenance", Type: schema.Date},
		{Name: "category_id", Type: schema.Ref, Ref: KlassCategory},
		{Name: "equipment_id", Type: schema.Ref, Ref: KlassEquipment, Required: true},
		{Name: "warranty", Type: schema.Int, Min: schema.Int64(0), MaxValue: schema.Int64(3650)},
		{Name: "ticket_id", Type: schema.Ref, Ref: KlassTicket},
		{Name: "warranty_until", Type: schema.Date, ReadOnly: true},
	}},
}

// Module is the service documents on the module seam.
type Module struct {
	deps module.Deps
}

// New builds the module.
func New(d module.Deps) *Module { return &Module{deps: d} }

// Name implements module.Module.
func (m *Module) Name() string { return "servicedocs" }

// publicPage bounds each public page per client address: a customer
// refreshing, far below guessing 128-bit tokens.
var publicPage = ratelimit.Limit{Name: "servicedocs-public", Max: 60, Per: time.Minute}

// Register implements module.Module.
//
//	GET  /api/{db}/_maintenances/plan?days=90                 → 200 {rows:[{maintenance,days_left}],equipment,customers}
//	GET  /api/{db}/_tickets/{id}/receipt.pdf                  → the two-copy receipt (and the contract receipt when "always")
//	GET  /api/{db}/_tickets/{id}/contract-receipt.pdf         → the contract receipt
//	GET  /api/{db}/_estimates/{id}/receipt.pdf                → the estimate with its approval QR code
//	GET  /api/{db}/_equipment/labels.pdf?ids=…&size=62mm|a4  → the equipment labels (labels.go)
//	POST /api/{db}/_tickets/{id}/status-link                  → 200 {status_token} (admins; the old link dies)
//	POST /api/{db}/_estimates/{id}/approval-link              → 200 {approval_token} (admins)
//	POST /api/{db}/_estimates/{id}/shared                     → 200 {state} (the link went out: a draft becomes sent)
//	POST /api/{db}/_calendar/link                             → 200 {url} (admins; the old feed URL dies)
//	GET  /api/_public/status/{token}                          → the status page's data
//	GET  /api/_public/estimates/{token}                       → the estimate to approve
//	POST /api/_public/estimates/{token} {decision,name,note}  → the decision, recorded once
//	GET  /api/_public/calendar/{token}                        → text/calendar (RFC 5545)
func (m *Module) Register(r *module.Registry) error {
	m.RegisterWrites(r)

	r.Route(module.Route{Pattern: "GET /api/{db}/_maintenances/plan", Access: module.AccessRead, Handle: m.plan})
	r.Route(module.Route{Pattern: "GET /api/{db}/_tickets/{id}/receipt.pdf", Access: module.AccessRead, Klass: KlassTicket, Handle: m.ticketReceipt})
	r.Route(module.Route{Pattern: "GET /api/{db}/_tickets/{id}/contract-receipt.pdf", Access: module.AccessRead, Klass: KlassTicket, Handle: m.contractReceipt})
	r.Route(module.Route{Pattern: "GET /api/{db}/_estimates/{id}/receipt.pdf", Access: module.AccessRead, Klass: KlassEstimate, Handle: m.estimateReceipt})
	r.Route(module.Route{Pattern: "GET /api/{db}/_equipment/labels.pdf", Access: module.AccessRead, Handle: m.labels})
	r.Route(module.Route{Pattern: "POST /api/{db}/_tickets/{id}/status-link", Access: module.AccessAdmin, Klass: KlassTicket, Handle: m.reissue(kindStatus)})
	r.Route(module.Route{Pattern: "POST /api/{db}/_estimates/{id}/approval-link", Access: module.AccessAdmin, Klass: KlassEstimate, Handle: m.reissue(kindEstimate)})
	r.Route(module.Route{Pattern: "POST /api/{db}/_estimates/{id}/shared", Klass: KlassEstimate, Handle: m.shared})
	r.Route(module.Route{Pattern: "POST /api/{db}/_calendar/link", Access: module.AccessAdmin, Handle: m.calendarLink})
	r.Route(module.Route{Pattern: "GET /api/_public/status/{token}", Access: module.AccessPublic, Limit: &publicPage, Handle: m.statusPage})
	r.Route(module.Route{Pattern: "GET /api/_public/estimates/{token}", Access: module.AccessPublic, Limit: &publicPage, Handle: m.estimatePage})
	r.Route(module.Route{Pattern: "POST /api/_public/estimates/{token}", Access: module.AccessPublic, Limit: &publicPage, MaxBody: 16 << 10, Handle: m.decide})
	r.Route(module.Route{Pattern: "GET /api/_public/calendar/{token}", Access: module.AccessPublic, Limit: &publicPage, Handle: m.calendar})
	return nil
}

// RegisterWrites implements module.WritePath: the documents' schemas,
// rules and token effects, and the estimate's decision events.
func (m *Module) RegisterWrites(r *module.Registry) {
	r.Schema(schemas...)
	r.Labels(fieldLabels...)
	r.Rule(KlassEstimate, m.estimateRule)
	r.Rule(KlassEstimate, tokenRule(kindEstimate, "approval_token"))
	r.Rule(KlassMaintenance, m.maintenanceRule)
	r.Rule(KlassTicket, m.ticketRule)
	r.Rule(KlassTicket, tokenRule(kindStatus, "status_token"))
	r.Events(KlassEstimate, decisionEvents)
}

func str(v any) string { s, _ := v.(string); return s }

// get reads a live document's body; nil when it is missing or deleted.
func (m *Module) get(ctx context.Context, db, id string) (store.Doc, map[string]any, error) {
	d, err := m.deps.Store.Get(ctx, db, id)
	if errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrDeleted) {
		return store.Doc{}, nil, nil
	}
	if err != nil {
		return store.Doc{}, nil, fmt.Errorf("servicedocs: read %s/%s: %w", db, id, err)
	}
	body, err := docs.Decode(d.Body)
	if err != nil {
		return store.Doc{}, nil, fmt.Errorf("servicedocs: decode %s/%s: %w", db, id, err)
	}
	return d, body, nil
}

// getKlass reads a live document of klass in db for a route: anything else
// (missing, deleted, another klass) is the same 404.
func (m *Module) getKlass(ctx context.Context, db, id, klass string) (store.Doc, map[string]any, error) {
	d, body, err := m.get(ctx, db, id)
	if err != nil {
		return d, nil, err
	}
	if body == nil || str(body["klass"]) != klass {
		return d, nil, notFound()
	}
	return d, body, nil
}

func (m *Module) now() time.Time {
	if m.deps.Now != nil {
		return m.deps.Now().UTC()
	}
	return time.Now().UTC()
}

// writePDF answers a PDF inline with a file name.
func writePDF(w http.ResponseWriter, name string, pdf []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/pdf")
	h.Set("Content-Disposition", fmt.Sprintf("inline; filename=%q", name))
	h.Set("Cache-Control", "private, no-store")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(pdf)
}
