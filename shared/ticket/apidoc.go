package ticket

import "github.com/oficina/oficina/shared/module"

// APIDocs implements module.Documented.
func (m *Module) APIDocs() module.Docs {
	counts := func(what string, rows ...module.ViewRow) module.Doc {
		return module.Doc{Summary: "Counts " + what + " (kept exact by the change stream)", Query: module.CounterViewParams,
			Answer: map[string]any{"rows": rows}}
	}
	return module.Docs{
		"GET /api/{db}/_tickets/checklists": {
			Summary: "How many open tickets lack their category's checklist (what turning checklists on offers to fix)",
			Answer:  map[string]any{"tickets": 4},
		},
		"POST /api/{db}/_tickets/checklists": {
			Summary: "Gives every open ticket that lacks it its category's checklist; safe to repeat",
			Notes:   "422 {fields: {checklist: [is disabled]}} while the Group's checklist feature is off.",
			Answer:  map[string]any{"added": 4},
		},
		"PUT /api/{db}/_design/checklist/_update/toggle/{docid}": {
			Summary: "Ticks or unticks one item of a ticket's checklist",
			Notes:   "text is the item's text as the caller saw it: an item edited meanwhile gets a 409.",
			Body:    map[string]any{"index": 0, "text": "Check the seal", "done": true},
			Answer:  module.UpdateAnswer(module.ExampleID("tch"), map[string]any{"progress": map[string]any{"done": 3, "total": 5}}),
		},
		"GET /api/{db}/_tickets/board": {
			Summary: "The board: every open ticket, the latest closed ones, the count of each status and the customers' names",
			Query:   []module.Param{{Name: "closed", About: "closed tickets to include, newest first (default 30, at most 200)", Example: "30"}},
			Answer: map[string]any{
				"tickets":   []map[string]any{{"_id": module.ExampleID("tik"), "_rev": "3-…", "klass": "Ticket", "status": "open", "priority": "high", "customer_id": module.ExampleID("cus")}},
				"counts":    map[string]int{"open": 4, "closed": 120},
				"customers": map[string]string{module.ExampleID("cus"): "Bia Souza"},
				"truncated": false,
			},
		},
		"GET /api/{db}/_design/count-by-ticket-status/_view/all":        counts("tickets by status", module.ViewRow{Key: "open", Value: 4}),
		"GET /api/{db}/_design/count-by-open-ticket-priority/_view/all": counts("open tickets by priority", module.ViewRow{Key: "high", Value: 2}),
		"GET /api/{db}/_design/count-by-ticket-priority/_view/all":      counts("tickets by priority", module.ViewRow{Key: "low", Value: 40}),
	}
}
