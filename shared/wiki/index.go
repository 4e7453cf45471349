package wiki

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"

	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/store"
)

// The "linked by" index.
//
// A page's links are a function of its stored body (links and the titles
// it mentions); "linked by" of a page T is the set of live pages whose
// links hold T. The change stream keeps that set in store records, not in
// T's document: writing it into T would give T a new revision whenever
// someone links to it or stops (a spurious 409 for whoever is editing T —
// the very conflict warning this wiki promises would cry wolf), a history
// entry and a snapshot each time, and a page with 100 links would cost 100
// document writes. Served from the index, linked_by is read by the wiki's
// routes (…/html, …/linked_by) in one record read.
//
// Records, keyed by db and id:
//
//	wiki-out  source S → {seq, targets, touched}   what S's body at seq links to
//	wiki-in   target T → {src: {S: seq}, gone: {S: seq}}
//
// Targets are page ids and "~" + a normalised title for every [[title]] a
// page mentions (resolved or wanted), so creating or renaming a page finds
// the pages that name its title.
//
// The reaction (linksChanged) never trusts the change it is handed: it
// reads the page's current revision, so a replayed or reordered change
// applies the newest state (or nothing). It first records its intent in
// S's out record by compare-and-set — the new seq and targets, and the
// targets whose entry may be wrong ("touched": those that changed, plus
// any a previous, unfinished run touched) — then sets S's entry in each
// touched target's in record, stamped with seq and applied only over an
// older stamp (removals leave a "gone" stamp, so a late, older run cannot
// bring S back), and finally clears the intent. A run that loses the
// compare-and-set starts over; a newer run's intent covers every target an
// older, unfinished one may still write; a crash leaves the intent, which
// the next delivery resumes. The stamps are the database sequence of S's
// revision, which only grows.
const (
	kindOut = "wiki-out"
	kindIn  = "wiki-in"
	// maxGone bounds the removal stamps kept per target (the oldest go).
	maxGone = 200
)

type outRec struct {
	Seq     uint64   `json:"seq"`
	Targets []string `json:"targets,omitempty"`
	Touched []string `json:"touched,omitempty"`
}

type inRec struct {
	Src  map[string]uint64 `json:"src,omitempty"`
	Gone map[string]uint64 `json:"gone,omitempty"`
}

func idxKey(db, id string) string { return db + "\x00" + id }

// titleTarget is the index key of pages that mention a title.
func titleTarget(n string) string { return "~" + n }

// targetsOf is what a stored page body links to (sorted).
func targetsOf(body []byte) []string {
	var b struct {
		Links   []string          `json:"links"`
		Targets map[string]string `json:"link_targets"`
		Wanted  []string          `json:"wanted"`
	}
	if json.Unmarshal(body, &b) != nil {
		return nil
	}
	set := map[string]bool{}
	for _, id := range b.Links {
		if handbookID.MatchString(id) {
			set[id] = true
		}
	}
	for n := range b.Targets {
		set[titleTarget(n)] = true
	}
	for _, t := range b.Wanted {
		if n := normTitle(t); n != "" {
			set[titleTarget(n)] = true
		}
	}
	out := make([]string, 0, len(set))
	for t := range set {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// indexLinks brings S's entries in the index to its current revision.
func (m *Module) indexLinks(ctx context.Context, db, id string) error {
	for range 30 {
		d, err := m.st.Get(ctx, db, id)
		var cur []string
		switch {
		case err == nil:
			cur = targetsOf(d.Body)
		case errors.Is(err, store.ErrDeleted):
		case errors.Is(err, store.ErrNotFound), errors.Is(err, store.ErrDBNotFound):
			return nil
		default:
			return err
		}
		seq := d.Seq
		prev, c, err := readRecord[outRec](ctx, m.st, kindOut, idxKey(db, id))
		if err != nil {
			return err
		}
		if prev != nil && (c.Seq > seq || (c.Seq == seq && len(c.Touched) == 0)) {
			return nil // applied already, or a newer revision is being applied
		}
		next := c
		if prev == nil || c.Seq != seq {
			touched := symmetricDiff(c.Targets, cur)
			touched = union(touched, c.Touched)
			next = outRec{Seq: seq, Targets: cur, Touched: touched}
			if !m.casOut(ctx, db, id, prev, next) {
				continue
			}
			prev, _ = json.Marshal(next)
		}
		present := map[string]bool{}
		for _, t := range next.Targets {
			present[t] = true
		}
		if err := parallel(ctx, len(next.Touched), 8, func(ctx context.Context, i int) error {
			t := next.Touched[i]
			return m.setEntry(ctx, db, t, id, next.Seq, present[t])
		}); err != nil {
			return err
		}
		if len(next.Touched) > 0 {
			done := next
			done.Touched = nil
			m.casOut(ctx, db, id, prev, done) // lost: a newer run covers ours
		}
		return nil
	}
	return fmt.Errorf("wiki: links of %s/%s still contended", db, id)
}

// casOut writes S's out record if it still holds expect (nil: absent).
func (m *Module) casOut(ctx context.Context, db, id string, expect []byte, v outRec) bool {
	raw, _ := json.Marshal(v)
	return m.st.Transact(ctx, []store.RecordWrite{store.SwapWrite(kindOut, idxKey(db, id), raw, expect)}) == nil
}

// setEntry stamps S in T's in record (present or gone) if seq is newer
// than S's stamp there.
func (m *Module) setEntry(ctx context.Context, db, target, src string, seq uint64, present bool) error {
	key := idxKey(db, target)
	for range 50 {
		prev, c, err := readRecord[inRec](ctx, m.st, kindIn, key)
		if err != nil {
			return err
		}
		if max(c.Src[src], c.Gone[src]) >= seq {
			return nil
		}
		delete(c.Src, src)
		delete(c.Gone, src)
		if present {
			if c.Src == nil {
				c.Src = map[string]uint64{}
			}
			c.Src[src] = seq
		} else {
			if c.Gone == nil {
				c.Gone = map[string]uint64{}
			}
			c.Gone[src] = seq
			if len(c.Gone) > maxGone {
				pruneGone(c.Gone)
			}
		}
		raw, _ := json.Marshal(c)
		err = m.st.Transact(ctx, []store.RecordWrite{store.SwapWrite(kindIn, key, raw, prev)})
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		return err
	}
	return fmt.Errorf("wiki: linked_by of %s/%s still contended", db, target)
}

// pruneGone keeps the newest maxGone removal stamps.
func pruneGone(g map[string]uint64) {
	type kv struct {
		k string
		v uint64
	}
	all := make([]kv, 0, len(g))
	for k, v := range g {
		all = append(all, kv{k, v})
	}
	slices.SortFunc(all, func(a, b kv) int { return cmp.Compare(b.v, a.v) })
	for _, e := range all[maxGone:] {
		delete(g, e.k)
	}
}

// linkedBy returns the ids of the pages linking to target (sorted).
func (m *Module) linkedBy(ctx context.Context, db, target string) ([]string, error) {
	r, err := m.st.GetRecord(ctx, kindIn, idxKey(db, target))
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	var c inRec
	if err := json.Unmarshal(r.Value, &c); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(c.Src))
	for s := range c.Src {
		out = append(out, s)
	}
	sort.Strings(out)
	return out, nil
}

// linksChanged is the stream reaction to a page change: the index, then
// wanted links that a page's title now answers.
func (m *Module) linksChanged(ctx context.Context, ch store.Change) error {
	db, id := ch.DB, ch.New.ID
	if err := m.indexLinks(ctx, db, id); err != nil {
		return err
	}
	_, body, err := m.livePage(ctx, db, id)
	if err != nil || body == nil {
		return err
	}
	// This page's own wanted links, if their pages exist now.
	for _, t := range docs.Strings(body["wanted"]) {
		if tid, _, err := m.resolveTitle(ctx, db, t); err != nil {
			return err
		} else if tid != "" && tid != id {
			return m.relink(ctx, db, id)
		}
	}
	// Pages that name this page's title without a live target.
	n := normTitle(str(body["title"]))
	if n == "" {
		return nil
	}
	srcs, err := m.linkedBy(ctx, db, titleTarget(n))
	if err != nil {
		return err
	}
	for _, s := range srcs {
		if s == id {
			continue
		}
		if err := m.relinkIfNamed(ctx, db, s, n); err != nil {
			return err
		}
	}
	return nil
}

// relinkIfNamed saves page s again when its [[title]] n is wanted or
// leads to a page that is gone.
func (m *Module) relinkIfNamed(ctx context.Context, db, s, n string) error {
	_, body, err := m.livePage(ctx, db, s)
	if err != nil || body == nil {
		return err
	}
	stale := slices.ContainsFunc(docs.Strings(body["wanted"]), func(t string) bool { return normTitle(t) == n })
	if !stale {
		if mp, ok := body["link_targets"].(map[string]any); ok {
			if tid := str(mp[n]); tid != "" {
				live, err := m.liveSet(ctx, db, []string{tid})
				if err != nil {
					return err
				}
				stale = !live[tid]
			}
		}
	}
	if !stale {
		return nil
	}
	return m.relink(ctx, db, s)
}

// relink saves a page again as the wiki, so the write path resolves its
// links anew (a conflict with a person's save is retried).
func (m *Module) relink(ctx context.Context, db, id string) error {
	for range 5 {
		d, body, err := m.livePage(ctx, db, id)
		if err != nil || body == nil {
			return err
		}
		_, err = m.deps.Docs.Save(ctx, m.server, db, id, d.Rev, body)
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		if err != nil {
			m.log.WarnContext(ctx, "relinking a page failed", "db", db, "id", id, "err", err)
		}
		return nil
	}
	return fmt.Errorf("wiki: relinking %s/%s kept conflicting", db, id)
}

func symmetricDiff(a, b []string) []string {
	in := func(s []string, x string) bool { _, ok := slices.BinarySearch(s, x); return ok }
	a, b = slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b))
	var out []string
	for _, x := range a {
		if !in(b, x) {
			out = append(out, x)
		}
	}
	for _, x := range b {
		if !in(a, x) {
			out = append(out, x)
		}
	}
	sort.Strings(out)
	return out
}

func union(a, b []string) []string {
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
}

// parallel runs fn for 0..n-1, at most par at once; the first error wins.
func parallel(ctx context.Context, n, par int, fn func(ctx context.Context, i int) error) error {
	if n == 0 {
		return nil
	}
	if n == 1 {
		return fn(ctx, 0)
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	sem := make(chan struct{}, par)
	for i := range n {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			if err := fn(ctx, i); err != nil {
				mu.Lock()
				if first == nil {
					first = err
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return first
}

// livePage reads a live page for the stream's follow-ups: nil when it is
// gone or cannot be decoded (there is nothing left to fix then).
func (m *Module) livePage(ctx context.Context, db, id string) (store.Doc, map[string]any, error) {
	d, err := m.st.Get(ctx, db, id)
	if err != nil {
		if isGone(err) {
			return store.Doc{}, nil, nil
		}
		return store.Doc{}, nil, err
	}
	body, err := docs.Decode(d.Body)
	if err != nil {
		return store.Doc{}, nil, nil
	}
	return d, body, nil
}

func isGone(err error) bool {
	return errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrDeleted) || errors.Is(err, store.ErrDBNotFound)
}
