package httpapi

import (
	"context"
	"errors"
	"iter"
	"net/http"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/mango"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/stream"
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
	klass, byKlass := q.Equality("klass")
	var res mango.Result
	if scanner, ok := s.store.(klassScanner); ok && byKlass && klass != stream.KlassCounter {
		res, err = runScan(r, scanner, db, klass, q)
	} else {
		var docs []store.Doc
		switch {
		case byKlass && klass == stream.KlassCounter:
			docs, err = s.counterDocs(r.Context(), db) // virtual documents, views.go
		case byKlass:
			docs, err = s.listKlass(r, db, klass)
		default:
			docs, err = s.store.AllDocs(r.Context(), db, store.AllDocsQuery{})
		}
		if err != nil {
			return err
		}
		i := 0
		res, err = q.Run(func() (mango.Candidate, bool) {
			if i >= len(docs) {
				return mango.Candidate{}, false
			}
			d := docs[i]
			i++
			return mango.Candidate{ID: d.ID, Rev: d.Rev, Body: d.Body}, true
		})
	}
	if err != nil {
		return err
	}
	if res.Docs == nil {
		res.Docs = []map[string]any{} // CouchDB answers "docs": [], never null
	}
	writeJSON(w, http.StatusOK, map[string]any{"docs": res.Docs, "bookmark": res.Bookmark})
	return nil
}

// klassScanner is implemented by stores that can stream a klass without
// copying it (the embedded store); the others are read page by page.
type klassScanner interface {
	ScanKlass(ctx context.Context, db, klass string, fn func(store.Doc) error) error
}

// runScan feeds a store scan into mango's pull-style Run through iter.Pull
// (a coroutine switch per document, no goroutine hand-off), so bodies are
// read while the store's read transaction is open and never copied unless
// mango keeps them.
func runScan(r *http.Request, sc klassScanner, db, klass string, q *mango.Find) (mango.Result, error) {
	var scanErr error
	next, stop := iter.Pull(func(yield func(store.Doc) bool) {
		scanErr = sc.ScanKlass(r.Context(), db, klass, func(d store.Doc) error {
			if !yield(d) {
				return errScanStopped
			}
			return nil
		})
	})
	res, err := q.Run(func() (mango.Candidate, bool) {
		d, ok := next()
		if !ok {
			return mango.Candidate{}, false
		}
		return mango.Candidate{ID: d.ID, Rev: d.Rev, Body: d.Body}, true
	})
	stop()
	if err == nil && scanErr != nil && !errors.Is(scanErr, errScanStopped) {
		err = scanErr
	}
	return res, err
}

// errScanStopped ends a scan whose reader stopped pulling.
var errScanStopped = errors.New("scan stopped")

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
