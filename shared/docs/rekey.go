package docs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/oficina/oficina/shared/mango"
	"github.com/oficina/oficina/shared/store"
)

// OrderKeysOnly tells whether the index of klass, keyed by a field
// (IndexBy), holds order keys only. A key of another shape (a document
// written before the klass was keyed so, or a value no key orders) sorts
// after every order key (mango.OrderKey), so the index's last key tells:
// one small read.
func (s *Service) OrderKeysOnly(ctx context.Context, db, klass string) (bool, error) {
	last, err := s.st.List(ctx, db, store.ListQuery{Klass: klass, Descending: true, Limit: 1})
	if err != nil {
		return false, err
	}
	return len(last.Docs) == 0 || mango.IsOrderKey(last.Docs[0].SortKey), nil
}

// rekeyPage is how many documents Rekey reads a call.
const rekeyPage = 500

// Rekey gives the documents of db's klasses keyed by a field (IndexBy)
// the key they would be written with now, where the klass's index still
// holds keys of another shape: documents written before the klass was
// keyed so. Until then a _find sorted by the field reads the whole klass
// (it checks the index's last key first). The documents keep their
// revision and make no change. It returns how many it moved.
func (s *Service) Rekey(ctx context.Context, db string) (int, error) {
	rs, ok := s.st.(store.Resorter)
	if !ok {
		return 0, nil
	}
	moved := 0
	for _, klass := range slices.Sorted(maps.Keys(s.indexBy)) {
		inOrder, err := s.OrderKeysOnly(ctx, db, klass)
		if err != nil {
			return moved, fmt.Errorf("docs: rekey %s of %s: %w", klass, db, err)
		}
		if inOrder {
			continue
		}
		// Read first, then move: moving keys under a paging cursor would
		// skip or repeat documents.
		type move struct{ id, rev, key string }
		var moves []move
		q := store.ListQuery{Klass: klass, Limit: rekeyPage}
		for {
			page, err := s.st.List(ctx, db, q)
			if err != nil {
				return moved, fmt.Errorf("docs: rekey %s of %s: %w", klass, db, err)
			}
			for _, d := range page.Docs {
				var body map[string]any
				if err := json.Unmarshal(d.Body, &body); err != nil {
					continue // not an object: no field to key by
				}
				if key := s.sortKey(klass, body); key != d.SortKey {
					moves = append(moves, move{d.ID, d.Rev, key})
				}
			}
			if page.Next == "" {
				break
			}
			q.After = page.Next
		}
		for _, m := range moves {
			err := rs.Resort(ctx, db, m.id, m.rev, m.key)
			switch {
			case err == nil:
				moved++
			case errors.Is(err, store.ErrConflict), errors.Is(err, store.ErrNotFound):
				// Written or deleted since: the write gave it its key.
			default:
				return moved, fmt.Errorf("docs: rekey %s/%s: %w", db, m.id, err)
			}
		}
	}
	return moved, nil
}
