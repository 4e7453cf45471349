// Package mango implements CouchDB Mango _find in pure Go: parsing the
// request body, matching selectors with CouchDB's semantics and collation,
// sorting, paging with skip/limit/bookmark and projecting fields.
//
// It does not read storage. The HTTP layer picks the candidate documents
// (one klass partition when Equality("klass") says so, otherwise the whole
// database) and streams them into Run, which decodes only the members the
// selector and sort read and fully decodes only the returned page.
package mango

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
)

const (
	// DefaultLimit is CouchDB's default page size.
	DefaultLimit = 25
	// MaxLimit bounds a page; larger limits are lowered to it silently (the
	// bookmark then continues where the page stopped).
	MaxLimit = 10000
	// maxSkip keeps skip+limit within int on every platform.
	maxSkip = math.MaxInt32
)

// Find is a parsed _find request. Fields are read-only after ParseFind,
// except Limit and Skip, which a caller may lower.
//
// Rows are ordered by Sort, field by field, each ascending or descending
// (directions may be mixed and no index is needed), then by _id in the
// direction of the last sort field, or by _id alone without a sort: that is
// CouchDB's order wherever CouchDB accepts the sort. A document lacking a
// sort field sorts below null (first ascending, last descending), where
// CouchDB would drop it for having no entry in the index; add
// {"field": {"$exists": true}} to the selector to get CouchDB's rows.
type Find struct {
	Selector *Selector
	Fields   []string    // nil: whole documents
	Sort     []SortField // nil: _id order
	Limit    int
	Skip     int
	Bookmark string // as received; "" when absent

	proj  *projection
	after *position // decoded Bookmark
	hash  uint32
	// top-level members Run must decode; needID/needRev: the selector or
	// sort reads _id/_rev, which come from Candidate.
	top             []string
	needID, needRev bool
	idDesc          bool
}

// SortField is one sort criterion.
type SortField struct {
	Field string
	Desc  bool
	path  []string
}

// Candidate is a document offered to Run. Body is the JSON object without
// _id and _rev. Run copies the bodies it keeps, so the caller may reuse the
// buffer once next is called again.
type Candidate struct {
	ID, Rev string
	Body    []byte
}

// Result is one page of a _find response.
type Result struct {
	Docs     []map[string]any // projected to Fields
	Bookmark string           // pass back to continue after the last row
}

var ignoredKeys = map[string]bool{
	"use_index": true, "r": true, "conflicts": true, "execution_stats": true,
	"update": true, "stable": true, "allow_fallback": true,
}

// ParseFind parses and validates a _find request body. Every error is a
// *fault.Error of kind BadRequest.
func ParseFind(body []byte) (*Find, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var raw any
	if err := dec.Decode(&raw); err != nil {
		return nil, bad("invalid UTF-8 JSON")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, bad("invalid UTF-8 JSON")
	}
	obj, ok := raw.(map[string]any)
	if !ok {
		return nil, bad("request body must be a JSON object")
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		switch {
		case ignoredKeys[k]:
		case k == "selector", k == "fields", k == "sort", k == "limit", k == "skip", k == "bookmark":
		default:
			return nil, badf("invalid key %s for this request", k)
		}
	}

	f := &Find{Limit: DefaultLimit}
	sel, ok := obj["selector"]
	if !ok {
		return nil, bad("missing required key: selector")
	}
	var err error
	if f.Selector, err = compileSelector(sel); err != nil {
		return nil, err
	}
	if v, ok := obj["fields"]; ok {
		if err := f.parseFields(v); err != nil {
			return nil, err
		}
	}
	if v, ok := obj["sort"]; ok {
		if err := f.parseSort(v); err != nil {
			return nil, err
		}
	}
	if v, ok := obj["limit"]; ok {
		n, ok := nonNegInt(v, MaxLimit)
		if !ok {
			return nil, bad("limit must be a non-negative integer")
		}
		f.Limit = n
	}
	if v, ok := obj["skip"]; ok {
		n, ok := nonNegInt(v, maxSkip)
		if !ok {
			return nil, bad("skip must be a non-negative integer")
		}
		f.Skip = n
	}
	f.hash = sortHash(f.Sort)
	if v, ok := obj["bookmark"]; ok && v != nil {
		s, ok := v.(string)
		if !ok {
			return nil, bad("invalid bookmark value")
		}
		if s != "" && s != noBookmark {
			if f.after, err = decodeBookmark(s, f.hash, len(f.Sort)); err != nil {
				return nil, err
			}
			f.Bookmark = s
		}
	}

	set := map[string]bool{}
	f.Selector.root.topFields(set)
	for _, s := range f.Sort {
		set[s.path[0]] = true
	}
	f.needID, f.needRev = set["_id"], set["_rev"]
	delete(set, "_id")
	delete(set, "_rev")
	for k := range set {
		f.top = append(f.top, k)
	}
	slices.Sort(f.top)
	// _id breaks ties in the direction of the last sort field, which is
	// CouchDB's order when every field goes the same way.
	f.idDesc = len(f.Sort) > 0 && f.Sort[len(f.Sort)-1].Desc
	return f, nil
}

// nonNegInt accepts an integer literal >= 0, capping it at max (an integer
// too large for int64 is still a valid, capped, request).
func nonNegInt(v any, max int) (int, bool) {
	n, ok := v.(json.Number)
	if !ok || strings.ContainsAny(string(n), ".eE") || strings.HasPrefix(string(n), "-") {
		return 0, false
	}
	i, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil || i > int64(max) {
		return max, true
	}
	return int(i), true
}

func (f *Find) parseFields(v any) error {
	arr, ok := v.([]any)
	if !ok {
		return bad("fields must be an array of strings")
	}
	if len(arr) > MaxFields {
		return errTooManyFields()
	}
	for _, e := range arr {
		s, ok := e.(string)
		if !ok {
			return bad("fields must be an array of strings")
		}
		f.Fields = append(f.Fields, s)
	}
	if len(f.Fields) == 0 {
		// CouchDB: [] means every field.
		f.Fields = nil
		return nil
	}
	var err error
	f.proj, err = compileFields(f.Fields, true)
	return err
}

func (f *Find) parseSort(v any) error {
	arr, ok := v.([]any)
	if !ok {
		return bad("sort must be an array")
	}
	if len(arr) > MaxSortFields {
		return badf("sort: at most %d fields", MaxSortFields)
	}
	for _, e := range arr {
		var sf SortField
		switch t := e.(type) {
		case string:
			sf.Field = t
		case map[string]any:
			if len(t) != 1 {
				return badf("invalid sort field: %s", jsonText(t))
			}
			for k, d := range t {
				sf.Field = k
				switch d {
				case "asc":
				case "desc":
					sf.Desc = true
				default:
					return badf("invalid sort direction: %s", jsonText(d))
				}
			}
		default:
			return badf("invalid sort field: %s", jsonText(t))
		}
		if sf.Field == "" {
			return badf("invalid sort field: %s", jsonText(e))
		}
		path, err := parseField(sf.Field)
		if err != nil {
			return err
		}
		sf.path = path
		f.Sort = append(f.Sort, sf)
	}
	return nil
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// Equality returns the string the selector requires field to equal, when a
// top-level $eq (possibly inside top-level $and) on a string says so.
func (f *Find) Equality(field string) (string, bool) {
	return f.Selector.Equality(field)
}

type row struct {
	id, rev string
	keys    []any
	body    []byte
}

// Run matches, sorts and pages the candidates next yields (until it
// returns false) and returns the page with its documents decoded and
// projected. Candidates must have distinct IDs. With Limit 0, next is never
// called. An error means a candidate body was not valid JSON.
//
// An empty page returns the request's bookmark (or "nil", as CouchDB does)
// so a client walking pages sees the end without restarting.
func (f *Find) Run(next func() (Candidate, bool)) (Result, error) {
	k, ok := f.keep()
	if !ok {
		return f.page(nil)
	}
	rows, err := f.collect(k, next)
	if err != nil {
		return Result{}, err
	}
	return f.page(rows)
}

// RunInOrder is Run over candidates that come in the page's order (the
// caller reads an index keyed by the one sort field, ties by _id in the
// same direction): it stops reading once skip+limit rows matched, so a
// page of a large klass reads about a page of documents. Candidates in any
// other order give wrong pages.
func (f *Find) RunInOrder(next func() (Candidate, bool)) (Result, error) {
	k, ok := f.keep()
	if !ok {
		return f.page(nil)
	}
	rows, err := f.collectUpTo(k, true, next)
	if err != nil {
		return Result{}, err
	}
	return f.page(rows)
}

// RunParallel is Run over batches of candidates that workers goroutines
// match at once, each keeping its own best rows, merged at the end: a
// klass scan hands its documents over as it reads them, and the matching,
// most of a _find's work, uses every core. It reads batches until the
// channel is closed; after an error the caller must still drain it. A
// batch's bodies must stay valid until RunParallel returns.
func (f *Find) RunParallel(workers int, batches <-chan []Candidate) (Result, error) {
	k, ok := f.keep()
	if !ok {
		return f.page(nil)
	}
	parts := make([][]row, max(workers, 1))
	errs := make([]error, len(parts))
	var wg sync.WaitGroup
	for w := range parts {
		wg.Go(func() {
			var (
				cur []Candidate
				pos int
			)
			parts[w], errs[w] = f.collect(k, func() (Candidate, bool) {
				for pos >= len(cur) {
					b, ok := <-batches
					if !ok {
						return Candidate{}, false
					}
					cur, pos = b, 0
				}
				pos++
				return cur[pos-1], true
			})
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return Result{}, err
	}
	rows := slices.Concat(parts...)
	slices.SortFunc(rows, func(a, b row) int { return f.cmp(a.keys, a.id, b.keys, b.id) })
	return f.page(rows[:min(len(rows), k)])
}

// keep is how many rows a page needs before skip (false: none at all).
func (f *Find) keep() (int, bool) {
	limit, skip := min(f.Limit, MaxLimit), min(max(f.Skip, 0), maxSkip)
	return skip + limit, limit > 0
}

// collect matches the candidates next yields and returns the best k rows,
// in no particular order.
func (f *Find) collect(k int, next func() (Candidate, bool)) ([]row, error) {
	return f.collectUpTo(k, false, next)
}

// collectUpTo is collect; ordered (the candidates come best first) stops at
// the k-th matching row.
func (f *Find) collectUpTo(k int, ordered bool, next func() (Candidate, bool)) ([]row, error) {
	h := &rowHeap{f: f, rows: make([]row, 0, min(k, 1024))}
	m := make(map[string]any, len(f.top)+2)
	keys := make([]any, len(f.Sort))
	extract := len(f.top) > 0
	dec := newDecoder(len(f.top))
	for {
		c, ok := next()
		if !ok {
			break
		}
		clear(m)
		if f.needID {
			m["_id"] = c.ID
		}
		if f.needRev {
			m["_rev"] = c.Rev
		}
		if extract {
			if err := dec.extractTop(c.Body, f.top, m); err != nil {
				return nil, fmt.Errorf("mango: document %q: %w", c.ID, err)
			}
		}
		if !f.Selector.root.match(m) {
			continue
		}
		for i, s := range f.Sort {
			v, st := lookup(m, s.path)
			if st != found {
				v = missingValue{}
			}
			keys[i] = v
		}
		if f.after != nil && f.cmp(keys, c.ID, f.after.keys, f.after.id) <= 0 {
			continue
		}
		if len(h.rows) == k {
			if f.cmp(keys, c.ID, h.rows[0].keys, h.rows[0].id) >= 0 {
				continue
			}
			h.rows[0] = row{id: c.ID, rev: c.Rev, keys: slices.Clone(keys), body: slices.Clone(c.Body)}
			h.down(0)
			continue
		}
		h.rows = append(h.rows, row{id: c.ID, rev: c.Rev, keys: slices.Clone(keys), body: slices.Clone(c.Body)})
		h.up(len(h.rows) - 1)
		if ordered && len(h.rows) == k {
			break
		}
	}
	return h.rows, nil
}

// page sorts the kept rows, applies skip and decodes the page.
func (f *Find) page(rows []row) (Result, error) {
	res := Result{Bookmark: f.Bookmark}
	if res.Bookmark == "" {
		res.Bookmark = noBookmark
	}
	skip := min(max(f.Skip, 0), maxSkip)
	slices.SortFunc(rows, func(a, b row) int { return f.cmp(a.keys, a.id, b.keys, b.id) })
	if skip >= len(rows) {
		return res, nil
	}
	rows = rows[skip:]
	res.Docs = make([]map[string]any, 0, len(rows))
	for _, r := range rows {
		doc, err := decodeDoc(r)
		if err != nil {
			return Result{}, fmt.Errorf("mango: document %q: %w", r.id, err)
		}
		if f.proj != nil {
			doc = f.proj.apply(doc)
		}
		res.Docs = append(res.Docs, doc)
	}
	last := rows[len(rows)-1]
	var err error
	if res.Bookmark, err = encodeBookmark(f.hash, last.keys, last.id); err != nil {
		return Result{}, fmt.Errorf("mango: bookmark: %w", err)
	}
	return res, nil
}

// decodeDoc fully decodes a returned row with encoding/json and UseNumber,
// so numbers go back to the client exactly as stored.
func decodeDoc(r row) (map[string]any, error) {
	doc := map[string]any{}
	if len(bytes.TrimSpace(r.body)) > 0 {
		dec := json.NewDecoder(bytes.NewReader(r.body))
		dec.UseNumber()
		if err := dec.Decode(&doc); err != nil {
			return nil, err
		}
	}
	doc["_id"] = r.id
	if r.rev != "" {
		doc["_rev"] = r.rev
	}
	return doc, nil
}

// cmp orders rows by the sort keys, then by _id.
func (f *Find) cmp(ak []any, aid string, bk []any, bid string) int {
	for i, s := range f.Sort {
		if c := Collate(ak[i], bk[i]); c != 0 {
			if s.Desc {
				return -c
			}
			return c
		}
	}
	c := strings.Compare(aid, bid)
	if f.idDesc {
		return -c
	}
	return c
}

// rowHeap is a max-heap (the worst kept row at the root) holding the best
// skip+limit rows seen, so a page costs O(n log k) and k bodies of memory.
type rowHeap struct {
	f    *Find
	rows []row
}

func (h *rowHeap) less(i, j int) bool {
	a, b := &h.rows[i], &h.rows[j]
	return h.f.cmp(a.keys, a.id, b.keys, b.id) > 0
}

func (h *rowHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(i, p) {
			return
		}
		h.rows[i], h.rows[p] = h.rows[p], h.rows[i]
		i = p
	}
}

func (h *rowHeap) down(i int) {
	n := len(h.rows)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		j := l
		if r := l + 1; r < n && h.less(r, l) {
			j = r
		}
		if !h.less(j, i) {
			return
		}
		h.rows[i], h.rows[j] = h.rows[j], h.rows[i]
		i = j
	}
}
