package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"unicode/utf8"

	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/mango"
)

// readBody reads the whole request body, bounded by the server's limit.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.maxBody))
	if err != nil {
		var maxErr *http.MaxBytesError
		if errors.As(err, &maxErr) {
			return nil, fault.Newf(fault.TooLarge, "Request body is larger than %d bytes", s.maxBody)
		}
		return nil, fault.Wrap(fault.BadRequest, "could not read the request body", err)
	}
	return body, nil
}

// requireJSON rejects bodies that are not declared as JSON, like CouchDB.
func requireJSON(r *http.Request) error {
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return fault.New(fault.UnsupportedMedia, "Content-Type must be application/json")
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || mt != "application/json" {
		return fault.New(fault.UnsupportedMedia, "Content-Type must be application/json")
	}
	return nil
}

// MsgBodyNotObject refuses a body that is valid JSON but not an object.
const MsgBodyNotObject = "The request body must be a JSON object"

// decodeJSON reads a JSON object request body into v, rejecting wrong
// content types (415), oversized bodies (413), malformed JSON and anything
// but an object (400): a null would otherwise decode as an empty update.
func (s *Server) decodeJSON(w http.ResponseWriter, r *http.Request, v any) error {
	if err := requireJSON(r); err != nil {
		return err
	}
	body, err := s.readBody(w, r)
	if err != nil {
		return err
	}
	if t := bytes.TrimLeft(body, " \t\r\n"); len(t) > 0 && t[0] != '{' && json.Valid(body) {
		return fault.New(fault.BadRequest, MsgBodyNotObject)
	}
	return unmarshalStrict(body, v)
}

// unmarshalStrict decodes exactly one JSON value into v.
func unmarshalStrict(body []byte, v any) error {
	if !utf8.Valid(body) {
		return fault.New(fault.BadRequest, "invalid UTF-8 JSON")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return fault.Newf(fault.BadRequest, "field %q must be %s", typeErr.Field, jsonTypeName(typeErr.Type.Kind().String()))
		}
		return fault.New(fault.BadRequest, "invalid UTF-8 JSON")
	}
	if dec.More() {
		return fault.New(fault.BadRequest, "invalid UTF-8 JSON: trailing data after the JSON value")
	}
	return nil
}

func jsonTypeName(kind string) string {
	switch kind {
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "slice", "array":
		return "an array"
	case "map", "struct":
		return "an object"
	case "int", "int64", "float64", "uint64":
		return "a number"
	}
	return "of another type"
}

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
