package httpapi

import (
	"context"
	"errors"
	"net/http"
	"runtime"

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
// decoding only the fields it needs. On a store read page by page
// (DynamoDB), a query sorted by the klass index's own field (an index
// page's newest or oldest first) reads the index in that order and stops
// at the page's end instead of reading the whole klass; one of a whole
// klass sorted by a field its module serves (docs.Service.TopBy: the
// ticket list by number) reads what the module says the page's rows come
// from.
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
	_, logged := s.store.(store.ChangeLog)
	history := byKlass && klass == stream.KlassDocumentChange && logged
	var res mango.Result
	scanner, scans := s.store.(klassScanner)
	oneKlass := byKlass && klass != stream.KlassCounter && !history
	inOrder := false
	var top []store.Doc
	topped := false
	if oneKlass && !scans {
		if inOrder, err = s.indexOrdered(r, db, klass, q); err != nil {
			return err
		}
		if !inOrder {
			if top, topped, err = s.topDocs(r, db, klass, q); err != nil {
				return err
			}
		}
	}
	switch {
	case scans && oneKlass:
		res, err = runScan(r, scanner, db, klass, q)
	case inOrder:
		res, err = s.findInIndexOrder(r, db, klass, q)
	default:
		var docs []store.Doc
		switch {
		case byKlass && klass == stream.KlassCounter:
			docs, err = s.counterDocs(r.Context(), db) // virtual documents, views.go
		case topped:
			docs = top
		case history:
			// Kept in the store's log rows, found by the item they are about.
			item, _ := q.Equality("item_id")
			docs, err = stream.HistoryOf(r.Context(), s.store, db, item)
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
	ViewKlass(ctx context.Context, db, klass string, fn func(next func() (store.Doc, bool, error)) error) error
}

// scanBatch is how many documents the scan hands to the matchers at a time.
const scanBatch = 256

// runScan matches a klass on every core inside one read transaction of the
// store: a goroutine walks the klass and hands batches of documents, their
// bodies still in the store's memory (no copies), to mango's workers, and
// the transaction stays open until they are done.
func runScan(r *http.Request, sc klassScanner, db, klass string, q *mango.Find) (mango.Result, error) {
	var res mango.Result
	err := sc.ViewKlass(r.Context(), db, klass, func(next func() (store.Doc, bool, error)) error {
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		batches := make(chan []mango.Candidate, 4)
		scanned := make(chan error, 1)
		go func() {
			defer close(batches)
			scanned <- func() error {
				batch := make([]mango.Candidate, 0, scanBatch)
				for {
					d, ok, err := next()
					if err != nil {
						return err
					}
					if ok {
						batch = append(batch, mango.Candidate{ID: d.ID, Rev: d.Rev, Body: d.Body})
					}
					if len(batch) == scanBatch || (!ok && len(batch) > 0) {
						select {
						case batches <- batch:
							batch = make([]mango.Candidate, 0, scanBatch)
						case <-ctx.Done():
							return ctx.Err()
						}
					}
					if !ok {
						return nil
					}
				}
			}()
		}()
		var err error
		res, err = q.RunParallel(runtime.GOMAXPROCS(0), batches)
		cancel()
		for range batches { // unblock the scan if matching stopped early
		}
		if scanErr := <-scanned; err == nil && scanErr != nil && !errors.Is(scanErr, context.Canceled) {
			err = scanErr
		}
		return err
	})
	return res, err
}

// indexOrdered reports whether klass's index yields q's order: one sort
// field, the one the index is keyed by. Both orders are then byte order
// of the same string, ties broken by _id in the sort's direction. An
// index keyed by a field (docs.Service.IndexBy) must hold order keys only
// (docs.Service.OrderKeysOnly): documents written before the klass was
// keyed so keep keys of another shape until they are re-keyed.
func (s *Server) indexOrdered(r *http.Request, db, klass string, q *mango.Find) (bool, error) {
	field, byField, ok := s.docs.IndexOrder(klass)
	if !ok || len(q.Sort) != 1 || q.Sort[0].Field != field {
		return false, nil
	}
	if !byField {
		return true, nil
	}
	return s.docs.OrderKeysOnly(r.Context(), db, klass)
}

// maxTop is the deepest page a module's Top serves (skip + limit): past
// it, a page reads the whole klass as any other.
const maxTop = 1000

// topDocs reads, for a _find of every document of klass sorted by one
// field descending that a module serves (docs.Service.TopBy), the
// documents its first skip+limit rows come from; mango sorts and pages
// them as it would the whole klass. topped false: read the whole klass.
func (s *Server) topDocs(r *http.Request, db, klass string, q *mango.Find) ([]store.Doc, bool, error) {
	field, read, ok := s.docs.TopOf(klass)
	n := q.Skip + q.Limit
	if !ok || len(q.Sort) != 1 || q.Sort[0].Field != field || !q.Sort[0].Desc || q.Bookmark != "" ||
		!q.Selector.Sole("klass") || q.Limit <= 0 || n > maxTop {
		return nil, false, nil
	}
	return read(r.Context(), db, n)
}

// findInIndexOrder reads klass in q's order, a page of the index at a
// time, and stops once mango has the page (skip+limit matching rows).
func (s *Server) findInIndexOrder(r *http.Request, db, klass string, q *mango.Find) (mango.Result, error) {
	// The first read fits a page that matches at once; the next ones are full.
	lq := store.ListQuery{Klass: klass, Descending: q.Sort[0].Desc, Limit: min(q.Skip+q.Limit+1, findPageSize)}
	var (
		page    store.Page
		i       int
		read    bool
		readErr error
	)
	res, err := q.RunInOrder(func() (mango.Candidate, bool) {
		for i >= len(page.Docs) {
			if read && page.Next == "" {
				return mango.Candidate{}, false
			}
			lq.After = page.Next
			page, readErr = s.store.List(r.Context(), db, lq)
			if readErr != nil {
				return mango.Candidate{}, false
			}
			read, i, lq.Limit = true, 0, findPageSize
		}
		d := page.Docs[i]
		i++
		return mango.Candidate{ID: d.ID, Rev: d.Rev, Body: d.Body}, true
	})
	if readErr != nil {
		return mango.Result{}, readErr
	}
	return res, err
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
