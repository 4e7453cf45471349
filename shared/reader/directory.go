package reader

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/store"
)

// DirectoryDB is the server's own database listing every subscription of
// every Group by URL. Its name starts with an underscore: no route serves
// it (ids.ValidDBName refuses it) and the change stream leaves it alone.
const DirectoryDB = "_reader"

// klassSubscriber is the directory's only klass; its sort key is the URL,
// so a listing comes grouped by feed.
const klassSubscriber = "Subscriber"

// subscriber is one directory entry: a subscription of one Group.
type subscriber struct {
	DB       string `json:"db"`
	Sub      string `json:"subscription"`
	URL      string `json:"url"`
	Interval int    `json:"interval"` // minutes
	Active   bool   `json:"active"`
	// Seeded is set once the subscription received the feed's items; until
	// then the feed is fetched without a conditional request, so a Group
	// subscribing to a URL others already follow gets the current items
	// rather than a 304.
	Seeded bool `json:"seeded,omitempty"`
}

// directory reads and writes the directory. Entries are written by the
// reader alone (the subscription reaction, the subscribe route, the
// fetcher marking them seeded), straight to the store: they are the
// server's bookkeeping, not a Group's records.
type directory struct {
	st    store.Store
	mu    sync.Mutex
	ready bool
}

func entryID(db, sub string) string { return db + "/" + sub }

// ensure creates the directory database once.
func (d *directory) ensure(ctx context.Context) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.ready {
		return nil
	}
	if err := d.st.CreateDB(ctx, DirectoryDB); err != nil && !errors.Is(err, store.ErrDBExists) {
		return fmt.Errorf("reader: create the directory: %w", err)
	}
	d.ready = true
	return nil
}

// get returns an entry and its revision ("" when absent).
func (d *directory) get(ctx context.Context, db, sub string) (subscriber, string, error) {
	if err := d.ensure(ctx); err != nil {
		return subscriber{}, "", err
	}
	doc, err := d.st.Get(ctx, DirectoryDB, entryID(db, sub))
	switch {
	case errors.Is(err, store.ErrNotFound), errors.Is(err, store.ErrDeleted):
		// A tombstone is rewritten with no revision, as the store wants.
		return subscriber{}, "", nil
	case err != nil:
		return subscriber{}, "", fmt.Errorf("reader: directory entry %s/%s: %w", db, sub, err)
	}
	var s subscriber
	if err := json.Unmarshal(doc.Body, &s); err != nil {
		return subscriber{}, "", fmt.Errorf("reader: directory entry %s/%s: %w", db, sub, err)
	}
	return s, doc.Rev, nil
}

// sync makes the entry of subscription sub of db match its current
// document (read from the store, so replays and reorderings of the change
// stream converge): written when it changed, deleted when the document is
// gone. A changed URL starts unseeded.
func (d *directory) sync(ctx context.Context, db, sub string) (subscriber, bool, error) {
	for range 5 {
		cur, rev, err := d.get(ctx, db, sub)
		if err != nil {
			return subscriber{}, false, err
		}
		doc, err := d.st.Get(ctx, db, sub)
		gone := errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrDeleted) || errors.Is(err, store.ErrDBNotFound)
		if err != nil && !gone {
			return subscriber{}, false, err
		}
		if gone {
			if rev == "" || cur.DB == "" {
				return subscriber{}, false, nil
			}
			if _, err := d.st.Delete(ctx, DirectoryDB, entryID(db, sub), rev); errors.Is(err, store.ErrConflict) {
				continue
			} else if err != nil && !errors.Is(err, store.ErrNotFound) {
				return subscriber{}, false, fmt.Errorf("reader: directory delete %s/%s: %w", db, sub, err)
			}
			return subscriber{}, false, nil
		}
		body, err := docs.Decode(doc.Body)
		if err != nil {
			return subscriber{}, false, fmt.Errorf("reader: subscription %s/%s: %w", db, sub, err)
		}
		want := subscriber{DB: db, Sub: sub, URL: normalizeURL(str(body["url"])), Interval: interval(body), Active: body["active"] != false}
		if cur.DB != "" && cur.URL == want.URL {
			want.Seeded = cur.Seeded
		}
		if cur == want {
			return want, true, nil
		}
		if err := d.put(ctx, want, rev); errors.Is(err, store.ErrConflict) {
			continue
		} else if err != nil {
			return subscriber{}, false, err
		}
		return want, true, nil
	}
	return subscriber{}, false, fmt.Errorf("reader: directory entry %s/%s keeps changing", db, sub)
}

// markSeeded records that the subscription received its feed's items.
func (d *directory) markSeeded(ctx context.Context, s subscriber) error {
	for range 5 {
		cur, rev, err := d.get(ctx, s.DB, s.Sub)
		if err != nil {
			return err
		}
		if cur.DB == "" || cur.URL != s.URL || cur.Seeded {
			return nil
		}
		cur.Seeded = true
		if err := d.put(ctx, cur, rev); !errors.Is(err, store.ErrConflict) {
			return err
		}
	}
	return nil
}

func (d *directory) put(ctx context.Context, s subscriber, rev string) error {
	raw, err := json.Marshal(s)
	if err != nil {
		return err
	}
	_, err = d.st.Put(ctx, DirectoryDB, store.Doc{ID: entryID(s.DB, s.Sub), Rev: rev, Klass: klassSubscriber, SortKey: s.URL, Body: raw})
	if err != nil && !errors.Is(err, store.ErrConflict) {
		return fmt.Errorf("reader: directory put %s/%s: %w", s.DB, s.Sub, err)
	}
	return err
}

// all lists every entry, grouped by URL (the sort key).
func (d *directory) all(ctx context.Context) ([]subscriber, error) {
	return d.list(ctx, "")
}

// ofURL lists the entries of one URL.
func (d *directory) ofURL(ctx context.Context, u string) ([]subscriber, error) {
	return d.list(ctx, u)
}

// list lists the entries whose URL is u, or every entry when u is "".
func (d *directory) list(ctx context.Context, u string) ([]subscriber, error) {
	if err := d.ensure(ctx); err != nil {
		return nil, err
	}
	var out []subscriber
	q := store.ListQuery{Klass: klassSubscriber, Prefix: u, Limit: 1000}
	for {
		page, err := d.st.List(ctx, DirectoryDB, q)
		if err != nil {
			return nil, fmt.Errorf("reader: list the directory: %w", err)
		}
		for _, doc := range page.Docs {
			if u != "" && doc.SortKey != u {
				continue // a longer URL with u as a prefix
			}
			var s subscriber
			if err := json.Unmarshal(doc.Body, &s); err != nil {
				return nil, fmt.Errorf("reader: directory entry %s: %w", doc.ID, err)
			}
			out = append(out, s)
		}
		if page.Next == "" {
			return out, nil
		}
		q.After = page.Next
	}
}

// interval is a subscription's refresh interval in minutes, bounded.
func interval(body map[string]any) int {
	n := DefaultInterval
	switch v := body["refresh_interval"].(type) {
	case json.Number:
		if i, err := v.Int64(); err == nil {
			n = int(i)
		}
	case float64:
		n = int(v)
	}
	return min(max(n, MinInterval), MaxInterval)
}
