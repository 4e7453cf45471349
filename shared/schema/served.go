package schema

import (
	"slices"
	"strconv"
	"strings"
)

// typeNames are the types as GET /api/_schema names them.
var typeNames = map[Type]string{
	String: "string", Text: "text", Int: "int", Money: "money", Number: "number", Bool: "bool",
	Date: "date", DateTime: "datetime", Enum: "enum", Ref: "ref", Member: "member", Email: "email",
	URL: "url", Color: "color", Tags: "tags", Object: "object", List: "list", Items: "items", Currency: "currency",
}

// String names the type as the served schema does ("string", "money"…).
func (t Type) String() string {
	if n, ok := typeNames[t]; ok {
		return n
	}
	return "type(" + strconv.Itoa(int(t)) + ")"
}

// FieldRules is one field's rules as the SPA reads them (GET /api/_schema),
// so that a form checks before sending exactly what the write path will:
// Max is the bound the rule applies (the type's default when the field sets
// none), Min and MaxValue bound Int and Money values.
type FieldRules struct {
	Name     string       `json:"name"`
	Type     string       `json:"type"`
	Required bool         `json:"required,omitempty"`
	Max      int          `json:"max,omitempty"`
	Min      *int64       `json:"min,omitempty"`
	MaxValue *int64       `json:"max_value,omitempty"`
	Enum     []string     `json:"enum,omitempty"`
	Ref      string       `json:"ref,omitempty"`
	Items    []FieldRules `json:"items,omitempty"`
	Default  any          `json:"default,omitempty"`
	ReadOnly bool         `json:"read_only,omitempty"`
}

// Rules describes f as it is checked.
func (f Field) Rules() FieldRules {
	r := FieldRules{Name: f.Name, Type: f.Type.String(), Required: f.Required, Min: f.Min, MaxValue: f.MaxValue,
		Enum: slices.Clone(f.Enum), Ref: f.Ref, Default: f.Default, ReadOnly: f.ReadOnly}
	switch f.Type {
	case String, Text, URL:
		r.Max = f.maxLen()
	case Tags:
		r.Max = cmpOr(f.Max, 50)
	case Items:
		r.Max = cmpOr(f.Max, 100)
		for _, sf := range f.Items {
			r.Items = append(r.Items, sf.Rules())
		}
	}
	return r
}

func cmpOr(n, def int) int {
	if n != 0 {
		return n
	}
	return def
}

// Message templates: the refusals the rules word, {n} standing for the
// bound. The SPA words its own checks from them (GET /api/_schema).
const (
	tmplTooLong = "is too long (maximum is {n} characters)"
	tmplTooMany = "is too long (maximum is {n} items)"
	tmplMin     = "must be greater than or equal to {n}"
	tmplMax     = "must be less than or equal to {n}"
)

func fill(tmpl string, n int64) string {
	return strings.ReplaceAll(tmpl, "{n}", strconv.FormatInt(n, 10))
}

// Messages are every refusal the rules word, by a stable name.
var Messages = map[string]string{
	"blank":        MsgBlank,
	"invalid":      MsgInvalid,
	"not_number":   MsgNotNumber,
	"not_integer":  MsgNotInteger,
	"not_in_list":  MsgNotInList,
	"must_exist":   MsgMustExist,
	"not_currency": MsgNotCurrency,
	"too_long":     tmplTooLong,
	"too_many":     tmplTooMany,
	"min":          tmplMin,
	"max":          tmplMax,
}

// Served is the whole schema as GET /api/_schema answers it: each klass's
// fields in declaration order, and the messages.
type Served struct {
	Klasses  map[string][]FieldRules `json:"klasses"`
	Messages map[string]string       `json:"messages"`
}

// Serve describes klasses; a klass declared more than once gets its fields
// in the order declared, a field's first declaration winning (the write
// path runs every declaration, and the fields are disjoint in practice).
func Serve(klasses []Klass) Served {
	out := Served{Klasses: map[string][]FieldRules{}, Messages: Messages}
	for _, k := range klasses {
		have := out.Klasses[k.Name]
		for _, f := range k.Fields {
			if !slices.ContainsFunc(have, func(r FieldRules) bool { return r.Name == f.Name }) {
				have = append(have, f.Rules())
			}
		}
		if have == nil {
			have = []FieldRules{}
		}
		out.Klasses[k.Name] = have
	}
	return out
}
