package stream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/oficina/oficina/shared/store"
)

// On a store that keeps a change log (store.ChangeLog: DynamoDB), the
// consumer does its work when each write is planned rather than after it:
// Note gives the store the write's history entry and its change to the
// counters, which the store keeps in the write's log row. The stream then
// writes no history, and keeps the counters by folding the log: one
// aggregate record per database holds the counts and the last seq folded
// into them, and a batch adds the deltas of the rows after that seq and
// writes the aggregate once, on condition that it is unchanged. The log,
// not the delivery order, is the sequence, so the counts are exact under
// redelivery, reordering and lost deliveries alike; and no contribution
// record per document is written.

// Note implements store.Noter: a pure function of the change.
func (c *Consumer) Note(ch store.Change) (store.ChangeNotes, error) {
	at, err := c.PrepareNote(ch)
	if err != nil {
		return store.ChangeNotes{}, err
	}
	return at(ch.New.Seq, ch.New), nil
}

// PrepareNote implements store.NotePreparer: Note's work but for the seq,
// and for the revision and size of a numbered write (the body's fields are
// decoded once, for the history entry and the counters alike).
func (c *Consumer) PrepareNote(ch store.Change) (store.PreparedNote, error) {
	klass, ok := trackedKlass(ch)
	if !ok {
		return func(uint64, store.Doc) store.ChangeNotes { return store.ChangeNotes{} }, nil
	}
	newBody := fields(ch.New.Body)
	var oldBody Fields
	if ch.Old != nil && !ch.Old.Deleted {
		oldBody = fields(ch.Old.Body)
	}
	var hist func(seq uint64, rev string) store.Doc
	if c.keepsHistory(klass) {
		var err error
		if hist, err = c.historyDocAt(ch, oldBody, newBody); err != nil {
			return nil, err
		}
	}
	delta, err := c.countsDelta(ch, klass, oldBody, newBody)
	if err != nil {
		return nil, err
	}
	return func(seq uint64, written store.Doc) store.ChangeNotes {
		n := store.ChangeNotes{Counts: delta.encoded}
		if grew := len(written.Body) - len(ch.New.Body); grew != 0 {
			n.Counts = delta.resized(grew)
		}
		if hist != nil {
			d := hist(seq, written.Rev)
			n.History = &d
		}
		return n
	}, nil
}

// noteDelta is a change's change to the counters: the contributions it
// takes away and adds, and the delta encoded (nil when it changes none).
type noteDelta struct {
	old, cur *contribution
	records  [2]bool // old's and cur's klass count as records
	encoded  []byte
}

// countsDelta is a change's change to the counters, from its bodies'
// fields (decoded by the caller).
func (c *Consumer) countsDelta(ch store.Change, klass string, oldBody, newBody Fields) (noteDelta, error) {
	if !c.counts(klass) {
		return noteDelta{}, nil
	}
	var d noteDelta
	if ch.Old != nil {
		old := c.contribution(*ch.Old, oldBody)
		d.old, d.records[0] = &old, c.counted(old.Klass)
	}
	nd := ch.New
	if nd.Klass == "" {
		nd.Klass = klass
	}
	cur := c.contribution(nd, newBody)
	d.cur, d.records[1] = &cur, c.counted(cur.Klass)
	var err error
	d.encoded, err = d.encode()
	return d, err
}

// encode sums the delta's contributions.
func (d noteDelta) encode() ([]byte, error) {
	var delta Counts
	if d.old != nil {
		delta.add(*d.old, d.records[0], -1)
	}
	if d.cur != nil {
		delta.add(*d.cur, d.records[1], 1)
	}
	delta.normalize()
	if delta.Klass == nil && delta.Tallies == nil {
		return nil, nil
	}
	return json.Marshal(delta)
}

// resized is the delta encoded for a new revision grew bytes larger than
// the one prepared (a number written into it).
func (d noteDelta) resized(grew int) []byte {
	if d.cur == nil {
		return d.encoded
	}
	cur := *d.cur
	if !cur.Deleted {
		cur.Bytes += int64(grew)
	}
	d.cur = &cur
	b, err := d.encode()
	if err != nil {
		return d.encoded // counts of plain ints and strings always encode
	}
	return b
}

// merge adds d (a delta) to c.
func (c *Counts) merge(d Counts) {
	for k, v := range d.Klass {
		if c.Klass == nil {
			c.Klass = map[string]KlassCount{}
		}
		kc := c.Klass[k]
		kc.Records += v.Records
		kc.Bytes += v.Bytes
		c.Klass[k] = kc
	}
	for name, m := range d.Tallies {
		if c.Tallies == nil {
			c.Tallies = map[string]map[string]int64{}
		}
		if c.Tallies[name] == nil {
			c.Tallies[name] = map[string]int64{}
		}
		for key, v := range m {
			c.Tallies[name][key] += v
		}
	}
}

// aggregate is the stored counters of a database kept by folding the log:
// the counts and the last seq folded into them.
type aggregate struct {
	Seq uint64 `json:"seq,omitempty"`
	Counts
}

const (
	// foldRows is how many log rows one fold reads at a time.
	foldRows = 1000
	// foldIdle is how many rows without a counter change a fold leaves
	// unwritten: the next fold reads them again (cheap) rather than every
	// batch of uncounted changes writing the aggregate.
	foldIdle = 100
)

// foldLog adds the deltas of db's log rows after the aggregate's seq to
// the aggregate.
func (c *Consumer) foldLog(ctx context.Context, db string) error {
	for attempt := 0; ; {
		r, err := c.st.GetRecord(ctx, KindCounters, db)
		var agg aggregate
		var prev []byte
		switch {
		case errors.Is(err, store.ErrNotFound):
		case err != nil:
			return errDB(db, "read counters", err)
		default:
			if err := json.Unmarshal(r.Value, &agg); err != nil {
				return errDB(db, "decode counters", err)
			}
			prev = r.Value
			if prev == nil {
				prev = []byte{}
			}
		}
		entries, err := c.changeLog.ReadLog(ctx, db, agg.Seq, foldRows)
		if errors.Is(err, store.ErrDBNotFound) {
			return nil
		}
		if err != nil {
			return errDB(db, "read the log", err)
		}
		if len(entries) == 0 {
			return nil
		}
		changed := false
		for _, e := range entries {
			if !e.Noted {
				return errDB(db, "fold the log", fmt.Errorf("write at seq %d was made without the consumer's notes, so its counter change is unknown", e.Seq))
			}
			if len(e.Counts) == 0 {
				continue
			}
			var d Counts
			if err := json.Unmarshal(e.Counts, &d); err != nil {
				return errDB(db, fmt.Sprintf("decode the counter change at seq %d", e.Seq), err)
			}
			agg.merge(d)
			changed = true
		}
		if !changed && len(entries) < foldIdle {
			return nil
		}
		agg.Seq = entries[len(entries)-1].Last
		agg.normalize()
		raw, err := json.Marshal(agg)
		if err != nil {
			return err
		}
		err = c.st.Transact(ctx, []store.RecordWrite{store.SwapWrite(KindCounters, db, raw, prev)})
		switch {
		case err == nil:
			if len(entries) < foldRows {
				return nil
			}
			attempt = 0 // more rows: fold on
			continue
		case !errors.Is(err, store.ErrConflict):
			return errDB(db, "update counters", err)
		}
		// Another consumer folded meanwhile: read again.
		attempt++
		if attempt >= casAttempts {
			return errDB(db, "update counters", fmt.Errorf("still contended after %d attempts: %w", casAttempts, err))
		}
		if err := casPause(ctx, attempt); err != nil {
			return err
		}
	}
}
