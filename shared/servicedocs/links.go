package servicedocs

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"time"

	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/httpjson"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/store"
)

// Public links: a document's secret token is kept on the document, so
// members can print and share it; a record keyed by the token's SHA-256
// finds the document from the public page. A lookup also checks the token
// still stands on the live document, so a re-issued, deleted or moved-on
// token answers the same 404 as an unknown one.
//
// A token is 21 bytes, base64url (28 characters): its issue time (Unix
// milliseconds, 6 bytes, big-endian) and 120 random bits. Its record's key
// starts with that time, so the links of new tickets go to the end of the
// records' key order instead of each to a random page of it: on the
// embedded store a burst of new tickets then rewrites one page of the
// records per commit instead of one per ticket (pages written per commit
// 86 → 64, new-ticket PUTs 1.10–1.13×, docs/figures.md). Tokens issued
// before were 20 random bytes (27 characters) keyed by their hash alone;
// they keep working.
const (
	recordKind   = "public-link"
	kindStatus   = "status"
	kindEstimate = "estimate"
	kindCalendar = "calendar"
	timeBytes    = 6
	tokenBytes   = timeBytes + 15
	// untimedTokenLen is the length of a token issued before tokens began
	// with their time.
	untimedTokenLen = 27
)

// tokenRe is the shape of a token; anything else is refused before a read.
var tokenRe = regexp.MustCompile(`^[A-Za-z0-9_-]{27,28}$`)

// newToken issues a token at now.
func newToken(now time.Time) (string, error) {
	b := make([]byte, tokenBytes)
	var t [8]byte
	binary.BigEndian.PutUint64(t[:], uint64(now.UnixMilli()))
	copy(b, t[8-timeBytes:])
	if _, err := rand.Read(b[timeBytes:]); err != nil {
		return "", fmt.Errorf("servicedocs: token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// linkKey is the record key of a token of kind (one tokenRe accepts):
// "<kind>:<time in hex>:<SHA-256 in hex>", or "<kind>:<SHA-256 in hex>"
// for a token issued before tokens began with their time.
func linkKey(kind, token string) string {
	sum := sha256.Sum256([]byte(token))
	if len(token) == untimedTokenLen {
		return kind + ":" + hex.EncodeToString(sum[:])
	}
	raw, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil || len(raw) < timeBytes {
		// Not one of ours: a key no link has.
		return kind + ":" + hex.EncodeToString(sum[:])
	}
	return kind + ":" + hex.EncodeToString(raw[:timeBytes]) + ":" + hex.EncodeToString(sum[:])
}

type link struct {
	DB string `json:"db"`
	ID string `json:"id,omitempty"`
}

func (m *Module) putLink(ctx context.Context, kind, token string, l link) error {
	v, err := json.Marshal(l)
	if err != nil {
		return err
	}
	if err := m.deps.Store.PutRecord(ctx, store.Record{Kind: recordKind, Key: linkKey(kind, token), Value: v}, false); err != nil {
		return fmt.Errorf("servicedocs: store link: %w", err)
	}
	return nil
}

// lookup finds the live document a token of kind stands on (field holds
// it); every miss is the same 404.
func (m *Module) lookup(ctx context.Context, kind, field, klass, token string) (link, store.Doc, map[string]any, error) {
	if !tokenRe.MatchString(token) {
		return link{}, store.Doc{}, nil, notFound()
	}
	rec, err := m.deps.Store.GetRecord(ctx, recordKind, linkKey(kind, token))
	if errors.Is(err, store.ErrNotFound) {
		return link{}, store.Doc{}, nil, notFound()
	}
	if err != nil {
		return link{}, store.Doc{}, nil, fmt.Errorf("servicedocs: read link: %w", err)
	}
	var l link
	if err := json.Unmarshal(rec.Value, &l); err != nil {
		return link{}, store.Doc{}, nil, fmt.Errorf("servicedocs: decode link: %w", err)
	}
	d, body, err := m.get(ctx, l.DB, l.ID)
	if err != nil {
		return l, d, nil, err
	}
	if body == nil || str(body["klass"]) != klass || str(body[field]) != token {
		return l, d, nil, notFound()
	}
	return l, d, body, nil
}

// tokenRule keeps the link record of a document's token, committed with
// the document itself (docs.Write.Record): written on every save, dropped
// with the document or when its token is re-issued. It runs after the rule
// that sets the token.
func tokenRule(kind, field string) docs.Rule {
	return func(_ context.Context, w *docs.Write) error {
		old := str(w.Old[field])
		if w.Deleting {
			if old != "" {
				w.Record(store.RecordWrite{Record: store.Record{Kind: recordKind, Key: linkKey(kind, old)}, Delete: true})
			}
			return nil
		}
		t := str(w.New[field])
		if old != "" && old != t {
			w.Record(store.RecordWrite{Record: store.Record{Kind: recordKind, Key: linkKey(kind, old)}, Delete: true})
		}
		if t == "" {
			return nil
		}
		v, err := json.Marshal(link{DB: w.DB, ID: w.ID})
		if err != nil {
			return err
		}
		w.Record(store.RecordWrite{Record: store.Record{Kind: recordKind, Key: linkKey(kind, t), Value: v}})
		return nil
	}
}

// reissue answers POST …/status-link and …/approval-link: a new token, so
// whoever holds the old link sees the 404 of an unknown one.
func (m *Module) reissue(kind string) func(w http.ResponseWriter, r *http.Request) error {
	klass, field := KlassTicket, "status_token"
	if kind == kindEstimate {
		klass, field = KlassEstimate, "approval_token"
	}
	return func(w http.ResponseWriter, r *http.Request) error {
		ctx := r.Context()
		db, id := r.PathValue("db"), r.PathValue("id")
		d, body, err := m.getKlass(ctx, db, id, klass)
		if err != nil {
			return err
		}
		token, err := newToken(m.now())
		if err != nil {
			return err
		}
		ctx = context.WithValue(ctx, reissueKey{}, reissue{field: field, token: token})
		if _, err := m.deps.Docs.Save(ctx, module.Principal(r), db, id, d.Rev, body); err != nil {
			return err
		}
		httpjson.Write(w, http.StatusOK, map[string]any{field: token})
		return nil
	}
}

// derivedID is a stable id made from seed, so an effect or handler that
// runs again finds the document it made instead of making a second one.
func derivedID(prefix, seed string) string {
	sum := sha256.Sum256([]byte(seed))
	return prefix + "-" + hex.EncodeToString(sum[:16])
}

// shared answers POST /api/{db}/_estimates/{id}/shared: the approval link
// has gone to the customer (copied, sent by WhatsApp or e-mail), so a draft
// is now sent — the customer never reads "Draft". Any other state stays,
// and nothing is written.
//
//	200 {"state":"sent"|…}
func (m *Module) shared(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	db, id := r.PathValue("db"), r.PathValue("id")
	for attempt := 0; ; attempt++ {
		d, body, err := m.getKlass(ctx, db, id, KlassEstimate)
		if err != nil {
			return err
		}
		if str(body["state"]) != "draft" && str(body["state"]) != "" {
			httpjson.Write(w, http.StatusOK, map[string]any{"state": body["state"]})
			return nil
		}
		body["state"] = "sent"
		_, err = m.deps.Docs.Save(ctx, module.Principal(r), db, id, d.Rev, body)
		if errors.Is(err, store.ErrConflict) && attempt < 3 {
			continue // edited meanwhile: read it again
		}
		if err != nil {
			return err
		}
		httpjson.Write(w, http.StatusOK, map[string]any{"state": "sent"})
		return nil
	}
}
