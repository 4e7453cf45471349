package mango

import (
	"strconv"
	"strings"

	"github.com/oficina/oficina/shared/fault"
)

// parseField splits a Mango field name into its path on unescaped dots:
// "a.b" is [a b], "a\.b" is [a.b]. A backslash makes the next character
// literal ("\\" is one backslash); CouchDB instead drops every backslash,
// which leaves no way to name a key containing one. Empty segments are an
// error, as in CouchDB.
func parseField(name string) ([]string, error) {
	if len(name) > MaxFieldLen {
		return nil, errFieldTooLong()
	}
	if !strings.Contains(name, `\`) {
		parts := strings.Split(name, ".")
		for _, p := range parts {
			if p == "" {
				return nil, badField(name)
			}
		}
		return parts, nil
	}
	var parts []string
	var cur strings.Builder
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c == '\\' && i+1 < len(name):
			i++
			cur.WriteByte(name[i])
		case c == '.':
			if cur.Len() == 0 {
				return nil, badField(name)
			}
			parts = append(parts, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	if cur.Len() == 0 {
		return nil, badField(name)
	}
	return append(parts, cur.String()), nil
}

func badField(name string) error {
	return fault.Newf(fault.BadRequest, "invalid field name %q", name)
}

// lookup results, as CouchDB's mango_doc:get_field distinguishes them: only
// a key missing from an object is "not found" (and satisfies
// $exists:false); walking into a scalar or past an array's end is a bad path
// that matches nothing at all.
type status uint8

const (
	found status = iota
	notFound
	badPath
)

// lookup follows path from v. Object keys are looked up by name; a segment
// applied to an array must be an index ("items.0.sku").
func lookup(v any, path []string) (any, status) {
	for _, seg := range path {
		switch t := v.(type) {
		case map[string]any:
			x, ok := t[seg]
			if !ok {
				return nil, notFound
			}
			v = x
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(t) {
				return nil, badPath
			}
			v = t[i]
		default:
			return nil, badPath
		}
	}
	return v, found
}
