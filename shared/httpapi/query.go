package httpapi

import (
	"encoding/json"
	"net/http"

	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/httpjson"
)

// viewQuery is the parsed query string of _all_docs (and, later, views).
type viewQuery struct {
	startKey, endKey string
	keys             []string
	limit, skip      int
	descending       bool
	includeDocs      bool
}

// parseViewQuery reads CouchDB's view parameters. Keys are JSON values in
// the query string (startkey="abc"); both spellings (startkey, start_key)
// are accepted.
func parseViewQuery(r *http.Request) (viewQuery, error) {
	v := r.URL.Query()
	var q viewQuery
	var err error
	for _, p := range []struct {
		names []string
		dst   *string
	}{
		{[]string{"startkey", "start_key"}, &q.startKey},
		{[]string{"endkey", "end_key"}, &q.endKey},
	} {
		for _, name := range p.names {
			if raw := v.Get(name); raw != "" {
				if err := json.Unmarshal([]byte(raw), p.dst); err != nil {
					return q, fault.Newf(fault.BadRequest, "%s must be a JSON string, e.g. %s=\"abc\"", name, name)
				}
			}
		}
	}
	if raw := v.Get("key"); raw != "" {
		var k string
		if err := json.Unmarshal([]byte(raw), &k); err != nil {
			return q, fault.New(fault.BadRequest, `key must be a JSON string, e.g. key="abc"`)
		}
		q.keys = []string{k}
	}
	if raw := v.Get("keys"); raw != "" {
		if err := json.Unmarshal([]byte(raw), &q.keys); err != nil {
			return q, fault.New(fault.BadRequest, "keys must be a JSON array of strings")
		}
	}
	if q.limit, err = intParam(v.Get("limit"), "limit", 0); err != nil {
		return q, err
	}
	if q.skip, err = intParam(v.Get("skip"), "skip", 0); err != nil {
		return q, err
	}
	if q.descending, err = boolParam(v.Get("descending"), "descending"); err != nil {
		return q, err
	}
	if q.includeDocs, err = boolParam(v.Get("include_docs"), "include_docs"); err != nil {
		return q, err
	}
	return q, nil
}

// intParam parses a non-negative integer query parameter.
func intParam(raw, name string, def int) (int, error) { return httpjson.IntParam(raw, name, def) }

// boolParam parses "true"/"false".
func boolParam(raw, name string) (bool, error) { return httpjson.BoolParam(raw, name) }
