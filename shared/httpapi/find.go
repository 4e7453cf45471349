package httpapi

import (
	"context"
	"errors"
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
	_, logged := s.store.(store.ChangeLog)
	history := byKlass && klass == stream.KlassDocumentChange && logged
	var res mango.Result
	if scanner, ok := s.store.(klassScanner); ok && byKlass && klass != stream.KlassCounter && !history {
		res, err = runScan(r, scanner, db, klass, q)
	} else {
		var docs []store.Doc
		switch {
		case byKlass && klass == stream.KlassCounter:
			docs, err = s.counterDocs(r.Context(), db) // virtual documents, views.go
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
	ScanKlass(ctx context.Context, db, klass string, fn func(store.Doc) error) error
}

// scanBatch is how many documents the scan hands to the matcher at a time.
const scanBatch = 256

// runScan overlaps the store scan with mango's matching, one on each core:
// a goroutine reads the klass inside the store's read transaction and
// copies the bodies into one buffer per batch of documents (so nothing
// points into the store's memory once its transaction ends), while Run
// matches the previous batch.
func runScan(r *http.Request, sc klassScanner, db, klass string, q *mango.Find) (mango.Result, error) {
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	batches := make(chan []mango.Candidate, 4)
	scanDone := make(chan error, 1)
	go func() {
		defer close(batches)
		var (
			batch []mango.Candidate
			arena []byte
		)
		send := func() error {
			select {
			case batches <- batch:
				batch, arena = nil, nil
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		err := sc.ScanKlass(ctx, db, klass, func(d store.Doc) error {
			if batch == nil {
				batch = make([]mango.Candidate, 0, scanBatch)
				arena = make([]byte, 0, scanBatch*(len(d.Body)+64))
			}
			start := len(arena)
			arena = append(arena, d.Body...)
			batch = append(batch, mango.Candidate{ID: d.ID, Rev: d.Rev, Body: arena[start:len(arena):len(arena)]})
			if len(batch) == scanBatch {
				return send()
			}
			return nil
		})
		if err == nil && len(batch) > 0 {
			err = send()
		}
		scanDone <- err
	}()
	var (
		cur []mango.Candidate
		pos int
	)
	res, err := q.Run(func() (mango.Candidate, bool) {
		for pos >= len(cur) {
			b, ok := <-batches
			if !ok {
				return mango.Candidate{}, false
			}
			cur, pos = b, 0
		}
		pos++
		return cur[pos-1], true
	})
	cancel()
	for range batches { // unblock the scan if Run stopped early
	}
	if scanErr := <-scanDone; err == nil && scanErr != nil && !errors.Is(scanErr, context.Canceled) {
		err = scanErr
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
