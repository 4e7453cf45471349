package stream

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/oficina/oficina/shared/store"
)

// Timeline event types (SPEC.md §4). Event is always the base type the spec
// defines (create when the revision starts with 1- or the document did not
// exist, destroy when deleted, update otherwise); Events lists it first,
// followed by the more specific types the change shows:
//
//	confirm / unconfirm  a money record's "confirmed" flips
//	status               "status" changes (any klass: tickets, memberships…)
//	close / open         a ticket's status enters / leaves done or cancel
//	                     (the ticket module's EventRule; modules add theirs)
//	bookmark             "bookmark" changes (memberships)
//	billing-email        the billing-email adjustment changes
//	comment              a Comment is created
//	import               a money record is created already "imported"
const (
	EventCreate       = "create"
	EventUpdate       = "update"
	EventDestroy      = "destroy"
	EventConfirm      = "confirm"
	EventUnconfirm    = "unconfirm"
	EventStatus       = "status"
	EventClose        = "close"
	EventOpen         = "open"
	EventBookmark     = "bookmark"
	EventBillingEmail = "billing-email"
	EventComment      = "comment"
	EventImport       = "import"
)

// moneyKlasses are the records with a confirmed/unconfirmed state.
var moneyKlasses = map[string]bool{"Income": true, "Outgo": true, "Exchange": true, "Transfer": true}

// stampFields are written by the server on every save; they say nothing
// about what the user changed.
var stampFields = map[string]bool{"created_at": true, "created_by": true, "updated_at": true, "updated_by": true}

// maxLabel bounds the label copied into a history entry (runes).
const maxLabel = 120

// Who is a user reference as the write path stamps it.
type Who struct {
	ID    string `json:"_id"`
	Label string `json:"label"`
}

// Transition is the before and after of a field behind a specific event.
type Transition struct {
	From json.RawMessage `json:"from"`
	To   json.RawMessage `json:"to"`
}

// History is the body of a DocumentChange ("ver-") document. It carries the
// stamp fields every record has (created_* = updated_* = the change's
// author and time) so generic record code handles it like any other.
//
// Seq comes first: a body is encoded before its write's seq is known
// (PrepareNote) and the seq is filled in at the front.
type History struct {
	Seq         uint64                `json:"seq"`
	Klass       string                `json:"klass"`
	ItemID      string                `json:"item_id"`
	ItemType    string                `json:"item_type"`
	Event       string                `json:"event"`
	Events      []string              `json:"events"`
	Rev         string                `json:"rev"`
	Changed     []string              `json:"changed,omitempty"`
	Transitions map[string]Transition `json:"transitions,omitempty"`
	Label       string                `json:"label,omitempty"`
	Whodunnit   *Who                  `json:"whodunnit"`
	CreatedAt   string                `json:"created_at,omitempty"`
	CreatedBy   *Who                  `json:"created_by,omitempty"`
	UpdatedAt   string                `json:"updated_at,omitempty"`
	UpdatedBy   *Who                  `json:"updated_by,omitempty"`
}

// HistoryID is the deterministic id of the history entry of one write (a
// revision and the seq it was written at): replays of the change find the
// entry they would write. Its first 16 hex digits are the seq, so a store
// that keeps the entry in its log finds it from the id (HistorySeq); the
// other 16 are a hash of the database, document and revision.
func HistoryID(db, id, rev string, seq uint64) string {
	return historyIDAt(historyIDHash(db, id, rev), seq)
}

// historyIDHash is the part of a history entry's id that names the
// revision; historyIDAt adds the seq.
func historyIDHash(db, id, rev string) string {
	h := sha256.Sum256([]byte(db + "\x00" + id + "\x00" + rev))
	return hex.EncodeToString(h[:8])
}

func historyIDAt(hash string, seq uint64) string { return fmt.Sprintf("ver-%016x%s", seq, hash) }

// HistorySeq returns the seq a history entry id names (see HistoryID).
func (c *Consumer) HistorySeq(id string) (uint64, bool) {
	rest, ok := strings.CutPrefix(id, "ver-")
	if !ok || len(rest) != 32 {
		return 0, false
	}
	seq, err := strconv.ParseUint(rest[:16], 16, 64)
	return seq, err == nil
}

// maxHistory bounds the entries History reads for one call.
const maxHistory = 10_000

// HistoryOf returns db's history entries of document id (every entry when id
// is ""), newest first: those a store with a change log keeps in its log
// rows, and those kept as documents (the embedded store, where the stream
// writes them, and DynamoDB tables written before the log).
func HistoryOf(ctx context.Context, st store.Store, db, id string) ([]store.Doc, error) {
	var out []store.Doc
	if cl, ok := st.(store.ChangeLog); ok {
		logged, err := cl.History(ctx, db, id, maxHistory)
		if err != nil {
			return nil, err
		}
		out = logged
	}
	q := store.ListQuery{Klass: KlassDocumentChange, Limit: 500}
	for len(out) < maxHistory {
		page, err := st.List(ctx, db, q)
		if err != nil {
			return nil, err
		}
		for _, d := range page.Docs {
			if id == "" || str(fields(d.Body)["item_id"]) == id {
				out = append(out, d)
			}
		}
		if page.Next == "" {
			break
		}
		q.After = page.Next
	}
	// Newest first by the seq of the write each entry is about: the
	// embedded store's entries, written by the stream, have seqs of their own
	// in no particular order.
	changeSeq := func(d store.Doc) int64 { return fields(d.Body).Int("seq") }
	slices.SortStableFunc(out, func(a, b store.Doc) int { return cmp.Compare(changeSeq(b), changeSeq(a)) })
	return out, nil
}

// keepsHistory reports whether changes of klass get a history entry: every
// tracked klass but those a module declared history-free (machine-written
// records such as feed items, whose changes no history panel shows).
func (c *Consumer) keepsHistory(klass string) bool { return !c.noHistory[klass] }

// writeHistory creates the entries of a batch, in parallel.
func (c *Consumer) writeHistory(ctx context.Context, changes []store.Change) error {
	return forEach(ctx, len(changes), c.par, func(ctx context.Context, i int) error {
		ch := changes[i]
		if klass, _ := trackedKlass(ch); !c.keepsHistory(klass) {
			return nil
		}
		d, err := c.HistoryDoc(ch)
		if err != nil {
			return errDB(ch.DB, "history of "+ch.New.ID, err)
		}
		_, err = c.st.Put(ctx, ch.DB, d)
		switch {
		case err == nil, errors.Is(err, store.ErrConflict):
			// A conflict is the entry a previous delivery wrote.
			return nil
		case errors.Is(err, store.ErrDBNotFound):
			c.log.WarnContext(ctx, "history for a missing database dropped", "db", ch.DB, "id", ch.New.ID)
			return nil
		}
		return errDB(ch.DB, "history of "+ch.New.ID, err)
	})
}

// HistoryDoc builds the history entry of a tracked change (Rev "" so that
// Put only creates it). Undecodable bodies still give an entry: history
// must not stall the stream on one odd document.
func (c *Consumer) HistoryDoc(ch store.Change) (store.Doc, error) {
	var oldBody Fields
	if ch.Old != nil && !ch.Old.Deleted {
		oldBody = fields(ch.Old.Body)
	}
	at, err := c.historyDocAt(ch, oldBody, fields(ch.New.Body))
	if err != nil {
		return store.Doc{}, err
	}
	return at(ch.New.Seq, ch.New.Rev), nil
}

// historyDocAt does HistoryDoc's work, from the bodies' fields, but for
// the seq of the write and its revision, which the returned function fills
// in: ch.New.Seq is not read, and a revision other than ch.New.Rev (a
// number set in the body after the entry was made, store.PreparedNote)
// takes the entry's id and its "rev".
func (c *Consumer) historyDocAt(ch store.Change, oldBody, newBody Fields) (func(seq uint64, rev string) store.Doc, error) {
	klass, _ := trackedKlass(ch)
	h := History{
		Klass:    KlassDocumentChange,
		ItemID:   ch.New.ID,
		ItemType: klass,
		Rev:      ch.New.Rev,
	}
	h.Event, h.Events, h.Changed, h.Transitions = classify(ch, klass, oldBody, newBody)
	if h.Event != EventDestroy {
		var old Fields
		if h.Event != EventCreate {
			old = oldBody
		}
		for _, rule := range c.events[klass] {
			for _, e := range rule(old, newBody) {
				if !slices.Contains(h.Events, e) {
					h.Events = append(h.Events, e)
				}
			}
		}
	}
	h.Whodunnit = who(newBody["updated_by"])
	h.CreatedAt = str(newBody["updated_at"])
	h.Label = label(newBody)
	if h.Label == "" {
		h.Label = label(oldBody)
	}
	h.CreatedBy, h.UpdatedBy, h.UpdatedAt = h.Whodunnit, h.Whodunnit, h.CreatedAt
	raw, err := json.Marshal(h) // {"seq":0,…
	if err != nil {
		return nil, err
	}
	rest, ok := bytes.CutPrefix(raw, []byte(`{"seq":0`))
	if !ok {
		return nil, fmt.Errorf("history entry of %s encoded without its seq first", ch.New.ID)
	}
	// Where the revision's value starts: the first "rev" member is the
	// entry's own (encoded before any member that holds user text).
	revAt := bytes.Index(rest, []byte(`"rev":"`+h.Rev+`"`))
	if revAt < 0 {
		return nil, fmt.Errorf("history entry of %s encoded without its rev", ch.New.ID)
	}
	revAt += len(`"rev":"`)
	hash := historyIDHash(ch.DB, ch.New.ID, ch.New.Rev)
	return func(seq uint64, rev string) store.Doc {
		id := hash
		body := make([]byte, 0, len(raw)+20+len(rev))
		body = strconv.AppendUint(append(body, `{"seq":`...), seq, 10)
		if rev == h.Rev {
			body = append(body, rest...)
		} else {
			id = historyIDHash(ch.DB, ch.New.ID, rev)
			body = append(append(append(body, rest[:revAt]...), rev...), rest[revAt+len(h.Rev):]...)
		}
		return store.Doc{
			ID:      historyIDAt(id, seq),
			Klass:   KlassDocumentChange,
			SortKey: h.CreatedAt, // history lists by time
			Body:    body,
		}
	}, nil
}

// classify derives the event types, the changed fields and the
// transitions behind the specific events.
func classify(ch store.Change, klass string, oldBody, newBody map[string]json.RawMessage) (event string, events, changed []string, tr map[string]Transition) {
	switch {
	case ch.New.Deleted:
		return EventDestroy, []string{EventDestroy}, nil, nil
	case ch.Old == nil || ch.Old.Deleted || store.RevGeneration(ch.New.Rev) == 1:
		events = []string{EventCreate}
		if klass == "Comment" {
			events = append(events, EventComment)
		}
		if moneyKlasses[klass] && truthy(newBody["imported"]) {
			events = append(events, EventImport)
		}
		for k := range newBody {
			if !stampFields[k] && k != "klass" {
				changed = append(changed, k)
			}
		}
		slices.Sort(changed)
		return EventCreate, events, changed, nil
	}

	events = []string{EventUpdate}
	for k, nv := range newBody {
		if stampFields[k] {
			continue
		}
		if ov, ok := oldBody[k]; !ok || !sameJSON(ov, nv) {
			changed = append(changed, k)
		}
	}
	for k := range oldBody {
		if _, ok := newBody[k]; !ok && !stampFields[k] {
			changed = append(changed, k)
		}
	}
	slices.Sort(changed)
	note := func(field string) {
		if tr == nil {
			tr = map[string]Transition{}
		}
		tr[field] = Transition{From: orNull(oldBody[field]), To: orNull(newBody[field])}
	}
	if moneyKlasses[klass] && slices.Contains(changed, "confirmed") {
		if was, is := truthy(oldBody["confirmed"]), truthy(newBody["confirmed"]); was != is {
			events = append(events, map[bool]string{true: EventConfirm, false: EventUnconfirm}[is])
			note("confirmed")
		}
	}
	if slices.Contains(changed, "status") {
		events = append(events, EventStatus)
		note("status")
	}
	if slices.Contains(changed, "bookmark") {
		events = append(events, EventBookmark)
		note("bookmark")
	}
	if klass == "Adjustment" && slices.Contains(changed, "value") {
		if k := str(newBody["key"]); k == "billing-email" || k == "billing_email" {
			events = append(events, EventBillingEmail)
		}
	}
	return EventUpdate, events, changed, tr
}

// fields decodes a body's top-level members; nil when it is not an object.
func fields(body []byte) Fields {
	if len(body) == 0 {
		return nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		return nil
	}
	return m
}

// bodyKlass reads the "klass" member of a body.
func bodyKlass(body []byte) string { return str(fields(body)["klass"]) }

// str returns a JSON string's value, "" for anything else.
func str(raw json.RawMessage) string {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

func truthy(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "true" }

func orNull(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("null")
	}
	return raw
}

// sameJSON compares two JSON values ignoring insignificant whitespace (the
// write path re-encodes every body with sorted keys, so equal objects have
// equal bytes).
func sameJSON(a, b json.RawMessage) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var ca, cb bytes.Buffer
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
		return false
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
}

func who(raw json.RawMessage) *Who {
	var w Who
	if len(raw) == 0 || json.Unmarshal(raw, &w) != nil || (w.ID == "" && w.Label == "") {
		return nil
	}
	return &w
}

// label picks what a card shows for the item.
func label(body map[string]json.RawMessage) string {
	for _, k := range []string{"label", "title", "name", "description", "key"} {
		if s := strings.TrimSpace(str(body[k])); s != "" {
			if utf8.RuneCountInString(s) > maxLabel {
				s = string([]rune(s)[:maxLabel]) + "…"
			}
			return s
		}
	}
	return ""
}
