package httpapi

import (
	"net/http"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/mango"
	"github.com/oficina/oficina/shared/store"
)

// findPageSize is how many documents the planner reads from the store at a time.
const findPageSize = 500

// find answers POST /api/{db}/_find. The planner reads one klass through the
// klass index when the selector pins "klass" (every query the SPA makes
// does), else the whole database; mango matches, sorts and pages in memory,
// decoding only the fields it needs.
func (s *Server) find(w http.ResponseWriter, r *http.Request) error {
	db, _, err := s.dbAccess(r, access.Read)
	if err != nil {
		return err
	}
	if err := requireJSON(r); err != nil {
		return err
	}
	body, err := s.readBody(w, r)
	if err != nil {
		return err
	}
	q, err := mango.ParseFind(body)
	if err != nil {
		return err
	}
	if _, err := s.store.DBInfo(r.Context(), db); err != nil {
		return err
	}
	var docs []store.Doc
	if klass, ok := q.Equality("klass"); ok {
		docs, err = s.listKlass(r, db, klass)
	} else {
		docs, err = s.store.AllDocs(r.Context(), db, store.AllDocsQuery{})
	}
	if err != nil {
		return err
	}
	i := 0
	res, err := q.Run(func() (mango.Candidate, bool) {
		if i >= len(docs) {
			return mango.Candidate{}, false
		}
		d := docs[i]
		i++
		return mango.Candidate{ID: d.ID, Rev: d.Rev, Body: d.Body}, true
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"docs": res.Docs, "bookmark": res.Bookmark})
	return nil
}

// listKlass reads every live document of klass.
func (s *Server) listKlass(r *http.Request, db, klass string) ([]store.Doc, error) {
	var all []store.Doc
	q := store.ListQuery{Klass: klass, Limit: findPageSize}
	for {
		page, err := s.store.List(r.Context(), db, q)
		if err != nil {
			return nil, err
		}
		all = append(all, page.Docs...)
		if page.Next == "" {
			return all, nil
		}
		q.After = page.Next
	}
}
