package servicedocs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/httpjson"
	"github.com/oficina/oficina/shared/phonerules"
	"github.com/oficina/oficina/shared/store"
)

// shop is what a customer sees of the Group: its name and contacts.
type shop struct {
	Name      string `json:"name"`
	Phones    []any  `json:"phones"`
	Addresses []any  `json:"addresses"`
	// ReceiptText is the receipt-configuration adjustment (printed only).
	ReceiptText string `json:"-"`
	// Terms are the shop's warranty and pickup terms printed on receipts
	// (receipt-terms; empty: the default terms in the receipt's language).
	Terms  string `json:"-"`
	Locale string `json:"-"`
	// Country is where the shop's phone numbers are read (and printed
	// nationally when of it).
	Country string `json:"country"`
	// Currency is what the shop's estimates are in (groupCurrency).
	Currency string `json:"currency"`
	// phones prints its numbers and its customers' (phonesLine).
	phones phonerules.Rules
}

func (m *Module) setting(ctx context.Context, db, key string) (any, error) {
	if m.deps.Groups == nil {
		return nil, nil
	}
	v, err := m.deps.Groups.Setting(ctx, db, key)
	if err != nil {
		return nil, fmt.Errorf("servicedocs: setting %s: %w", key, err)
	}
	return v, nil
}

// jsonList reads a list adjustment kept as a list or as its JSON text.
func jsonList(v any) []any {
	switch t := v.(type) {
	case []any:
		return t
	case string:
		var out []any
		if json.Unmarshal([]byte(t), &out) == nil {
			return out
		}
	}
	return []any{}
}

func (m *Module) shopOf(ctx context.Context, db string) (shop, error) {
	s := shop{phones: m.deps.PhoneRules()}
	for key, set := range map[string]func(any){
		"name":                  func(v any) { s.Name = str(v) },
		"phones":                func(v any) { s.Phones = jsonList(v) },
		"addresses":             func(v any) { s.Addresses = jsonList(v) },
		"receipt-configuration": func(v any) { s.ReceiptText = str(v) },
		"receipt-terms":         func(v any) { s.Terms = str(v) },
		"locale":                func(v any) { s.Locale = str(v) },
	} {
		v, err := m.setting(ctx, db, key)
		if err != nil {
			return s, err
		}
		set(v)
	}
	country, err := phonerules.GroupCountry(s.phones, func(key string) (any, error) { return m.setting(ctx, db, key) })
	if err != nil {
		return s, err
	}
	s.Country = country
	cur, err := m.setting(ctx, db, "currency")
	if err != nil {
		return s, err
	}
	s.Currency = groupCurrency(cur, country)
	if s.Phones == nil {
		s.Phones = []any{}
	}
	if s.Addresses == nil {
		s.Addresses = []any{}
	}
	return s, nil
}

// equipmentName is how a customer recognises the equipment: the maker and
// the identifier, once — a shop often types "Samsung Galaxy A52" as the
// identifier of a Samsung, which read "Samsung Samsung Galaxy A52" (issue
// 22 item 15).
func equipmentName(e map[string]any) string {
	if e == nil {
		return ""
	}
	maker, id := strings.TrimSpace(str(e["maker"])), strings.TrimSpace(str(e["identifier"]))
	if maker == "" || strings.HasPrefix(strings.ToLower(id+" "), strings.ToLower(maker+" ")) {
		return id
	}
	return strings.TrimSpace(maker + " " + id)
}

// statusPage answers GET /api/_public/status/{token}: the ticket's number,
// title, equipment, status and its changes, the estimated date — never
// notes, comments, people or prices.
func (m *Module) statusPage(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	l, _, t, err := m.lookup(ctx, kindStatus, "status_token", KlassTicket, r.PathValue("token"))
	if err != nil {
		return err
	}
	s, err := m.shopOf(ctx, l.DB)
	if err != nil {
		return err
	}
	_, eq, err := m.get(ctx, l.DB, str(t["equipment_id"]))
	if err != nil {
		return err
	}
	history := []any{}
	for _, h := range statusHistory(t, t) {
		e, _ := h.(map[string]any)
		history = append(history, map[string]any{"status": e["status"], "at": e["at"]})
	}
	w.Header().Set("Cache-Control", "no-store")
	httpjson.Write(w, http.StatusOK, map[string]any{
		"locale": s.Locale,
		"shop":   s,
		"ticket": map[string]any{
			"number":     t["number"],
			"title":      t["title"],
			"equipment":  equipmentName(eq),
			"status":     t["status"],
			"estimation": t["estimation"],
			"created_at": t["created_at"],
			"history":    history,
		},
	})
	return nil
}

// publicEstimate is what the approval page shows of an estimate. A draft
// reads as sent: whoever holds the link is asked to decide.
func publicEstimate(e map[string]any, withObservation bool) map[string]any {
	state := str(e["state"])
	if state == "" || state == "draft" {
		state = "sent"
	}
	out := map[string]any{"state": state}
	for _, k := range []string{"number", "description", "items", "total", "valid_until", "decided_at", "decided_by_name", "decision_note"} {
		if v, ok := e[k]; ok {
			out[k] = v
		}
	}
	if withObservation {
		out["observation"] = e["observation"]
	}
	return out
}

// expired reports an estimate whose validity ended before today.
func (m *Module) expired(e map[string]any) bool {
	until := str(e["valid_until"])
	return until != "" && until < m.now().Format("2006-01-02")
}

func (m *Module) estimateAnswer(ctx context.Context, w http.ResponseWriter, db string, e map[string]any) error {
	s, err := m.shopOf(ctx, db)
	if err != nil {
		return err
	}
	obs, err := m.setting(ctx, db, "estimate-observation")
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	httpjson.Write(w, http.StatusOK, map[string]any{"locale": s.Locale, "shop": s, "estimate": publicEstimate(e, obs == "enabled")})
	return nil
}

// estimatePage answers GET /api/_public/estimates/{token}. A decided
// estimate still shows (with its decision); an expired undecided one is
// the catalogue's refusal.
func (m *Module) estimatePage(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	l, _, e, err := m.lookup(ctx, kindEstimate, "approval_token", KlassEstimate, r.PathValue("token"))
	if err != nil {
		return err
	}
	if !decided(str(e["state"])) && m.expired(e) {
		return notFound()
	}
	return m.estimateAnswer(ctx, w, l.DB, e)
}

// decide answers POST /api/_public/estimates/{token}
// {"decision":"approve"|"refuse","name":"…","note":"…"}: the customer's
// decision, recorded once. A second attempt (or a race lost) is 409 with
// the decision already made.
func (m *Module) decide(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	var in struct {
		Decision string `json:"decision"`
		Name     string `json:"name"`
		Note     string `json:"note"`
	}
	if err := httpjson.Decode(w, r, 16<<10, &in); err != nil {
		return err
	}
	in.Name, in.Note = strings.TrimSpace(in.Name), strings.TrimSpace(in.Note)
	errs := map[string][]string{}
	state := map[string]string{"approve": "approved", "refuse": "refused"}[in.Decision]
	if state == "" {
		errs["decision"] = []string{fault.NotInList}
	}
	switch {
	case in.Name == "":
		errs["name"] = []string{fault.CantBeBlank}
	case utf8.RuneCountInString(in.Name) > 100 || strings.ContainsAny(in.Name, "\x00\r\n"):
		errs["name"] = []string{"is too long (maximum is 100 characters)"}
	}
	if utf8.RuneCountInString(in.Note) > 2000 {
		errs["note"] = []string{"is too long (maximum is 2000 characters)"}
	}
	token := r.PathValue("token")
	l, d, e, err := m.lookup(ctx, kindEstimate, "approval_token", KlassEstimate, token)
	if err != nil {
		return err
	}
	if err := alreadyDecided(e); err != nil {
		return err
	}
	if m.expired(e) {
		return notFound()
	}
	if len(errs) > 0 {
		return fault.Invalid(errs)
	}
	e["state"] = state
	// The Group itself writes the customer's decision; the rule records the
	// name they typed.
	group := &access.Principal{UserID: l.DB, Label: in.Name, Roles: []string{l.DB}}
	dctx := context.WithValue(ctx, decisionKey{}, decision{name: in.Name, note: in.Note})
	saved, err := m.deps.Docs.Save(dctx, group, l.DB, d.ID, d.Rev, e)
	if errors.Is(err, store.ErrConflict) {
		// Someone decided (or staff edited) first: say what stands now.
		if _, _, cur, lerr := m.lookup(ctx, kindEstimate, "approval_token", KlassEstimate, token); lerr == nil {
			if derr := alreadyDecided(cur); derr != nil {
				return derr
			}
		}
		return fault.New(fault.Conflict, "Document update conflict.")
	}
	if err != nil {
		return err
	}
	if err := m.noteOnTicket(ctx, group, l.DB, saved.ID, in.Decision); err != nil {
		m.deps.Log.WarnContext(ctx, "servicedocs: decision note on the ticket", "db", l.DB, "estimate", saved.ID, "err", err)
	}
	_, e, err = m.get(ctx, l.DB, saved.ID)
	if err != nil {
		return err
	}
	return m.estimateAnswer(ctx, w, l.DB, e)
}

func alreadyDecided(e map[string]any) error {
	switch str(e["state"]) {
	case "approved":
		return fault.New(fault.Conflict, MsgAlreadyApproved)
	case "refused":
		return fault.New(fault.Conflict, MsgAlreadyRefused)
	}
	return nil
}

// noteOnTicket writes the decision as a comment on the estimate's ticket,
// so it shows in the ticket's comments, history and the Group's timeline.
func (m *Module) noteOnTicket(ctx context.Context, p *access.Principal, db, estimateID, verdict string) error {
	_, e, err := m.get(ctx, db, estimateID)
	if err != nil || e == nil {
		return err
	}
	ticket := str(e["ticket_id"])
	if ticket == "" {
		return nil
	}
	s, err := m.shopOf(ctx, db)
	if err != nil {
		return err
	}
	tr := textsFor(s.Locale)
	text := fmt.Sprintf(tr.decisionNote[verdict], fmt.Sprint(e["number"]), str(e["decided_by_name"]))
	if note := str(e["decision_note"]); note != "" {
		text += "\n\n" + note
	}
	body := map[string]any{"klass": "Comment", "content": text, "item_id": ticket}
	_, err = m.deps.Docs.Save(ctx, p, db, derivedID("cmt", "estimate-decision\x00"+estimateID), "", body)
	if errors.Is(err, store.ErrConflict) {
		return nil // written already (a retry)
	}
	return err
}
