package reader

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/fetchguard"
	"github.com/oficina/oficina/shared/htmlsafe"
	"github.com/oficina/oficina/shared/store"
)

// kindFeedState is the store record kind of a URL's fetch state.
const kindFeedState = "reader.feed"

// feedState is one URL's fetch state, shared by every Group that follows
// it. It is a store record, not a document: a fetch that changes nothing
// writes nothing a Group can see.
type feedState struct {
	URL          string    `json:"url"`
	ETag         string    `json:"etag,omitempty"`
	LastModified string    `json:"last_modified,omitempty"`
	CheckedAt    time.Time `json:"checked_at,omitzero"` // the last attempt
	FetchedAt    time.Time `json:"fetched_at,omitzero"` // the last 200
	NextAt       time.Time `json:"next_at,omitzero"`
	Errors       int       `json:"errors,omitempty"` // in a row
	LastError    string    `json:"last_error,omitempty"`
	LastStatus   int       `json:"last_status,omitempty"`
}

func stateKey(u string) string {
	h := sha256.Sum256([]byte(u))
	return hex.EncodeToString(h[:])
}

func (m *Module) loadState(ctx context.Context, u string) (feedState, error) {
	rec, err := m.deps.Store.GetRecord(ctx, kindFeedState, stateKey(u))
	if errors.Is(err, store.ErrNotFound) {
		return feedState{URL: u}, nil
	}
	if err != nil {
		return feedState{}, fmt.Errorf("reader: fetch state of %s: %w", u, err)
	}
	var s feedState
	if err := json.Unmarshal(rec.Value, &s); err != nil {
		return feedState{URL: u}, nil // unreadable: start over
	}
	return s, nil
}

func (m *Module) saveState(ctx context.Context, s feedState) error {
	raw, err := json.Marshal(s)
	if err != nil {
		return err
	}
	// Kept a while after the last check, then swept with the URL unused.
	rec := store.Record{Kind: kindFeedState, Key: stateKey(s.URL), Value: raw, ExpiresAt: m.now().Add(30 * 24 * time.Hour)}
	if err := m.deps.Store.PutRecord(ctx, rec, false); err != nil {
		return fmt.Errorf("reader: save the fetch state of %s: %w", s.URL, err)
	}
	return nil
}

// fetchResult is the outcome of fetching one URL.
type fetchResult struct {
	Status      int
	NotModified bool
	Feed        *parsedFeed
	// MovedTo is the URL every redirect permanently pointed to ("" when
	// the feed did not move).
	MovedTo      string
	ETag         string
	LastModified string
	RetryAfter   time.Duration
	// Err is the failure as the subscription shows it ("" on success).
	Err string
}

// feedAccept asks for feeds first, pages last (discovery needs them).
const feedAccept = "application/rss+xml, application/atom+xml, application/feed+json, application/json;q=0.9, application/xml;q=0.9, text/xml;q=0.9, text/html;q=0.5, */*;q=0.1"

// fetchFeed fetches and parses u. A conditional fetch sends the validators
// of st.
func (m *Module) fetchFeed(ctx context.Context, u string, st feedState, conditional bool) fetchResult {
	h := http.Header{"Accept": {feedAccept}}
	if conditional {
		if st.ETag != "" {
			h.Set("If-None-Match", st.ETag)
		}
		if st.LastModified != "" {
			h.Set("If-Modified-Since", st.LastModified)
		}
	}
	res, err := m.fetcher.Get(ctx, u, h)
	if err != nil {
		return fetchResult{Err: fetchguard.Failure(err, "feed")}
	}
	out := fetchResult{Status: res.StatusCode, ETag: res.Header.Get("ETag"), LastModified: res.Header.Get("Last-Modified")}
	if res.Permanent {
		out.MovedTo = normalizeURL(res.URL.String())
		if out.MovedTo == normalizeURL(u) {
			out.MovedTo = ""
		}
	}
	switch {
	case res.StatusCode == http.StatusNotModified:
		out.NotModified = true
		return out
	case res.StatusCode == http.StatusTooManyRequests || res.StatusCode == http.StatusServiceUnavailable:
		out.RetryAfter = retryAfter(res.Header.Get("Retry-After"), m.now())
		out.Err = fmt.Sprintf("HTTP %d %s", res.StatusCode, http.StatusText(res.StatusCode))
		return out
	case res.StatusCode != http.StatusOK:
		out.Err = fmt.Sprintf("HTTP %d %s", res.StatusCode, http.StatusText(res.StatusCode))
		return out
	}
	f, err := parseFeed(res.Body, res.URL, m.now())
	if err != nil {
		out.Err = MsgNotAFeed
		if looksLikeHTMLPage(res.Header.Get("Content-Type"), res.Body) {
			out.Err = "the page is a web page, not a feed"
		}
		return out
	}
	out.Feed = f
	return out
}

// retryAfter reads a Retry-After header (seconds or an HTTP date).
func retryAfter(v string, now time.Time) time.Duration {
	if v == "" {
		return 0
	}
	if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// backoff is the wait after the n-th failure in a row: the interval,
// doubled per failure, at most a day.
func backoff(interval time.Duration, n int) time.Duration {
	d := interval
	for i := 0; i < n && d < maxBackoff; i++ {
		d *= 2
	}
	return min(d, maxBackoff)
}

// refreshOutcome counts what one URL's refresh did.
type refreshOutcome struct {
	Skipped, Fetched, NotModified, Failed bool
	Written                               int
}

// refreshURL fetches u once for all its subscribers (subs, from the
// directory) when it is due (or force, at most once a minute), fans the
// items out to each subscribing Group, records the fetch state and moves
// each subscription's status between ok and error when it changes.
func (m *Module) refreshURL(ctx context.Context, u string, subs []subscriber, force bool) (refreshOutcome, error) {
	var active []subscriber
	seeded := true
	every := time.Duration(MaxInterval) * time.Minute
	for _, s := range subs {
		if s.Active && s.URL == u {
			active = append(active, s)
			seeded = seeded && s.Seeded
			every = min(every, time.Duration(s.Interval)*time.Minute)
		}
	}
	if len(active) == 0 {
		return refreshOutcome{Skipped: true}, nil
	}
	st, err := m.loadState(ctx, u)
	if err != nil {
		return refreshOutcome{}, err
	}
	now := m.now()
	due := st.NextAt
	if st.Errors == 0 && !st.CheckedAt.IsZero() && st.CheckedAt.Add(every).Before(due) {
		due = st.CheckedAt.Add(every) // a subscriber asked for a shorter interval since
	}
	switch {
	case force && seeded && !st.CheckedAt.IsZero() && now.Sub(st.CheckedAt) < time.Minute:
		// A new subscriber is never kept waiting: it has no items yet.
		return refreshOutcome{Skipped: true}, nil
	case !force && seeded && now.Before(due.Add(-30*time.Second)):
		return refreshOutcome{Skipped: true}, nil
	}
	res := m.fetchFeed(ctx, u, st, seeded)
	out := refreshOutcome{}
	st.URL = u
	st.CheckedAt = now
	st.LastStatus = res.Status
	switch {
	case res.Err != "":
		out.Failed = true
		st.Errors++
		st.LastError = res.Err
		st.NextAt = now.Add(max(backoff(every, st.Errors), min(res.RetryAfter, maxBackoff)))
	case res.NotModified:
		out.NotModified = true
		st.Errors, st.LastError = 0, ""
		st.NextAt = now.Add(every)
	default:
		out.Fetched = true
		st.Errors, st.LastError = 0, ""
		st.ETag, st.LastModified, st.FetchedAt = res.ETag, res.LastModified, now
		st.NextAt = now.Add(every)
	}
	var (
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
	)
	for _, s := range active {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, err := m.deliver(ctx, s, res, now)
			mu.Lock()
			defer mu.Unlock()
			out.Written += n
			if err != nil && firstErr == nil {
				firstErr = err
			}
		}()
	}
	wg.Wait()
	if err := m.saveState(ctx, st); err != nil && firstErr == nil {
		firstErr = err
	}
	if res.MovedTo != "" && res.Err == "" {
		moved := st
		moved.URL = res.MovedTo
		if err := m.saveState(ctx, moved); err != nil && firstErr == nil {
			firstErr = err
		}
	}
	return out, firstErr
}

// deliver brings one subscription up to date with a fetch: its status and
// title, its URL when the feed moved for good, and its items. It returns
// the number of items written.
func (m *Module) deliver(ctx context.Context, s subscriber, res fetchResult, now time.Time) (int, error) {
	doc, body, err := m.current(ctx, s.DB, s.Sub)
	if err != nil || body == nil {
		return 0, err // gone: the directory catches up from the stream
	}
	if normalizeURL(str(body["url"])) != s.URL || body["active"] == false {
		return 0, nil
	}
	// The subscription's own fields, saved only when something changed.
	changed := false
	set := func(k string, v any) {
		if body[k] != v {
			if v == nil || v == "" {
				if _, ok := body[k]; !ok {
					return
				}
				delete(body, k)
			} else {
				body[k] = v
			}
			changed = true
		}
	}
	if res.Err != "" {
		set("fetch_status", "error")
		set("fetch_error", res.Err)
	} else {
		set("fetch_status", "ok")
		set("fetch_error", nil)
	}
	if f := res.Feed; f != nil {
		if !boolOf(body["customize_title"]) && f.Title != "" {
			set("title", truncateRunes(f.Title, 200))
		}
		if f.SiteURL != "" && len(f.SiteURL) <= 2000 {
			set("website_url", f.SiteURL)
		}
	}
	moved := res.MovedTo != "" && res.Err == ""
	if moved {
		set("url", res.MovedTo)
	}
	if changed {
		saved, err := m.deps.Docs.Save(ctx, m.server, s.DB, s.Sub, doc.Rev, body)
		switch {
		case err == nil:
			doc = saved
			if moved {
				if entry, ok, err := m.dir.sync(ctx, s.DB, s.Sub); err == nil && ok && res.Feed != nil {
					s = entry
				}
			}
		case errors.Is(err, store.ErrConflict):
			// Someone edited it meanwhile; the next fetch tries again.
		default:
			// A refused change (a moved URL the Group also subscribes to)
			// leaves the subscription as it was.
			m.log.WarnContext(ctx, "subscription status not saved", "db", s.DB, "subscription", s.Sub, "err", err)
		}
	}
	if res.Feed == nil {
		return 0, nil
	}
	written, err := m.writeItems(ctx, s.DB, s.Sub, body, res.Feed.Entries, now)
	if err != nil {
		return written, err
	}
	return written, m.dir.markSeeded(ctx, s)
}

// current reads a live document and its body (nil when it is gone).
func (m *Module) current(ctx context.Context, db, id string) (store.Doc, map[string]any, error) {
	d, body, _, err := docs.ReadLive(ctx, m.deps.Store, db, id)
	if err != nil {
		return store.Doc{}, nil, fmt.Errorf("reader: %w", err)
	}
	return d, body, nil
}

// itemID is an item's id: its subscription's (a shared 8-digit prefix, so
// a subscription's items are one range of the id index) and its key in
// the feed, so a re-fetch finds the item it wrote before.
func itemID(sub, key string) string {
	a := sha256.Sum256([]byte(sub))
	b := sha256.Sum256([]byte(sub + "\x00" + key))
	return "rit-" + hex.EncodeToString(a[:4]) + hex.EncodeToString(b[:12])
}

// itemRange is the id range of a subscription's items.
func itemRange(sub string) (first, last string) {
	a := sha256.Sum256([]byte(sub))
	p := "rit-" + hex.EncodeToString(a[:4])
	return p + strings.Repeat("0", 24), p + strings.Repeat("f", 24)
}

// subRef is the item's copy of its subscription (SPEC.md §3).
func subRef(sub string, body map[string]any) map[string]any {
	return map[string]any{"_id": sub, "title": str(body["title"]), "label": str(body["title"])}
}

// writeItems creates or updates the items of entries for one subscription,
// several at a time (the embedded store shares their fsyncs). Unchanged
// items are not written; items deleted (by a member or the retention) are
// not brought back; entries older than the retention are not taken.
func (m *Module) writeItems(ctx context.Context, db, sub string, subBody map[string]any, entries []entry, now time.Time) (int, error) {
	var (
		mu       sync.Mutex
		written  int
		firstErr error
		wg       sync.WaitGroup
	)
	sem := make(chan struct{}, 8)
	for i, e := range entries {
		// Undated entries keep the feed's order: a second apart, newest first.
		seen := now.Add(-time.Duration(i) * time.Second)
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			ok, err := m.writeItem(ctx, db, sub, subBody, e, seen)
			mu.Lock()
			defer mu.Unlock()
			if ok {
				written++
			}
			if err != nil && firstErr == nil {
				firstErr = err
			}
		}()
	}
	wg.Wait()
	return written, firstErr
}

func (m *Module) writeItem(ctx context.Context, db, sub string, subBody map[string]any, e entry, seen time.Time) (bool, error) {
	id := itemID(sub, e.Key)
	ref := subRef(sub, subBody)
	labels := subBody["reader_label_ids"]
	if labels == nil {
		labels = []any{}
	}
	for range 4 {
		d, err := m.deps.Store.Get(ctx, db, id)
		var old map[string]any
		switch {
		case errors.Is(err, store.ErrDeleted):
			return false, nil
		case errors.Is(err, store.ErrNotFound):
		case err != nil:
			return false, err
		default:
			if old, err = docs.Decode(d.Body); err != nil {
				return false, fmt.Errorf("reader: decode %s/%s: %w", db, id, err)
			}
			if str(old["feed_hash"]) == e.Hash && sameLabels(old["reader_label_ids"], labels) && sameJSON(old["reader_subscription"], ref) {
				return false, nil
			}
		}
		posted := e.Posted
		if posted.IsZero() {
			if t, err := time.Parse(time.RFC3339, str(old["posted_at"])); err == nil {
				posted = t
			} else {
				posted = seen
			}
		}
		if old == nil && posted.Before(m.now().Add(-m.retention)) {
			return false, nil // the retention would remove it at once
		}
		body := map[string]any{
			"klass": KlassItem, "url": e.URL, "title": e.Title, "content": e.Content, "content_type": e.ContentType,
			"summary": e.Summary, "author": e.Author, "reader_subscription_id": sub, "reader_subscription": ref,
			"reader_label_ids": labels, "posted_at": posted.UTC().Format(time.RFC3339Nano), "feed_hash": e.Hash,
			"read": false, "starred": false,
		}
		if e.URL == "" {
			delete(body, "url")
		}
		if len(e.Enclosures) > 0 {
			body["enclosures"] = enclosureList(e.Enclosures)
		}
		if len(e.Content) > maxContentBytes {
			body["content"] = fitEntry(e)
		}
		if old != nil {
			body["read"], body["starred"] = boolOf(old["read"]), boolOf(old["starred"])
			if boolOf(old["content_loaded"]) {
				body["content"], body["content_type"], body["content_loaded"] = old["content"], old["content_type"], true
				if s, ok := old["summary"]; ok {
					body["summary"] = s
				}
			}
		}
		_, err = m.deps.Docs.Save(ctx, m.server, db, id, d.Rev, body)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, store.ErrConflict):
			continue // a member toggled it meanwhile: read it again
		}
		return false, fmt.Errorf("reader: write item %s/%s: %w", db, id, err)
	}
	return false, fmt.Errorf("reader: item %s/%s keeps changing", db, id)
}

// fitEntry cuts an entry's content to what a document holds, before the
// schema sees it (the item rule sanitises the result again).
func fitEntry(e entry) string {
	if e.ContentType == "text" {
		return htmlsafe.Truncate(strings.ToValidUTF8(e.Content[:maxContentBytes], ""), maxContentBytes/4)
	}
	var base *url.URL
	if u, err := url.Parse(e.URL); err == nil && u.IsAbs() {
		base = u
	}
	return fitContent(htmlsafe.Sanitize(e.Content, base), base)
}

// sameLabels compares label lists; a missing list is an empty one (the
// schema drops empty lists).
func sameLabels(a, b any) bool {
	x, _ := a.([]any)
	y, _ := b.([]any)
	return sameJSON(append([]any{}, x...), append([]any{}, y...))
}

func sameJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}

func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n])
}
