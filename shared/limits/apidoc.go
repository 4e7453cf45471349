package limits

import (
	"time"

	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/stream"
)

// APIDocs implements module.Documented.
func (m *Module) APIDocs() module.Docs {
	since := time.Date(2026, 5, 20, 9, 0, 0, 0, time.UTC)
	viewOnly := since.AddDate(0, 0, 30)
	status := Status{Plan: "free", Records: 1040, RecordLimit: 1000, OverSince: &since, ViewOnlyAt: &viewOnly, Bytes: 2310400, DriveBytes: 0, DriveLimit: 0}
	usage := map[string]any{"days": []Day{{Date: "2026-05-28", Klasses: map[string]stream.KlassCount{"Ticket": {Records: 420, Bytes: 1048576}}}}}
	return module.Docs{
		"GET /api/{db}/_limits": {
			Summary: "The Group's plan limits and where it stands: records against the limit, since when it is over, when it turns view-only, drive bytes",
			Answer:  status,
		},
		"GET /api/{db}/_usage": {
			Summary: "The Group's daily usage per klass (records and bytes), oldest first",
			Query:   []module.Param{{Name: "days", About: "days back (default and at most 90)", Example: "30"}},
			Answer:  usage,
		},
		"POST /api/_mail/unsubscribe/{token}": {
			Summary: "One-click unsubscribe (RFC 8058) from the optional mail, as the link in its List-Unsubscribe header",
			Answer:  map[string]any{"ok": true, "newsletter": false},
		},
		"POST /api/{db}/_limits/test/backdate": {
			Summary: "Test servers only (--stripe-test-checkout=on): moves an over-limit Group's notice days back",
			Body:    map[string]any{"days": 25},
			Answer:  status,
		},
		"POST /api/{db}/_limits/test/snapshot": {
			Summary: "Test servers only (--stripe-test-checkout=on): takes the usage snapshot dated days_ago days back",
			Body:    map[string]any{"days_ago": 3},
			Answer:  usage,
		},
	}
}
