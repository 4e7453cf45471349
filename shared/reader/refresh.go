package reader

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/store"
)

// roundStats sums a refresh round.
type roundStats struct {
	Feeds, Due, Fetched, NotModified, Failed, Written int
}

func (s *roundStats) add(o refreshOutcome) {
	s.Feeds++
	if o.Skipped {
		return
	}
	s.Due++
	switch {
	case o.Failed:
		s.Failed++
	case o.NotModified:
		s.NotModified++
	case o.Fetched:
		s.Fetched++
	}
	s.Written += o.Written
}

// runRefresh is the reader.refresh job: every URL of the directory that is
// due, once each, with m.workers fetches at a time.
func (m *Module) runRefresh(ctx context.Context, ev module.JobEvent) error {
	st, err := m.refreshAll(ctx, nil, false)
	m.log.InfoContext(ctx, "feeds refreshed", "feeds", st.Feeds, "due", st.Due, "fetched", st.Fetched,
		"not_modified", st.NotModified, "failed", st.Failed, "items_written", st.Written, "err", err)
	return err
}

// refreshAll refreshes the URLs of the directory (only those in only, when
// given). Per-feed failures are recorded on the feeds; the error is the
// first store failure, so the job's invocation shows it.
func (m *Module) refreshAll(ctx context.Context, only map[string]bool, force bool) (roundStats, error) {
	all, err := m.dir.all(ctx)
	if err != nil {
		return roundStats{}, err
	}
	type feed struct {
		url  string
		subs []subscriber
	}
	var feeds []feed
	for _, s := range all {
		if only != nil && !only[s.URL] {
			continue
		}
		if n := len(feeds); n > 0 && feeds[n-1].url == s.URL {
			feeds[n-1].subs = append(feeds[n-1].subs, s)
			continue
		}
		feeds = append(feeds, feed{url: s.URL, subs: []subscriber{s}})
	}
	var (
		mu       sync.Mutex
		stats    roundStats
		firstErr error
		wg       sync.WaitGroup
	)
	work := make(chan feed)
	for range min(m.workers, max(len(feeds), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range work {
				out, err := m.refreshURL(ctx, f.url, f.subs, force)
				mu.Lock()
				stats.add(out)
				if err != nil && firstErr == nil && ctx.Err() == nil {
					firstErr = err
				}
				mu.Unlock()
			}
		}()
	}
	for _, f := range feeds {
		select {
		case work <- f:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	close(work)
	wg.Wait()
	if firstErr == nil {
		firstErr = ctx.Err()
	}
	return stats, firstErr
}

// refreshGroup fetches the feeds of db's active subscriptions now (each at
// most once a minute), for every Group that follows them.
func (m *Module) refreshGroup(ctx context.Context, db string, only string) (roundStats, error) {
	urls := map[string]bool{}
	err := eachDoc(ctx, m.deps.Store, db, KlassSubscription, func(d store.Doc, body map[string]any) bool {
		if (only == "" || d.ID == only) && body["active"] != false {
			urls[normalizeURL(str(body["url"]))] = true
			// The directory may lag the stream: bring this entry up to date.
			_, _, _ = m.dir.sync(ctx, db, d.ID)
		}
		return true
	})
	if err != nil {
		return roundStats{}, err
	}
	if len(urls) == 0 {
		return roundStats{}, nil
	}
	return m.refreshAll(ctx, urls, true)
}

// ---- reactions --------------------------------------------------------------

// subscriptionChanged keeps the directory in step with a subscription and,
// when its labels or title changed, the copies its items hold; a deleted
// subscription takes its unstarred items with it. It reads the current
// documents, so redelivered or reordered changes converge.
func (m *Module) subscriptionChanged(ctx context.Context, ch store.Change) error {
	if _, _, err := m.dir.sync(ctx, ch.DB, ch.New.ID); err != nil {
		return err
	}
	_, body, err := m.current(ctx, ch.DB, ch.New.ID)
	if err != nil {
		return err
	}
	if body == nil {
		return m.eachItemOf(ctx, ch.DB, ch.New.ID, func(d store.Doc, item map[string]any) error {
			if boolOf(item["starred"]) {
				return nil
			}
			_, err := m.deps.Docs.Delete(ctx, m.server, ch.DB, d.ID, d.Rev)
			if errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrNotFound) {
				return nil
			}
			return err
		})
	}
	if ch.Old == nil || ch.New.Deleted {
		return nil // a new subscription has no items yet
	}
	was, _ := docs.Decode(ch.Old.Body)
	if sameLabels(was["reader_label_ids"], body["reader_label_ids"]) && str(was["title"]) == str(body["title"]) {
		return nil
	}
	return m.relabel(ctx, ch.DB, ch.New.ID, body)
}

// relabel rewrites the subscription copies of sub's items that differ
// from its current labels and title.
func (m *Module) relabel(ctx context.Context, db, sub string, subBody map[string]any) error {
	labels := subBody["reader_label_ids"]
	if labels == nil {
		labels = []any{}
	}
	ref := subRef(sub, subBody)
	return m.eachItemOf(ctx, db, sub, func(d store.Doc, item map[string]any) error {
		if sameLabels(item["reader_label_ids"], labels) && sameJSON(item["reader_subscription"], ref) {
			return nil
		}
		item["reader_label_ids"], item["reader_subscription"] = labels, ref
		_, err := m.deps.Docs.Save(ctx, m.server, db, d.ID, d.Rev, item)
		if errors.Is(err, store.ErrConflict) {
			// Changed meanwhile: the item's own write carried the current
			// labels, or a redelivery of this change fixes it.
			return nil
		}
		return err
	})
}

// eachItemOf visits the live items of a subscription (one id range).
func (m *Module) eachItemOf(ctx context.Context, db, sub string, fn func(d store.Doc, item map[string]any) error) error {
	first, last := itemRange(sub)
	q := store.AllDocsQuery{StartKey: first, EndKey: last, Limit: 200}
	for {
		page, err := m.deps.Store.AllDocs(ctx, db, q)
		if errors.Is(err, store.ErrDBNotFound) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reader: items of %s/%s: %w", db, sub, err)
		}
		for _, d := range page {
			item, err := docs.Decode(d.Body)
			if err != nil || str(item["reader_subscription_id"]) != sub {
				continue
			}
			if err := fn(d, item); err != nil {
				return err
			}
		}
		if len(page) < q.Limit {
			return nil
		}
		q.StartKey, q.Skip = page[len(page)-1].ID, 1
	}
}

// labelChanged takes a deleted label off the Group's subscriptions (whose
// reaction then relabels their items).
func (m *Module) labelChanged(ctx context.Context, ch store.Change) error {
	if ok, err := liveDoc(ctx, m.deps.Store, ch.DB, ch.New.ID, KlassLabel); err != nil || ok {
		return err
	}
	label := ch.New.ID
	var touched []store.Doc
	err := eachRaw(ctx, m.deps.Store, ch.DB, KlassSubscription, func(d store.Doc) bool {
		if containsString(d.Body, label) {
			touched = append(touched, d)
		}
		return true
	})
	if err != nil {
		return err
	}
	for _, d := range touched {
		for range 5 {
			cur, body, err := m.current(ctx, ch.DB, d.ID)
			if err != nil || body == nil {
				break
			}
			list, _ := body["reader_label_ids"].([]any)
			kept := slices.DeleteFunc(slices.Clone(list), func(v any) bool { return v == label })
			if len(kept) == len(list) {
				break
			}
			body["reader_label_ids"] = kept
			if _, err = m.deps.Docs.Save(ctx, m.server, ch.DB, d.ID, cur.Rev, body); !errors.Is(err, store.ErrConflict) {
				if err != nil {
					return err
				}
				break
			}
		}
	}
	return nil
}

func containsString(body []byte, s string) bool {
	return len(s) > 0 && bytes.Contains(body, []byte(`"`+s+`"`))
}

// ---- retention --------------------------------------------------------------

// retentionGroup is the reader.retention job for one Group: its read and
// unstarred items posted before the retention are deleted (oldest first:
// their state's range of the klass index, in posted_at order). Deleted
// items leave tombstones, so a feed that still lists them does not bring
// them back.
func (m *Module) retentionGroup(ctx context.Context, ev module.JobEvent, db string) error {
	cutoff := ev.Time
	if cutoff.IsZero() {
		cutoff = m.now()
	}
	cutoff = cutoff.Add(-m.retention)
	removed, err := m.expire(ctx, db, cutoff)
	if removed > 0 {
		m.log.InfoContext(ctx, "old feed items removed", "db", db, "items", removed, "posted_before", cutoff)
	}
	return err
}

// expire deletes db's read, unstarred items posted before cutoff.
func (m *Module) expire(ctx context.Context, db string, cutoff time.Time) (int, error) {
	limit := cutoff.UTC().Format(docs.TimeFormat)
	removed := 0
	for {
		page, err := m.deps.Store.List(ctx, db, store.ListQuery{Klass: KlassItem, Prefix: itemState(true, false), Limit: 100})
		if errors.Is(err, store.ErrDBNotFound) {
			return removed, nil
		}
		if err != nil {
			return removed, fmt.Errorf("reader: old items of %s: %w", db, err)
		}
		done := len(page.Docs) < 100
		for _, d := range page.Docs {
			if d.SortKey[2:] >= limit {
				return removed, nil
			}
			if _, err := m.deps.Docs.Delete(ctx, m.server, db, d.ID, d.Rev); err == nil {
				removed++
			} else if !errors.Is(err, store.ErrConflict) && !errors.Is(err, store.ErrNotFound) {
				return removed, fmt.Errorf("reader: remove %s/%s: %w", db, d.ID, err)
			}
		}
		if done || ctx.Err() != nil {
			return removed, ctx.Err()
		}
	}
}
