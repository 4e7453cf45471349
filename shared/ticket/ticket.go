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

// Register implements module.Module.
func (m *Module) Register(r *module.Registry) error {
	for _, t := range Tallies() {
		r.Tally(t)
	}
	r.Events(KlassTicket, CloseOpenEvents)
	r.View(module.CounterView("count-by-open-ticket-priority", "all", func(c stream.Counts) []module.ViewRow {
		return module.TallyRows(c.Tally(TallyOpenByPriority))
	}))
	r.View(module.CounterView("count-by-ticket-priority", "all", func(c stream.Counts) []module.ViewRow {
		return module.TallyRows(c.Tally(TallyByPriority))
	}))
	return nil
}
