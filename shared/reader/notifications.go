package reader

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/htmlsafe"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/store"
)

// kindNotifications caches the system notifications feed (key: its URL).
const kindNotifications = "reader.notifications"

// notificationsTTL is how long a fetch of the notifications feed serves.
const notificationsTTL = time.Hour

type notification struct {
	Title    string    `json:"title"`
	URL      string    `json:"url,omitempty"`
	Summary  string    `json:"summary,omitempty"`
	PostedAt time.Time `json:"posted_at"`
	Lang     string    `json:"lang"`
}

type notificationCache struct {
	FetchedAt time.Time      `json:"fetched_at"`
	Entries   []notification `json:"entries"`
}

// notifications answers GET /api/{db}/_reader/notifications?locale=pt-BR:
// the entries of the configured system notifications feed (SPEC.md §7
// External) that are under 16 days old and in the UI language, newest
// first. The feed is fetched through the same guarded fetcher at most
// once an hour and cached in a store record; a failed fetch serves the
// last good copy. → 200 {"notifications": [{title, url, summary, posted_at, lang}]}.
//
// An entry's language is an item category "lang:<tag>" or a bare locale
// category (en, pt-BR, pt), else the feed's <language>; entries with none
// are not shown.
func (m *Module) notifications(w http.ResponseWriter, r *http.Request) error {
	locale := r.URL.Query().Get("locale")
	if locale == "" {
		if p := module.Principal(r); p != nil {
			locale = p.Locale
		}
	}
	if locale == "" {
		locale = "en"
	}
	if locale != "en" && locale != "pt-BR" {
		return fault.New(fault.BadRequest, "Invalid value for locale: must be en or pt-BR")
	}
	out := []notification{}
	if m.notificationsURL != "" {
		cache, err := m.notificationFeed(r.Context())
		if err != nil {
			return err
		}
		now := m.now()
		for _, n := range cache.Entries {
			age := now.Sub(n.PostedAt)
			if age < notificationsMaxAge && age > -24*time.Hour && langMatches(n.Lang, locale) {
				out = append(out, n)
			}
		}
		slices.SortFunc(out, func(a, b notification) int { return b.PostedAt.Compare(a.PostedAt) })
		out = out[:min(len(out), 5)]
	}
	httpWrite(w, http.StatusOK, map[string]any{"notifications": out})
	return nil
}

// notificationFeed returns the cached feed, fetching it when the cache is
// older than an hour (one fetch at a time per process).
func (m *Module) notificationFeed(ctx context.Context) (notificationCache, error) {
	read := func() (notificationCache, bool, error) {
		rec, err := m.deps.Store.GetRecord(ctx, kindNotifications, stateKey(m.notificationsURL))
		if errors.Is(err, store.ErrNotFound) {
			return notificationCache{}, false, nil
		}
		if err != nil {
			return notificationCache{}, false, err
		}
		var c notificationCache
		if json.Unmarshal(rec.Value, &c) != nil {
			return notificationCache{}, false, nil
		}
		return c, m.now().Sub(c.FetchedAt) < notificationsTTL, nil
	}
	if c, fresh, err := read(); err != nil || fresh {
		return c, err
	}
	m.notifMu.Lock()
	defer m.notifMu.Unlock()
	c, fresh, err := read()
	if err != nil || fresh {
		return c, err
	}
	fctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	res := m.fetchFeed(fctx, m.notificationsURL, feedState{}, false)
	c.FetchedAt = m.now()
	if res.Feed != nil {
		c.Entries = notificationsOf(res.Feed)
	} else {
		m.log.WarnContext(ctx, "system notifications not fetched; serving the last copy", "url", m.notificationsURL, "err", res.Err)
	}
	raw, err := json.Marshal(c)
	if err != nil {
		return c, err
	}
	err = m.deps.Store.PutRecord(ctx, store.Record{Kind: kindNotifications, Key: stateKey(m.notificationsURL), Value: raw, ExpiresAt: m.now().Add(30 * 24 * time.Hour)}, false)
	return c, err
}

func notificationsOf(f *parsedFeed) []notification {
	var out []notification
	for _, e := range f.Entries {
		if e.Posted.IsZero() {
			continue
		}
		lang := f.Language
		for _, c := range e.Categories {
			c = strings.TrimSpace(c)
			if tag, ok := strings.CutPrefix(strings.ToLower(c), "lang:"); ok {
				lang = tag
				break
			}
			if isLocaleTag(c) {
				lang = c
				break
			}
		}
		n := notification{Title: e.Title, PostedAt: e.Posted.UTC(), Lang: lang}
		if u, err := url.Parse(e.URL); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
			n.URL = u.String()
		}
		n.Summary = e.Summary
		if n.Summary == "" {
			n.Summary = htmlsafe.Text(e.Content, 280)
		}
		out = append(out, n)
	}
	return out
}

func isLocaleTag(s string) bool {
	switch strings.ToLower(s) {
	case "en", "en-us", "en-gb", "pt", "pt-br":
		return true
	}
	return false
}

// langMatches: an entry in "pt", "pt-BR" or "pt_br" matches the UI's
// pt-BR; "en" or "en-US" matches en.
func langMatches(lang, locale string) bool {
	lang = strings.ToLower(strings.ReplaceAll(strings.TrimSpace(lang), "_", "-"))
	if lang == "" {
		return false
	}
	base, _, _ := strings.Cut(lang, "-")
	want, _, _ := strings.Cut(strings.ToLower(locale), "-")
	return base == want
}
