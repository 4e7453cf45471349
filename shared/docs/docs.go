// Package docs is the write path every document goes through, whatever
// route it comes from (PUT, POST, _bulk_docs, update handlers, imports): it
// checks the id and klass, stamps created/updated fields on the server, runs
// the per-klass rules and stores the result with its revision check.
package docs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/mango"
	"github.com/oficina/oficina/shared/store"
)

// TimeFormat is how every timestamp is written: UTC with milliseconds.
const TimeFormat = "2006-01-02T15:04:05.000Z"

// Write is one pending change handed to a klass rule.
type Write struct {
	DB        string
	ID        string
	Klass     string
	Principal *access.Principal
	Old       map[string]any // nil on create
	New       map[string]any // nil on delete; rules may change it
	Deleting  bool
	// Scratch carries what a rule tells the effects of the same write
	// (a client's one-off instruction); it is never stored.
	Scratch map[string]any

	records []store.RecordWrite // Record
	number  *store.Numbering    // Number
}

// Record adds a record write that commits with the document, in the same
// transaction where the store can (store.DocCommitter): bookkeeping such as
// a public link to the document, which must neither outlive a refused write
// nor cost a transaction of its own.
func (w *Write) Record(r store.RecordWrite) { w.records = append(w.records, r) }

// Number numbers the document in its own write: field gets the next value
// of the counter record kind/key (as store.Incr keeps it) once every rule
// has passed, so a refused or conflicting write takes no number. Effects
// find the number in w.New.
func (w *Write) Number(field, kind, key string) {
	w.number = &store.Numbering{Kind: kind, Key: key, Field: field}
}

// Rule validates (and may normalise) a write of one klass. It returns a
// *fault.Error to refuse the write.
type Rule func(ctx context.Context, w *Write) error

// Effect runs after a write of its klass is stored, for the follow-up
// writes a rule cannot make before the store has accepted the change
// (mirrors, roles, mail). Its error reaches the caller although the
// document stays written, so effects must be safe to run again.
type Effect func(ctx context.Context, w *Write, saved store.Doc) error

// Guard checks a write of any klass before the klass's rules (plan limits:
// a view-only Group). It returns a *fault.Error to refuse the write. Direct
// writes that do not go through Save or Delete (blob uploads before their
// document) ask the same guards through Check.
type Guard func(ctx context.Context, w *Write) error

// SortKeyFunc orders a klass in the store's klass index from a document
// body (the stored, stamped one).
type SortKeyFunc func(body map[string]any) string

// Service is the document write path.
type Service struct {
	st       store.Store
	rules    map[string][]Rule
	effects  map[string][]Effect
	sortKeys map[string]SortKeyFunc
	// indexBy names the field a klass's index is keyed by (IndexBy).
	indexBy map[string]string
	// tops read a klass's first documents by a field (TopBy).
	tops   map[string]top
	guards []Guard
	now    func() time.Time
}

// New returns a Service over st. now may be nil (time.Now).
func New(st store.Store, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{st: st, rules: map[string][]Rule{}, effects: map[string][]Effect{}, sortKeys: map[string]SortKeyFunc{}, indexBy: map[string]string{}, tops: map[string]top{}, now: now}
}

// SetSortKey sets how klass is ordered in the klass index (default:
// created_at, so list pages come back oldest or newest first).
func (s *Service) SetSortKey(klass string, fn SortKeyFunc) { s.sortKeys[klass] = fn }

// IndexBy keys klass's index by field, a string its index pages sort by
// (a customer's name), with mango.OrderKey: a _find sorted by that field
// then reads the index in order and stops at the page's end, and one
// sorted by created_at reads the whole klass instead.
func (s *Service) IndexBy(klass, field string) { s.indexBy[klass] = field }

// Top reads, from db, documents of one klass among which are the n first
// in the descending order of a field (ties by _id): every one of those n,
// and possibly more. ok false: it cannot tell cheaply; the caller reads
// the whole klass.
type Top func(ctx context.Context, db string, n int) (docs []store.Doc, ok bool, err error)

type top struct {
	field string
	read  Top
}

// TopBy lets a module whose klass index is keyed otherwise (tickets: open
// ones first, for the board) serve a _find of the whole klass sorted by
// field descending (the ticket list, newest number first) from a bounded
// read: see Top.
func (s *Service) TopBy(klass, field string, read Top) { s.tops[klass] = top{field, read} }

// TopOf is the field and reader TopBy registered for klass.
func (s *Service) TopOf(klass string) (field string, read Top, ok bool) {
	t, ok := s.tops[klass]
	return t.field, t.read, ok
}

// IndexOrder is the field whose value is klass's index key, when a _find
// sorted by that field alone can read the index in order and stop at the
// page's end: "created_at" (stamped by the server in one format) when no
// module keys the klass otherwise, or the field of IndexBy. byField says
// it is the latter: documents written before the klass was keyed by it
// may keep a key of another shape until they are re-keyed (Rekey), so a
// reader checks first that the index holds none (mango.IsOrderKey).
func (s *Service) IndexOrder(klass string) (field string, byField, ok bool) {
	if f, keyed := s.indexBy[klass]; keyed {
		return f, true, true
	}
	if s.sortKeys[klass] != nil {
		return "", false, false
	}
	return "created_at", false, true
}

// SortKey is the klass index key of a stored body of klass.
func (s *Service) SortKey(klass string, body map[string]any) string { return s.sortKey(klass, body) }

// sortKey is the klass index key of a body.
func (s *Service) sortKey(klass string, body map[string]any) string {
	if f, ok := s.indexBy[klass]; ok {
		v, present := body[f]
		return mango.OrderKey(v, present)
	}
	if fn := s.sortKeys[klass]; fn != nil {
		return fn(body)
	}
	k, _ := body["created_at"].(string)
	return k
}

// Register adds a rule for klass; rules run in registration order.
func (s *Service) Register(klass string, r Rule) { s.rules[klass] = append(s.rules[klass], r) }

// RegisterEffect adds an effect for klass; effects run in registration order.
func (s *Service) RegisterEffect(klass string, e Effect) {
	s.effects[klass] = append(s.effects[klass], e)
}

// AddGuard adds a guard that every write of every klass passes first.
func (s *Service) AddGuard(g Guard) { s.guards = append(s.guards, g) }

// Check runs the guards for a write of klass to db that does not go
// through Save (a blob written before its document is saved): old is the
// current body (nil for a create).
func (s *Service) Check(ctx context.Context, p *access.Principal, db, klass string, old map[string]any) error {
	w := &Write{DB: db, Klass: klass, Principal: p, Old: old, New: map[string]any{"klass": klass}, Scratch: map[string]any{}}
	for _, g := range s.guards {
		if err := g(ctx, w); err != nil {
			return err
		}
	}
	return nil
}

// Stage is one check of the write path, a guard or a klass rule, named
// after its function ("limits.guard", "ticket.ticketRule", "schema.Rule").
type Stage struct {
	Name  string
	Check func(ctx context.Context, w *Write) error
}

// Stages returns the guards and the rules a write of klass passes, in the
// order it passes them, so that a benchmark can measure each one's cost
// (shared/app's BenchmarkWritePath).
func (s *Service) Stages(klass string) []Stage {
	var out []Stage
	for _, g := range s.guards {
		out = append(out, Stage{Name: funcName(g), Check: g})
	}
	for _, r := range s.rules[klass] {
		out = append(out, Stage{Name: funcName(r), Check: r})
	}
	return out
}

// funcName names a function for Stages: the package it is written in and
// its own name, without receiver or closure suffixes ("limits.guard", and
// "schema.Rule" for the closure schema.Klass.Rule returns).
func funcName(fn any) string {
	f := runtime.FuncForPC(reflect.ValueOf(fn).Pointer())
	name := strings.TrimSuffix(f.Name(), "-fm")
	pkg := name[strings.LastIndex(name, "/")+1:]
	pkg = pkg[:strings.Index(pkg, ".")]
	// A closure inlined into its caller is named after the caller; the
	// file it is written in names its package (method values' wrappers
	// have no file of their own).
	if file, _ := f.FileLine(f.Entry()); strings.HasSuffix(file, ".go") {
		pkg = filepath.Base(filepath.Dir(file))
	}
	for {
		i := strings.LastIndex(name, ".func")
		if i < 0 || strings.Trim(name[i+len(".func"):], "0123456789.") != "" {
			break
		}
		name = name[:i]
	}
	return pkg + "." + name[strings.LastIndex(name, ".")+1:]
}

// Now is the service's clock, for callers that stamp related records.
func (s *Service) Now() time.Time { return s.now() }

// Store returns the underlying store (for reads).
func (s *Service) Store() store.Store { return s.st }

// serverOwned klasses are written only by the server itself (the change
// stream, the user service), never through the document API: history must
// not be editable, and counters are derived.
var serverOwned = map[string]bool{"DocumentChange": true, "Counter": true, "User": true}

// Stamped fields the server owns; clients cannot forge them.
var serverFields = []string{"created_at", "updated_at", "created_by", "updated_by"}

// Save creates or updates document id of db with body (the client's JSON
// object without _id/_rev) if rev is its current revision ("" to create).
func (s *Service) Save(ctx context.Context, p *access.Principal, db, id, rev string, body map[string]any) (store.Doc, error) {
	klass, err := checkIDAndKlass(id, body)
	if err != nil {
		return store.Doc{}, err
	}
	old, oldBody, err := s.current(ctx, db, id)
	if err != nil {
		return store.Doc{}, err
	}
	if rev != "" && !store.ValidRev(rev) {
		return store.Doc{}, fault.Newf(fault.BadRequest, "Invalid rev format")
	}
	// A deleted document is re-created without a revision (or with its
	// tombstone's); the store expects "" for it either way.
	if old.Deleted && rev == old.Rev {
		rev = ""
	}
	if (old.Deleted && rev != "") || (!old.Deleted && old.Rev != rev) {
		return store.Doc{}, store.ErrConflict
	}
	now := s.now().UTC().Format(TimeFormat)
	by := map[string]any{"_id": p.UserID, "label": p.Label}
	for _, f := range serverFields {
		delete(body, f)
	}
	body["klass"] = klass
	if oldBody != nil && !old.Deleted {
		body["created_at"] = oldBody["created_at"]
		body["created_by"] = oldBody["created_by"]
	} else {
		body["created_at"] = now
		body["created_by"] = by
	}
	body["updated_at"] = now
	body["updated_by"] = by

	w := &Write{DB: db, ID: id, Klass: klass, Principal: p, New: body, Scratch: map[string]any{}}
	if !old.Deleted {
		w.Old = oldBody
	}
	if err := s.runRules(ctx, w); err != nil {
		return store.Doc{}, err
	}
	if w.number != nil {
		delete(w.New, w.number.Field)
	}
	raw, err := encode(w.New)
	if err != nil {
		return store.Doc{}, err
	}
	saved, err := s.put(ctx, db, w, store.Doc{ID: id, Rev: rev, Klass: klass, SortKey: s.sortKey(klass, w.New), Body: raw})
	if err != nil {
		return saved, err
	}
	return saved, s.runEffects(ctx, w, saved)
}

// put stores doc with the write's records and number: in one transaction
// where the store commits them together, otherwise with Incr before the
// document and Transact after it.
func (s *Service) put(ctx context.Context, db string, w *Write, doc store.Doc) (store.Doc, error) {
	if err := store.CheckTransact(w.records); err != nil {
		return store.Doc{}, err
	}
	var (
		saved store.Doc
		err   error
	)
	if c, ok := s.st.(store.DocCommitter); ok {
		saved, err = c.PutDoc(ctx, db, store.DocWrite{Doc: doc, Records: w.records, Number: w.number})
		if err != nil {
			return saved, err
		}
	} else {
		if w.number != nil {
			n, err := s.st.Incr(ctx, w.number.Kind, w.number.Key, 1, 0)
			if err != nil {
				return store.Doc{}, fmt.Errorf("number %s/%s: %w", db, doc.ID, err)
			}
			w.number.Value = n
			doc.Body = store.SetNumber(doc.Body, w.number.Field, n)
		}
		if saved, err = s.st.Put(ctx, db, doc); err != nil {
			return saved, err
		}
		if len(w.records) > 0 {
			if err := s.st.Transact(ctx, w.records); err != nil {
				return saved, fmt.Errorf("records of %s/%s: %w", db, doc.ID, err)
			}
		}
	}
	if w.number != nil && w.New != nil {
		w.New[w.number.Field] = json.Number(strconv.FormatInt(w.number.Value, 10))
	}
	return saved, nil
}

// Delete removes document id of db at revision rev.
func (s *Service) Delete(ctx context.Context, p *access.Principal, db, id, rev string) (store.Doc, error) {
	if strings.HasPrefix(id, "_design/") || strings.HasPrefix(id, "_local/") {
		return store.Doc{}, fault.New(fault.Forbidden, "design documents are built in and cannot be changed")
	}
	if _, ok := ids.Parse(id); !ok {
		return store.Doc{}, store.ErrNotFound
	}
	if k := ids.Klass(id); serverOwned[k] {
		return store.Doc{}, fault.Newf(fault.Forbidden, "%s documents are written by the server", k)
	}
	old, oldBody, err := s.current(ctx, db, id)
	if err != nil {
		return store.Doc{}, err
	}
	if old.Rev == "" || old.Deleted {
		return store.Doc{}, store.ErrNotFound
	}
	if rev == "" || rev != old.Rev {
		return store.Doc{}, store.ErrConflict
	}
	klass, _ := oldBody["klass"].(string)
	w := &Write{DB: db, ID: id, Klass: klass, Principal: p, Old: oldBody, Deleting: true, Scratch: map[string]any{}}
	if err := s.runRules(ctx, w); err != nil {
		return store.Doc{}, err
	}
	// The tombstone keeps who deleted the document and when, so history
	// (the change stream) can show it; klass and sort key stay for the
	// same reader.
	raw, err := encode(map[string]any{
		"klass":      klass,
		"updated_at": s.now().UTC().Format(TimeFormat),
		"updated_by": map[string]any{"_id": p.UserID, "label": p.Label},
	})
	if err != nil {
		return store.Doc{}, err
	}
	saved, err := s.put(ctx, db, w, store.Doc{ID: id, Rev: rev, Deleted: true, Klass: klass, SortKey: s.sortKey(klass, oldBody), Body: raw})
	if err != nil {
		return saved, err
	}
	return saved, s.runEffects(ctx, w, saved)
}

// current reads the document's current revision (live or tombstone); a
// missing document gives a zero Doc and nil body.
func (s *Service) current(ctx context.Context, db, id string) (store.Doc, map[string]any, error) {
	d, err := s.st.Get(ctx, db, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return store.Doc{}, nil, nil
	case errors.Is(err, store.ErrDeleted):
		return d, nil, nil
	case err != nil:
		return store.Doc{}, nil, err
	}
	body, err := Decode(d.Body)
	if err != nil {
		return store.Doc{}, nil, fmt.Errorf("decode stored %s/%s: %w", db, id, err)
	}
	return d, body, nil
}

func (s *Service) runEffects(ctx context.Context, w *Write, saved store.Doc) error {
	for _, e := range s.effects[w.Klass] {
		if err := e(ctx, w, saved); err != nil {
			return err
		}
	}
	return nil
}

func (s *Service) runRules(ctx context.Context, w *Write) error {
	for _, g := range s.guards {
		if err := g(ctx, w); err != nil {
			return err
		}
	}
	for _, r := range s.rules[w.Klass] {
		if err := r(ctx, w); err != nil {
			return err
		}
	}
	return nil
}

// checkIDAndKlass validates a client-supplied id and the body's klass
// against the id prefix, returning the klass.
func checkIDAndKlass(id string, body map[string]any) (string, error) {
	if strings.HasPrefix(id, "_design/") || strings.HasPrefix(id, "_local/") {
		return "", fault.New(fault.Forbidden, "design documents are built in and cannot be changed")
	}
	if strings.HasPrefix(id, "_") {
		return "", fault.New(fault.BadRequest, "Only reserved document ids may start with underscore.")
	}
	prefix, ok := ids.Parse(id)
	if !ok {
		return "", fault.Newf(fault.BadRequest, "invalid document id %q: expected <prefix>-<32 hex digits> with a known prefix", truncate(id, 80))
	}
	want := ids.Klass(id)
	if serverOwned[want] {
		return "", fault.Newf(fault.Forbidden, "%s documents are written by the server", want)
	}
	switch k := body["klass"].(type) {
	case nil:
		return want, nil
	case string:
		if k != want {
			return "", fault.Newf(fault.BadRequest, "klass %q does not match the id prefix %q (%s)", truncate(k, 40), prefix, want)
		}
		return want, nil
	default:
		return "", fault.New(fault.BadRequest, `field "klass" must be a string`)
	}
}

// NewID returns a fresh id for a document body that names its klass, for
// POST /{db} without an _id.
func NewID(body map[string]any) (string, error) {
	k, ok := body["klass"].(string)
	if !ok || k == "" {
		return "", fault.New(fault.BadRequest, `the document needs an "_id" or a "klass"`)
	}
	prefix := ids.PrefixOf(k)
	if prefix == "" {
		return "", fault.Newf(fault.BadRequest, "unknown klass %q", truncate(k, 40))
	}
	return ids.New(prefix), nil
}

// Decode parses a stored body, keeping numbers exact.
func Decode(raw []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	if m == nil {
		m = map[string]any{}
	}
	return m, nil
}

// ReadLive reads a live document and decodes its body; found is false (and
// err nil) when it, or its db, does not exist or is deleted.
func ReadLive(ctx context.Context, st store.Store, db, id string) (d store.Doc, body map[string]any, found bool, err error) {
	d, err = st.Get(ctx, db, id)
	switch {
	case errors.Is(err, store.ErrNotFound), errors.Is(err, store.ErrDeleted), errors.Is(err, store.ErrDBNotFound):
		return store.Doc{}, nil, false, nil
	case err != nil:
		return store.Doc{}, nil, false, err
	}
	if body, err = Decode(d.Body); err != nil {
		return store.Doc{}, nil, false, fmt.Errorf("decode %s/%s: %w", db, id, err)
	}
	return d, body, true, nil
}

// Strings reads a decoded body's list of strings (its other members are
// skipped; anything else is an empty list).
func Strings(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, e := range list {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// List is ss as a body's list, the form Decode gives and rules expect.
func List(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func encode(body map[string]any) ([]byte, error) {
	raw, err := json.Marshal(body)
	if err != nil {
		return nil, fault.Wrap(fault.BadRequest, "the document cannot be encoded as JSON", err)
	}
	if len(raw) > store.MaxDocBytes {
		return nil, store.ErrTooLarge
	}
	return raw, nil
}

// WithMeta renders a stored document as the API returns it: its body with
// _id and _rev first (and _deleted for tombstones).
func WithMeta(d store.Doc) []byte {
	var b bytes.Buffer
	b.Grow(len(d.Body) + 100)
	b.WriteString(`{"_id":`)
	writeJSONString(&b, d.ID)
	b.WriteString(`,"_rev":`)
	writeJSONString(&b, d.Rev)
	if d.Deleted {
		b.WriteString(`,"_deleted":true`)
	}
	body := bytes.TrimSpace(d.Body)
	if len(body) > 2 && body[0] == '{' {
		b.WriteByte(',')
		b.Write(body[1:])
	} else {
		b.WriteByte('}')
	}
	return b.Bytes()
}

func writeJSONString(b *bytes.Buffer, s string) {
	enc, _ := json.Marshal(s) // a string always encodes
	b.Write(enc)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// Registered is what the write path holds, counted: the rules and effects
// of each klass, the klasses with a sort key, the guards. Tests compare
// two wirings with it (the stream function's must equal the API's).
type Registered struct {
	Rules, Effects map[string]int
	SortKeys       []string
	Guards         int
}

// Registered counts what is registered.
func (s *Service) Registered() Registered {
	out := Registered{Rules: map[string]int{}, Effects: map[string]int{}, Guards: len(s.guards)}
	for k, rs := range s.rules {
		out.Rules[k] = len(rs)
	}
	for k, es := range s.effects {
		out.Effects[k] = len(es)
	}
	for k := range s.sortKeys {
		out.SortKeys = append(out.SortKeys, k)
	}
	slices.Sort(out.SortKeys)
	return out
}
