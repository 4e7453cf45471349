package wiki

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"golang.org/x/text/unicode/norm"

	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/store"
)

// Titles are unique in a Group, compared case-insensitively with white
// space collapsed (normTitle). Uniqueness and [[Title]] resolution rest on
// two kinds of store record, each keyed by db and normalised title:
//
//   - a claim (kindTitle → {id, at}) says which page holds a title. It is
//     written by the write path before the page is stored, so two pages
//     cannot take one title at once; it is a hint checked against the
//     page itself (a claim whose page is gone or now titled otherwise is
//     stale and may be taken over, once it is older than claimGrace: a
//     write that claimed and then lost its revision check leaves one);
//   - a redirect (kindOldTitle → {id}) says which page last had a title
//     it was renamed from; it counts only while that page's title_history
//     still lists the title and no page holds it as its current title.
const (
	kindTitle    = "wiki-title"
	kindOldTitle = "wiki-oldtitle"
	claimGrace   = time.Minute
)

// normTitle is the comparison form of a title: NFC, lower case, white
// space collapsed.
func normTitle(t string) string {
	return strings.ToLower(strings.Join(strings.Fields(norm.NFC.String(t)), " "))
}

type claim struct {
	ID string `json:"id"`
	At int64  `json:"at"` // unix milliseconds
}

func titleKey(db, n string) string { return db + "\x00" + n }

// page is what the title checks read of a page.
type pageHead struct {
	Live    bool
	Title   string
	History []string // normalised former titles
}

// head reads a page's title and former titles (Live false when it is not
// a live handbook of db).
func (m *Module) head(ctx context.Context, db, id string) (pageHead, error) {
	d, err := m.st.Get(ctx, db, id)
	switch {
	case errors.Is(err, store.ErrNotFound), errors.Is(err, store.ErrDeleted):
		return pageHead{}, nil
	case err != nil:
		return pageHead{}, err
	}
	if d.Klass != KlassHandbook {
		return pageHead{}, nil
	}
	var b struct {
		Title   string         `json:"title"`
		History []titleVersion `json:"title_history"`
	}
	if json.Unmarshal(d.Body, &b) != nil {
		return pageHead{}, nil
	}
	h := pageHead{Live: true, Title: b.Title}
	for _, v := range b.History {
		h.History = append(h.History, normTitle(v.Title))
	}
	return h, nil
}

// claimTitle makes id the holder of title n in db, or refuses with 422
// "has already been taken" when another live page holds it.
func (m *Module) claimTitle(ctx context.Context, db, n, id string) error {
	key := titleKey(db, n)
	for range 10 {
		prev, cur, err := readRecord[claim](ctx, m.st, kindTitle, key)
		if err != nil {
			return err
		}
		if cur.ID == id {
			return nil
		}
		if cur.ID != "" {
			h, err := m.head(ctx, db, cur.ID)
			if err != nil {
				return err
			}
			fresh := m.now().Sub(time.UnixMilli(cur.At)) < claimGrace
			if (h.Live && normTitle(h.Title) == n) || fresh {
				return fault.Invalid(map[string][]string{"title": {fault.AlreadyTaken}})
			}
		}
		raw, _ := json.Marshal(claim{ID: id, At: m.now().UnixMilli()})
		w := store.RecordWrite{Record: store.Record{Kind: kindTitle, Key: key, Value: raw}}
		if cur.ID == "" && prev == nil {
			w.ExpectAbsent = true
		} else {
			w.Expect = prev
			if w.Expect == nil {
				w.Expect = []byte{}
			}
		}
		err = m.st.Transact(ctx, []store.RecordWrite{w})
		if errors.Is(err, store.ErrConflict) {
			continue // someone else claimed or released it: look again
		}
		return err
	}
	return fault.New(fault.Conflict, fault.MsgConflict)
}

// releaseTitle drops id's claim on n (a rename or a delete), leaving
// another page's claim alone.
func (m *Module) releaseTitle(ctx context.Context, db, n, id string) error {
	key := titleKey(db, n)
	r, err := m.st.GetRecord(ctx, kindTitle, key)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	} else if err != nil {
		return err
	}
	var cur claim
	if json.Unmarshal(r.Value, &cur) != nil || cur.ID != id {
		return nil
	}
	err = m.st.Transact(ctx, []store.RecordWrite{{Record: store.Record{Kind: kindTitle, Key: key}, Delete: true, Expect: r.Value}})
	if errors.Is(err, store.ErrConflict) {
		return nil // taken over meanwhile
	}
	return err
}

// redirect records that id was renamed away from n.
func (m *Module) redirect(ctx context.Context, db, n, id string) error {
	raw, _ := json.Marshal(claim{ID: id, At: m.now().UnixMilli()})
	return m.st.PutRecord(ctx, store.Record{Kind: kindOldTitle, Key: titleKey(db, n), Value: raw}, false)
}

// resolveTitle finds the live page of db a title names: the page holding
// it, else the page renamed away from it (redirected).
func (m *Module) resolveTitle(ctx context.Context, db, title string) (id string, redirected bool, err error) {
	n := normTitle(title)
	if n == "" {
		return "", false, nil
	}
	for _, kind := range []string{kindTitle, kindOldTitle} {
		r, err := m.st.GetRecord(ctx, kind, titleKey(db, n))
		if errors.Is(err, store.ErrNotFound) {
			continue
		} else if err != nil {
			return "", false, err
		}
		var c claim
		if json.Unmarshal(r.Value, &c) != nil || c.ID == "" {
			continue
		}
		h, err := m.head(ctx, db, c.ID)
		if err != nil {
			return "", false, err
		}
		if !h.Live {
			continue
		}
		if normTitle(h.Title) == n {
			return c.ID, false, nil
		}
		if kind == kindOldTitle {
			for _, old := range h.History {
				if old == n {
					return c.ID, true, nil
				}
			}
		}
	}
	return "", false, nil
}
