// Package ticket is the service-order desk (SPEC.md §1 "ticket"): tickets,
// categories with checklists, customers, equipment and comments. It plugs
// into the core through the module seam (shared/module).
package ticket

import (
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/stream"
)

// KlassTicket is the klass of service orders.
const KlassTicket = "Ticket"

// Tallies the change stream keeps for tickets (read by the count-by-*
// views: the navbar's open-ticket badge and the admin's priority bars).
const (
	TallyOpenByPriority = "ticket.open-by-priority"
	TallyByPriority     = "ticket.by-priority"
	TallyByStatus       = "ticket.by-status"
)

// Closed reports the statuses that end the work (SPEC.md §4).
func Closed(status string) bool { return status == "done" || status == "cancel" }

// Tallies are the ticket counts: every ticket by priority, and the open
// ones (not done or cancelled) by priority. A ticket without a priority
// counts under "" (a null key in the views).
func Tallies() []stream.Tally {
	return []stream.Tally{
		{Name: TallyByPriority, Klasses: []string{KlassTicket}, Of: func(f stream.Fields) map[string]int64 {
			return map[string]int64{f.Str("priority"): 1}
		}},
		{Name: TallyOpenByPriority, Klasses: []string{KlassTicket}, Of: func(f stream.Fields) map[string]int64 {
			if Closed(f.Str("status")) {
				return nil
			}
			return map[string]int64{f.Str("priority"): 1}
		}},
		{Name: TallyByStatus, Klasses: []string{KlassTicket}, Of: func(f stream.Fields) map[string]int64 {
			return map[string]int64{f.Str("status"): 1}
		}},
	}
}

// CloseOpenEvents marks a ticket's status entering (close) or leaving
// (open) done or cancel in the timeline.
func CloseOpenEvents(old, new stream.Fields) []string {
	if old == nil {
		return nil
	}
	was, is := Closed(old.Str("status")), Closed(new.Str("status"))
	switch {
	case is && !was:
		return []string{stream.EventClose}
	case was && !is:
		return []string{stream.EventOpen}
	}
	return nil
}

// Module is the ticket desk on the module seam.
type Module struct {
	deps module.Deps
}

// New builds the module.
func New(d module.Deps) *Module { return &Module{deps: d} }

// Name implements module.Module.
func (m *Module) Name() string { return "ticket" }

// Register implements module.Module: the desk's field schemas and rules on
// every write path, the ticket klass index ordered open-first for the
// board, the counts the stream keeps, the checklist toggle and the board.
//
//	PUT /api/{db}/_design/checklist/_update/toggle/{tch-…} {"index":n,"text":"…","done":bool} → 200 {ok,id,rev,progress}
//	GET /api/{db}/_tickets/board?closed=30                                       → 200 (board.go)
//	GET|POST /api/{db}/_tickets/checklists (admins)                              → 200 {tickets} | {added} (checklist.go)
//	GET /api/{db}/_design/count-by-ticket-status/_view/all?group_level=1          → rows by status
func (m *Module) Register(r *module.Registry) error {
	m.RegisterWrites(r)
	r.Update(module.Update{DDoc: "checklist", Fn: "toggle", WithID: true, Klass: KlassChecklist, Handle: m.toggle})
	r.Route(module.Route{Pattern: "GET /api/{db}/_tickets/board", Access: module.AccessRead, Handle: m.board})
	r.Route(module.Route{Pattern: "GET /api/{db}/_tickets/checklists", Access: module.AccessAdmin, Handle: m.checklistsRoute})
	r.Route(module.Route{Pattern: "POST /api/{db}/_tickets/checklists", Access: module.AccessAdmin, Handle: m.checklistsRoute})
	Counts{}.views(r)
	return nil
}

// RegisterWrites implements module.WritePath: the rules, effects and sort
// key of the desk's klasses, its tallies and timeline events.
func (m *Module) RegisterWrites(r *module.Registry) {
	r.Schema(schemas...)
	r.Labels(labels...)
	r.Rule(KlassTicket, m.ticketRule)
	r.Effect(KlassTicket, m.ticketEffect)
	r.SortKey(KlassTicket, sortKey)
	r.TopBy(KlassTicket, "number", m.topByNumber) // the ticket list's default order (top.go)
	// Their index pages and pickers sort by these by default.
	r.IndexBy(KlassCustomer, "name")
	r.IndexBy(KlassEquipment, "identifier")
	r.IndexBy(KlassCategory, "name")
	r.Rule(KlassCategory, m.categoryRule)
	r.Rule(KlassCustomer, m.customerRule)
	r.Rule(KlassEquipment, m.equipmentRule)
	r.Rule(KlassComment, m.commentRule)
	r.Effect(KlassChecklist, m.checklistEffect)
	r.NotRecords(KlassChecklist)
	Counts{}.stream(r)
}

// Counts is the desk's counts alone — the tallies, the close/open timeline
// events and the count-by views — for tests of the core that read the
// views without the desk's rules. Module registers it too.
type Counts struct{}

// Name implements module.Module.
func (Counts) Name() string { return "ticket-counts" }

// Register implements module.Module.
func (c Counts) Register(r *module.Registry) error {
	c.stream(r)
	c.views(r)
	return nil
}

// stream registers the tallies and the close/open timeline events.
func (Counts) stream(r *module.Registry) {
	for _, t := range Tallies() {
		r.Tally(t)
	}
	r.Events(KlassTicket, CloseOpenEvents)
}

// views registers the count-by views.
func (Counts) views(r *module.Registry) {
	r.View(module.CounterView("count-by-ticket-status", "all", func(c stream.Counts) []module.ViewRow {
		return module.TallyRows(c.Tally(TallyByStatus))
	}))
	r.View(module.CounterView("count-by-open-ticket-priority", "all", func(c stream.Counts) []module.ViewRow {
		return module.TallyRows(c.Tally(TallyOpenByPriority))
	}))
	r.View(module.CounterView("count-by-ticket-priority", "all", func(c stream.Counts) []module.ViewRow {
		return module.TallyRows(c.Tally(TallyByPriority))
	}))
}
