package httpapi

import (
	"fmt"
	"mime"
	"net/http"
	"net/url"

	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/httpjson"
	"github.com/oficina/oficina/shared/mango"
)

// readBody reads the whole request body, bounded by the server's limit.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	return httpjson.ReadBody(w, r, s.maxBody)
}

// requireJSON rejects bodies that are not declared as JSON, like CouchDB.
func requireJSON(r *http.Request) error { return httpjson.RequireJSON(r) }

// MsgBodyNotObject refuses a body that is valid JSON but not an object.
const MsgBodyNotObject = httpjson.MsgBodyNotObject

// decodeJSON reads a JSON object request body into v, rejecting wrong
// content types (415), oversized bodies (413), malformed JSON and anything
// but an object (400): a null would otherwise decode as an empty update.
func (s *Server) decodeJSON(w http.ResponseWriter, r *http.Request, v any) error {
	return httpjson.Decode(w, r, s.maxBody, v)
}

// unmarshalStrict decodes exactly one JSON value into v.
func unmarshalStrict(body []byte, v any) error { return httpjson.Unmarshal(body, v) }

// decodeForm reads a JSON or form-encoded body into a flat string map, for
// the endpoints CouchDB accepts both ways (_session).
func (s *Server) decodeJSONOrForm(w http.ResponseWriter, r *http.Request) (map[string]any, error) {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt == "application/x-www-form-urlencoded" {
		body, err := s.readBody(w, r)
		if err != nil {
			return nil, err
		}
		vals, err := url.ParseQuery(string(body))
		if err != nil {
			return nil, fault.New(fault.BadRequest, "malformed form body")
		}
		out := make(map[string]any, len(vals))
		for k := range vals {
			out[k] = vals.Get(k)
		}
		return out, nil
	}
	var out map[string]any
	if err := s.decodeJSON(w, r, &out); err != nil {
		return nil, err
	}
	if out == nil {
		return nil, fault.New(fault.BadRequest, "the request body must be a JSON object")
	}
	return out, nil
}

// stringField returns m[key] when it is a string, "" when absent, and an
// error naming the field when it has another type.
func stringField(m map[string]any, key string) (string, error) {
	v, ok := m[key]
	if !ok || v == nil {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", fault.Newf(fault.BadRequest, "field %q must be a string", key)
	}
	return s, nil
}

// boolField is stringField for booleans (form bodies send "true"/"on").
func boolField(m map[string]any, key string) (bool, error) {
	switch v := m[key].(type) {
	case nil:
		return false, nil
	case bool:
		return v, nil
	case string:
		return v == "true" || v == "on" || v == "1", nil
	default:
		return false, fault.New(fault.BadRequest, fmt.Sprintf("field %q must be a boolean", key))
	}
}

// fieldsParam reads ?fields=a,b.c (bounded like _find's "fields"); _id and
// _rev always come. nil when the parameter is absent.
func fieldsParam(r *http.Request) ([]string, error) {
	list := r.URL.Query().Get("fields")
	if list == "" {
		return nil, nil
	}
	fields, err := mango.ParseFieldList(list)
	if err != nil {
		return nil, err
	}
	return append(fields, "_id", "_rev"), nil
}
