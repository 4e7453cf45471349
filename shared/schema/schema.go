// Package schema checks documents against declarative field rules: types,
// required fields, enums, lengths, bounds and references to other records
// of the same Group. Modules declare one Klass per document klass they own
// and register its Rule on the write path, so every write route (PUT, POST,
// _bulk_docs, update handlers, imports, WebDAV) refuses the same bad input
// with the same 422 field errors, worded with the spec's generic messages
// (SPEC.md §5) so the SPA can translate them.
package schema

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/mail"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/text/currency"

	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/ids"
)

// Type is a field's JSON shape and meaning.
type Type int

const (
	String   Type = iota + 1 // a single-line string (trimmed; control characters refused)
	Text                     // a multi-line string
	Int                      // an integer
	Money                    // an integer amount in minor units (cents); never a float
	Number                   // any JSON number
	Bool                     // true or false
	Date                     // "YYYY-MM-DD"
	DateTime                 // RFC 3339
	Enum                     // one of Field.Enum
	Ref                      // the id of a live record of klass Field.Ref in the same db
	Member                   // the user id of an accepted member of the Group
	Email                    // an e-mail address
	URL                      // an http or https URL
	Color                    // "#rrggbb"
	Tags                     // a list of strings; a comma-separated string is accepted and split
	Object                   // any JSON object (checked by the module's own rule)
	List                     // any JSON array (checked by the module's own rule)
	Items                    // a list of objects, each checked against Field.Items (phones, estimate lines…)
	Currency                 // an ISO 4217 code ("USD", "BRL"); stored upper-case
)

// Messages (SPEC.md §5 generic messages). The SPA keys translations by them.
const (
	MsgBlank      = fault.CantBeBlank
	MsgInvalid    = fault.IsInvalid
	MsgNotNumber  = "is not a number"
	MsgNotInteger = "must be an integer"
	MsgNotInList  = fault.NotInList
	MsgMustExist  = "must exist"
	// MsgNotCurrency refuses a currency code that is not ISO 4217.
	MsgNotCurrency = "is not a known currency code (ISO 4217, like USD or BRL)"
)

// MsgTooLong is "is too long (maximum is N characters)".
func MsgTooLong(n int) string { return fmt.Sprintf("is too long (maximum is %d characters)", n) }

// MsgTooMany is "is too long (maximum is N items)" for lists.
func MsgTooMany(n int) string { return fmt.Sprintf("is too long (maximum is %d items)", n) }

// MsgMin is "must be greater than or equal to N".
func MsgMin(n int64) string { return fmt.Sprintf("must be greater than or equal to %d", n) }

// MsgMax is "must be less than or equal to N".
func MsgMax(n int64) string { return fmt.Sprintf("must be less than or equal to %d", n) }

// Field is one field's rules.
type Field struct {
	Name     string
	Type     Type
	Required bool
	// Max bounds a string's length in characters (default 200 for String,
	// 100,000 for Text, 2,000 for URL) or a Tags list's items (default 50).
	Max int
	// Min and MaxValue bound Int and Money values when set.
	Min, MaxValue *int64
	// Enum lists the allowed values of an Enum field.
	Enum []string
	// Ref is the klass a Ref field names.
	Ref string
	// Items are the fields of each object of an Items list (default Max: 100
	// objects). Objects may not carry other members; an object with
	// "marktodelete": true is dropped (forms mark rows to remove).
	Items []Field
	// Default is written when the field is absent on create.
	Default any
	// ReadOnly fields keep their stored value; a client's value is ignored.
	ReadOnly bool
}

// Klass is the field rules of one document klass. Fields not listed pass
// through unchecked (CouchDB documents are open), so modules list every
// field they rely on.
type Klass struct {
	Name   string
	Fields []Field
}

// Refs answers the reference checks a schema needs.
type Refs interface {
	// Exists reports whether id is a live document of klass in db.
	Exists(ctx context.Context, db, id, klass string) (bool, error)
	// IsMember reports whether userID is an accepted member of Group db.
	IsMember(ctx context.Context, db, userID string) (bool, error)
}

// Int64 is a helper for Min/MaxValue: schema.Int64(0).
func Int64(n int64) *int64 { return &n }

var (
	dateRe  = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	colorRe = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)
)

// Rule returns the write-path rule that checks and normalises New against
// the fields (deletes pass). Field errors come back together as one 422.
func (k Klass) Rule(refs Refs) docs.Rule {
	return func(ctx context.Context, w *docs.Write) error {
		if w.Deleting || w.New == nil {
			return nil
		}
		errs := map[string][]string{}
		for _, f := range k.Fields {
			if f.Type == Items {
				f.checkItems(ctx, refs, w, errs)
				continue
			}
			if msg := f.check(ctx, refs, w); msg != "" {
				errs[f.Name] = append(errs[f.Name], msg)
			}
		}
		if len(errs) > 0 {
			return fault.Invalid(errs)
		}
		return nil
	}
}

// checkItems validates an Items list; errors are keyed "name[i].field".
func (f Field) checkItems(ctx context.Context, refs Refs, w *docs.Write, errs map[string][]string) {
	v, present := w.New[f.Name]
	if !present || v == nil {
		if f.Required {
			errs[f.Name] = append(errs[f.Name], MsgBlank)
		} else if present {
			delete(w.New, f.Name)
		}
		return
	}
	list, ok := v.([]any)
	if !ok {
		errs[f.Name] = append(errs[f.Name], MsgInvalid)
		return
	}
	max := f.Max
	if max == 0 {
		max = 100
	}
	out := make([]any, 0, len(list))
	for i, item := range list {
		obj, ok := item.(map[string]any)
		if !ok {
			errs[fmt.Sprintf("%s[%d]", f.Name, i)] = []string{MsgInvalid}
			continue
		}
		if del, _ := obj["marktodelete"].(bool); del {
			continue
		}
		delete(obj, "marktodelete")
		for k := range obj {
			if !slices.ContainsFunc(f.Items, func(sf Field) bool { return sf.Name == k }) {
				errs[fmt.Sprintf("%s[%d].%s", f.Name, i, k)] = []string{MsgInvalid}
			}
		}
		sub := &docs.Write{DB: w.DB, ID: w.ID, Klass: w.Klass, Principal: w.Principal, New: obj}
		for _, sf := range f.Items {
			if msg := sf.check(ctx, refs, sub); msg != "" {
				errs[fmt.Sprintf("%s[%d].%s", f.Name, i, sf.Name)] = []string{msg}
			}
		}
		out = append(out, obj)
	}
	if len(out) > max {
		errs[f.Name] = append(errs[f.Name], MsgTooMany(max))
	}
	if f.Required && len(out) == 0 {
		errs[f.Name] = append(errs[f.Name], MsgBlank)
	}
	w.New[f.Name] = out
}

// check validates and normalises one field of w.New, returning a message.
func (f Field) check(ctx context.Context, refs Refs, w *docs.Write) string {
	if f.ReadOnly {
		// The server sets it (a later rule of the module, or nothing).
		if v, ok := w.Old[f.Name]; ok && w.Old != nil {
			w.New[f.Name] = v
		} else {
			delete(w.New, f.Name)
		}
		return ""
	}
	v, present := w.New[f.Name]
	if !present && w.Old == nil && f.Default != nil {
		w.New[f.Name] = f.Default
		v, present = f.Default, true
	}
	if !present || v == nil || f.blank(v) {
		if f.Required {
			return MsgBlank
		}
		if present && v != nil && f.Type != String && f.Type != Text {
			// "" for a number, date or reference means "not set".
			delete(w.New, f.Name)
		}
		return ""
	}
	switch f.Type {
	case String, Text:
		s, ok := v.(string)
		if !ok {
			return MsgInvalid
		}
		if f.Type == String {
			s = strings.TrimSpace(s)
			if strings.ContainsFunc(s, isControl) {
				return MsgInvalid
			}
		} else if strings.ContainsFunc(s, func(r rune) bool { return isControl(r) && r != '\n' && r != '\r' && r != '\t' }) {
			return MsgInvalid
		}
		if n := f.maxLen(); utf8.RuneCountInString(s) > n {
			return MsgTooLong(n)
		}
		w.New[f.Name] = s
	case Int, Money:
		n, msg := integer(v)
		if msg != "" {
			return msg
		}
		if f.Min != nil && n < *f.Min {
			return MsgMin(*f.Min)
		}
		if f.MaxValue != nil && n > *f.MaxValue {
			return MsgMax(*f.MaxValue)
		}
		w.New[f.Name] = json.Number(fmt.Sprint(n))
	case Number:
		num, ok := v.(json.Number)
		if !ok {
			return MsgNotNumber
		}
		if fl, err := num.Float64(); err != nil || math.IsInf(fl, 0) || math.IsNaN(fl) {
			return MsgNotNumber
		}
	case Bool:
		if _, ok := v.(bool); !ok {
			return MsgInvalid
		}
	case Date:
		s, ok := v.(string)
		if !ok || !dateRe.MatchString(s) {
			return MsgInvalid
		}
		if _, err := time.Parse(time.DateOnly, s); err != nil {
			return MsgInvalid
		}
	case DateTime:
		s, ok := v.(string)
		if !ok {
			return MsgInvalid
		}
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			return MsgInvalid
		}
	case Enum:
		s, ok := v.(string)
		if !ok || !slices.Contains(f.Enum, s) {
			return MsgNotInList
		}
	case Ref:
		id, ok := v.(string)
		if !ok || ids.Klass(id) != f.Ref {
			return MsgMustExist
		}
		if refs == nil {
			return MsgMustExist
		}
		if found, err := refs.Exists(ctx, w.DB, id, f.Ref); err != nil || !found {
			return MsgMustExist
		}
	case Member:
		id, ok := v.(string)
		if !ok || ids.Klass(id) != "User" || refs == nil {
			return MsgMustExist
		}
		if old, _ := w.Old[f.Name].(string); old == id {
			// Assigned while a member: the record keeps naming a person who
			// has since left, and its other changes still save.
			return ""
		}
		if found, err := refs.IsMember(ctx, w.DB, id); err != nil || !found {
			return MsgMustExist
		}
	case Email:
		s, ok := v.(string)
		if !ok {
			return MsgInvalid
		}
		s = strings.TrimSpace(s)
		a, err := mail.ParseAddress(s)
		if err != nil || a.Address != s || len(s) > 254 {
			return MsgInvalid
		}
		w.New[f.Name] = s
	case URL:
		s, ok := v.(string)
		if !ok {
			return MsgInvalid
		}
		s = strings.TrimSpace(s)
		u, err := url.Parse(s)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return MsgInvalid
		}
		if n := f.maxLen(); len(s) > n {
			return MsgTooLong(n)
		}
		w.New[f.Name] = s
	case Currency:
		s, ok := v.(string)
		if !ok {
			return MsgInvalid
		}
		s = strings.ToUpper(strings.TrimSpace(s))
		// ParseISO knows the ISO 4217 list; XXX and XTS are its "no currency"
		// and testing codes, never a wallet's.
		if u, err := currency.ParseISO(s); err != nil || len(s) != 3 || u == currency.XXX || u == currency.XTS {
			return MsgNotCurrency
		}
		w.New[f.Name] = s
	case Color:
		s, ok := v.(string)
		if !ok || !colorRe.MatchString(s) {
			return MsgInvalid
		}
		w.New[f.Name] = strings.ToLower(s)
	case Tags:
		list, msg := tags(v)
		if msg != "" {
			return msg
		}
		max := f.Max
		if max == 0 {
			max = 50
		}
		if len(list) > max {
			return MsgTooMany(max)
		}
		w.New[f.Name] = list
	case Object:
		if _, ok := v.(map[string]any); !ok {
			return MsgInvalid
		}
	case List:
		if _, ok := v.([]any); !ok {
			return MsgInvalid
		}
	}
	return ""
}

func (f Field) maxLen() int {
	switch {
	case f.Max > 0:
		return f.Max
	case f.Type == Text:
		return 100_000
	case f.Type == URL:
		return 2_000
	}
	return 200
}

// Tag normalises one category or tag (SPEC.md §5): trimmed, inner runs of
// spaces turned into one dash.
func Tag(s string) string { return strings.Join(strings.Fields(s), "-") }

// tags accepts a list of strings or a comma-separated string and returns
// the normalised, de-duplicated tags in order.
func tags(v any) ([]any, string) {
	var raw []string
	switch t := v.(type) {
	case string:
		raw = strings.Split(t, ",")
	case []any:
		for _, e := range t {
			s, ok := e.(string)
			if !ok {
				return nil, MsgInvalid
			}
			raw = append(raw, s)
		}
	default:
		return nil, MsgInvalid
	}
	out := []any{}
	seen := map[string]bool{}
	for _, s := range raw {
		tag := Tag(s)
		if tag == "" || seen[tag] {
			continue
		}
		if utf8.RuneCountInString(tag) > 60 || strings.ContainsFunc(tag, isControl) {
			return nil, MsgInvalid
		}
		seen[tag] = true
		out = append(out, tag)
	}
	return out, ""
}

// integer reads a JSON integer; numeric strings are accepted (forms send them).
func integer(v any) (int64, string) {
	var s string
	switch t := v.(type) {
	case json.Number:
		s = t.String()
	case string:
		s = strings.TrimSpace(t)
	case float64: // values built in Go code rather than decoded
		if t != math.Trunc(t) {
			return 0, MsgNotInteger
		}
		return int64(t), ""
	case int:
		return int64(t), ""
	case int64:
		return t, ""
	default:
		return 0, MsgNotNumber
	}
	var n int64
	if _, err := fmt.Sscan(s, &n); err == nil && fmt.Sprint(n) == strings.TrimPrefix(s, "+") {
		return n, ""
	}
	if _, err := json.Number(s).Float64(); err == nil {
		return 0, MsgNotInteger
	}
	return 0, MsgNotNumber
}

// blank reports a value that means "not set": an empty or all-space
// string, or an empty list for the list types.
func (f Field) blank(v any) bool {
	switch t := v.(type) {
	case string:
		return strings.TrimSpace(t) == ""
	case []any:
		return len(t) == 0 && (f.Type == Tags || f.Type == List)
	}
	return false
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }
