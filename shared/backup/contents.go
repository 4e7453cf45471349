package backup

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/oficina/oficina/shared/blob"
	"github.com/oficina/oficina/shared/drive"
)

// A file version's contents are stored once per Group under
// backups/<db>/contents/<sha256>, and every backup's manifest names them
// by that sum; a backup stores only the contents no earlier backup it can
// count on has stored.
//
// Which earlier backup it counts on: the newest one in the Group's list.
// Its manifest says, for each sum, when the blob's current version was
// written (stored) and for how many days the archives keep it (keep_days):
//
//   - In a bucket with Object Lock (the stack's backups bucket) nobody may
//     delete, so blobs are never deleted by the module: each is written
//     locked for ContentDays and tagged with that class, and the bucket's
//     lifecycle expires it then. A backup names a stored blob only when
//     the blob outlives the backup's own retention by a day; otherwise it
//     writes the blob again (a new, locked version of the same bytes).
//     With ContentDays three retentions, a blob in use is written again
//     every two retentions (30 days on a daily plan), and a blob no backup
//     names any more is gone within three.
//   - Elsewhere (the filesystem locally) blobs live until no backup in the
//     list names them: dropping a backup deletes the sums only it named
//     (dropContents).

// ContentDays is how long a plan's contents blobs are locked and kept in
// the backups bucket: three of its RetentionDays. The stack's lifecycle
// rules (infra-cdk/lib/backups.ts, BACKUP_CONTENT_DAYS) expire them by
// these classes.
func ContentDays(plan string) int { return 3 * RetentionDays(plan) }

// contentWriters store contents concurrently: a round trip to S3 per blob.
const contentWriters = 4

func contentKey(db, sum string) string { return prefix + db + "/contents/" + sum }

// validSum accepts a SHA-256 in lower-case hex, as the drive writes them.
func validSum(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// contents is what one backup does with its file versions' contents.
type contents struct {
	now      time.Time
	locked   bool
	keepDays int       // the class of the blobs it writes (0: not locked)
	mustLast time.Time // a stored blob it names must live past this
	// known are the sums the newest earlier backup named, as it named them.
	known map[string]fileVersion
	// named are the sums this backup names, as it names them; store the
	// ones it writes, one file version each.
	named map[string]fileVersion
	store []fileVersion
	bytes int64 // the named contents' bytes
}

// contentsFor prepares a backup of db made now on plan.
func (m *Module) contentsFor(ctx context.Context, db, plan string, now time.Time) *contents {
	c := &contents{now: now, locked: m.retained(), known: map[string]fileVersion{}, named: map[string]fileVersion{}}
	if c.locked {
		c.keepDays = ContentDays(plan)
		c.mustLast = now.AddDate(0, 0, RetentionDays(plan)+1)
	}
	l, _, err := m.readIndex(ctx, db)
	if err != nil {
		m.log.WarnContext(ctx, "backup: no earlier backup to share contents with", "db", db, "err", err)
		return c
	}
	for _, b := range l {
		if !b.WithContents || b.Format < formatShared {
			continue
		}
		err := m.manifest(ctx, db, b.ID, func(f fileVersion) {
			if f.Stored != nil && validSum(f.SHA256) {
				c.known[f.SHA256] = f
			}
		})
		if err != nil {
			// Storing every blob again costs bytes, not correctness.
			m.log.WarnContext(ctx, "backup: read an earlier manifest", "db", db, "backup", b.ID, "err", err)
			clear(c.known)
		}
		break // the newest only
	}
	return c
}

// name fills in how f's contents are stored: as an earlier backup stored
// them when they last long enough, else by this backup.
func (c *contents) name(f *fileVersion) {
	if !validSum(f.SHA256) {
		return // nothing to name them by: a restore skips them, as a missing blob
	}
	if n, ok := c.named[f.SHA256]; ok {
		f.Stored, f.KeepDays = n.Stored, n.KeepDays
		return
	}
	c.bytes += f.Size
	if k, ok := c.known[f.SHA256]; ok && c.lasts(k) {
		f.Stored, f.KeepDays = k.Stored, k.KeepDays
	} else {
		f.Stored, f.KeepDays = &c.now, c.keepDays
		c.store = append(c.store, *f)
	}
	c.named[f.SHA256] = *f
}

// lasts tells whether a blob an earlier backup stored may be named again.
func (c *contents) lasts(k fileVersion) bool {
	if !c.locked {
		return k.KeepDays == 0 // it lives while a listed backup names it
	}
	return k.KeepDays > 0 && k.Stored.AddDate(0, 0, k.KeepDays).After(c.mustLast)
}

// storeContents writes the blobs c stores, from the drive's versions.
func (m *Module) storeContents(ctx context.Context, db string, c *contents) error {
	return inParallel(ctx, contentWriters, func(_ context.Context, send func(fileVersion) error) error {
		for _, f := range c.store {
			if err := send(f); err != nil {
				return err
			}
		}
		return nil
	}, func(ctx context.Context, f fileVersion) error { return m.storeContent(ctx, db, c, f) })
}

func (m *Module) storeContent(ctx context.Context, db string, c *contents, f fileVersion) error {
	key := contentKey(db, f.SHA256)
	if !c.locked {
		// Named by an older backup still listed: written once is enough.
		if vs, err := m.archives.Versions(ctx, key); err == nil && len(vs) > 0 {
			return nil
		}
	}
	rc, _, err := m.blobs.Get(ctx, drive.BlobKey(db, f.ID), f.Version, nil)
	if errors.Is(err, blob.ErrNotFound) {
		m.log.WarnContext(ctx, "backup: a version's contents are missing", "db", db, "file", f.ID, "version", f.Version)
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s/%s: %w", f.ID, f.Version, err)
	}
	defer rc.Close()
	if c.locked {
		_, err = m.locker.PutRetained(ctx, key, rc, c.now.AddDate(0, 0, c.keepDays), strconv.Itoa(c.keepDays))
	} else {
		_, err = m.archives.Put(ctx, key, rc)
	}
	if err != nil {
		return fmt.Errorf("store %s: %w", key, err)
	}
	return nil
}

// contentsGrace keeps dropContents off blobs written in the last hour: a
// backup being made may have just stored one that only dropped backups
// named before.
const contentsGrace = time.Hour

// dropContents deletes, when the archives are not locked, the blobs that
// only dropped backups name. A manifest it cannot read keeps every blob.
func (m *Module) dropContents(ctx context.Context, db string, dropped, kept []Info) {
	if m.retained() {
		return
	}
	ctx = context.WithoutCancel(ctx)
	gone := map[string]bool{}
	for _, d := range dropped {
		if !d.WithContents || d.Format < formatShared {
			continue
		}
		if err := m.manifest(ctx, db, d.ID, func(f fileVersion) { gone[f.SHA256] = validSum(f.SHA256) }); err != nil {
			m.log.ErrorContext(ctx, "backup: read a dropped manifest", "db", db, "backup", d.ID, "err", err)
			return
		}
	}
	for _, k := range kept {
		if len(gone) == 0 {
			return
		}
		if !k.WithContents || k.Format < formatShared {
			continue
		}
		if err := m.manifest(ctx, db, k.ID, func(f fileVersion) { delete(gone, f.SHA256) }); err != nil {
			m.log.ErrorContext(ctx, "backup: read a kept manifest", "db", db, "backup", k.ID, "err", err)
			return
		}
	}
	for sum, ok := range gone {
		if !ok {
			continue
		}
		key := contentKey(db, sum)
		if vs, err := m.archives.Versions(ctx, key); err != nil || len(vs) == 0 || m.now().Sub(vs[0].Modified) < contentsGrace {
			continue
		}
		if err := m.archives.Delete(ctx, key); err != nil && !errors.Is(err, blob.ErrNotFound) {
			m.log.ErrorContext(ctx, "backup: delete contents no backup names", "db", db, "key", key, "err", err)
		}
	}
}

// manifest hands fn each file version backup id of db lists.
func (m *Module) manifest(ctx context.Context, db, id string, fn func(fileVersion)) error {
	return m.scan(ctx, db, id, func(l line) error {
		if l.File != nil {
			fn(*l.File)
		}
		return nil
	})
}
