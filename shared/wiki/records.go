package wiki

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/oficina/oficina/shared/store"
)

// The wiki's indexes (links, versions, titles, recents) are JSON records
// updated by compare-and-swap: read the stored bytes, change the value,
// write it back expecting the same bytes, retry on conflict.

// readRecord reads record kind/key for a compare-and-swap: prev is the stored
// bytes to expect (nil when absent); a value that does not decode reads as
// empty, so the next write repairs it.
func readRecord[T any](ctx context.Context, st store.Store, kind, key string) (prev []byte, v T, err error) {
	r, err := st.GetRecord(ctx, kind, key)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil, v, nil
	case err != nil:
		return nil, v, err
	}
	if json.Unmarshal(r.Value, &v) != nil {
		var zero T
		v = zero
	}
	return r.Value, v, nil
}
