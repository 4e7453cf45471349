package servicedocs

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"time"

	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/stream"
)

// Messages of refusals (the SPA translates them by key).
const (
	MsgDecided         = "An approved or refused estimate cannot be changed"
	MsgContract        = "must be an active contract of the ticket's customer"
	MsgTotalTooLarge   = "is too large"
	MsgAlreadyApproved = "This estimate was already approved"
	MsgAlreadyRefused  = "This estimate was already refused"
	// MsgLinkGone is the catalogue's message (SPEC.md §8) for a link that is
	// unknown, re-issued or expired: all three answer the same.
	MsgLinkGone = "Token already used or expired, please request a new one."
)

const maxTotal = 1_000_000_000_000_00 // a trillion in cents, inside float64's exact range

func invalid(field, msg string) error { return fault.Invalid(map[string][]string{field: {msg}}) }

func notFound() error { return fault.New(fault.NotFound, MsgLinkGone) }

// decided reports a final estimate state.
func decided(state string) bool { return state == "approved" || state == "refused" }

// A decision carries who decided an estimate on the public page into the
// write's rule (the write's principal is the Group itself then).
type decisionKey struct{}

type decision struct{ name, note string }

// reissueKey carries a re-issued token into the rule, the only way a
// document's token changes after it was created.
type reissueKey struct{}

func reissued(ctx context.Context, field string) (string, bool) {
	r, ok := ctx.Value(reissueKey{}).(reissue)
	if !ok || r.field != field {
		return "", false
	}
	return r.token, true
}

type reissue struct{ field, token string }

// keepToken sets a document's public token: a new one (issued at now) on
// create, the stored one on update (a client's value is ignored), a
// re-issued one when the re-issue route writes.
func keepToken(ctx context.Context, w *docs.Write, field string, now time.Time) error {
	if t, ok := reissued(ctx, field); ok {
		w.New[field] = t
		return nil
	}
	if w.Old != nil && str(w.Old[field]) != "" {
		w.New[field] = w.Old[field]
		return nil
	}
	t, err := newToken(now)
	if err != nil {
		return err
	}
	w.New[field] = t
	return nil
}

// toInt reads an integer the schema already checked (json.Number, float64
// or int from Go code).
func toInt(v any) int64 {
	switch t := v.(type) {
	case json.Number:
		n, _ := t.Int64()
		return n
	case float64:
		return int64(t)
	case int:
		return int64(t)
	case int64:
		return t
	case string:
		n, _ := strconv.ParseInt(t, 10, 64)
		return n
	}
	return 0
}

// estimateRule numbers an estimate, totals its items, records who decided
// it and when, keeps its approval token, and freezes it once decided.
func (m *Module) estimateRule(ctx context.Context, w *docs.Write) error {
	if w.Deleting {
		return nil
	}
	n := w.New
	state := str(n["state"])
	if w.Old != nil && decided(str(w.Old["state"])) {
		return invalid("state", MsgDecided)
	}
	var total int64
	items, _ := n["items"].([]any)
	for _, it := range items {
		obj, _ := it.(map[string]any)
		total += toInt(obj["quantity"]) * toInt(obj["value"])
	}
	if total > maxTotal {
		return invalid("items", MsgTotalTooLarge)
	}
	n["total"] = json.Number(strconv.FormatInt(total, 10))
	if decided(state) {
		n["decided_at"] = n["updated_at"]
		delete(n, "decided_by_name")
		delete(n, "decision_note")
		if w.Principal != nil {
			n["decided_by_name"] = w.Principal.Label
		}
		if d, ok := ctx.Value(decisionKey{}).(decision); ok {
			n["decided_by_name"] = d.name
			if d.note != "" {
				n["decision_note"] = d.note
			}
		}
	}
	if err := keepToken(ctx, w, "approval_token", m.now()); err != nil {
		return err
	}
	if w.Old != nil {
		n["number"] = w.Old["number"]
		return nil
	}
	w.Number("number", "seq", w.DB+"\x00"+KlassEstimate)
	return nil
}

// maintenanceRule computes the end of the warranty.
func (m *Module) maintenanceRule(_ context.Context, w *docs.Write) error {
	if w.Deleting {
		return nil
	}
	n := w.New
	delete(n, "warranty_until")
	days := toInt(n["warranty"])
	date, err := time.Parse(time.DateOnly, str(n["date"]))
	if err != nil || days <= 0 {
		return nil
	}
	n["warranty_until"] = date.AddDate(0, 0, int(days)).Format(time.DateOnly)
	return nil
}

// ticketRule adds what the service documents need of a ticket: its contract
// is an active one of its customer, it has a status token, and its status
// changes are kept for the status page.
func (m *Module) ticketRule(ctx context.Context, w *docs.Write) error {
	if w.Deleting {
		return nil
	}
	n := w.New
	if id := str(n["contract_id"]); id != "" && (w.Old == nil || str(w.Old["contract_id"]) != id || str(w.Old["customer_id"]) != str(n["customer_id"])) {
		_, c, err := m.get(ctx, w.DB, id)
		if err != nil {
			return err
		}
		active, _ := c["active"].(bool)
		if c == nil || !active || str(c["customer_id"]) != str(n["customer_id"]) {
			return invalid("contract_id", MsgContract)
		}
	}
	if err := keepToken(ctx, w, "status_token", m.now()); err != nil {
		return err
	}
	n["status_history"] = statusHistory(w.Old, n)
	return nil
}

// statusHistory is the ticket's list of {status, at}: the stored one (or,
// for a ticket older than the list, its current status), plus the new
// status when it changed; the latest maxHistory entries.
func statusHistory(old, n map[string]any) []any {
	var list []any
	if old == nil {
		return []any{map[string]any{"status": n["status"], "at": n["created_at"]}}
	}
	list, _ = old["status_history"].([]any)
	list = slices.Clone(list)
	if len(list) == 0 {
		list = append(list, map[string]any{"status": old["status"], "at": old["status_at"]})
	}
	if str(old["status"]) != str(n["status"]) {
		list = append(list, map[string]any{"status": n["status"], "at": n["updated_at"]})
	}
	if len(list) > maxHistory {
		list = list[len(list)-maxHistory:]
	}
	return list
}

// decisionEvents marks an estimate's state change in the timeline.
func decisionEvents(old, new stream.Fields) []string {
	if old == nil || old.Str("state") == new.Str("state") {
		return nil
	}
	return []string{stream.EventStatus}
}
