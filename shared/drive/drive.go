// Package drive is rdisk (SPEC.md §1, §3 CloudFile, §9; DESIGN.md §5): a
// Group's files and folders, their versions in the blob store, the trash
// and the Group's quota, on the module seam.
//
// A CloudFile document holds an entry's metadata; its contents are blob
// versions under the flat key "<db>/<file id>" (shared/blob: the filesystem
// under <data>/blobs, or a versioned S3 bucket). The document's "versions"
// list, newest first, is the truth about which versions exist: every new
// content (a PUT, a committed chunked upload, a restore) is put in the blob
// store first, then added to the list in one document write; the rule trims
// the list to max_versions on every write path and the write's effect
// deletes from the blob store whatever left the list. A file's bytes (all
// its versions) are a stream tally per Group, so the quota counts what the
// blob store holds, trash included, exactly under replay.
//
// Names are unique per folder: a write that gives an entry a (folder, name)
// first claims it in a store record written create-only (claims.go), so of
// two concurrent writers exactly one wins and the other gets a 409. Claims
// are store records, never documents: they stay out of the Group's
// documents, changes and counts.
//
// Routes (all under /api/{db}/_drive, the core checking the Group's access):
// see Register.
package drive

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/blob"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/schema"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/stream"
)

// Klass is the drive's document klass (id prefix "fle").
const Klass = "CloudFile"

// Kinds of an entry (SPEC.md §4 file_kind). The deleted kinds are the
// trash; only the trash routes set them.
const (
	KindFile        = "file"
	KindDir         = "dir"
	KindFileDeleted = "file_deleted"
	KindDirDeleted  = "dir_deleted"
)

// Stages of an upload in the client's queue (SPEC.md §4 upload_stage); the
// server sets done when a content is committed.
var Stages = []string{"queue", "add", "uploading", "done", "error"}

// Limits.
const (
	// DefaultMaxVersions is SPEC.md §9's "last 3 by default".
	DefaultMaxVersions = 3
	MaxMaxVersions     = 100
	// MaxNameBytes bounds a name as most filesystems do.
	MaxNameBytes = 255
	// MaxDepth bounds how deep folders nest (each level is a read when a
	// folder moves, and WebDAV clients walk them).
	MaxDepth = 64
	// MaxFileBytes bounds one file (SPEC.md §9: a dedicated server takes
	// 10 GB uploads); the Group's quota usually bounds it first.
	MaxFileBytes int64 = 10_000_000_000
	// ChunkBytes is SPEC.md §9's upload chunk: chunks are at least this
	// big, except a file's last.
	ChunkBytes = 64 << 10
)

// TallyDrive is the stream tally of a Group's drive (one Group per db):
// keys bytes (every version of every entry, trash included), files, dirs,
// trash_bytes and trash_entries.
const TallyDrive = "drive"

// JobUploads removes chunked uploads nobody touched for UploadTTL.
const JobUploads = "drive.uploads"

// Fields the server keeps: a client's values are ignored on every write
// route (the drive's own routes set them).
var serverKept = []string{"fullpath", "size", "bytes", "content_type", "versions", "attachment_key",
	"record_id", "trashed_at", "trashed_with", "external_key", "webdav_link"}

var cloudFile = schema.Klass{Name: Klass, Fields: []schema.Field{
	{Name: "kind", Type: schema.Enum, Enum: []string{KindFile, KindDir, KindFileDeleted, KindDirDeleted}, Default: KindFile},
	{Name: "color", Type: schema.Color},
	{Name: "description", Type: schema.Text, Max: 10_000},
	{Name: "starred", Type: schema.Bool, Default: false},
	{Name: "max_versions", Type: schema.Int, Min: schema.Int64(1), MaxValue: schema.Int64(MaxMaxVersions), Default: DefaultMaxVersions},
	{Name: "stage", Type: schema.Enum, Enum: Stages},
	{Name: "move_destination", Type: schema.Ref, Ref: Klass},
}}

// Module is the drive on the module seam.
type Module struct {
	deps    module.Deps
	st      store.Store
	docs    *docs.Service
	blobs   blob.Store // nil: --blobs=none
	log     *slog.Logger
	now     func() time.Time
	server  *access.Principal // who the stream's follow-up writes are by
	limits  Limits
	staging string // where chunked uploads are staged (created on first use)
	locks   [64]chanLock
}

// Limits are the drive limits per plan, in bytes (SPEC.md §9).
type Limits struct {
	Free   int64 // configuration: --drive-free-limit (100 MB by default)
	Paid   int64 // pro and corp: 1 GB
	Server int64 // a dedicated server: 10 GB
}

// ConfiguredLimits are the drive limits of every plan under c (the limits
// module reports them on GET /api/{db}/_limits).
func ConfiguredLimits(c config.Config) Limits {
	return Limits{Free: c.DriveFreeLimit, Paid: 1_000_000_000, Server: 10_000_000_000}
}

// New builds the module.
func New(d module.Deps) *Module {
	m := &Module{
		deps: d, st: d.Store, docs: d.Docs, blobs: d.Blobs, log: d.Logger("drive"), now: d.Clock(),
		server: &access.Principal{UserID: "_drive", Name: "_drive", Label: "drive", Via: access.ViaSession},
		limits: ConfiguredLimits(d.Config),
	}
	if d.Config.DataDir != "" {
		m.staging = filepath.Join(d.Config.DataDir, "uploads")
	}
	for i := range m.locks {
		m.locks[i] = make(chanLock, 1)
	}
	return m
}

// Name implements module.Module.
func (m *Module) Name() string { return "drive" }

// Register implements module.Module:
//
//	GET    /api/{db}/_drive/usage                                   → {bytes, limit, plan, files, dirs, trash_bytes, trash_entries}
//	GET    /api/{db}/_drive/dirs/{id}[?limit=&after=]   (id: a folder or "root") → {dir, path, entries, next}
//	GET    /api/{db}/_drive/files/{id}/content[?version=&inline=true]  the bytes (Range, ETag, Content-Disposition), or 302 to a presigned GET on S3
//	PUT    /api/{db}/_drive/files/{id}/content[?rev=]   (body: the bytes) → 201 {ok, id, rev, version}
//	GET    /api/{db}/_drive/files/{id}/versions                     → {id, max_versions, versions}
//	POST   /api/{db}/_drive/files/{id}/versions/{version}/restore[?rev=] → 201 {ok, id, rev, version}
//	DELETE /api/{db}/_drive/files/{id}/versions/{version}[?rev=]    → {ok, id, rev}
//	POST   /api/{db}/_drive/files/{id}/trash[?rev=]                 → {ok, id, rev, trashed}
//	POST   /api/{db}/_drive/files/{id}/restore                      → {ok, id, rev, restored, dir_id}
//	GET    /api/{db}/_drive/trash                                   → {entries}
//	DELETE /api/{db}/_drive/trash                                   → {ok, deleted, bytes}
//	DELETE /api/{db}/_drive/trash/{id}                              → {ok, deleted, bytes}
//	POST   /api/{db}/_drive/uploads {file_id | dir_id+name, size, content_type?} → 201 {upload_id, mode, size, received, chunk_size | part_size, parts}
//	GET    /api/{db}/_drive/uploads/{upload}                        → {upload_id, size, received, …}
//	PUT    /api/{db}/_drive/uploads/{upload}?offset=N   (body: a chunk) → {upload_id, size, received}; 409 {offset} on a wrong offset
//	POST   /api/{db}/_drive/uploads/{upload}/parts {parts: [n…]}   → {upload_id, part_size, parts: [{number, url}]} (presigned uploads)
//	POST   /api/{db}/_drive/uploads/{upload}/commit {rev, parts?}   → 201 {ok, id, rev, version}
//	DELETE /api/{db}/_drive/uploads/{upload}                        → {ok}
//	GET    /api/{db}/_drive/records/{id}                            → {record_id, folder, entries}
//	POST   /api/{db}/_drive/records/{id} {name?, dir_id?}           → 201|200 {ok, id, rev, folder}
//
// and the job drive.uploads (hourly).
func (m *Module) Register(r *module.Registry) error {
	m.RegisterWrites(r)

	route := func(pattern string, a module.Access, klass string, maxBody int64, h func(w http.ResponseWriter, r *http.Request) error) {
		r.Route(module.Route{Pattern: pattern, Access: a, Klass: klass, MaxBody: maxBody, Handle: h})
	}
	route("GET /api/{db}/_drive/usage", module.AccessRead, "", 0, m.getUsage)
	route("GET /api/{db}/_drive/dirs/{id}", module.AccessRead, Klass, 0, m.listDir)
	route("GET /api/{db}/_drive/files/{id}/content", module.AccessRead, Klass, 0, m.getContent)
	route("PUT /api/{db}/_drive/files/{id}/content", module.AccessWrite, Klass, MaxFileBytes, m.putContent)
	route("GET /api/{db}/_drive/files/{id}/versions", module.AccessRead, Klass, 0, m.listVersions)
	route("POST /api/{db}/_drive/files/{id}/versions/{version}/restore", module.AccessWrite, Klass, 0, m.restoreVersion)
	route("DELETE /api/{db}/_drive/files/{id}/versions/{version}", module.AccessWrite, Klass, 0, m.deleteVersion)
	route("POST /api/{db}/_drive/files/{id}/trash", module.AccessWrite, Klass, 0, m.trash)
	route("POST /api/{db}/_drive/files/{id}/restore", module.AccessWrite, Klass, 0, m.restore)
	route("GET /api/{db}/_drive/trash", module.AccessRead, "", 0, m.listTrash)
	route("DELETE /api/{db}/_drive/trash", module.AccessWrite, "", 0, m.emptyTrash)
	route("DELETE /api/{db}/_drive/trash/{id}", module.AccessWrite, Klass, 0, m.purgeOne)
	route("POST /api/{db}/_drive/uploads", module.AccessWrite, "", 0, m.startUpload)
	route("GET /api/{db}/_drive/uploads/{upload}", module.AccessWrite, Klass, 0, m.getUpload)
	route("PUT /api/{db}/_drive/uploads/{upload}", module.AccessWrite, Klass, MaxChunkBytes, m.putChunk)
	route("POST /api/{db}/_drive/uploads/{upload}/parts", module.AccessWrite, Klass, 0, m.presignParts)
	route("POST /api/{db}/_drive/uploads/{upload}/commit", module.AccessWrite, Klass, 0, m.commitUpload)
	route("DELETE /api/{db}/_drive/uploads/{upload}", module.AccessWrite, Klass, 0, m.cancelUpload)
	route("GET /api/{db}/_drive/records/{id}", module.AccessRead, "Ticket", 0, m.recordFiles)
	route("POST /api/{db}/_drive/records/{id}", module.AccessWrite, "Ticket", 0, m.recordFolder)
	m.RegisterJobs(r)
	return nil
}

// RegisterWrites implements module.WritePath: the CloudFile rule and
// effect, the drive's tally and timeline events, and the reaction that
// keeps a folder's entries' paths.
func (m *Module) RegisterWrites(r *module.Registry) {
	r.Schema(cloudFile)
	r.Labels(labels)
	r.Actor(module.Actor{ID: m.server.UserID, Name: module.L("Drive", "Drive")})
	r.Rule(Klass, m.rule)
	r.Effect(Klass, m.effect)
	r.SortKey(Klass, sortKey)
	// A Group's files are bounded by the drive limit in bytes, not by the
	// free plan's record count.
	r.NotRecords(Klass)
	r.Tally(stream.Tally{Name: TallyDrive, Klasses: []string{Klass}, Of: driveTally})
	r.Events(Klass, events)
	r.React(stream.Reaction{Name: "drive.paths", Klasses: []string{Klass}, React: m.followParent})
}

// RegisterJobs implements module.JobRunner: the sweep of abandoned uploads.
func (m *Module) RegisterJobs(r *module.Registry) {
	r.Job(module.Job{Name: JobUploads, Schedule: "rate(1 hour)", Run: m.sweepUploads})
}

// ---- helpers ------------------------------------------------------------------

// serverWrite marks a context whose writes come from the drive itself (its
// routes, the stream's follow-ups): the rule then trusts the server-kept
// fields and the trash kinds in the body. No other package can set it.
type serverWrite struct{}

func asServer(ctx context.Context) context.Context {
	return context.WithValue(ctx, serverWrite{}, true)
}

func isServer(ctx context.Context) bool { v, _ := ctx.Value(serverWrite{}).(bool); return v }

func isLive(kind string) bool    { return kind == KindFile || kind == KindDir }
func isTrashed(kind string) bool { return kind == KindFileDeleted || kind == KindDirDeleted }
func isDir(kind string) bool     { return kind == KindDir || kind == KindDirDeleted }
func isFile(kind string) bool    { return kind == KindFile || kind == KindFileDeleted }

func trashedKind(kind string) string {
	if isDir(kind) {
		return KindDirDeleted
	}
	return KindFileDeleted
}

// markTrashed makes a live entry's body the trashed one it roots (the
// entries under it are marked trashed_with it, by trashUnder).
func (m *Module) markTrashed(body map[string]any, kind string) {
	body["kind"] = trashedKind(kind)
	body["trashed_at"] = stamp(m.now())
	delete(body, "trashed_with")
}

func liveKind(kind string) string {
	if isDir(kind) {
		return KindDir
	}
	return KindFile
}

// BlobKey is the blob store key of a file's contents: flat, so a move or a
// rename never touches the blob store.
func BlobKey(db, id string) string { return db + "/" + id }

// RecordFolderID is the id of the folder of a record (a ticket, customer or
// equipment) in db: derived, so finding it is one read.
func RecordFolderID(db, recordID string) string {
	sum := sha256.Sum256([]byte("drive-record-folder\x00" + db + "\x00" + recordID))
	return "fle-" + hex.EncodeToString(sum[:16])
}

// RecordKlasses are the klasses whose records have a folder.
var RecordKlasses = []string{"Ticket", "Customer", "Equipment"}

func str(v any) string { s, _ := v.(string); return s }

func num(v any) int64 {
	switch n := v.(type) {
	case json.Number:
		i, _ := n.Int64()
		return i
	case int64:
		return n
	case int:
		return int64(n)
	case float64:
		return int64(n)
	}
	return 0
}

var errMissing = fault.New(fault.NotFound, "missing")

// entry reads a live CloudFile document of db (any kind): 404 otherwise,
// also for another Group's ids, which this db does not hold.
func (m *Module) entry(ctx context.Context, db, id string) (store.Doc, map[string]any, error) {
	if ids.Klass(id) != Klass {
		return store.Doc{}, nil, errMissing
	}
	d, body, found, err := docs.ReadLive(ctx, m.st, db, id)
	switch {
	case err != nil:
		return store.Doc{}, nil, fmt.Errorf("drive: %w", err)
	case !found:
		return store.Doc{}, nil, errMissing
	}
	return d, body, nil
}

// lookup is entry that answers nil for a missing document.
func (m *Module) lookup(ctx context.Context, db, id string) (store.Doc, map[string]any, error) {
	d, body, err := m.entry(ctx, db, id)
	if errors.Is(err, errMissing) {
		return store.Doc{}, nil, nil
	}
	return d, body, err
}

// update applies fn to the current body of id and saves it as the drive,
// by p, retrying when another write got there first. fn returns false to
// leave the document as it is (the answer is then the current revision).
func (m *Module) update(ctx context.Context, p *access.Principal, db, id string, fn func(d store.Doc, body map[string]any) (bool, error)) (store.Doc, error) {
	for range 8 {
		d, body, err := m.entry(ctx, db, id)
		if err != nil {
			return store.Doc{}, err
		}
		ok, err := fn(d, body)
		if err != nil || !ok {
			return d, err
		}
		saved, err := m.docs.Save(asServer(ctx), p, db, id, d.Rev, body)
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		return saved, err
	}
	return store.Doc{}, store.ErrConflict
}

// eachChild calls fn for the entries of folder dir ("" = the root) in sort
// key order: live folders, live files, then entries trashed with it. fn
// returns false to stop.
func (m *Module) eachChild(ctx context.Context, db, dir string, fn func(d store.Doc, body map[string]any) (bool, error)) error {
	q := store.ListQuery{Klass: Klass, Prefix: dir + "/", Limit: 500}
	for {
		page, err := m.st.List(ctx, db, q)
		if err != nil {
			return err
		}
		for _, d := range page.Docs {
			body, err := docs.Decode(d.Body)
			if err != nil {
				return fmt.Errorf("drive: decode %s/%s: %w", db, d.ID, err)
			}
			if more, err := fn(d, body); err != nil || !more {
				return err
			}
		}
		if page.Next == "" {
			return nil
		}
		q.After = page.Next
	}
}

// chanLock is a mutex that a context can give up waiting for.
type chanLock chan struct{}

func (l chanLock) lock(ctx context.Context) error {
	select {
	case l <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (l chanLock) unlock() { <-l }

func (m *Module) lockFor(key string) chanLock {
	sum := sha256.Sum256([]byte(key))
	return m.locks[int(sum[0])%len(m.locks)]
}

// mustBody decodes a stored body the drive wrote (nil when unreadable).
func mustBody(d store.Doc) map[string]any {
	b, _ := docs.Decode(d.Body)
	return b
}

func stamp(t time.Time) string { return t.UTC().Format(docs.TimeFormat) }

// quoted returns a strong ETag value.
func quoted(s string) string { return `"` + s + `"` }

func trimQuotes(s string) string { return strings.Trim(strings.TrimSpace(s), `"`) }
