package httpapi

import (
	"errors"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/httpjson"
	"github.com/oficina/oficina/shared/store"
)

// errorBody is CouchDB's error envelope, plus field errors for 422.
type errorBody struct {
	Error  string              `json:"error"`
	Reason string              `json:"reason"`
	Fields map[string][]string `json:"fields,omitempty"`
}

// kindStatus is the one table from error kinds to HTTP status and CouchDB error name.
var kindStatus = map[fault.Kind]struct {
	status int
	name   string
}{
	fault.Internal:         {http.StatusInternalServerError, "unknown_error"},
	fault.BadRequest:       {http.StatusBadRequest, "bad_request"},
	fault.Unauthorized:     {http.StatusUnauthorized, "unauthorized"},
	fault.Forbidden:        {http.StatusForbidden, "forbidden"},
	fault.NotFound:         {http.StatusNotFound, "not_found"},
	fault.Conflict:         {http.StatusConflict, "conflict"},
	fault.Precondition:     {http.StatusPreconditionFailed, "precondition_failed"},
	fault.TooLarge:         {http.StatusRequestEntityTooLarge, "too_large"},
	fault.UnsupportedMedia: {http.StatusUnsupportedMediaType, "bad_content_type"},
	fault.Unprocessable:    {http.StatusUnprocessableEntity, "unprocessable_entity"},
	fault.TooManyRequests:  {http.StatusTooManyRequests, "too_many_requests"},
}

// classify turns any error into a public fault: store sentinels get their
// CouchDB reasons; anything unknown becomes an internal error whose text is
// never sent.
func classify(err error) *fault.Error {
	if fe, ok := fault.As(err); ok {
		return fe
	}
	var maxErr *http.MaxBytesError
	switch {
	case errors.Is(err, store.ErrNotFound):
		return fault.New(fault.NotFound, "missing")
	case errors.Is(err, store.ErrDeleted):
		return fault.New(fault.NotFound, "deleted")
	case errors.Is(err, store.ErrDBNotFound):
		return fault.New(fault.NotFound, "Database does not exist.")
	case errors.Is(err, store.ErrConflict):
		return fault.New(fault.Conflict, fault.MsgConflict)
	case errors.Is(err, store.ErrDBExists):
		return fault.New(fault.Precondition, "The database could not be created, the file already exists.")
	case errors.Is(err, store.ErrTooLarge):
		return fault.New(fault.TooLarge, "Document too large")
	case errors.As(err, &maxErr):
		return fault.New(fault.TooLarge, "Request body is too large")
	}
	return fault.Wrap(fault.Internal, "Undefined error", err)
}

// writeError sends err as the error envelope. Internal causes are logged with
// the request, never sent.
func writeError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	fe := classify(err)
	st := kindStatus[fe.Kind]
	if fe.Kind == fault.Internal {
		log.ErrorContext(r.Context(), "request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	if fe.Kind == fault.TooManyRequests && fe.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(fe.RetryAfter))
	}
	if fe.Kind == fault.Unauthorized && r.Header.Get("Authorization") != "" {
		w.Header().Set("WWW-Authenticate", `Bearer realm="oficina"`)
	}
	writeJSON(w, st.status, errorBody{Error: st.name, Reason: fe.Reason, Fields: fe.Fields})
}

// writeJSON encodes v with status.
func writeJSON(w http.ResponseWriter, status int, v any) { httpjson.Write(w, status, v) }
