// Package backup keeps a Group's backups (SPEC.md §6): its documents as
// gzipped NDJSON with its files' manifest, and, on paid plans, the files'
// contents, in the archives' store: the filesystem under <data>/blobs
// locally, in the cloud a bucket of their own with Object Lock
// (WithArchives) that only the worker function reaches; the api asks it to
// make and sign them (WithKeeper, keeper.go).
//
// Contents are stored once per Group and SHA-256 (contents.go), not copied
// into every archive: a daily backup of a 500 MB drive kept 14 times held
// 7 GB, now about the drive once.
//
// Frequency per plan: free Groups back up on an administrator's request,
// once a month; pro weekly and corp (and the dedicated server) daily, by
// the job backup.scheduled; on paid plans the owner may also ask for one
// backup a day across all their Groups. Retention: the newest 3 backups of a free
// Group (about three months), 8 of pro (about two months), 14 of corp and
// server (two weeks); older ones are deleted when a new one is made.
//
// A backup restores into a new Group, made like any other (the restorer
// is its administrator and the free-Group limits apply); every document
// comes back with its id and body, the files with their versions.
//
// The archive, one JSON value per line:
//
//	{"oficina_backup":2,"db":"acc-…","id":"…","created_at":"…","plan":"pro","with_contents":true}
//	{"doc":{"_id":"cus-…","_rev":"…",…},"sort":"<the store's sort key>"}   one per live document
//	{"file":{"id":"fle-…","name":"…","version":"…","size":12,"sha256":"…","content_type":"…",
//	         "stored":"…","keep_days":45}}   one per file version (stored, keep_days: contents.go)
//	{"end":{"docs":100,"files":4}}   written last: an archive without it is incomplete
//
// Format 1 (before contents were shared) kept a backup's contents in a tar
// next to its archive, "<file id>/<hex of the version id>" per version;
// those backups still restore.
package backup

import (
	"bufio"
	"compress/gzip"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/accounts"
	"github.com/oficina/oficina/shared/blob"
	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/drive"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/httpjson"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/store"
)

// JobScheduled makes the pro and corp Groups' backups (daily run; each
// Group when its interval has passed).
const JobScheduled = "backup.scheduled"

// Messages of refused requests.
const (
	MsgNoBlobs      = "This server keeps no backups (it runs with --blobs=none)"
	MsgFreeMonthly  = "A free Group makes one backup a month: the next one can start on %s, or upgrade for weekly backups"
	MsgOwnerDaily   = "You can ask for one backup a day across your Groups: the next one from tomorrow (scheduled backups go on as usual)"
	MsgNoBackup     = "This backup does not exist or was deleted"
	MsgBadName      = "is invalid"
	MsgIncomplete   = "This backup is incomplete and cannot be restored"
	kindIndex       = "backup.index" // key db → []Info, newest first
	kindOwnerDay    = "backup.owner" // key user \x00 day: a requested backup of a paid Group that day
	prefix          = "backups/"
	maxArchiveBytes = 10 << 30
)

// Retention is how many backups a plan keeps.
func Retention(plan string) int {
	switch plan {
	case "pro":
		return 8
	case "corp", "server":
		return 14
	}
	return 3
}

// Interval is how often the job backs up a plan's Groups (0: only on
// request).
func Interval(plan string) time.Duration {
	switch plan {
	case "pro":
		return 7 * 24 * time.Hour
	case "corp", "server":
		return 24 * time.Hour
	}
	return 0
}

// FreeEvery is how often a free Group may ask for a backup.
const FreeEvery = 30 * 24 * time.Hour

// Groups is what restoring needs from the accounts service.
type Groups interface {
	CreateGroup(ctx context.Context, p *access.Principal, in accounts.NewGroup) (store.Doc, error)
}

// Module is the backup module.
type Module struct {
	deps  module.Deps
	st    store.Store
	blobs blob.Store
	// archives keeps the backups: the drive's store under backups/ (the
	// default), or a bucket of their own with Object Lock (WithArchives).
	archives blob.Store
	// locker writes archives locked (WithArchives of a blob.Retainer).
	locker blob.Retainer
	// keeper, when set, makes backups on request and signs reads of them
	// (the worker, in the stack: the api may not reach the archives).
	keeper Invoke
	http   *http.Client // reads what the keeper signed
	groups Groups
	log    *slog.Logger
	now    func() time.Time
}

// New builds the module; groups creates the Groups backups restore into.
func New(d module.Deps, groups Groups) *Module {
	return &Module{deps: d, st: d.Store, blobs: d.Blobs, archives: d.Blobs, groups: groups, log: d.Logger("backup"), now: d.Clock()}
}

// WithArchives keeps the backups in st instead of the drive's store. When
// st is a blob.Retainer (the stack's backups bucket), each backup is
// written locked for its plan's RetentionDays and is never deleted by the
// module: the bucket's lifecycle removes it by its retention class, and no
// role of the product holds a delete permission there.
func (m *Module) WithArchives(st blob.Store) *Module {
	if st != nil {
		m.archives = st
		m.locker, _ = st.(blob.Retainer)
	}
	return m
}

// RetentionDays is how long a plan's backups are locked and kept: its
// Retention backups at its cadence (a free Group's monthly request), and a
// day. The stack's lifecycle rules (infra-cdk/lib/backups.ts,
// BACKUP_RETENTION_DAYS) expire them by these classes.
func RetentionDays(plan string) int {
	every := Interval(plan)
	if every == 0 {
		every = FreeEvery
	}
	return Retention(plan)*int(every/(24*time.Hour)) + 1
}

// putArchive writes one blob of a backup: locked for the plan's retention
// where the store can lock.
func (m *Module) putArchive(ctx context.Context, key, plan string, r io.Reader) (blob.Version, error) {
	if m.locker != nil {
		days := RetentionDays(plan)
		return m.locker.PutRetained(ctx, key, r, blob.Retention{Until: m.now().Add(time.Duration(days) * 24 * time.Hour), Class: strconv.Itoa(days)})
	}
	return m.archives.Put(ctx, key, r)
}

// retained reports whether backups are locked (never deleted by the module).
func (m *Module) retained() bool { return m.locker != nil }

// Name implements module.Module.
func (m *Module) Name() string { return "backup" }

// Register implements module.Module:
//
//	GET  /api/{db}/_backups               (members)  → {backups: [Info…]} newest first
//	POST /api/{db}/_backups               (admins)   → 202 {id, …Info}
//	GET  /api/{db}/_backups/{id}          (admins)   → the .ndjson.gz archive (S3: 302 to a presigned GET)
//	POST /api/{db}/_backups/{id}/restore  (admins)   {name} → 201 {db}
func (m *Module) Register(r *module.Registry) error {
	r.Route(module.Route{Pattern: "GET /api/{db}/_backups", Access: module.AccessRead, Handle: m.list})
	r.Route(module.Route{Pattern: "POST /api/{db}/_backups", Access: module.AccessAdmin, Handle: m.start})
	r.Route(module.Route{Pattern: "GET /api/{db}/_backups/{id}", Access: module.AccessAdmin, Handle: m.download})
	r.Route(module.Route{Pattern: "POST /api/{db}/_backups/{id}/restore", Access: module.AccessAdmin, Handle: m.restore})
	m.RegisterJobs(r)
	return nil
}

// RegisterJobs implements module.JobRunner: the scheduled backups.
func (m *Module) RegisterJobs(r *module.Registry) {
	r.Job(module.Job{Name: JobScheduled, Schedule: "cron(0 2 * * ? *)", Group: m.scheduledGroup, Run: module.EachGroup(m.st, m.scheduledGroup)})
}

// Info describes one backup.
type Info struct {
	ID           string    `json:"id"`
	CreatedAt    time.Time `json:"created_at"`
	Size         int64     `json:"size"` // the archive's bytes plus the contents'
	Files        int       `json:"files"`
	Docs         int       `json:"docs"`
	WithContents bool      `json:"with_contents"`
	Trigger      string    `json:"trigger"` // "request" or "schedule"
	// Format is the archive's: 2 names each version's contents by its
	// SHA-256 (contents.go); 0 is format 1, a tar of the contents.
	Format int `json:"format,omitempty"`
}

// The archive formats.
const (
	formatTar    = 1 // the contents in a tar next to the archive
	formatShared = 2 // the contents stored once per Group and SHA-256
)

func archiveKey(db, id string) string  { return prefix + db + "/" + id + ".ndjson.gz" }
func contentsKey(db, id string) string { return prefix + db + "/" + id + ".files.tar" }

// Backups lists db's backups, newest first.
func (m *Module) Backups(ctx context.Context, db string) ([]Info, error) {
	l, _, err := m.readIndex(ctx, db)
	return l, err
}

func (m *Module) readIndex(ctx context.Context, db string) ([]Info, []byte, error) {
	r, err := m.st.GetRecord(ctx, kindIndex, db)
	if errors.Is(err, store.ErrNotFound) {
		return []Info{}, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("backup: read index of %s: %w", db, err)
	}
	var l []Info
	if err := json.Unmarshal(r.Value, &l); err != nil {
		return nil, nil, fmt.Errorf("backup: decode index of %s: %w", db, err)
	}
	return l, r.Value, nil
}

// record adds info to db's index, newest first, and drops what the plan
// does not keep (their blobs after the index no longer lists them).
func (m *Module) record(ctx context.Context, db, plan string, info Info) error {
	for range 10 {
		l, raw, err := m.readIndex(ctx, db)
		if err != nil {
			return err
		}
		l = append([]Info{info}, l...)
		slices.SortStableFunc(l, func(a, b Info) int { return b.CreatedAt.Compare(a.CreatedAt) })
		var dropped []Info
		if keep := Retention(plan); len(l) > keep {
			dropped, l = l[keep:], l[:keep]
		}
		val, err := json.Marshal(l)
		if err != nil {
			return err
		}
		err = m.st.Transact(ctx, []store.RecordWrite{store.SwapWrite(kindIndex, db, val, raw)})
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		if err != nil {
			return fmt.Errorf("backup: write index of %s: %w", db, err)
		}
		m.dropContents(ctx, db, dropped, l)
		for _, d := range dropped {
			m.deleteBlobs(ctx, db, d)
		}
		return nil
	}
	return fmt.Errorf("backup: index of %s keeps changing", db)
}

func (m *Module) deleteBlobs(ctx context.Context, db string, info Info) {
	if m.retained() {
		return // locked: the bucket's lifecycle expires them
	}
	keys := []string{archiveKey(db, info.ID)}
	if info.WithContents && info.Format < formatShared {
		keys = append(keys, contentsKey(db, info.ID))
	}
	for _, k := range keys {
		if err := m.archives.Delete(context.WithoutCancel(ctx), k); err != nil && !errors.Is(err, blob.ErrNotFound) {
			m.log.ErrorContext(ctx, "delete an expired backup", "db", db, "key", k, "err", err)
		}
	}
}

func (m *Module) plan(ctx context.Context, db string) (string, error) {
	if m.deps.Groups == nil {
		return "free", nil
	}
	p, err := m.deps.Groups.Plan(ctx, db)
	if err != nil {
		return "", err
	}
	if p == "" {
		p = "free"
	}
	return p, nil
}

// fileVersion is one line of the files' manifest.
type fileVersion struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Version     string `json:"version"`
	Size        int64  `json:"size"`
	SHA256      string `json:"sha256"`
	ContentType string `json:"content_type,omitempty"`
	// Stored is when the current version of the contents' blob was written
	// (at most), and KeepDays how long the archives' lifecycle keeps it
	// (0: until no backup names it): contents.go.
	Stored   *time.Time `json:"stored,omitempty"`
	KeepDays int        `json:"keep_days,omitempty"`
	// LockedUntil is when its lock passes, in a locked bucket (none:
	// Stored and KeepDays).
	LockedUntil *time.Time `json:"locked_until,omitempty"`
}

// Create makes a backup of db now.
func (m *Module) Create(ctx context.Context, db, trigger string) (Info, error) {
	if m.blobs == nil {
		return Info{}, fault.New(fault.BadRequest, MsgNoBlobs)
	}
	plan, err := m.plan(ctx, db)
	if err != nil {
		return Info{}, err
	}
	var rb [8]byte
	if _, err := rand.Read(rb[:]); err != nil {
		return Info{}, err
	}
	now := m.now().UTC().Truncate(time.Millisecond)
	info := Info{ID: now.Format("20060102T150405Z") + "-" + hex.EncodeToString(rb[:]), CreatedAt: now, WithContents: plan != "free", Trigger: trigger, Format: formatShared}
	var keep *contents
	if info.WithContents {
		keep = m.contentsFor(ctx, db, plan, now)
	}

	pr, pw := io.Pipe()
	go func() {
		pw.CloseWithError(m.writeArchive(ctx, db, plan, &info, keep, pw))
	}()
	v, err := m.putArchive(ctx, archiveKey(db, info.ID), plan, pr)
	pr.CloseWithError(err)
	if err != nil {
		return Info{}, fmt.Errorf("backup: write archive of %s: %w", db, err)
	}
	info.Size = v.Size
	if keep != nil {
		// The archive names the contents as stored: a backup is recorded
		// only once every one of them is.
		if err := m.storeContents(ctx, db, keep); err != nil {
			m.deleteBlobs(ctx, db, Info{ID: info.ID})
			return Info{}, fmt.Errorf("backup: write contents of %s: %w", db, err)
		}
		info.Size += keep.bytes
	}
	if err := m.record(ctx, db, plan, info); err != nil {
		m.deleteBlobs(ctx, db, info)
		return Info{}, err
	}
	m.log.InfoContext(ctx, "backup made", "db", db, "id", info.ID, "docs", info.Docs, "files", info.Files, "bytes", info.Size)
	return info, nil
}

// writeArchive writes the gzipped NDJSON of db to w, counting into info
// and collecting the file versions.
func (m *Module) writeArchive(ctx context.Context, db, plan string, info *Info, keep *contents, w io.Writer) error {
	gz := gzip.NewWriter(w)
	bw := bufio.NewWriterSize(gz, 64<<10)
	line := func(v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		bw.Write(b)
		return bw.WriteByte('\n')
	}
	if err := line(map[string]any{"oficina_backup": info.Format, "db": db, "id": info.ID, "created_at": info.CreatedAt, "plan": plan, "with_contents": info.WithContents}); err != nil {
		return err
	}
	q := store.AllDocsQuery{Limit: 500}
	for {
		page, err := m.st.AllDocs(ctx, db, q)
		if err != nil {
			return fmt.Errorf("backup: read %s: %w", db, err)
		}
		for _, d := range page {
			if d.Deleted {
				continue
			}
			if err := line(map[string]any{"doc": json.RawMessage(docs.WithMeta(d)), "sort": d.SortKey}); err != nil {
				return err
			}
			info.Docs++
			if d.Klass != drive.Klass {
				continue
			}
			var f struct {
				Name     string          `json:"name"`
				Versions []drive.Version `json:"versions"`
			}
			if err := json.Unmarshal(d.Body, &f); err != nil {
				return fmt.Errorf("backup: decode %s/%s: %w", db, d.ID, err)
			}
			for _, v := range f.Versions {
				fv := fileVersion{ID: d.ID, Name: f.Name, Version: v.ID, Size: v.Size, SHA256: v.SHA256, ContentType: v.ContentType}
				if keep != nil {
					keep.name(&fv)
				}
				if err := line(map[string]any{"file": fv}); err != nil {
					return err
				}
				info.Files++
			}
		}
		if len(page) < q.Limit {
			break
		}
		q.StartKey, q.Skip = page[len(page)-1].ID, 1
	}
	if err := line(map[string]any{"end": map[string]int{"docs": info.Docs, "files": info.Files}}); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return gz.Close()
}

// scheduledGroup is the backup.scheduled job for one Group: a paying
// Group whose interval has passed since its last scheduled backup is backed
// up. A re-run finds the backup just made and skips.
func (m *Module) scheduledGroup(ctx context.Context, ev module.JobEvent, db string) error {
	now := ev.Time
	if now.IsZero() {
		now = m.now()
	}
	return m.scheduled(ctx, db, now)
}

func (m *Module) scheduled(ctx context.Context, db string, now time.Time) error {
	plan, err := m.plan(ctx, db)
	if err != nil {
		return err
	}
	every := Interval(plan)
	if every == 0 {
		return nil
	}
	l, _, err := m.readIndex(ctx, db)
	if err != nil {
		return err
	}
	for _, b := range l {
		// Two hours of slack: a run late yesterday still counts as yesterday's.
		if b.Trigger == "schedule" && now.Sub(b.CreatedAt) < every-2*time.Hour {
			return nil
		}
	}
	_, err = m.Create(ctx, db, "schedule")
	return err
}

// ---- routes -------------------------------------------------------------------

func (m *Module) list(w http.ResponseWriter, r *http.Request) error {
	l, err := m.Backups(r.Context(), r.PathValue("db"))
	if err != nil {
		return err
	}
	httpjson.Write(w, http.StatusOK, map[string]any{"backups": l})
	return nil
}

func (m *Module) start(w http.ResponseWriter, r *http.Request) error {
	ctx, db := r.Context(), r.PathValue("db")
	if m.blobs == nil {
		return fault.New(fault.BadRequest, MsgNoBlobs)
	}
	plan, err := m.plan(ctx, db)
	if err != nil {
		return err
	}
	l, _, err := m.readIndex(ctx, db)
	if err != nil {
		return err
	}
	now := m.now()
	if plan == "free" {
		for _, b := range l {
			if b.Trigger == "request" && now.Sub(b.CreatedAt) < FreeEvery {
				return fault.Newf(fault.Conflict, MsgFreeMonthly, b.CreatedAt.Add(FreeEvery).UTC().Format("2006-01-02"))
			}
		}
	}
	// Paid plans: besides the schedule, the owner (the admin asking) once
	// a day across all their Groups (SPEC.md §6), marked create-only.
	var mark string
	if plan != "free" {
		p := module.Principal(r)
		mark = p.UserID + "\x00" + now.UTC().Format("2006-01-02")
		err := m.st.PutRecord(ctx, store.Record{Kind: kindOwnerDay, Key: mark, Value: []byte(db), ExpiresAt: now.Add(48 * time.Hour)}, true)
		if errors.Is(err, store.ErrExists) {
			return fault.New(fault.Conflict, MsgOwnerDaily)
		}
		if err != nil {
			return err
		}
	}
	info, err := m.create(ctx, db, "request")
	if err != nil {
		if mark != "" {
			_ = m.st.DeleteRecord(context.WithoutCancel(ctx), kindOwnerDay, mark)
		}
		return err
	}
	httpjson.Write(w, http.StatusAccepted, info)
	return nil
}

// find returns backup id of db.
func (m *Module) find(ctx context.Context, db, id string) (Info, error) {
	l, _, err := m.readIndex(ctx, db)
	if err != nil {
		return Info{}, err
	}
	for _, b := range l {
		if b.ID == id {
			return b, nil
		}
	}
	return Info{}, fault.New(fault.NotFound, MsgNoBackup)
}

func (m *Module) download(w http.ResponseWriter, r *http.Request) error {
	ctx, db := r.Context(), r.PathValue("db")
	info, err := m.find(ctx, db, r.PathValue("id"))
	if err != nil {
		return err
	}
	if m.blobs == nil {
		return fault.New(fault.BadRequest, MsgNoBlobs)
	}
	name := "oficina-" + db + "-" + info.ID + ".ndjson.gz"
	// S3: the browser fetches it from the bucket (a Lambda answer stops at 6 MB).
	u, err := m.signedGet(ctx, db, info.ID, PartArchive, name)
	if err != nil {
		return err
	}
	if u != "" {
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Location", u)
		w.WriteHeader(http.StatusFound)
		return nil
	}
	rc, v, err := m.archives.Get(ctx, archiveKey(db, info.ID), "", nil)
	if errors.Is(err, blob.ErrNotFound) {
		return fault.New(fault.NotFound, MsgNoBackup)
	}
	if err != nil {
		return err
	}
	defer rc.Close()
	w.Header().Set("Content-Type", "application/gzip")
	w.Header().Set("Content-Length", fmt.Sprint(v.Size))
	w.Header().Set("Content-Disposition", blob.ContentDisposition("attachment", name))
	w.WriteHeader(http.StatusOK)
	_, _ = io.Copy(w, rc)
	return nil
}

func (m *Module) restore(w http.ResponseWriter, r *http.Request) error {
	ctx, db := r.Context(), r.PathValue("db")
	var in struct {
		Name string `json:"name"`
	}
	if err := httpjson.Decode(w, r, 16<<10, &in); err != nil {
		return err
	}
	if strings.TrimSpace(in.Name) == "" {
		return fault.Invalid(map[string][]string{"name": {fault.CantBeBlank}})
	}
	info, err := m.find(ctx, db, r.PathValue("id"))
	if err != nil {
		return err
	}
	newDB, err := m.Restore(ctx, module.Principal(r), db, info, in.Name)
	if err != nil {
		return err
	}
	httpjson.Write(w, http.StatusCreated, map[string]any{"ok": true, "db": newDB})
	return nil
}
