package ticket

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/phonerules"
	"github.com/oficina/oficina/shared/store"
)

// Messages of refusals (the SPA translates them by key).
const (
	MsgTransition     = "transition not allowed"
	MsgNotInGroup     = "must exist"
	MsgCommentAuthor  = "Only the author or an administrator can change a comment"
	MsgChecklistIndex = "is invalid"
	// MsgChecklistDisabled: checklists are given to open tickets only once the feature is on.
	MsgChecklistDisabled = "is disabled"
)

// transitions is the status matrix: from → the statuses a ticket may move
// to. Cancel is reachable from every working state; a done or cancelled
// ticket can only be re-opened (SPEC.md §4: a done ticket is re-opened when
// the service was not really finished); review only follows work (doing);
// a blocked ticket is unblocked before it is finished.
var transitions = map[string][]string{
	"open":   {"block", "doing", "done", "cancel"},
	"block":  {"open", "doing", "cancel"},
	"doing":  {"open", "block", "review", "done", "cancel"},
	"review": {"open", "block", "doing", "done", "cancel"},
	"done":   {"open"},
	"cancel": {"open"},
}

// CanMove reports whether a ticket may go from one status to another.
func CanMove(from, to string) bool { return from == to || slices.Contains(transitions[from], to) }

// Transitions returns the statuses a ticket in status may move to.
func Transitions(status string) []string { return slices.Clone(transitions[status]) }

// Title derives a ticket's title from the problem reported (SPEC.md §3):
// its first line, or its first 60 characters when that line is longer or
// empty.
func Title(content string) string {
	s := strings.TrimSpace(content)
	first, _, _ := strings.Cut(s, "\n")
	first = strings.TrimSpace(strings.TrimSuffix(first, "\r"))
	if first != "" && utf8.RuneCountInString(first) <= titleRunes {
		return first
	}
	r := []rune(strings.Join(strings.Fields(s), " "))
	return string(r[:min(len(r), titleRunes)])
}

// checklistID is the id of a ticket's checklist: one per ticket, found
// with one read, and an effect that runs again finds the one it made.
func checklistID(ticketID string) string {
	sum := sha256.Sum256([]byte("checklist\x00" + ticketID))
	return "tch-" + hex.EncodeToString(sum[:16])
}

// sortKey puts open tickets first in the klass index ("o#" + created_at),
// so the board pages only the open ones; closed ones follow by when they
// last changed ("c#" + updated_at), newest last.
func sortKey(body map[string]any) string {
	if Closed(str(body["status"])) {
		return "c#" + str(body["updated_at"])
	}
	return "o#" + str(body["created_at"])
}

// Sort-key prefixes of the klass index.
const (
	openPrefix   = "o#"
	closedPrefix = "c#"
)

func str(v any) string { s, _ := v.(string); return s }

func invalid(field, msg string) error { return fault.Invalid(map[string][]string{field: {msg}}) }

// get reads a live document's body; nil when it is missing or deleted.
func (m *Module) get(ctx context.Context, db, id string) (store.Doc, map[string]any, error) {
	d, err := m.deps.Store.Get(ctx, db, id)
	if errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrDeleted) {
		return store.Doc{}, nil, nil
	}
	if err != nil {
		return store.Doc{}, nil, fmt.Errorf("ticket: read %s/%s: %w", db, id, err)
	}
	body, err := docs.Decode(d.Body)
	if err != nil {
		return store.Doc{}, nil, fmt.Errorf("ticket: decode %s/%s: %w", db, id, err)
	}
	return d, body, nil
}

// ticketRule derives and checks what the schema cannot: the number, the
// title, the status matrix, the equipment of the customer, the checklist
// progress.
func (m *Module) ticketRule(ctx context.Context, w *docs.Write) error {
	if w.Deleting {
		return nil
	}
	n := w.New
	if v, ok := n["checklist_replace"]; ok {
		w.Scratch["checklist_replace"] = v == true
		delete(n, "checklist_replace")
	}
	n["title"] = Title(str(n["content"]))
	status := str(n["status"])
	if w.Old != nil {
		old := str(w.Old["status"])
		if !CanMove(old, status) {
			return invalid("status", MsgTransition)
		}
		if old == status {
			if v, ok := w.Old["status_at"]; ok {
				n["status_at"] = v
			}
		} else {
			n["status_at"] = n["updated_at"]
		}
	} else {
		n["status_at"] = n["created_at"]
	}
	if eq := str(n["equipment_id"]); eq != "" {
		_, e, err := m.get(ctx, w.DB, eq)
		if err != nil {
			return err
		}
		owner, customer := str(e["customer_id"]), str(n["customer_id"])
		relate, _ := n["relate_equipment_to_customer"].(bool)
		if owner != "" && customer != "" && owner != customer && !relate {
			return invalid("equipment_id", "belongs to another customer")
		}
	}
	if w.Old != nil {
		_, cl, err := m.get(ctx, w.DB, checklistID(w.ID))
		if err != nil {
			return err
		}
		if cl != nil {
			n["checklist"] = progressOf(cl)
		}
	}
	// Numbered last, once every check passed: a refused write takes no number.
	if w.Old != nil {
		n["number"] = w.Old["number"]
	} else {
		w.Number("number", "seq", w.DB+"\x00"+KlassTicket)
	}
	return nil
}

// ticketEffect relates the equipment to the customer when asked, and
// starts the checklist of a new ticket (or of a changed category) when the
// Group's checklist feature is on. It runs again safely.
func (m *Module) ticketEffect(ctx context.Context, w *docs.Write, saved store.Doc) error {
	if w.Deleting {
		return nil
	}
	n := w.New
	if relate, _ := n["relate_equipment_to_customer"].(bool); relate {
		if err := m.relateEquipment(ctx, w.Principal, w.DB, str(n["equipment_id"]), str(n["customer_id"])); err != nil {
			return err
		}
	}
	cat := str(n["category_id"])
	if cat == "" || (w.Old != nil && str(w.Old["category_id"]) == cat) {
		return nil
	}
	on, err := m.feature(ctx, w.DB, "checklist")
	if err != nil || !on {
		return err
	}
	// checklist_replace: the client's explicit choice to replace a ticked
	// checklist on a category change (taken off the body by the rule).
	replace, _ := w.Scratch["checklist_replace"].(bool)
	return m.startChecklist(ctx, w.Principal, w.DB, saved.ID, cat, replace)
}

func (m *Module) relateEquipment(ctx context.Context, p *access.Principal, db, equipmentID, customerID string) error {
	if equipmentID == "" || customerID == "" {
		return nil
	}
	d, e, err := m.get(ctx, db, equipmentID)
	if err != nil || e == nil || str(e["customer_id"]) == customerID {
		return err
	}
	e["customer_id"] = customerID
	if _, err := m.deps.Docs.Save(ctx, p, db, equipmentID, d.Rev, e); err != nil {
		return fmt.Errorf("ticket: relate equipment %s to customer: %w", equipmentID, err)
	}
	return nil
}

// feature reports whether a Group's feature switch is "enabled".
func (m *Module) feature(ctx context.Context, db, key string) (bool, error) {
	if m.deps.Groups == nil {
		return false, nil
	}
	v, err := m.deps.Groups.Setting(ctx, db, key)
	if err != nil {
		return false, fmt.Errorf("ticket: setting %s: %w", key, err)
	}
	return v == "enabled", nil
}

// categoryRule keeps a category's checklist to sensible lines.
func (m *Module) categoryRule(ctx context.Context, w *docs.Write) error {
	if w.Deleting {
		return nil
	}
	lines := checklistLines(str(w.New["checklist"]))
	if len(lines) > maxChecklistItems {
		return invalid("checklist", fmt.Sprintf("is too long (maximum is %d items)", maxChecklistItems))
	}
	for _, l := range lines {
		if utf8.RuneCountInString(l) > maxChecklistText {
			return invalid("checklist", fmt.Sprintf("is too long (maximum is %d characters)", maxChecklistText))
		}
	}
	if len(lines) > 0 {
		w.New["checklist"] = strings.Join(lines, "\n")
	}
	if str(w.New["label"]) == "" {
		w.New["label"] = w.New["name"]
	}
	return nil
}

// checklistLines splits a category's checklist into its items.
func checklistLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// customerRule keeps a customer's phones in E.164, read in the Group's
// country, so WhatsApp links and dialers get the country code; a number
// that is not a phone number is refused under its item.
func (m *Module) customerRule(ctx context.Context, w *docs.Write) error {
	if w.Deleting {
		return nil
	}
	list, _ := w.New["phones"].([]any)
	if len(list) == 0 {
		return nil
	}
	rules := m.deps.PhoneRules()
	country, err := phonerules.GroupCountry(rules, func(key string) (any, error) {
		if m.deps.Groups == nil {
			return nil, nil
		}
		return m.deps.Groups.Setting(ctx, w.DB, key)
	})
	if err != nil {
		return fmt.Errorf("ticket: country of %s: %w", w.DB, err)
	}
	fields, err := rules.NormalizeItems(list, country, "phones")
	if err != nil {
		return fmt.Errorf("ticket: phones of %s: %w", w.DB, err)
	}
	if len(fields) > 0 {
		return fault.Invalid(fields)
	}
	return nil
}

// equipmentRule keeps the lookup field: the lower-case, accent-free words
// of what a person would search an equipment by.
func (m *Module) equipmentRule(ctx context.Context, w *docs.Write) error {
	if w.Deleting {
		return nil
	}
	n := w.New
	var parts []string
	for _, f := range []string{"identifier", "maker", "description", "customer_identifier", "location"} {
		if s := str(n[f]); s != "" {
			parts = append(parts, s)
		}
	}
	n["search"] = Fold(strings.Join(parts, " "))
	return nil
}

// Fold lower-cases s, strips accents and collapses spaces, so "Câmera"
// matches "camera".
func Fold(s string) string {
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	out, _, err := transform.String(t, s)
	if err != nil {
		out = s
	}
	return strings.Join(strings.Fields(strings.ToLower(out)), " ")
}

// commentRule ties a comment to a live record of the same Group and stamps
// its author and date; only the author (or an administrator) changes or
// deletes it.
func (m *Module) commentRule(ctx context.Context, w *docs.Write) error {
	if w.Old != nil {
		author := str(mapOf(w.Old["user"])["_id"])
		if author != w.Principal.UserID {
			if err := access.Check(ctx, m.deps.Store, w.Principal, w.DB, access.Admin); err != nil {
				return fault.New(fault.Forbidden, MsgCommentAuthor)
			}
		}
	}
	if w.Deleting {
		return nil
	}
	n := w.New
	item := str(n["item_id"])
	if w.Old != nil && item != str(w.Old["item_id"]) {
		return invalid("item_id", "can't be changed")
	}
	klass := ids.Klass(item)
	if klass == "" || klass == KlassComment || klass == "DocumentChange" {
		return invalid("item_id", MsgNotInGroup)
	}
	d, _, err := m.get(ctx, w.DB, item)
	if err != nil {
		return err
	}
	if d.ID == "" {
		return invalid("item_id", MsgNotInGroup)
	}
	n["item_type"] = klass
	if w.Old == nil {
		n["date"] = n["created_at"]
		n["user"] = map[string]any{"_id": w.Principal.UserID, "label": w.Principal.Label}
	}
	return nil
}

func mapOf(v any) map[string]any { m, _ := v.(map[string]any); return m }
