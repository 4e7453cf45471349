package backup

import (
	"context"
	"errors"
	"fmt"
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
// written (stored), for how many days the archives' lifecycle keeps it
// from then (keep_days), and until when it is locked (locked_until):
//
//   - In a bucket with Object Lock (the stack's backups bucket) nobody may
//     delete. A blob is written once, locked for ContentLockDays, tagged
//     ContentsClass (no lifecycle rule expires that class before the
//     bucket's backstop, BackstopDays after the write), and in Glacier
//     Instant Retrieval when it is large enough. A backup names a stored
//     blob that outlives the backup's own retention by a day: when only
//     the lock falls short, the lock is extended in place (one request, no
//     bytes); when the backstop would expire it first, it is written
//     again. Once no listed backup names a blob, the module tags it
//     DroppedClass, and the lifecycle expires it, removing the version
//     once its lock has passed.
//   - Elsewhere (the filesystem locally) blobs live until no backup in the
//     list names them: dropping a backup deletes the sums only it named
//     (dropContents).
//
// Blobs written by earlier builds (no locked_until) were locked and
// expired together, three retentions after their write (their keep_days;
// the stack keeps their lifecycle rules), and were written again every two
// retentions; a backup now writes such a blob again once, in the form
// above, when it would not outlive it.

// Retention classes of contents blobs in a locked bucket (the stack's
// lifecycle rules, infra-cdk/lib/backups.ts, go by them).
const (
	ContentsClass = "contents"
	DroppedClass  = "dropped"
)

// BackstopDays is the backups bucket's rule for every object: expired this
// many days after its write whatever its class (BACKUP_MAX_DAYS).
const BackstopDays = 400

// contentLockMargin is how much longer than a backup's retention a
// contents blob is locked: its lock is extended about this often, and a
// dropped blob stays at most this long and a retention. 90 days is
// Glacier Instant Retrieval's minimum storage duration: a blob kept less
// is billed for it anyway.
const contentLockMargin = 90

// ContentLockDays is how long a plan's contents blobs are locked when
// written or extended in a locked bucket.
func ContentLockDays(plan string) int { return RetentionDays(plan) + contentLockMargin }

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
	keepDays int       // how long the lifecycle keeps the blobs it writes (0: not locked)
	lockDays int       // how long it locks the blobs it writes or extends
	mustLast time.Time // a stored blob it names must live past this
	// known are the sums the newest earlier backup named, as it named them.
	known map[string]fileVersion
	// named are the sums this backup names, as it names them; store the
	// ones it writes and extend the ones whose lock it extends, one file
	// version each.
	named  map[string]fileVersion
	store  []fileVersion
	extend []fileVersion
	bytes  int64 // the named contents' bytes
}

// contentsFor prepares a backup of db made now on plan.
func (m *Module) contentsFor(ctx context.Context, db, plan string, now time.Time) *contents {
	c := &contents{now: now, locked: m.retained(), known: map[string]fileVersion{}, named: map[string]fileVersion{}}
	if c.locked {
		c.keepDays = BackstopDays
		c.lockDays = ContentLockDays(plan)
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
// them when they live long enough (their lock extended if it falls
// short), else by this backup.
func (c *contents) name(f *fileVersion) {
	if !validSum(f.SHA256) {
		return // nothing to name them by: a restore skips them, as a missing blob
	}
	if n, ok := c.named[f.SHA256]; ok {
		f.Stored, f.KeepDays, f.LockedUntil = n.Stored, n.KeepDays, n.LockedUntil
		return
	}
	c.bytes += f.Size
	if k, ok := c.known[f.SHA256]; ok && c.lives(k) {
		f.Stored, f.KeepDays, f.LockedUntil = k.Stored, k.KeepDays, k.LockedUntil
		if c.locked && !lockedUntil(k).After(c.mustLast) {
			f.LockedUntil = c.lockEnd()
			c.extend = append(c.extend, *f)
		}
	} else {
		f.Stored, f.KeepDays = &c.now, c.keepDays
		if c.locked {
			f.LockedUntil = c.lockEnd()
		}
		c.store = append(c.store, *f)
	}
	c.named[f.SHA256] = *f
}

func (c *contents) lockEnd() *time.Time {
	t := c.now.AddDate(0, 0, c.lockDays)
	return &t
}

// lives tells whether a blob an earlier backup stored may be named again:
// whether nothing removes it before the backup ends.
func (c *contents) lives(k fileVersion) bool {
	if !c.locked {
		return k.KeepDays == 0 // it lives while a listed backup names it
	}
	return k.KeepDays > 0 && k.Stored.AddDate(0, 0, k.KeepDays).After(c.mustLast)
}

// lockedUntil is when k's blob may be deleted: blobs written before
// locked_until was recorded were locked for their keep_days.
func lockedUntil(k fileVersion) time.Time {
	if k.LockedUntil != nil {
		return *k.LockedUntil
	}
	return k.Stored.AddDate(0, 0, k.KeepDays)
}

// storeContents writes the blobs c stores, from the drive's versions, and
// extends the locks c extends; a lock it cannot extend (the blob is gone)
// is written again.
func (m *Module) storeContents(ctx context.Context, db string, c *contents) error {
	return inParallel(ctx, contentWriters, func(_ context.Context, send func(contentWork) error) error {
		for _, f := range c.extend {
			if err := send(contentWork{f, true}); err != nil {
				return err
			}
		}
		for _, f := range c.store {
			if err := send(contentWork{f, false}); err != nil {
				return err
			}
		}
		return nil
	}, func(ctx context.Context, w contentWork) error {
		if w.extend {
			err := m.locker.Extend(ctx, contentKey(db, w.SHA256), *w.LockedUntil)
			if err == nil {
				return nil
			}
			m.log.WarnContext(ctx, "backup: extend a contents lock; writing the contents again", "db", db, "sum", w.SHA256, "err", err)
		}
		return m.storeContent(ctx, db, c, w.fileVersion)
	})
}

// contentWork is one blob to store, or to extend the lock of.
type contentWork struct {
	fileVersion
	extend bool
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
		_, err = m.locker.PutRetained(ctx, key, rc, blob.Retention{Until: *c.lockEnd(), Class: ContentsClass, Cold: true})
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

// dropContents deletes the blobs that only dropped backups name, or, when
// the archives are locked, tags them DroppedClass for the lifecycle. A
// manifest it cannot read keeps every blob.
func (m *Module) dropContents(ctx context.Context, db string, dropped, kept []Info) {
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
		if m.retained() {
			if _, err := m.locker.Reclass(ctx, key, DroppedClass, m.now().Add(-contentsGrace)); err != nil && !errors.Is(err, blob.ErrNotFound) {
				m.log.ErrorContext(ctx, "backup: tag contents no backup names", "db", db, "key", key, "err", err)
			}
			continue
		}
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
