package stream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/oficina/oficina/shared/store"
)

// Record kinds of the counters (store records, never documents, so that
// counting writes nothing into a database's changes feed).
const (
	// KindContrib holds one document's contribution; key db + "\x00" + id.
	KindContrib = "contrib"
	// KindCounters holds a database's aggregate Counts; key db.
	KindCounters = "counters"
)

const (
	// chunkDocs is how many contributions share one Transact with the
	// aggregate (one write slot is the aggregate's).
	chunkDocs = store.MaxTransactWrites - 1
	// casAttempts bounds the retries of a chunk that keeps losing races
	// with another consumer; the batch then fails and is redelivered.
	casAttempts = 30
)

// notRecords are the klasses that do not count as records (SPEC.md §3, §9:
// "subrecords such as phone and address do not count as records"):
// configuration (adjustments, which also hold the phone and address
// lists), parts of another record (comments, checklists, contract items),
// derived data (wallet balances), people rather than data (memberships,
// tokens: users are unlimited on every plan), and the stream's own output.
var builtinNotRecords = map[string]bool{
	"Adjustment": true, "Phone": true, "Address": true,
	"Comment": true, "TicketChecklist": true, "ContractItem": true,
	"WalletBalance": true, "Membership": true, "UserToken": true, "User": true,
	KlassDocumentChange: true, KlassCounter: true,
}

// counted reports whether documents of klass count as records.
func (c *Consumer) counted(klass string) bool { return klass != "" && !c.notRecords[klass] }

// KlassCount is the usage of one klass.
type KlassCount struct {
	Records int64 `json:"records"`
	Bytes   int64 `json:"bytes"`
}

// Tally is a named set of counts that a module keeps exact through the
// stream (open tickets by priority, wallet balances, drive bytes…): for each
// live document of one of Klasses, Of says what it adds to which key. Of
// must depend on the document's body alone, so that a recount from the
// documents gives the same numbers as the stream.
type Tally struct {
	Name    string
	Klasses []string
	Of      func(doc Fields) map[string]int64
}

// Counts is a database's aggregate: records and bytes per klass (usage and
// plan limits) and the modules' tallies (name → key → amount). Zero entries
// are dropped, so equal counts have equal encodings.
type Counts struct {
	Klass   map[string]KlassCount       `json:"klass,omitempty"`
	Tallies map[string]map[string]int64 `json:"tallies,omitempty"`
}

// Tally returns the counts of one tally (nil when it has none).
func (c Counts) Tally(name string) map[string]int64 { return c.Tallies[name] }

// contribution is what one document adds to its database's Counts, as of
// the change with sequence Seq.
type contribution struct {
	Seq     uint64                      `json:"seq"`
	Klass   string                      `json:"klass,omitempty"`
	Bytes   int64                       `json:"bytes,omitempty"`
	Tallies map[string]map[string]int64 `json:"tallies,omitempty"`
	Deleted bool                        `json:"deleted,omitempty"`
}

// contributionOf computes a revision's contribution.
func (c *Consumer) contributionOf(d store.Doc) contribution { return c.contribution(d, nil) }

// contribution is contributionOf with d's body decoded already (f; nil:
// decoded here when needed).
func (c *Consumer) contribution(d store.Doc, f Fields) contribution {
	k := contribution{Seq: d.Seq, Klass: d.Klass}
	if k.Klass == "" {
		if f == nil {
			f = fields(d.Body)
		}
		k.Klass = str(f["klass"])
	}
	if d.Deleted {
		k.Deleted = true
		return k
	}
	k.Bytes = int64(len(d.Body))
	tallies := c.tallies[k.Klass]
	if len(tallies) == 0 {
		return k
	}
	if f == nil {
		f = fields(d.Body)
	}
	for _, t := range tallies {
		for key, n := range t.Of(f) {
			if n == 0 {
				continue
			}
			if k.Tallies == nil {
				k.Tallies = map[string]map[string]int64{}
			}
			if k.Tallies[t.Name] == nil {
				k.Tallies[t.Name] = map[string]int64{}
			}
			k.Tallies[t.Name][key] += n
		}
	}
	return k
}

// add adds (sign 1) or removes (sign -1) a contribution; records and bytes
// only when k's klass counts as records.
func (c *Counts) add(k contribution, records bool, sign int64) {
	if k.Deleted {
		return
	}
	if records {
		if c.Klass == nil {
			c.Klass = map[string]KlassCount{}
		}
		kc := c.Klass[k.Klass]
		kc.Records += sign
		kc.Bytes += sign * k.Bytes
		c.Klass[k.Klass] = kc
	}
	for name, m := range k.Tallies {
		if c.Tallies == nil {
			c.Tallies = map[string]map[string]int64{}
		}
		if c.Tallies[name] == nil {
			c.Tallies[name] = map[string]int64{}
		}
		for key, n := range m {
			c.Tallies[name][key] += sign * n
		}
	}
}

// normalize drops zero entries and empty maps.
func (c *Counts) normalize() {
	for k, v := range c.Klass {
		if v == (KlassCount{}) {
			delete(c.Klass, k)
		}
	}
	if len(c.Klass) == 0 {
		c.Klass = nil
	}
	for name, m := range c.Tallies {
		for k, v := range m {
			if v == 0 {
				delete(m, k)
			}
		}
		if len(m) == 0 {
			delete(c.Tallies, name)
		}
	}
	if len(c.Tallies) == 0 {
		c.Tallies = nil
	}
}

func contribKey(db, id string) string { return db + "\x00" + id }

// Read returns the aggregate counts of db (zero when nothing was counted).
func Read(ctx context.Context, st store.Store, db string) (Counts, error) {
	c, _, err := readCounts(ctx, st, db)
	return c, err
}

// readCounts also returns the stored value, the condition of the update.
func readCounts(ctx context.Context, st store.Store, db string) (Counts, []byte, error) {
	r, err := st.GetRecord(ctx, KindCounters, db)
	if errors.Is(err, store.ErrNotFound) {
		return Counts{}, nil, nil
	}
	if err != nil {
		return Counts{}, nil, errDB(db, "read counters", err)
	}
	var c Counts
	if err := json.Unmarshal(r.Value, &c); err != nil {
		return Counts{}, nil, errDB(db, "decode counters", err)
	}
	if r.Value == nil {
		r.Value = []byte{}
	}
	return c, r.Value, nil
}

// Recount computes db's counts from its documents: what the aggregate must
// equal once the stream has caught up (tests; a repair tool).
func (c *Consumer) Recount(ctx context.Context, db string) (Counts, error) {
	docs, err := c.st.AllDocs(ctx, db, store.AllDocsQuery{})
	if err != nil {
		return Counts{}, errDB(db, "recount", err)
	}
	var n Counts
	for _, d := range docs {
		k := c.contributionOf(d)
		n.add(k, c.counted(k.Klass), 1)
	}
	n.normalize()
	return n, nil
}

// applyCounters folds the newest revision of each document into db's
// counts, chunk by chunk.
func (c *Consumer) applyCounters(ctx context.Context, db string, docs []store.Doc) error {
	for start := 0; start < len(docs); start += chunkDocs {
		if err := c.applyChunk(ctx, db, docs[start:min(start+chunkDocs, len(docs))]); err != nil {
			return err
		}
	}
	return nil
}

// applyChunk is one optimistic read-modify-write of up to chunkDocs
// contributions and the aggregate, retried when another writer got there
// first.
func (c *Consumer) applyChunk(ctx context.Context, db string, docs []store.Doc) error {
	for attempt := 0; ; attempt++ {
		err := c.tryChunk(ctx, db, docs)
		if !errors.Is(err, store.ErrConflict) {
			return err
		}
		if attempt+1 >= casAttempts {
			return errDB(db, "update counters", fmt.Errorf("still contended after %d attempts: %w", casAttempts, err))
		}
		if err := casPause(ctx, attempt); err != nil {
			return err
		}
	}
}

// casPause waits a jittered, growing pause before a compare-and-set is
// tried again after losing to another consumer.
func casPause(ctx context.Context, attempt int) error {
	backoff := min(2*time.Millisecond<<attempt, 200*time.Millisecond)
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(rand.N(backoff) + time.Millisecond):
		return nil
	}
}

func (c *Consumer) tryChunk(ctx context.Context, db string, docs []store.Doc) error {
	type stored struct {
		value []byte // nil = absent
		c     contribution
	}
	prev := make([]stored, len(docs))
	err := forEach(ctx, len(docs), c.par, func(ctx context.Context, i int) error {
		r, err := c.st.GetRecord(ctx, KindContrib, contribKey(db, docs[i].ID))
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		if err != nil {
			return errDB(db, "read contribution of "+docs[i].ID, err)
		}
		if err := json.Unmarshal(r.Value, &prev[i].c); err != nil {
			return errDB(db, "decode contribution of "+docs[i].ID, err)
		}
		prev[i].value = r.Value
		if prev[i].value == nil {
			prev[i].value = []byte{}
		}
		return nil
	})
	if err != nil {
		return err
	}
	counts, countsRaw, err := readCounts(ctx, c.st, db)
	if err != nil {
		return err
	}
	writes := make([]store.RecordWrite, 0, len(docs)+1)
	for i, d := range docs {
		if prev[i].value != nil && d.Seq <= prev[i].c.Seq {
			continue // already counted, or older than what is
		}
		next := c.contributionOf(d)
		if prev[i].value != nil {
			counts.add(prev[i].c, c.counted(prev[i].c.Klass), -1)
		}
		counts.add(next, c.counted(next.Klass), 1)
		raw, err := json.Marshal(next)
		if err != nil {
			return err
		}
		writes = append(writes, store.RecordWrite{
			Record:       store.Record{Kind: KindContrib, Key: contribKey(db, d.ID), Value: raw},
			Expect:       prev[i].value,
			ExpectAbsent: prev[i].value == nil,
		})
	}
	if len(writes) == 0 {
		return nil
	}
	counts.normalize()
	raw, err := json.Marshal(counts)
	if err != nil {
		return err
	}
	writes = append(writes, store.RecordWrite{
		Record:       store.Record{Kind: KindCounters, Key: db, Value: raw},
		Expect:       countsRaw,
		ExpectAbsent: countsRaw == nil,
	})
	if err := c.st.Transact(ctx, writes); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return err
		}
		return errDB(db, "update counters", err)
	}
	return nil
}
