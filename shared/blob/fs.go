package blob

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// FS keeps versions as files:
//
//	<dir>/<hh>/<sha256(key)>/<versionID>   one immutable file per version
//	<dir>/.tmp/                             bodies being written, deletions in progress
//
// Keys are hashed rather than escaped into paths: a 1024-byte key cannot
// fit a 255-byte file name, and on case-insensitive filesystems (macOS)
// "A" and "a" would share a directory. <hh> (the hash's first byte) keeps
// directories small.
//
// A body is written to a temp file in .tmp, fsync'd, renamed into its key's
// directory and the directory fsync'd, so a crash leaves either the whole
// version or none, never a half file a reader could see. .tmp is on the same
// filesystem (rename is atomic) and outside every key directory, so deleting
// a key never races an upload in flight.
type FS struct {
	dir string
	tmp string

	// mu orders commits and deletions: version IDs are handed out and
	// renamed into place in one step, so IDs grow in commit order, and a
	// Delete never removes a directory a rename is about to use. Bodies are
	// written outside it.
	mu   sync.Mutex
	last time.Time // time of the last version ID handed out
	now  func() time.Time
}

// staleTemp is how old a temp file must be before NewFS removes it: only a
// crashed process leaves one, and no upload takes this long.
const staleTemp = 24 * time.Hour

// fsVersionID is "<UTC commit time, ns>Z-<128 bits of the SHA-256>": fixed
// width, so names sort by time, and a hostile ID (a path) never matches.
var fsVersionID = regexp.MustCompile(`^[0-9]{8}T[0-9]{6}\.[0-9]{9}Z-[0-9a-f]{32}$`)

const fsTimeLayout = "20060102T150405.000000000Z"

// NewFS opens (creating if needed) a filesystem blob store in dir, and
// removes temp files a crash left behind.
func NewFS(dir string) (*FS, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("blob: %s: %w", dir, err)
	}
	s := &FS{dir: abs, tmp: filepath.Join(abs, ".tmp"), now: time.Now}
	if err := os.MkdirAll(s.tmp, 0o700); err != nil {
		return nil, fmt.Errorf("blob: create %s: %w", s.tmp, err)
	}
	if err := s.sweep(); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *FS) sweep() error {
	entries, err := os.ReadDir(s.tmp)
	if err != nil {
		return fmt.Errorf("blob: read %s: %w", s.tmp, err)
	}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || s.now().Sub(info.ModTime()) < staleTemp {
			continue
		}
		if err := os.RemoveAll(filepath.Join(s.tmp, e.Name())); err != nil {
			return fmt.Errorf("blob: remove stale temp file: %w", err)
		}
	}
	return nil
}

// keyDir is the directory of key's versions.
func (s *FS) keyDir(key string) string {
	sum := sha256.Sum256([]byte(key))
	h := hex.EncodeToString(sum[:])
	return filepath.Join(s.dir, h[:2], h)
}

// Put writes the body to a temp file, then commits it as the newest version.
func (s *FS) Put(ctx context.Context, key string, r io.Reader) (Version, error) {
	if err := ValidateKey(key); err != nil {
		return Version{}, err
	}
	f, err := os.CreateTemp(s.tmp, "put-*")
	if err != nil {
		return Version{}, fmt.Errorf("blob: put %q: %w", key, err)
	}
	tmp := f.Name()
	committed := false
	defer func() {
		if !committed {
			f.Close()
			os.Remove(tmp)
		}
	}()

	h := sha256.New()
	buf := make([]byte, 256<<10) // big enough to keep syscalls cheap
	n, err := io.CopyBuffer(io.MultiWriter(f, h), ctxReader{ctx, r}, buf)
	if err != nil {
		return Version{}, fmt.Errorf("blob: put %q: write body: %w", key, err)
	}
	// The data must be on disk before the rename makes it visible, or a
	// crash could publish a name whose blocks were never written.
	if err := f.Sync(); err != nil {
		return Version{}, fmt.Errorf("blob: put %q: fsync: %w", key, err)
	}
	if err := f.Close(); err != nil {
		return Version{}, fmt.Errorf("blob: put %q: close: %w", key, err)
	}
	if err := ctx.Err(); err != nil {
		return Version{}, fmt.Errorf("blob: put %q: %w", key, err)
	}
	sum := hex.EncodeToString(h.Sum(nil))[:32]

	dir := s.keyDir(key)
	s.mu.Lock()
	id, at, err := s.commit(dir, tmp, sum)
	s.mu.Unlock()
	if err != nil {
		return Version{}, fmt.Errorf("blob: put %q: %w", key, err)
	}
	committed = true
	// The rename is durable once the directory entry is. A directory gone
	// by now was taken by a Delete after the commit (which synced its
	// parent): the version existed and was deleted, as the calls ordered.
	if err := syncDir(dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Version{}, fmt.Errorf("blob: put %q: %w", key, err)
	}
	return Version{ID: id, Size: n, ETag: sum, Modified: at}, nil
}

// commit names the version and renames it into place; s.mu is held.
func (s *FS) commit(dir, tmp, sum string) (string, time.Time, error) {
	if err := s.ensureDir(dir); err != nil {
		return "", time.Time{}, err
	}
	// Strictly increasing times keep IDs unique and in commit order even
	// when the clock stalls or steps back.
	at := s.now().UTC()
	if !at.After(s.last) {
		at = s.last.Add(time.Nanosecond)
	}
	s.last = at
	id := at.Format(fsTimeLayout) + "-" + sum
	if err := os.Rename(tmp, filepath.Join(dir, id)); err != nil {
		return "", time.Time{}, fmt.Errorf("commit: %w", err)
	}
	return id, at, nil
}

// ensureDir creates the key's directory and its shard, fsyncing each
// parent that gained an entry so the path survives a crash; s.mu is held.
func (s *FS) ensureDir(dir string) error {
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	shard := filepath.Dir(dir)
	for _, d := range []struct{ path, parent string }{{shard, s.dir}, {dir, shard}} {
		err := os.Mkdir(d.path, 0o700)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("create %s: %w", d.path, err)
		}
		if err := syncDir(d.parent); err != nil {
			return err
		}
	}
	return nil
}

// Get opens one version, or the newest.
func (s *FS) Get(ctx context.Context, key, versionID string, rng *Range) (io.ReadCloser, Version, error) {
	if err := ValidateKey(key); err != nil {
		return nil, Version{}, err
	}
	if err := checkRange(rng); err != nil {
		return nil, Version{}, err
	}
	dir := s.keyDir(key)
	var f *os.File
	var v Version
	if versionID != "" {
		if !fsVersionID.MatchString(versionID) {
			return nil, Version{}, fmt.Errorf("blob: get %q version %q: %w", key, versionID, ErrNotFound)
		}
		var err error
		f, v, err = openVersion(dir, versionID)
		if err != nil {
			return nil, Version{}, fmt.Errorf("blob: get %q version %q: %w", key, versionID, err)
		}
	} else {
		// The newest can be deleted between listing and opening; the next
		// listing then names the one that replaced it.
		for attempt := 0; ; attempt++ {
			vs, err := s.list(key)
			if err != nil {
				return nil, Version{}, err
			}
			f, v, err = openVersion(dir, vs[0].ID)
			if err == nil {
				break
			}
			if !errors.Is(err, ErrNotFound) || attempt == 3 {
				return nil, Version{}, fmt.Errorf("blob: get %q: %w", key, err)
			}
		}
	}
	// An open file keeps its bytes even if the version is deleted now.
	var sr *io.SectionReader
	if rng == nil {
		sr = io.NewSectionReader(f, 0, v.Size)
	} else {
		if rng.Offset >= v.Size {
			f.Close()
			return nil, Version{}, fmt.Errorf("blob: get %q: offset %d of %d bytes: %w", key, rng.Offset, v.Size, ErrInvalidRange)
		}
		n := v.Size - rng.Offset
		if rng.Length > 0 && rng.Length < n {
			n = rng.Length
		}
		sr = io.NewSectionReader(f, rng.Offset, n)
	}
	return &fileReader{r: ctxReader{ctx, sr}, f: f}, v, nil
}

type fileReader struct {
	r io.Reader
	f *os.File
}

func (fr *fileReader) Read(p []byte) (int, error) { return fr.r.Read(p) }
func (fr *fileReader) Close() error               { return fr.f.Close() }

func openVersion(dir, id string) (*os.File, Version, error) {
	f, err := os.Open(filepath.Join(dir, id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, Version{}, ErrNotFound
	}
	if err != nil {
		return nil, Version{}, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, Version{}, err
	}
	return f, fsVersion(id, info.Size()), nil
}

// fsVersion rebuilds a Version from its file name and size.
func fsVersion(id string, size int64) Version {
	at, _ := time.Parse(fsTimeLayout, id[:strings.IndexByte(id, '-')])
	return Version{ID: id, Size: size, ETag: id[strings.IndexByte(id, '-')+1:], Modified: at}
}

// Versions lists the versions of key, newest first.
func (s *FS) Versions(ctx context.Context, key string) ([]Version, error) {
	if err := ValidateKey(key); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return s.list(key)
}

func (s *FS) list(key string) ([]Version, error) {
	dir := s.keyDir(key)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("blob: versions of %q: %w", key, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("blob: versions of %q: %w", key, err)
	}
	vs := make([]Version, 0, len(entries))
	for _, e := range entries {
		if !fsVersionID.MatchString(e.Name()) {
			continue // nothing else is written here; never serve a stranger
		}
		info, err := e.Info()
		if errors.Is(err, fs.ErrNotExist) {
			continue // deleted since ReadDir
		}
		if err != nil {
			return nil, fmt.Errorf("blob: versions of %q: %w", key, err)
		}
		vs = append(vs, fsVersion(e.Name(), info.Size()))
	}
	if len(vs) == 0 {
		return nil, fmt.Errorf("blob: versions of %q: %w", key, ErrNotFound)
	}
	slices.SortFunc(vs, func(a, b Version) int { return strings.Compare(b.ID, a.ID) })
	return vs, nil
}

// DeleteVersion removes one version file, and the key's directory with the
// last one.
func (s *FS) DeleteVersion(ctx context.Context, key, versionID string) error {
	if err := ValidateKey(key); err != nil {
		return err
	}
	if !fsVersionID.MatchString(versionID) {
		return fmt.Errorf("blob: delete %q version %q: %w", key, versionID, ErrNotFound)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	dir := s.keyDir(key)
	s.mu.Lock()
	defer s.mu.Unlock()
	err := os.Remove(filepath.Join(dir, versionID))
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("blob: delete %q version %q: %w", key, versionID, ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("blob: delete %q version %q: %w", key, versionID, err)
	}
	synced := dir
	if os.Remove(dir) == nil { // only succeeds when empty
		synced = filepath.Dir(dir)
	}
	if err := syncDir(synced); err != nil {
		return fmt.Errorf("blob: delete %q version %q: %w", key, versionID, err)
	}
	return nil
}

// Delete removes every version: the key's directory is renamed into .tmp
// in one step (a crash never leaves some versions gone and others not) and
// removed from there.
func (s *FS) Delete(ctx context.Context, key string) error {
	if err := ValidateKey(key); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	dir := s.keyDir(key)
	trash, err := os.MkdirTemp(s.tmp, "del-*")
	if err != nil {
		return fmt.Errorf("blob: delete %q: %w", key, err)
	}
	defer os.RemoveAll(trash)
	s.mu.Lock()
	err = os.Rename(dir, filepath.Join(trash, "versions"))
	if err == nil {
		err = syncDir(filepath.Dir(dir))
	}
	s.mu.Unlock()
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("blob: delete %q: %w", key, ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("blob: delete %q: %w", key, err)
	}
	return nil
}

// syncDir makes a directory's entries (creations, renames, removals) durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("open %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("fsync %s: %w", dir, err)
	}
	return nil
}
