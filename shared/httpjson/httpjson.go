// Package httpjson reads requests (JSON bodies, query parameters) and writes
// JSON answers the same way for the core (shared/httpapi) and for the
// modules' own routes: strict decoding (one value, valid UTF-8, exact
// numbers), bounded bodies, CouchDB-style parameters and answers with
// CouchDB's headers. Failures are *fault.Error values with the
// reasons clients see.
package httpjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"unicode/utf8"

	"github.com/oficina/oficina/shared/fault"
)

// ReadBody reads the whole request body, bounded by max bytes (413 beyond).
func ReadBody(w http.ResponseWriter, r *http.Request, max int64) ([]byte, error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, max))
	if err != nil {
		var maxErr *http.MaxBytesError
		if errors.As(err, &maxErr) {
			return nil, fault.Newf(fault.TooLarge, "Request body is larger than %d bytes", max)
		}
		return nil, fault.Wrap(fault.BadRequest, "could not read the request body", err)
	}
	return body, nil
}

// RequireJSON rejects bodies that are not declared as JSON, like CouchDB.
func RequireJSON(r *http.Request) error {
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

// Decode reads a JSON object request body into v, rejecting wrong content
// types (415), bodies over max bytes (413), malformed JSON and anything but
// an object (400): a null would otherwise decode as an empty update.
func Decode(w http.ResponseWriter, r *http.Request, max int64, v any) error {
	if err := RequireJSON(r); err != nil {
		return err
	}
	body, err := ReadBody(w, r, max)
	if err != nil {
		return err
	}
	return UnmarshalObject(body, v)
}

// UnmarshalObject is Unmarshal for bodies that must be a JSON object.
func UnmarshalObject(body []byte, v any) error {
	if t := bytes.TrimLeft(body, " \t\r\n"); len(t) > 0 && t[0] != '{' && json.Valid(body) {
		return fault.New(fault.BadRequest, MsgBodyNotObject)
	}
	return Unmarshal(body, v)
}

// Unmarshal decodes exactly one JSON value into v, keeping numbers exact
// (json.Number in maps).
func Unmarshal(body []byte, v any) error {
	if !utf8.Valid(body) {
		return fault.New(fault.BadRequest, "invalid UTF-8 JSON")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return fault.Newf(fault.BadRequest, "field %q must be %s", typeErr.Field, typeName(typeErr.Type.Kind().String()))
		}
		return fault.New(fault.BadRequest, "invalid UTF-8 JSON")
	}
	if dec.More() {
		return fault.New(fault.BadRequest, "invalid UTF-8 JSON: trailing data after the JSON value")
	}
	return nil
}

func typeName(kind string) string {
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

// Write encodes v with status and CouchDB's headers. Encoding errors after
// the header is sent cannot be reported to the client, so they are ignored.
func Write(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "must-revalidate")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// Recorder keeps an answer in memory, for a handler served inside another
// request (a batch's read, the live channel's $connect on Lambda).
type Recorder struct {
	header      http.Header
	wroteHeader bool
	// Status is the answer's status (200 unless the handler set another).
	Status int
	Body   bytes.Buffer
}

// NewRecorder returns an empty answer.
func NewRecorder() *Recorder { return &Recorder{header: http.Header{}, Status: http.StatusOK} }

func (w *Recorder) Header() http.Header { return w.header }

func (w *Recorder) WriteHeader(status int) {
	if !w.wroteHeader {
		w.Status, w.wroteHeader = status, true
	}
}

func (w *Recorder) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.Body.Write(b)
}
