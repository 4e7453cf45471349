package wiki

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/stream"
)

// Versions. The change stream's history (DocumentChange) keeps who changed
// which fields and when, not the contents, so the wiki keeps its own
// snapshots: a stream reaction stores each live revision of a page (its
// whole body) as a record, and a per-page list of the last MaxVersions
// (newest first, by seq), in one transaction; a snapshot that falls off the
// list is deleted in the same transaction. Replays find the revision in the
// list and write nothing; a late, older revision is placed by its seq (or
// dropped when older than the whole full list).
const (
	kindVersions = "wiki-versions"
	kindSnapshot = "wiki-snapshot"
)

// Version is one entry of a page's list.
type Version struct {
	Rev   string      `json:"rev"`
	Seq   uint64      `json:"seq"`
	At    string      `json:"at"`
	By    *stream.Who `json:"by,omitempty"`
	Title string      `json:"title"`
	Size  int         `json:"size"`
}

type versionList struct {
	V []Version `json:"v"`
}

func snapKey(db, id, rev string) string { return db + "\x00" + id + "\x00" + rev }

// snapshot is the stream reaction that keeps a revision's contents.
func (m *Module) snapshot(ctx context.Context, ch store.Change) error {
	d := ch.New
	if d.Deleted || len(d.Body) == 0 {
		return nil
	}
	var b struct {
		Title     string      `json:"title"`
		UpdatedAt string      `json:"updated_at"`
		UpdatedBy *stream.Who `json:"updated_by"`
		Content   string      `json:"content"`
	}
	if json.Unmarshal(d.Body, &b) != nil {
		return nil
	}
	v := Version{Rev: d.Rev, Seq: d.Seq, At: b.UpdatedAt, By: b.UpdatedBy, Title: b.Title, Size: len(b.Content)}
	key := idxKey(ch.DB, d.ID)
	for range 30 {
		prev, list, err := readRecord[versionList](ctx, m.st, kindVersions, key)
		if err != nil {
			return err
		}
		if slices.ContainsFunc(list.V, func(x Version) bool { return x.Rev == v.Rev }) {
			return nil
		}
		if len(list.V) >= MaxVersions && v.Seq < list.V[len(list.V)-1].Seq {
			return nil
		}
		i, _ := slices.BinarySearchFunc(list.V, v.Seq, func(x Version, seq uint64) int {
			switch {
			case x.Seq > seq:
				return -1
			case x.Seq < seq:
				return 1
			}
			return 0
		})
		list.V = slices.Insert(list.V, i, v)
		var dropped []Version
		if len(list.V) > MaxVersions {
			dropped = slices.Clone(list.V[MaxVersions:])
			list.V = list.V[:MaxVersions]
		}
		raw, _ := json.Marshal(list)
		writes := []store.RecordWrite{
			store.SwapWrite(kindVersions, key, raw, prev),
			{Record: store.Record{Kind: kindSnapshot, Key: snapKey(ch.DB, d.ID, d.Rev), Value: d.Body}},
		}
		for _, x := range dropped {
			if len(writes) == store.MaxTransactWrites {
				break
			}
			writes = append(writes, store.RecordWrite{Record: store.Record{Kind: kindSnapshot, Key: snapKey(ch.DB, d.ID, x.Rev)}, Delete: true})
		}
		err = m.st.Transact(ctx, writes)
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		return err
	}
	return fmt.Errorf("wiki: versions of %s/%s still contended", ch.DB, d.ID)
}

// versions lists a page's kept versions, newest first.
func (m *Module) versions(ctx context.Context, db, id string) ([]Version, error) {
	r, err := m.st.GetRecord(ctx, kindVersions, idxKey(db, id))
	if errors.Is(err, store.ErrNotFound) {
		return []Version{}, nil
	} else if err != nil {
		return nil, err
	}
	var list versionList
	if err := json.Unmarshal(r.Value, &list); err != nil {
		return nil, err
	}
	if list.V == nil {
		list.V = []Version{}
	}
	return list.V, nil
}

// snapshotBody returns the body a page had at rev (ok false when it is not
// kept).
func (m *Module) snapshotBody(ctx context.Context, db, id, rev string) (map[string]any, bool, error) {
	r, err := m.st.GetRecord(ctx, kindSnapshot, snapKey(db, id, rev))
	if errors.Is(err, store.ErrNotFound) {
		return nil, false, nil
	} else if err != nil {
		return nil, false, err
	}
	var body map[string]any
	if err := json.Unmarshal(r.Value, &body); err != nil {
		return nil, false, err
	}
	return body, true, nil
}
