package wiki

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/stream"
)

// The page index: what search, recents, categories, titles and the
// rendering of links read. Each process keeps, per Group, the pages'
// titles, categories, stamps and folded text in memory, and checks it
// against the store on every use: the db's update sequence (one read); if
// it moved, the changes feed since the sequence the index reflects (ids
// only) names the pages to read again. So the index is as fresh as the
// store on every request, on any instance (a Lambda instance builds it at
// its first wiki request: one List of the Group's pages). Groups are
// evicted least recently used beyond the cache's size.
type pageCache struct {
	st       store.Store
	max      int   // Groups kept
	maxBytes int64 // text kept, all Groups together
	mu       sync.Mutex
	dbs      map[string]*dbPages
	tick     uint64
}

type dbPages struct {
	mu    sync.Mutex // one refresh at a time
	used  uint64
	bytes int64 // text held (read under pageCache.mu)
	seq   uint64
	built bool
	pages map[string]*pageEntry
	snap  *pageSnap // immutable; replaced after a refresh that changed something
}

// pageEntry is one page as the index keeps it.
type pageEntry struct {
	ID         string
	Title      string
	Norm       string // normTitle
	FoldTitle  string // fold(title)
	Categories []string
	UpdatedAt  string
	UpdatedBy  *stream.Who
	History    []string // normalised former titles
	Content    string   // as written (for snippets)
	Fold       string   // fold(content): what matching reads
}

// pageSnap is a consistent view: pages by id, by normalised title, and
// former titles (latest rename wins), sorted by title.
type pageSnap struct {
	byID    map[string]*pageEntry
	byTitle map[string]*pageEntry
	byOld   map[string]*pageEntry
	sorted  []*pageEntry
	bytes   int64 // text held
}

func newPageCache(st store.Store, max int, maxBytes int64) *pageCache {
	return &pageCache{st: st, max: max, maxBytes: maxBytes, dbs: map[string]*dbPages{}}
}

// evict drops the least recently used Groups (never keep) while the cache
// holds too many or too much. Called with c.mu held.
func (c *pageCache) evict(keep string) {
	var total int64
	for _, v := range c.dbs {
		total += v.bytes
	}
	for len(c.dbs) > 1 && (len(c.dbs) > c.max || total > c.maxBytes) {
		var oldest string
		var at uint64 = ^uint64(0)
		for k, v := range c.dbs {
			if k != keep && v.used < at {
				oldest, at = k, v.used
			}
		}
		if oldest == "" {
			return
		}
		total -= c.dbs[oldest].bytes
		delete(c.dbs, oldest)
	}
}

// maxChangesRefresh is how many changed documents a refresh reads through
// the changes feed before it lists the Group's pages instead.
const maxChangesRefresh = 2000

// get returns db's pages as of now.
func (c *pageCache) get(ctx context.Context, db string) (*pageSnap, error) {
	s, err := c.refresh(ctx, db)
	if err == nil {
		c.mu.Lock()
		if p := c.dbs[db]; p != nil {
			p.bytes = s.bytes
		}
		c.evict(db)
		c.mu.Unlock()
	}
	return s, err
}

// refresh brings db's pages up to the store's update sequence.
func (c *pageCache) refresh(ctx context.Context, db string) (*pageSnap, error) {
	c.mu.Lock()
	c.tick++
	p := c.dbs[db]
	if p == nil {
		p = &dbPages{pages: map[string]*pageEntry{}}
		c.dbs[db] = p
		c.evict(db)
	}
	p.used = c.tick
	c.mu.Unlock()

	p.mu.Lock()
	defer p.mu.Unlock()
	info, err := c.st.DBInfo(ctx, db)
	if err != nil {
		return nil, err
	}
	if p.built && info.UpdateSeq == p.seq {
		return p.snap, nil
	}
	if !p.built || info.UpdateSeq < p.seq {
		if err := c.build(ctx, db, p, info.UpdateSeq); err != nil {
			return nil, err
		}
		return p.snap, nil
	}
	changed := false
	since := p.seq
	seen := 0
	for {
		rows, err := c.st.Changes(ctx, db, store.ChangesQuery{Since: since, Limit: 500})
		if err != nil {
			return nil, err
		}
		if len(rows) == 0 {
			break
		}
		seen += len(rows)
		if seen > maxChangesRefresh {
			if err := c.build(ctx, db, p, info.UpdateSeq); err != nil {
				return nil, err
			}
			return p.snap, nil
		}
		var ids []string
		for _, r := range rows {
			since = max(since, r.Seq)
			if strings.HasPrefix(r.ID, "han-") {
				ids = append(ids, r.ID)
			}
		}
		got := make([]*pageEntry, len(ids))
		gone := make([]bool, len(ids))
		if err := parallel(ctx, len(ids), 8, func(ctx context.Context, i int) error {
			d, err := c.st.Get(ctx, db, ids[i])
			switch {
			case err == nil:
				got[i] = entryOf(d)
				gone[i] = got[i] == nil
			case errors.Is(err, store.ErrNotFound), errors.Is(err, store.ErrDeleted):
				gone[i] = true
			default:
				return err
			}
			return nil
		}); err != nil {
			return nil, err
		}
		for i, id := range ids {
			switch {
			case gone[i]:
				if _, ok := p.pages[id]; ok {
					delete(p.pages, id)
					changed = true
				}
			default:
				p.pages[id] = got[i]
				changed = true
			}
		}
		if len(rows) < 500 {
			break
		}
	}
	p.seq = max(since, p.seq)
	if changed || p.snap == nil {
		p.snap = snapOf(p.pages)
	}
	return p.snap, nil
}

// build lists every page of db.
func (c *pageCache) build(ctx context.Context, db string, p *dbPages, seq uint64) error {
	pages := map[string]*pageEntry{}
	q := store.ListQuery{Klass: KlassHandbook, Limit: 500}
	for {
		page, err := c.st.List(ctx, db, q)
		if err != nil {
			return err
		}
		for _, d := range page.Docs {
			if e := entryOf(d); e != nil {
				pages[d.ID] = e
			}
		}
		if page.Next == "" {
			break
		}
		q.After = page.Next
	}
	// Writes that landed while listing are read again at the next use: the
	// sequence taken before the list is the one the index claims.
	p.pages, p.seq, p.built = pages, seq, true
	p.snap = snapOf(pages)
	return nil
}

func entryOf(d store.Doc) *pageEntry {
	if d.Deleted || d.Klass != KlassHandbook {
		return nil
	}
	var b struct {
		Title      string         `json:"title"`
		Content    string         `json:"content"`
		Categories []string       `json:"categories"`
		UpdatedAt  string         `json:"updated_at"`
		UpdatedBy  *stream.Who    `json:"updated_by"`
		History    []titleVersion `json:"title_history"`
	}
	if json.Unmarshal(d.Body, &b) != nil {
		return nil
	}
	e := &pageEntry{ID: d.ID, Title: b.Title, Norm: normTitle(b.Title), FoldTitle: fold(b.Title), Categories: b.Categories,
		UpdatedAt: b.UpdatedAt, UpdatedBy: b.UpdatedBy, Content: b.Content, Fold: fold(b.Content)}
	for _, h := range b.History {
		e.History = append(e.History, normTitle(h.Title))
	}
	return e
}

func snapOf(pages map[string]*pageEntry) *pageSnap {
	s := &pageSnap{byID: make(map[string]*pageEntry, len(pages)), byTitle: make(map[string]*pageEntry, len(pages)), byOld: map[string]*pageEntry{}}
	for id, e := range pages {
		s.byID[id] = e
		s.sorted = append(s.sorted, e)
		s.bytes += int64(len(e.Content) + len(e.Fold) + len(e.Title)*2 + 200)
	}
	slices.SortFunc(s.sorted, func(a, b *pageEntry) int {
		if c := strings.Compare(a.Norm, b.Norm); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	for _, e := range s.sorted {
		if _, dup := s.byTitle[e.Norm]; !dup {
			s.byTitle[e.Norm] = e
		}
	}
	// Former titles: the most recently changed page that had it.
	byTime := slices.Clone(s.sorted)
	slices.SortStableFunc(byTime, func(a, b *pageEntry) int { return strings.Compare(b.UpdatedAt, a.UpdatedAt) })
	for _, e := range byTime {
		for _, h := range e.History {
			if _, ok := s.byOld[h]; !ok {
				s.byOld[h] = e
			}
		}
	}
	return s
}

// resolve finds the page a title names: its current title, else a
// former one (redirected).
func (s *pageSnap) resolve(title string) (*pageEntry, bool) {
	n := normTitle(title)
	if e := s.byTitle[n]; e != nil {
		return e, false
	}
	if e := s.byOld[n]; e != nil {
		return e, true
	}
	return nil, false
}

// fold is the form search compares: NFD without combining marks, lower
// case ("Manutenção" and "manutencao" match), one rune to at most one.
func fold(s string) string {
	if s == "" {
		return ""
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		b.WriteString(foldRune(r))
	}
	return b.String()
}

// foldRune folds one rune (may return "" for a lone combining mark).
func foldRune(r rune) string {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return string(r)
	}
	var out []rune
	for _, x := range norm.NFD.String(string(r)) {
		if unicode.Is(unicode.Mn, x) {
			continue
		}
		out = append(out, unicode.ToLower(x))
	}
	return string(out)
}
