package accounts

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"golang.org/x/text/currency"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/auth"
	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/phonerules"
	"github.com/oficina/oficina/shared/schema"
	"github.com/oficina/oficina/shared/store"
)

// Adjustments are configuration documents {key, label, value}: a Group's
// settings in its db (admins only) and a user's preferences in their
// personal db (SPEC.md §3). One document per key.

// serverKeys describe the Group or its plan; only the server writes them
// (a client setting confirmed-plan would lift the free limits).
var serverKeys = []string{"created-by", "created-by-id", "created-at", "confirmed-plan", "admin",
	KeyCustomerID, KeyPriceID, KeySubscriptionID, KeyPlanSwitchedAt, KeyInvoiceStatus} // billing (SetBilling)

// IsServerKey tells whether a Group's adjustment key is one only the
// server writes: no client, and no restore of a backup, may write it.
func IsServerKey(key string) bool { return slices.Contains(serverKeys, key) }

// keyRE bounds adjustment keys to the spec's shape (letters, digits, - and
// _), compiled on first use (not at every cold start).
var keyRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$`) })

// Allowed values of the switch-like keys.
var (
	switchValues  = []string{"enabled", "disabled"}
	receiptValues = []string{"on-demand", "always"}
	localeValues  = []string{"en", "pt-BR"}
	switchKeys    = []string{"checklist", "project-management", "budget", "rdisk", "textnotes", "exoreader", "maintenance", "billing"}
)

// Phone and address items: stored whole as one adjustment's list
// (SPEC.md §3); marktodelete is the form's flag, dropped on save.
var (
	phoneFields   = []string{"main", "description", "number"}
	addressFields = []string{"main", "description", "zip_code", "street", "number", "neighborhood", "complement", "city", "state"}
)

const (
	maxListItems = 100
	maxShortText = 500
	maxLongText  = 20000
)

// adjustmentRule guards client writes of adjustments: a Group's by its
// admins, a user's by that user; server keys are refused; every value is
// checked for its key.
func (s *Service) adjustmentRule(ctx context.Context, w *docs.Write) error {
	if isSystem(ctx) {
		return nil
	}
	p := w.Principal
	if p == nil {
		return fault.New(fault.Unauthorized, auth.MsgNotLoggedIn)
	}
	group := isGroupDB(w.DB)
	switch {
	case group:
		if err := access.Check(ctx, s.st, p, w.DB, access.Admin); err != nil {
			return err
		}
	case isUserDB(w.DB):
		if err := access.Check(ctx, s.st, p, w.DB, access.Write); err != nil {
			return err
		}
	default:
		return denied()
	}
	if w.Deleting {
		key := str(w.Old["key"])
		// The Group's own settings stay; their values change instead.
		if group && (IsServerKey(key) || isDefaultKey(key)) {
			return denied()
		}
		return nil
	}

	key, ok := w.New["key"].(string)
	switch {
	case !ok || key == "":
		return invalid("key", fault.CantBeBlank)
	case !keyRE().MatchString(key):
		return invalid("key", fault.IsInvalid)
	case w.Old != nil && str(w.Old["key"]) != key:
		return invalid("key", fault.IsInvalid) // a document keeps its key
	case group && IsServerKey(key):
		return denied()
	}
	switch l := w.New["label"].(type) {
	case nil:
		w.New["label"] = key
	case string:
		if len([]rune(l)) > maxShortText {
			return invalid("label", fault.IsInvalid)
		}
	default:
		return invalid("label", fault.IsInvalid)
	}
	value, err := checkValue(s.phones, key, w.New["value"])
	if err != nil {
		return err
	}
	if group && key == "phones" {
		if value, err = s.e164(ctx, w.DB, value); err != nil {
			return err
		}
	}
	w.New["value"] = value
	if w.Old == nil {
		return s.checkUniqueKey(ctx, w.DB, w.ID, key)
	}
	return nil
}

func isDefaultKey(key string) bool {
	if key == "name" || key == "country" {
		return true
	}
	for _, kv := range defaultSettings {
		if kv.key == key {
			return true
		}
	}
	return false
}

// checkUniqueKey refuses a second adjustment for a key.
func (s *Service) checkUniqueKey(ctx context.Context, db, id, key string) error {
	q := store.ListQuery{Klass: KlassAdjustment, Limit: 500}
	for {
		page, err := s.st.List(ctx, db, q)
		if err != nil {
			return fmt.Errorf("list adjustments of %s: %w", db, err)
		}
		for _, d := range page.Docs {
			var a struct {
				Key string `json:"key"`
			}
			if err := json.Unmarshal(d.Body, &a); err != nil {
				return fmt.Errorf("decode %s/%s: %w", db, d.ID, err)
			}
			if a.Key == key && d.ID != id {
				return invalid("key", fault.AlreadyTaken)
			}
		}
		if page.Next == "" {
			return nil
		}
		q.After = page.Next
	}
}

// checkValue validates (and normalises) an adjustment's value for its key;
// keys the spec does not describe take any JSON value. phones checks the
// country setting.
func checkValue(phones phonerules.Rules, key string, v any) (any, error) {
	bad := func(msg string) (any, error) { return nil, invalid("value", msg) }
	switch {
	case key == "name":
		s, ok := v.(string)
		if !ok {
			return bad(fault.CantBeBlank)
		}
		name, err := cleanName("value", s)
		if err != nil {
			return nil, err
		}
		return name, nil
	case key == "billing-email" || key == "billing_email":
		s, _ := v.(string)
		if addr := auth.NormEmail(s); auth.ValidEmail(addr) {
			return addr, nil
		}
		return bad(fault.IsInvalid)
	case key == "locale":
		if s, ok := v.(string); ok && slices.Contains(localeValues, s) {
			return s, nil
		}
		return bad(fault.NotInList)
	case key == "country":
		s, _ := v.(string)
		c, err := phones.Country(s)
		switch {
		case err == nil:
			return c, nil
		case errors.Is(err, phonerules.ErrUnknownCountry):
			return bad(fault.NotInList)
		}
		return nil, fmt.Errorf("accounts: country setting: %w", err)
	case key == "currency":
		// The Group's currency (its estimates'): an ISO 4217 code.
		s, _ := v.(string)
		s = strings.ToUpper(strings.TrimSpace(s))
		if u, err := currency.ParseISO(s); err == nil && len(s) == 3 && u != currency.XXX && u != currency.XTS {
			return s, nil
		}
		return bad(schema.MsgNotCurrency)
	case slices.Contains(switchKeys, key):
		if s, ok := v.(string); ok && slices.Contains(switchValues, s) {
			return s, nil
		}
		return bad(fault.NotInList)
	case key == "contract-receipt":
		if s, ok := v.(string); ok && slices.Contains(receiptValues, s) {
			return s, nil
		}
		return bad(fault.NotInList)
	case key == "newsletter" || key == "reader_mark_as_read_on_opening":
		switch b := v.(type) {
		case bool:
			return b, nil
		case string: // form-style values from older clients
			if b == "true" || b == "false" {
				return b == "true", nil
			}
		}
		return bad(fault.IsInvalid)
	case key == "newsletter-topics":
		l, ok := v.([]any)
		if !ok || len(l) > maxListItems {
			return bad(fault.IsInvalid)
		}
		for _, t := range l {
			if s, ok := t.(string); !ok || s == "" || len(s) > 100 {
				return bad(fault.IsInvalid)
			}
		}
		return l, nil
	case key == "phones":
		return checkList(v, phoneFields)
	case key == "addresses":
		return checkList(v, addressFields)
	case key == "unconfirmed-plan":
		if s, ok := v.(string); ok && len(s) <= 100 {
			return s, nil
		}
		return bad(fault.IsInvalid)
	case key == "estimate-observation" || key == "receipt-terms":
		if s, ok := v.(string); ok && len(s) <= maxLongText {
			return s, nil
		}
		return bad(fault.IsInvalid)
	}
	return v, nil
}

// checkList validates a phone or address list: an array of objects with
// only the known fields, "main" a boolean and the rest text (numbers are
// taken as text: house numbers and zip codes come from number inputs).
// Items marked for deletion are dropped.
func checkList(v any, fields []string) (any, error) {
	bad := invalid("value", fault.IsInvalid)
	if v == nil {
		return []any{}, nil
	}
	l, ok := v.([]any)
	if !ok || len(l) > maxListItems {
		return nil, bad
	}
	out := make([]any, 0, len(l))
	for _, item := range l {
		m, ok := item.(map[string]any)
		if !ok {
			return nil, bad
		}
		clean := map[string]any{}
		for k, val := range m {
			switch {
			case k == "marktodelete":
				if _, ok := val.(bool); !ok && val != nil {
					return nil, bad
				}
			case !slices.Contains(fields, k):
				return nil, bad
			case k == "main":
				b, ok := val.(bool)
				if !ok && val != nil {
					return nil, bad
				}
				clean[k] = b
			default:
				switch t := val.(type) {
				case nil:
					clean[k] = ""
				case string:
					if len(t) > maxShortText {
						return nil, bad
					}
					clean[k] = t
				case json.Number:
					clean[k] = t.String()
				case float64:
					clean[k] = fmt.Sprint(t)
				default:
					return nil, bad
				}
			}
		}
		if flag(m, "marktodelete") {
			continue
		}
		out = append(out, clean)
	}
	return out, nil
}

// e164 rewrites a Group's phone list with every number in E.164, read in
// the Group's country; a number that is not one is refused under its item
// ("value[1].number"), and nothing is written.
func (s *Service) e164(ctx context.Context, db string, v any) (any, error) {
	list, _ := v.([]any)
	if len(list) == 0 {
		return v, nil
	}
	country, err := phonerules.GroupCountry(s.phones, func(key string) (any, error) { return s.Setting(ctx, db, key) })
	if err != nil {
		return nil, fmt.Errorf("accounts: country of %s: %w", db, err)
	}
	fields, err := s.phones.NormalizeItems(list, country, "value")
	if err != nil {
		return nil, fmt.Errorf("accounts: phones of %s: %w", db, err)
	}
	if len(fields) > 0 {
		return nil, fault.Invalid(fields)
	}
	return list, nil
}

// adjustmentEffect carries a changed setting to where else it is read: a
// Group's name and billing e-mail to its account record (and the name to
// its memberships), a user's locale and newsletter choice to the user
// document (sessions and mails read them there). Failures are logged.
func (s *Service) adjustmentEffect(ctx context.Context, w *docs.Write, _ store.Doc) error {
	if isSystem(ctx) || w.Deleting {
		return nil
	}
	p, key, value := w.Principal, str(w.New["key"]), w.New["value"]
	switch {
	case isGroupDB(w.DB) && key == "name":
		s.syncAccountField(ctx, p, w.DB, "name", value)
		s.renameMemberships(ctx, p, w.DB, str(value))
	case isGroupDB(w.DB) && (key == "billing-email" || key == "billing_email"):
		s.syncAccountField(ctx, p, w.DB, "billing_email", value)
	case isUserDB(w.DB) && w.DB == p.UserID && key == "locale":
		l := str(value)
		if err := s.users.SetPreferences(ctx, p.UserID, &l, nil); err != nil {
			s.log.ErrorContext(ctx, "sync locale", "user", p.UserID, "err", err)
		}
	case isUserDB(w.DB) && w.DB == p.UserID && key == "newsletter":
		b, _ := value.(bool)
		if err := s.users.SetPreferences(ctx, p.UserID, nil, &b); err != nil {
			s.log.ErrorContext(ctx, "sync newsletter", "user", p.UserID, "err", err)
		}
	}
	return nil
}
