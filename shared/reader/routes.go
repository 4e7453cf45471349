package reader

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/fetchguard"
	"github.com/oficina/oficina/shared/httpjson"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/schema"
)

// refreshBudget bounds a refresh a member asks for (the API function's
// timeout is 25 s): what is not done by then is done by the next round.
const refreshBudget = 20 * time.Second

func (m *Module) registerRoutes(r *module.Registry) {
	r.Route(module.Route{Pattern: "POST /api/{db}/_reader/subscriptions", Access: module.AccessWrite, Handle: m.subscribe})
	r.Route(module.Route{Pattern: "POST /api/{db}/_reader/refresh", Access: module.AccessWrite, Handle: m.refreshRoute})
	r.Route(module.Route{Pattern: "POST /api/{db}/_reader/subscriptions/{id}/refresh", Access: module.AccessWrite, Klass: KlassSubscription, Handle: m.refreshRoute})
	r.Route(module.Route{Pattern: "GET /api/{db}/_reader/subscriptions/{id}/status", Access: module.AccessRead, Klass: KlassSubscription, Handle: m.statusRoute})
	r.Route(module.Route{Pattern: "POST /api/{db}/_reader/items/{id}/content", Access: module.AccessWrite, Klass: KlassItem, Handle: m.loadContent})
	r.Route(module.Route{Pattern: "GET /api/{db}/_reader/opml", Access: module.AccessRead, Handle: m.exportOPML})
	r.Route(module.Route{Pattern: "POST /api/{db}/_reader/opml", Access: module.AccessWrite, MaxBody: maxOPMLBytes, Handle: m.importOPML})
	r.Route(module.Route{Pattern: "GET /api/{db}/_reader/notifications", Access: module.AccessRead, Handle: m.notifications})
}

func httpWrite(w http.ResponseWriter, status int, v any) { httpjson.Write(w, status, v) }

// subscribe answers POST /api/{db}/_reader/subscriptions with the fields of
// a ReaderSubscription ({url, title?, customize_title?, active?,
// reader_label_ids?, refresh_interval?, _id?}). The URL may be a web page:
// the feed it declares (<link rel="alternate">) is subscribed instead. The
// feed is fetched first, so a URL that is not a feed is refused (422 on
// url) with nothing written; then the subscription is saved through the
// write path (its rules: labels, a URL the Group already follows) and its
// items written. → 201 {"ok","id","rev","url","title","items"}.
func (m *Module) subscribe(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	db, p := r.PathValue("db"), module.Principal(r)
	var body map[string]any
	if err := httpjson.Decode(w, r, 64<<10, &body); err != nil {
		return err
	}
	if body == nil {
		return fault.New(fault.BadRequest, "the body must be a JSON object")
	}
	raw, ok := body["url"].(string)
	if _, present := body["url"]; present && !ok {
		return fault.Invalid(map[string][]string{"url": {schema.MsgInvalid}})
	}
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return fault.Invalid(map[string][]string{"url": {fault.CantBeBlank}})
	}
	if u, err := url.Parse(raw); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fault.Invalid(map[string][]string{"url": {schema.MsgInvalid}})
	}
	if err := m.fetcher.CheckURL(raw); err != nil {
		return fault.Invalid(map[string][]string{"url": {MsgNotAllowed}})
	}
	id, _ := body["_id"].(string)
	if id == "" {
		id = ids.New(ids.PrefixOf(KlassSubscription))
	} else if ids.Klass(id) != KlassSubscription {
		return fault.Newf(fault.BadRequest, "_id %q is not a ReaderSubscription id", id)
	}
	delete(body, "_id")
	delete(body, "_rev")

	feedURL, res, err := m.resolveFeed(ctx, raw)
	if err != nil {
		return err
	}
	body["klass"] = KlassSubscription
	body["url"] = feedURL
	if strings.TrimSpace(str(body["title"])) == "" && res.Feed.Title != "" {
		body["title"] = truncateRunes(res.Feed.Title, 200)
		body["customize_title"] = false
	}
	if str(body["website_url"]) == "" && res.Feed.SiteURL != "" && len(res.Feed.SiteURL) <= 2000 {
		body["website_url"] = res.Feed.SiteURL
	}
	if _, err := m.deps.Docs.Save(ctx, p, db, id, "", body); err != nil {
		return err
	}
	entry, ok, err := m.dir.sync(ctx, db, id)
	if err != nil {
		return err
	}
	written := 0
	if ok {
		res.MovedTo = "" // subscribed at the URL the feed lives at already
		if written, err = m.deliver(ctx, entry, res, m.now()); err != nil {
			return err
		}
		if err := m.firstState(ctx, entry, res); err != nil {
			return err
		}
	}
	saved, body, err := m.current(ctx, db, id)
	if err != nil || body == nil {
		return errors.Join(err, fault.New(fault.Conflict, fault.MsgConflict))
	}
	httpWrite(w, http.StatusCreated, map[string]any{
		"ok": true, "id": id, "rev": saved.Rev, "url": str(body["url"]), "title": str(body["title"]), "items": written,
	})
	return nil
}

// resolveFeed fetches raw; a web page is searched for the feeds it
// declares (the first three that parse are tried in order). It returns the
// feed's URL (where permanent redirects led) and the fetch, or a 422 on url.
func (m *Module) resolveFeed(ctx context.Context, raw string) (string, fetchResult, error) {
	res, err := m.fetcher.Get(ctx, raw, http.Header{"Accept": {feedAccept}})
	if err != nil {
		if fetchguard.IsBlocked(err) {
			return "", fetchResult{}, fault.Invalid(map[string][]string{"url": {MsgNotAllowed}})
		}
		return "", fetchResult{}, fault.Invalid(map[string][]string{"url": {MsgUnreachable, fetchguard.Failure(err, "feed")}})
	}
	if res.StatusCode != http.StatusOK {
		return "", fetchResult{}, fault.Invalid(map[string][]string{"url": {MsgUnreachable, fmt.Sprintf("HTTP %d %s", res.StatusCode, http.StatusText(res.StatusCode))}})
	}
	feedURL := normalizeURL(raw)
	if res.Permanent {
		feedURL = normalizeURL(res.URL.String())
	}
	if f, err := parseFeed(res.Body, res.URL, m.now()); err == nil {
		return feedURL, fetchResult{Status: res.StatusCode, Feed: f, ETag: res.Header.Get("ETag"), LastModified: res.Header.Get("Last-Modified")}, nil
	}
	if !looksLikeHTMLPage(res.Header.Get("Content-Type"), res.Body) {
		return "", fetchResult{}, fault.Invalid(map[string][]string{"url": {MsgNotAFeed}})
	}
	found := discover(res.Body, res.URL)
	for _, c := range found[:min(3, len(found))] {
		fr, err := m.fetcher.Get(ctx, c.URL, http.Header{"Accept": {feedAccept}})
		if err != nil || fr.StatusCode != http.StatusOK {
			continue
		}
		if f, err := parseFeed(fr.Body, fr.URL, m.now()); err == nil {
			u := normalizeURL(c.URL)
			if fr.Permanent {
				u = normalizeURL(fr.URL.String())
			}
			return u, fetchResult{Status: fr.StatusCode, Feed: f, ETag: fr.Header.Get("ETag"), LastModified: fr.Header.Get("Last-Modified")}, nil
		}
	}
	return "", fetchResult{}, fault.Invalid(map[string][]string{"url": {MsgNotAFeed}})
}

// firstState records the subscribing fetch as the URL's state when no
// Group followed it before, so the next round waits for the interval. A
// URL others follow keeps its state: its validators belong to the fetch
// that reached them all.
func (m *Module) firstState(ctx context.Context, s subscriber, res fetchResult) error {
	st, err := m.loadState(ctx, s.URL)
	if err != nil || !st.CheckedAt.IsZero() {
		return err
	}
	now := m.now()
	st = feedState{URL: s.URL, ETag: res.ETag, LastModified: res.LastModified, CheckedAt: now, FetchedAt: now,
		NextAt: now.Add(time.Duration(s.Interval) * time.Minute), LastStatus: res.Status}
	return m.saveState(ctx, st)
}

// refreshRoute answers POST /api/{db}/_reader/refresh (the Group's feeds)
// and POST /api/{db}/_reader/subscriptions/{id}/refresh (one): fetched now,
// each feed at most once a minute, within a time budget.
// → 200 {"ok","feeds","fetched","not_modified","failed","items","partial"}.
func (m *Module) refreshRoute(w http.ResponseWriter, r *http.Request) error {
	db, id := r.PathValue("db"), r.PathValue("id")
	if id != "" {
		if err := m.requireDoc(r.Context(), db, id, KlassSubscription); err != nil {
			return err
		}
	}
	ctx, cancel := context.WithTimeout(r.Context(), refreshBudget)
	defer cancel()
	st, err := m.refreshGroup(ctx, db, id)
	partial := errors.Is(err, context.DeadlineExceeded)
	if err != nil && !partial {
		return err
	}
	httpWrite(w, http.StatusOK, map[string]any{
		"ok": true, "feeds": st.Due, "fetched": st.Fetched, "not_modified": st.NotModified,
		"failed": st.Failed, "items": st.Written, "partial": partial,
	})
	return nil
}

// statusRoute answers GET /api/{db}/_reader/subscriptions/{id}/status: the
// fetch state of the subscription's feed.
func (m *Module) statusRoute(w http.ResponseWriter, r *http.Request) error {
	db, id := r.PathValue("db"), r.PathValue("id")
	if ids.Klass(id) != KlassSubscription {
		return fault.New(fault.NotFound, "missing")
	}
	_, body, err := m.current(r.Context(), db, id)
	if err != nil {
		return err
	}
	if body == nil || str(body["klass"]) != KlassSubscription {
		return fault.New(fault.NotFound, "missing")
	}
	u := normalizeURL(str(body["url"]))
	st, err := m.loadState(r.Context(), u)
	if err != nil {
		return err
	}
	out := map[string]any{
		"id": id, "url": u, "fetch_status": str(body["fetch_status"]), "fetch_error": str(body["fetch_error"]),
		"errors": st.Errors, "last_error": st.LastError, "last_status": st.LastStatus,
		"checked_at": stamp(st.CheckedAt), "fetched_at": stamp(st.FetchedAt), "next_at": stamp(st.NextAt),
	}
	if out["fetch_status"] == "" {
		out["fetch_status"] = "pending"
	}
	httpWrite(w, http.StatusOK, out)
	return nil
}

func stamp(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UTC().Format(time.RFC3339)
}

// requireDoc is 404 unless id is a live document of klass in db.
func (m *Module) requireDoc(ctx context.Context, db, id, klass string) error {
	if ids.Klass(id) != klass {
		return fault.New(fault.NotFound, "missing")
	}
	ok, err := liveDoc(ctx, m.deps.Store, db, id, klass)
	if err != nil {
		return err
	}
	if !ok {
		return fault.New(fault.NotFound, "missing")
	}
	return nil
}
