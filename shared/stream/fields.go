package stream

import (
	"encoding/json"
	"strconv"
)

// Fields are a document body's top-level members, undecoded: what tallies
// and event rules read. Reading a member of the wrong type gives the zero
// value, so a rule never fails on an odd document.
type Fields map[string]json.RawMessage

// Str returns a string member ("" when absent or not a string).
func (f Fields) Str(name string) string { return str(f[name]) }

// Bool reports whether a member is JSON true.
func (f Fields) Bool(name string) bool { return truthy(f[name]) }

// Int returns an integer member (0 when absent, fractional or not a number).
func (f Fields) Int(name string) int64 {
	raw := f[name]
	if len(raw) == 0 {
		return 0
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		return 0
	}
	return n
}

// Has reports whether a member is present and not null.
func (f Fields) Has(name string) bool {
	raw, ok := f[name]
	return ok && string(raw) != "null"
}

// Decode decodes one member into v; false when absent or of another shape.
func (f Fields) Decode(name string, v any) bool {
	raw, ok := f[name]
	return ok && json.Unmarshal(raw, v) == nil
}
