package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/mango"
	"github.com/oficina/oficina/shared/store"
)

// maxBulkDocs bounds one _bulk_docs request; bulkWorkers is how many of
// its documents are written at once.
const (
	maxBulkDocs = 1000
	bulkWorkers = 16
)

// getDoc answers GET /api/{db}/{docid} with ETag and If-None-Match support.
// ?fields=a,b projects the document (the SPA loads reader item content so).
func (s *Server) getDoc(w http.ResponseWriter, r *http.Request) error {
	// /api/_users/{id} cannot be its own mux pattern (it would clash with
	// /api/{db}/_changes and friends), so user documents branch off here.
	if ok, err := s.userDoc(w, r); ok {
		return err
	}
	if ok, err := s.accountDoc(w, r); ok { // accounts.go
		return err
	}
	db, _, err := s.dbAccess(r, access.Read)
	if err != nil {
		return err
	}
	id := r.PathValue("docid")
	d, err := s.store.Get(r.Context(), db, id)
	if err != nil {
		return err
	}
	if rev := r.URL.Query().Get("rev"); rev != "" && rev != d.Rev {
		return fault.New(fault.NotFound, "missing")
	}
	etag := `"` + d.Rev + `"`
	w.Header().Set("ETag", etag)
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	body := docs.WithMeta(d)
	fields, err := fieldsParam(r)
	if err != nil {
		return err
	}
	if fields != nil {
		full, err := docs.Decode(body)
		if err != nil {
			return err
		}
		projected := mango.Project(full, fields)
		if body, err = json.Marshal(projected); err != nil {
			return err
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "must-revalidate")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)+1))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(append(body, '\n'))
	}
	return nil
}

// putDoc answers PUT /api/{db}/{docid}: create or update.
func (s *Server) putDoc(w http.ResponseWriter, r *http.Request) error {
	if ok, err := s.userDoc(w, r); ok {
		return err
	}
	if ok, err := s.accountDoc(w, r); ok {
		return err
	}
	db, p, err := s.dbAccess(r, access.Write)
	if err != nil {
		return err
	}
	body, err := s.readDocBody(w, r)
	if err != nil {
		return err
	}
	id := r.PathValue("docid")
	if bid, ok := body["_id"]; ok && bid != id {
		return fault.New(fault.BadRequest, "Document id must match the id in the URL")
	}
	rev, err := requestRev(r, body)
	if err != nil {
		return err
	}
	if del, _ := body["_deleted"].(bool); del {
		d, err := s.docs.Delete(r.Context(), p, db, id, rev)
		if err != nil {
			return err
		}
		return writeDocResult(w, http.StatusOK, d)
	}
	d, err := s.docs.Save(r.Context(), p, db, id, rev, stripMeta(body))
	if err != nil {
		return err
	}
	return writeSaved(w, r, d)
}

// postDoc answers POST /api/{db}: create with the body's _id or a new id
// for its klass.
func (s *Server) postDoc(w http.ResponseWriter, r *http.Request) error {
	db, p, err := s.dbAccess(r, access.Write)
	if err != nil {
		return err
	}
	body, err := s.readDocBody(w, r)
	if err != nil {
		return err
	}
	id, err := docID(body)
	if err != nil {
		return err
	}
	rev, _ := body["_rev"].(string)
	d, err := s.docs.Save(r.Context(), p, db, id, rev, stripMeta(body))
	if err != nil {
		return err
	}
	return writeSaved(w, r, d)
}

// deleteDoc answers DELETE /api/{db}/{docid}?rev=.
func (s *Server) deleteDoc(w http.ResponseWriter, r *http.Request) error {
	db, p, err := s.dbAccess(r, access.Write)
	if err != nil {
		return err
	}
	rev, err := requestRev(r, nil)
	if err != nil {
		return err
	}
	d, err := s.docs.Delete(r.Context(), p, db, r.PathValue("docid"), rev)
	if err != nil {
		return err
	}
	return writeDocResult(w, http.StatusOK, d)
}

func writeDocResult(w http.ResponseWriter, status int, d store.Doc) error {
	w.Header().Set("ETag", `"`+d.Rev+`"`)
	writeJSON(w, status, docResult{ID: d.ID, OK: true, Rev: d.Rev})
	return nil
}

// writeSaved answers a document's save: {"id","ok","rev"}, and with
// "Prefer: return=representation" (RFC 7240) the document as stored too,
// in "doc" (what a GET would answer: the server's stamps and number
// included), so a client that shows what it saved need not read it back.
func writeSaved(w http.ResponseWriter, r *http.Request, d store.Doc) error {
	if !prefersRepresentation(r.Header.Values("Prefer")) {
		return writeDocResult(w, http.StatusCreated, d)
	}
	w.Header().Set("ETag", `"`+d.Rev+`"`)
	w.Header().Set("Preference-Applied", "return=representation")
	writeJSON(w, http.StatusCreated, savedResult{docResult{ID: d.ID, OK: true, Rev: d.Rev}, json.RawMessage(docs.WithMeta(d))})
	return nil
}

// prefersRepresentation reports whether Prefer headers ask for
// return=representation (preferences are comma-separated, parameters
// after ';', names and the token case-insensitive).
func prefersRepresentation(prefer []string) bool {
	for _, h := range prefer {
		for _, pref := range strings.Split(h, ",") {
			name, _, _ := strings.Cut(pref, ";")
			if strings.EqualFold(strings.Join(strings.Fields(name), ""), "return=representation") {
				return true
			}
		}
	}
	return false
}

// savedResult is writeSaved's answer with the document.
type savedResult struct {
	docResult
	Doc json.RawMessage `json:"doc"`
}

// docResult is a write's answer, {"id","ok","rev"}: the members in the
// order a map would have them sorted, without a map to build and sort.
type docResult struct {
	ID  string `json:"id"`
	OK  bool   `json:"ok"`
	Rev string `json:"rev"`
}

// readDocBody decodes a document body and checks its reserved members.
func (s *Server) readDocBody(w http.ResponseWriter, r *http.Request) (map[string]any, error) {
	var body map[string]any
	if err := s.decodeJSON(w, r, &body); err != nil {
		return nil, err
	}
	if body == nil {
		return nil, fault.New(fault.BadRequest, "Document must be a JSON object")
	}
	if err := checkReserved(body); err != nil {
		return nil, err
	}
	return body, nil
}

// checkReserved refuses underscore members CouchDB would refuse and checks
// the types of the ones we accept.
func checkReserved(body map[string]any) error {
	for k, v := range body {
		if !strings.HasPrefix(k, "_") {
			continue
		}
		switch k {
		case "_id", "_rev":
			if _, ok := v.(string); !ok {
				return fault.Newf(fault.BadRequest, "%s must be a string", k)
			}
		case "_deleted":
			if _, ok := v.(bool); !ok {
				return fault.New(fault.BadRequest, "_deleted must be a boolean")
			}
		case "_revisions", "_attachments", "_conflicts", "_deleted_conflicts", "_local_seq", "_revs_info":
			// Metadata some clients echo back; ignored like CouchDB ignores unknown revision info.
		default:
			return fault.Newf(fault.BadRequest, "Bad special document member: %s", truncate(k, 40))
		}
	}
	return nil
}

// stripMeta returns the body without underscore members.
func stripMeta(body map[string]any) map[string]any {
	for k := range body {
		if strings.HasPrefix(k, "_") {
			delete(body, k)
		}
	}
	return body
}

// docID returns the body's _id or a fresh id for its klass.
func docID(body map[string]any) (string, error) {
	if id, ok := body["_id"].(string); ok && id != "" {
		return id, nil
	}
	return docs.NewID(body)
}

// requestRev reads the revision from the body, ?rev= or If-Match; when
// several are given they must agree, like CouchDB.
func requestRev(r *http.Request, body map[string]any) (string, error) {
	var revs []string
	if v, ok := body["_rev"].(string); ok && v != "" {
		revs = append(revs, v)
	}
	if v := r.URL.Query().Get("rev"); v != "" {
		revs = append(revs, v)
	}
	if v := strings.Trim(r.Header.Get("If-Match"), `"`); v != "" {
		revs = append(revs, v)
	}
	for _, v := range revs[min(1, len(revs)):] {
		if v != revs[0] {
			return "", fault.New(fault.BadRequest, "Document rev from request body and query string have different values")
		}
	}
	if len(revs) == 0 {
		return "", nil
	}
	if !store.ValidRev(revs[0]) {
		return "", fault.New(fault.BadRequest, "Invalid rev format")
	}
	return revs[0], nil
}

// bulkDocs answers POST /api/{db}/_bulk_docs: each document is written on
// its own and gets its own result, like CouchDB.
func (s *Server) bulkDocs(w http.ResponseWriter, r *http.Request) error {
	db, p, err := s.dbAccess(r, access.Write)
	if err != nil {
		return err
	}
	var req struct {
		Docs     []json.RawMessage `json:"docs"`
		NewEdits *bool             `json:"new_edits"`
	}
	if err := s.decodeJSON(w, r, &req); err != nil {
		return err
	}
	if req.Docs == nil {
		return fault.New(fault.BadRequest, "POST body must include `docs` parameter.")
	}
	if req.NewEdits != nil && !*req.NewEdits {
		return fault.New(fault.BadRequest, "new_edits=false (replication) is not supported")
	}
	if len(req.Docs) > maxBulkDocs {
		return fault.Newf(fault.TooLarge, "at most %d documents per _bulk_docs request", maxBulkDocs)
	}
	// Validate every member's shape before writing any, so a malformed
	// request changes nothing.
	bodies := make([]map[string]any, len(req.Docs))
	for i, raw := range req.Docs {
		var body map[string]any
		if err := unmarshalStrict(raw, &body); err != nil || body == nil {
			return fault.Newf(fault.BadRequest, "docs[%d] must be a JSON object", i)
		}
		if err := checkReserved(body); err != nil {
			return err
		}
		bodies[i] = body
	}
	// Documents are written concurrently so the store can coalesce their
	// commits (one fsync for many); each still gets its own result, in order.
	results := make([]map[string]any, len(bodies))
	errs := make([]error, len(bodies))
	sem := make(chan struct{}, bulkWorkers)
	var wg sync.WaitGroup
	for i, body := range bodies {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			results[i], errs[i] = s.bulkOne(r.Context(), p, db, body)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	writeJSON(w, http.StatusCreated, results)
	return nil
}

// bulkOne writes one _bulk_docs member and returns its result row; only
// internal failures are returned as errors.
func (s *Server) bulkOne(ctx context.Context, p *access.Principal, db string, body map[string]any) (map[string]any, error) {
	id, err := docID(body)
	if err == nil {
		rev, _ := body["_rev"].(string)
		var d store.Doc
		if del, _ := body["_deleted"].(bool); del {
			d, err = s.docs.Delete(ctx, p, db, id, rev)
		} else {
			d, err = s.docs.Save(ctx, p, db, id, rev, stripMeta(body))
		}
		if err == nil {
			return map[string]any{"ok": true, "id": d.ID, "rev": d.Rev}, nil
		}
	}
	fe := classify(err)
	if fe.Kind == fault.Internal {
		return nil, err
	}
	row := map[string]any{"id": id, "error": kindStatus[fe.Kind].name, "reason": fe.Reason}
	if len(fe.Fields) > 0 {
		row["fields"] = fe.Fields // as a 422 would carry them, so clients can show them under the fields
	}
	return row, nil
}

// allDocs answers GET|POST /api/{db}/_all_docs.
func (s *Server) allDocs(w http.ResponseWriter, r *http.Request) error {
	db, _, err := s.dbAccess(r, access.Read)
	if err != nil {
		return err
	}
	q, err := parseViewQuery(r)
	if err != nil {
		return err
	}
	if r.Method == http.MethodPost {
		var body struct {
			Keys []string `json:"keys"`
		}
		if err := s.decodeJSON(w, r, &body); err != nil {
			return err
		}
		if body.Keys == nil {
			return fault.New(fault.BadRequest, "POST body must include `keys` parameter.")
		}
		q.keys = body.Keys
	}
	if len(q.keys) > s.cfg.PageMaxRows {
		return fault.Newf(fault.BadRequest, "at most %d keys per request", s.cfg.PageMaxRows)
	}
	info, err := s.store.DBInfo(r.Context(), db)
	if err != nil {
		return err
	}
	pg := s.newPage()
	add := func(row any) (bool, error) { return pg.add(row) }
	truncated := false
	if q.keys != nil {
		for _, k := range q.keys {
			d, err := s.store.Get(r.Context(), db, k)
			var row any
			switch {
			case errors.Is(err, store.ErrNotFound):
				row = map[string]any{"key": k, "error": "not_found"}
			case errors.Is(err, store.ErrDeleted):
				row = map[string]any{"id": k, "key": k, "value": map[string]any{"rev": d.Rev, "deleted": true}, "doc": nil}
			case err != nil:
				return err
			default:
				row = allDocsRow(d, q.includeDocs)
			}
			ok, err := add(row)
			if err != nil {
				return err
			}
			if !ok {
				truncated = true
				break
			}
		}
	} else {
		rowCap := s.pageRows(q.limit)
		list, err := s.store.AllDocs(r.Context(), db, store.AllDocsQuery{
			// One row past the cap tells a cut page from the last one.
			StartKey: q.startKey, EndKey: q.endKey, Descending: q.descending, Limit: rowCap + 1, Skip: q.skip,
		})
		if err != nil {
			return err
		}
		if len(list) > rowCap {
			list = list[:rowCap]
			// A limit the client set itself is honoured, not a cut.
			truncated = q.limit <= 0 || q.limit > rowCap
		}
		for _, d := range list {
			ok, err := add(allDocsRow(d, q.includeDocs))
			if err != nil {
				return err
			}
			if !ok {
				truncated = true
				break
			}
		}
	}
	res := map[string]any{"total_rows": info.DocCount, "offset": q.skip, "rows": pg.rows}
	if truncated {
		res["truncated"] = true
	}
	writeJSON(w, http.StatusOK, res)
	return nil
}

func allDocsRow(d store.Doc, includeDoc bool) map[string]any {
	row := map[string]any{"id": d.ID, "key": d.ID, "value": map[string]any{"rev": d.Rev}}
	if includeDoc {
		row["doc"] = json.RawMessage(docs.WithMeta(d))
	}
	return row
}

// designDocWrite refuses to store design documents: views and update
// handlers are built into the server, never user JavaScript.
func (s *Server) designDocWrite(w http.ResponseWriter, r *http.Request) error {
	if _, _, err := s.dbAccess(r, access.Write); err != nil {
		return err
	}
	return fault.New(fault.Forbidden, "design documents are built in and cannot be changed")
}
