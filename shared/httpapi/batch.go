package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/httpjson"
)

// BatchPath takes several reads in one request (issue 21, requests per user
// action): a screen's reads go out together, so opening a record costs one
// request through API Gateway, CloudFront and Lambda instead of seven.
//
//	POST /api/_batch {"requests": [{"method": "GET", "path": "/api/acc-…/tik-…"},
//	                               {"method": "POST", "path": "/api/acc-…/_find", "body": {…}}]}
//	200 {"responses": [{"status": 200, "body": {…}}, {"status": 404, "body": {"error": …}}]}
//
// Each read is served by the route it names, with the batch's sign-in: its
// access rules, limits and Group budget are the same as when asked alone,
// and it fails alone. Only reads: GET (not a long poll, not the live
// channel, not a batch) and POST to _find or _all_docs. A read whose answer
// is not JSON comes back 406, and the reads past maxBatchBytes of answers
// 413: the client asks those alone.
const BatchPath = "/api/_batch"

// maxBatch bounds the reads of one batch (a record screen makes ten).
const maxBatch = 20

// maxBatchBytes bounds a batch's answers: Lambda answers at most 6 MB.
const maxBatchBytes = 4 << 20

type batchRead struct {
	Method string          `json:"method"`
	Path   string          `json:"path"`
	Body   json.RawMessage `json:"body,omitempty"`
}

type batchAnswer struct {
	Status int             `json:"status"`
	Body   json.RawMessage `json:"body"`
}

func (s *Server) batch(w http.ResponseWriter, r *http.Request) error {
	if err := requireJSON(r); err != nil {
		return err
	}
	var in struct {
		Requests []batchRead `json:"requests"`
	}
	if err := s.decodeJSON(w, r, &in); err != nil {
		return err
	}
	if len(in.Requests) == 0 || len(in.Requests) > maxBatch {
		return fault.Newf(fault.BadRequest, "requests: from 1 to %d reads", maxBatch)
	}
	for i, q := range in.Requests {
		if err := batchable(q); err != nil {
			return fault.Newf(fault.BadRequest, "requests[%d]: %s", i, err)
		}
	}
	out := make([]batchAnswer, len(in.Requests))
	var wg sync.WaitGroup
	for i, q := range in.Requests {
		wg.Go(func() { out[i] = s.serveRead(r, q) })
	}
	wg.Wait()
	total := 0
	for i := range out {
		total += len(out[i].Body)
		if total > maxBatchBytes {
			out[i] = notCarried(http.StatusRequestEntityTooLarge, "request_entity_too_large", "The batch's answers are too large: request it alone.")
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"responses": out})
	return nil
}

// batchable says why q is not a read a batch carries.
func batchable(q batchRead) error {
	u, err := url.Parse(q.Path)
	if err != nil || u.Scheme != "" || u.Host != "" || !strings.HasPrefix(u.Path, "/api/") || strings.Contains(u.Path, "/../") {
		return fmt.Errorf("path must be an /api/ path")
	}
	switch {
	case u.Path == BatchPath || u.Path == LivePath:
		return fmt.Errorf("%s cannot be batched", u.Path)
	case q.Method == http.MethodGet:
		if len(q.Body) > 0 {
			return fmt.Errorf("a GET has no body")
		}
		if feed := u.Query().Get("feed"); feed != "" && feed != "normal" {
			return fmt.Errorf("only a normal _changes feed can be batched")
		}
	case q.Method == http.MethodPost:
		if !strings.HasSuffix(u.Path, "/_find") && !strings.HasSuffix(u.Path, "/_all_docs") {
			return fmt.Errorf("only _find and _all_docs are reads among POSTs")
		}
		if !json.Valid(q.Body) {
			return fmt.Errorf("body must be JSON")
		}
	default:
		return fmt.Errorf("method must be GET or POST")
	}
	return nil
}

// serveRead answers q as its route would, alone, with r's sign-in (its
// context carries the principal) and r's headers but the encoding's:
// answers go back raw, and the batch's answer as a whole is compressed.
func (s *Server) serveRead(r *http.Request, q batchRead) batchAnswer {
	sub, err := http.NewRequestWithContext(r.Context(), q.Method, q.Path, bytes.NewReader(q.Body))
	if err != nil {
		return notCarried(http.StatusBadRequest, "bad_request", "Invalid path.")
	}
	sub.Header = r.Header.Clone()
	for _, h := range []string{"Accept-Encoding", "Content-Length", "Content-Encoding", "If-None-Match", "If-Match", "If-Modified-Since", "Range"} {
		sub.Header.Del(h)
	}
	if q.Method == http.MethodPost {
		sub.Header.Set("Content-Type", "application/json")
	} else {
		sub.Header.Del("Content-Type")
	}
	sub.RemoteAddr, sub.Host, sub.TLS = r.RemoteAddr, r.Host, r.TLS
	rec := httpjson.NewRecorder()
	s.mux.ServeHTTP(rec, sub)
	body := bytes.TrimSpace(rec.Body.Bytes())
	if !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") || !json.Valid(body) {
		return notCarried(http.StatusNotAcceptable, "not_acceptable", "Not a JSON answer: request it alone.")
	}
	return batchAnswer{Status: rec.Status, Body: body}
}

func notCarried(status int, code, reason string) batchAnswer {
	b, _ := json.Marshal(errorBody{Error: code, Reason: reason}) // strings only: cannot fail
	return batchAnswer{Status: status, Body: b}
}
