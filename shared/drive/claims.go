package drive

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/store"
)

// Name claims make "two live entries of one folder never share a name"
// race-free on both stores. Before a write gives an entry a (folder, name)
// it did not have, the rule writes the claim record
//
//	kind drive.name, key sha256(db, folder, name) → {"id": entry, "at": time}
//
// create-only (store.PutRecord with ifAbsent): of concurrent writers exactly
// one creates it. A claim that exists belongs to its entry while the entry
// still has that folder and name; the write's effect releases it when the
// entry leaves them (rename, move, trash, delete). A claim whose entry does
// not hold the name is stale once older than claimGrace — a write that
// claimed and then failed (a stale revision), or an effect that never ran —
// and is taken over with a compare-and-set, so two writers cannot both take
// it. The grace covers the moment between the claim and the document write.
//
// Claims are store records, not documents: they never reach the Group's
// documents, changes feed or counts.
const kindClaim = "drive.name"

const claimGrace = time.Minute

type claim struct {
	ID string    `json:"id"`
	At time.Time `json:"at"`
}

func claimKey(db, dir, name string) string {
	sum := sha256.Sum256([]byte(db + "\x00" + dir + "\x00" + name))
	return hex.EncodeToString(sum[:])
}

// MsgNameTaken is the 409's reason when a folder has an entry of that name.
func MsgNameTaken(name string) string {
	return fmt.Sprintf("An entry named %q already exists in this folder: choose another name, or rename or move that one first", name)
}

func errNameTaken(name string) error {
	return &fault.Error{Kind: fault.Conflict, Reason: MsgNameTaken(name), Fields: map[string][]string{"name": {fault.AlreadyTaken}}}
}

// take claims (dir, name) in db for entry id, or answers errNameTaken.
func (m *Module) take(ctx context.Context, db, dir, name, id string) error {
	raw, err := json.Marshal(claim{ID: id, At: m.now().UTC()})
	if err != nil {
		return err
	}
	rec := store.Record{Kind: kindClaim, Key: claimKey(db, dir, name), Value: raw}
	for range 4 {
		err := m.st.PutRecord(ctx, rec, true)
		if err == nil {
			return nil
		}
		if !errors.Is(err, store.ErrExists) {
			return fmt.Errorf("drive: claim a name: %w", err)
		}
		cur, val, ok, err := m.readClaim(ctx, rec.Key)
		if err != nil {
			return err
		}
		if !ok {
			continue // released in between
		}
		if cur.ID == id {
			return nil
		}
		holds, err := m.holds(ctx, db, cur.ID, dir, name)
		if err != nil {
			return err
		}
		if holds || m.now().Sub(cur.At) < claimGrace {
			return errNameTaken(name)
		}
		// Stale: take it over unless someone else just did.
		err = m.st.Transact(ctx, []store.RecordWrite{{Record: rec, Expect: val}})
		if err == nil {
			return nil
		}
		if !errors.Is(err, store.ErrConflict) {
			return fmt.Errorf("drive: take over a stale name claim: %w", err)
		}
	}
	return errNameTaken(name)
}

// ensure re-creates the claim of an entry that keeps its name, when it is
// missing (entries written before a crash lost it): one read per write.
func (m *Module) ensure(ctx context.Context, db, dir, name, id string) error {
	_, _, ok, err := m.readClaim(ctx, claimKey(db, dir, name))
	if err != nil || ok {
		return err
	}
	raw, err := json.Marshal(claim{ID: id, At: m.now().UTC()})
	if err != nil {
		return err
	}
	err = m.st.PutRecord(ctx, store.Record{Kind: kindClaim, Key: claimKey(db, dir, name), Value: raw}, true)
	if err != nil && !errors.Is(err, store.ErrExists) {
		return fmt.Errorf("drive: claim a name: %w", err)
	}
	return nil
}

// release drops id's claim of (dir, name); someone else's is left alone.
// A failure is logged: the claim is then stale and taken over later.
func (m *Module) release(ctx context.Context, db, dir, name, id string) {
	key := claimKey(db, dir, name)
	cur, val, ok, err := m.readClaim(ctx, key)
	if err == nil && ok && cur.ID == id {
		err = m.st.Transact(ctx, []store.RecordWrite{{Record: store.Record{Kind: kindClaim, Key: key}, Delete: true, Expect: val}})
		if errors.Is(err, store.ErrConflict) {
			err = nil // taken over meanwhile
		}
	}
	if err != nil {
		m.log.WarnContext(ctx, "release a name claim", "db", db, "id", id, "err", err)
	}
}

// claimOwner returns the entry whose claim (dir, name) is live in db ("" when none).
func (m *Module) claimOwner(ctx context.Context, db, dir, name string) (string, error) {
	cur, _, ok, err := m.readClaim(ctx, claimKey(db, dir, name))
	if err != nil || !ok {
		return "", err
	}
	holds, err := m.holds(ctx, db, cur.ID, dir, name)
	if err != nil || !holds {
		return "", err
	}
	return cur.ID, nil
}

func (m *Module) readClaim(ctx context.Context, key string) (claim, []byte, bool, error) {
	r, err := m.st.GetRecord(ctx, kindClaim, key)
	if errors.Is(err, store.ErrNotFound) {
		return claim{}, nil, false, nil
	}
	if err != nil {
		return claim{}, nil, false, fmt.Errorf("drive: read a name claim: %w", err)
	}
	var c claim
	if err := json.Unmarshal(r.Value, &c); err != nil {
		return claim{At: time.Time{}}, r.Value, true, nil // unreadable: stale at once
	}
	if r.Value == nil {
		r.Value = []byte{}
	}
	return c, r.Value, true, nil
}

// holds reports whether entry id of db is live with that folder and name.
func (m *Module) holds(ctx context.Context, db, id, dir, name string) (bool, error) {
	_, body, err := m.lookup(ctx, db, id)
	if err != nil || body == nil {
		return false, err
	}
	return isLive(str(body["kind"])) && str(body["dir_id"]) == dir && str(body["name"]) == name, nil
}
