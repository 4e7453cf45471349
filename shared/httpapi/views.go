package httpapi

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/stream"
)

// view answers GET /api/{db}/_design/{ddoc}/_view/{view} with the view the
// modules registered for (ddoc, view) on the module seam (the count-by-*
// views are counters kept by the change stream; see module.CounterView).
func (s *Server) view(w http.ResponseWriter, r *http.Request) error {
	db, p, err := s.dbAccess(r, access.Read)
	if err != nil {
		return err
	}
	v, ok := s.modules.ViewOf(r.PathValue("ddoc"), r.PathValue("view"))
	if !ok {
		return fault.New(fault.NotFound, "missing_named_view")
	}
	if _, err := s.store.DBInfo(r.Context(), db); err != nil {
		return err
	}
	answer, err := v.Serve(r.Context(), module.ViewCall{DB: db, Principal: p, Query: r.URL.Query(), Store: s.store})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, answer)
	return nil
}

// counterDocs renders a database's counts as the virtual Counter documents
// a _find on klass "Counter" answers with (one per counted klass: kind,
// amount = records, size = bytes). They are never stored, so counting
// writes nothing into the database's changes feed; ids are stable per
// klass and the rev changes exactly when the values do.
func (s *Server) counterDocs(ctx context.Context, db string) ([]store.Doc, error) {
	counts, err := stream.Read(ctx, s.store, db)
	if err != nil {
		return nil, err
	}
	docs := make([]store.Doc, 0, len(counts.Klass))
	for klass, kc := range counts.Klass {
		body, err := json.Marshal(map[string]any{"klass": stream.KlassCounter, "kind": klass, "amount": kc.Records, "size": kc.Bytes})
		if err != nil {
			return nil, err
		}
		h := sha256.Sum256([]byte(db + "\x00" + klass))
		docs = append(docs, store.Doc{
			ID:    "cnr-" + hex.EncodeToString(h[:16]),
			Rev:   store.NextRev("", false, body),
			Klass: stream.KlassCounter,
			Body:  body,
		})
	}
	slices.SortFunc(docs, func(a, b store.Doc) int { return strings.Compare(a.ID, b.ID) })
	return docs, nil
}
