package httpjson

import (
	"strconv"

	"github.com/oficina/oficina/shared/fault"
)

// IntParam parses a non-negative integer query parameter (def when empty).
func IntParam(raw, name string, def int) (int, error) {
	if raw == "" {
		return def, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 0 {
		return 0, fault.Newf(fault.BadRequest, "Invalid value for %s: must be a non-negative integer", name)
	}
	return n, nil
}

// BoolParam parses "true"/"false" (false when empty), like CouchDB.
func BoolParam(raw, name string) (bool, error) {
	switch raw {
	case "", "false":
		return false, nil
	case "true":
		return true, nil
	}
	return false, fault.Newf(fault.BadRequest, "Invalid boolean parameter %s: must be true or false", name)
}
