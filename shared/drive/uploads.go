package drive

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"time"

	"github.com/oficina/oficina/shared/blob"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/httpjson"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/store"
)

// Resumable chunked uploads, the local mode's (DESIGN.md §5: in the cloud
// browsers upload straight to S3 with presigned multipart URLs). An upload
// is a store record (kind drive.upload: who, which Group, which file or
// which folder and name, the declared size) and a staged file under
// <data>/uploads that chunks are appended to. A chunk names the offset it
// starts at; the wrong one gets a 409 with the offset the server has, so a
// client whose connection dropped asks (GET) and goes on from there. What
// arrived of a cut chunk is kept. The commit streams the staged file into
// the blob store as a new version, checking the document's revision.
const kindUpload = "drive.upload"

// UploadTTL is how long an upload nobody touches is kept; the hourly job
// removes it then.
const UploadTTL = 24 * time.Hour

// MaxChunkBytes bounds one chunk's request.
const MaxChunkBytes = 32 << 20

var uploadIDRe = regexp.MustCompile(`^[0-9a-f]{32}$`)

// upload is an upload's record.
type upload struct {
	ID          string    `json:"upload_id"`
	DB          string    `json:"db"`
	UserID      string    `json:"user_id"`
	FileID      string    `json:"file_id,omitempty"` // a new version of this file
	DirID       string    `json:"dir_id"`            // or a new file here (with Name)
	Name        string    `json:"name,omitempty"`
	Size        int64     `json:"size"`
	ContentType string    `json:"content_type,omitempty"`
	Created     time.Time `json:"created"`
	Touched     time.Time `json:"touched"`
	// A presigned upload (presign.go): its mode, the file id its parts go
	// to (chosen at the start for a new file), S3's multipart upload id and
	// the part size.
	Mode     string `json:"mode,omitempty"`
	BlobID   string `json:"blob_id,omitempty"`
	S3Upload string `json:"s3_upload,omitempty"`
	PartSize int64  `json:"part_size,omitempty"`
}

func (up upload) presigned() bool { return up.Mode == ModePresigned }

// Reasons of the upload routes.
const (
	MsgUploadMissing  = "This upload does not exist or has expired: start it again"
	MsgUploadOffset   = "This chunk starts at byte %d, but the upload has %d bytes: send from byte %d"
	MsgUploadPast     = "This chunk goes past the upload's declared size of %d bytes"
	MsgUploadSmall    = "A chunk is at least 64 KB (65536 bytes), except the last one"
	MsgUploadShort    = "The upload has %d of its %d bytes: send the rest before committing"
	MsgUploadNoTarget = "Give either file_id (a new version of that file) or dir_id and name (a new file)"
	MsgUploadExists   = "An entry named %q already exists in this folder: upload a new version of it (file_id %s), or choose another name"
)

func (m *Module) stagedPath(id string) string { return filepath.Join(m.staging, id) }

// noStaging refuses an upload route on a server that can take neither a
// staged nor a presigned upload.
func (m *Module) noStaging() error {
	if m.blobs == nil {
		return errNoBlobs
	}
	if m.staging == "" && m.presigner() == nil {
		return fault.New(fault.BadRequest, "This server stages no uploads (it has no data directory)")
	}
	return nil
}

// startUpload: POST /api/{db}/_drive/uploads {file_id | dir_id+name, size,
// content_type?} → 201 {upload_id, size, received: 0, chunk_size}. The
// declared size is checked against the Group's room at once.
func (m *Module) startUpload(w http.ResponseWriter, r *http.Request) error {
	if err := m.noStaging(); err != nil {
		return err
	}
	ctx, db, p := r.Context(), r.PathValue("db"), module.Principal(r)
	if err := m.deps.Docs.Check(ctx, p, db, Klass, nil); err != nil {
		return err // a view-only Group takes no new uploads
	}
	var in struct {
		FileID      string  `json:"file_id"`
		DirID       string  `json:"dir_id"`
		Name        *string `json:"name"`
		Size        *int64  `json:"size"`
		ContentType string  `json:"content_type"`
	}
	if err := httpjson.Decode(w, r, 16<<10, &in); err != nil {
		return err
	}
	errs := map[string][]string{}
	if in.Size == nil {
		errs["size"] = []string{fault.CantBeBlank}
	} else if *in.Size < 0 || *in.Size > MaxFileBytes {
		errs["size"] = []string{fmt.Sprintf("must be between 0 and %d", MaxFileBytes)}
	}
	up := upload{DB: db, UserID: p.UserID, ContentType: in.ContentType, Created: m.now().UTC()}
	up.Touched = up.Created
	switch {
	case in.FileID != "" && (in.Name != nil || in.DirID != ""), in.FileID == "" && in.Name == nil:
		return fault.New(fault.BadRequest, MsgUploadNoTarget)
	case in.FileID != "":
		if _, _, err := m.fileFor(ctx, db, in.FileID); err != nil {
			return err
		}
		up.FileID = in.FileID
	default:
		name, msg := CleanName(*in.Name)
		if msg != "" {
			errs["name"] = []string{msg}
		}
		if in.DirID != "" {
			if _, b, err := m.lookup(ctx, db, in.DirID); err != nil {
				return err
			} else if b == nil || str(b["kind"]) != KindDir {
				errs["dir_id"] = []string{MsgDirMissing}
			}
		}
		if len(errs) == 0 {
			if owner, err := m.claimOwner(ctx, db, in.DirID, name); err != nil {
				return err
			} else if owner != "" {
				return &fault.Error{Kind: fault.Conflict, Reason: fmt.Sprintf(MsgUploadExists, name, owner), Fields: map[string][]string{"name": {fault.AlreadyTaken}}}
			}
		}
		up.DirID, up.Name = in.DirID, name
	}
	if len(errs) > 0 {
		return fault.Invalid(errs)
	}
	up.Size = *in.Size
	if _, err := m.room(ctx, db, up.Size); err != nil {
		return err
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	up.ID = hex.EncodeToString(b[:])
	if ps := m.presigner(); ps != nil {
		if err := m.startPresigned(ctx, ps, &up); err != nil {
			return err
		}
		if err := m.saveUpload(ctx, up); err != nil {
			m.abortPresigned(ctx, up)
			return err
		}
		httpjson.Write(w, http.StatusCreated, m.uploadAnswer(up, 0))
		return nil
	}
	up.Mode = ModeServer
	if err := os.MkdirAll(m.staging, 0o700); err != nil {
		return fmt.Errorf("drive: create %s: %w", m.staging, err)
	}
	f, err := os.OpenFile(m.stagedPath(up.ID), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("drive: stage an upload: %w", err)
	}
	f.Close()
	if err := m.saveUpload(ctx, up); err != nil {
		os.Remove(m.stagedPath(up.ID))
		return err
	}
	httpjson.Write(w, http.StatusCreated, m.uploadAnswer(up, 0))
	return nil
}

func (m *Module) uploadAnswer(up upload, received int64) map[string]any {
	out := map[string]any{
		"upload_id": up.ID, "mode": ModeServer, "size": up.Size, "received": received, "chunk_size": ChunkBytes,
		"file_id": up.FileID, "dir_id": up.DirID, "name": up.Name,
		"expires_at": stamp(up.Touched.Add(UploadTTL)),
	}
	if up.presigned() {
		// The parts the browser keeps the ETags of are its own record of
		// what arrived: the server answers no byte count.
		out["mode"], out["part_size"], out["parts"] = ModePresigned, up.PartSize, up.partCount()
		delete(out, "received")
		delete(out, "chunk_size")
	}
	return out
}

func (m *Module) saveUpload(ctx context.Context, up upload) error {
	raw, err := json.Marshal(up)
	if err != nil {
		return err
	}
	// The store's expiry is a backstop; the job goes by Touched.
	rec := store.Record{Kind: kindUpload, Key: up.ID, Value: raw, ExpiresAt: time.Now().Add(2 * UploadTTL)}
	if err := m.st.PutRecord(ctx, rec, false); err != nil {
		return fmt.Errorf("drive: save an upload: %w", err)
	}
	return nil
}

// loadUpload finds the caller's upload of this db (404 for anyone else's).
func (m *Module) loadUpload(r *http.Request) (upload, error) {
	id := r.PathValue("upload")
	if !uploadIDRe.MatchString(id) {
		return upload{}, fault.New(fault.NotFound, MsgUploadMissing)
	}
	rec, err := m.st.GetRecord(r.Context(), kindUpload, id)
	if errors.Is(err, store.ErrNotFound) {
		return upload{}, fault.New(fault.NotFound, MsgUploadMissing)
	}
	if err != nil {
		return upload{}, err
	}
	var up upload
	if err := json.Unmarshal(rec.Value, &up); err != nil {
		return upload{}, fault.New(fault.NotFound, MsgUploadMissing)
	}
	if p := module.Principal(r); up.DB != r.PathValue("db") || p == nil || up.UserID != p.UserID {
		return upload{}, fault.New(fault.NotFound, MsgUploadMissing)
	}
	return up, nil
}

// received is how many bytes of an upload are staged.
func (m *Module) received(id string) (int64, error) {
	info, err := os.Stat(m.stagedPath(id))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, fault.New(fault.NotFound, MsgUploadMissing)
	}
	if err != nil {
		return 0, err
	}
	return info.Size(), nil
}

// getUpload: GET /api/{db}/_drive/uploads/{upload} → {upload_id, size,
// received, …}: where to go on from.
func (m *Module) getUpload(w http.ResponseWriter, r *http.Request) error {
	if err := m.noStaging(); err != nil {
		return err
	}
	up, err := m.loadUpload(r)
	if err != nil {
		return err
	}
	if up.presigned() {
		httpjson.Write(w, http.StatusOK, m.uploadAnswer(up, 0))
		return nil
	}
	n, err := m.received(up.ID)
	if err != nil {
		return err
	}
	httpjson.Write(w, http.StatusOK, m.uploadAnswer(up, n))
	return nil
}

// putChunk: PUT /api/{db}/_drive/uploads/{upload}?offset=N with the bytes
// from N on. 409 {offset} when N is not what the server has.
func (m *Module) putChunk(w http.ResponseWriter, r *http.Request) error {
	if err := m.noStaging(); err != nil {
		return err
	}
	ctx := r.Context()
	offset, err := strconv.ParseInt(r.URL.Query().Get("offset"), 10, 64)
	if err != nil || offset < 0 {
		return fault.New(fault.BadRequest, "offset must be the byte the chunk starts at (a whole number)")
	}
	up, err := m.loadUpload(r)
	if err != nil {
		return err
	}
	if up.presigned() {
		return fault.New(fault.BadRequest, MsgPresignedChunk)
	}
	l := m.lockFor(up.ID)
	if err := l.lock(ctx); err != nil {
		return err
	}
	defer l.unlock()
	f, err := os.OpenFile(m.stagedPath(up.ID), os.O_WRONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return fault.New(fault.NotFound, MsgUploadMissing)
	}
	if err != nil {
		return err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	have := info.Size()
	if offset != have {
		httpjson.Write(w, http.StatusConflict, map[string]any{
			"error": "conflict", "reason": fmt.Sprintf(MsgUploadOffset, offset, have, have),
			"offset": have, "received": have, "size": up.Size,
		})
		return nil
	}
	left := up.Size - have
	if r.ContentLength > left {
		return fault.Newf(fault.TooLarge, MsgUploadPast, up.Size)
	}
	if _, err := f.Seek(have, io.SeekStart); err != nil {
		return err
	}
	n, err := io.CopyBuffer(f, io.LimitReader(r.Body, left+1), make([]byte, copyBuffer))
	cut := func(to int64) error {
		if terr := f.Truncate(to); terr != nil {
			return fmt.Errorf("drive: truncate a staged upload: %w", terr)
		}
		return nil
	}
	switch {
	case n > left:
		if terr := cut(have); terr != nil {
			return terr
		}
		return fault.Newf(fault.TooLarge, MsgUploadPast, up.Size)
	case err != nil:
		// A dropped connection: keep what arrived, the client goes on
		// from there (GET tells it where).
		up.Touched = m.now().UTC()
		_ = m.saveUpload(context.WithoutCancel(ctx), up)
		return fault.Wrap(fault.BadRequest, fmt.Sprintf("The chunk was cut after %d bytes; the upload has %d: send from there", n, have+n), err)
	case n < ChunkBytes && have+n < up.Size:
		if terr := cut(have); terr != nil {
			return terr
		}
		return fault.New(fault.BadRequest, MsgUploadSmall)
	}
	// The record says when the upload was last touched, for the job; a
	// write per minute is enough for that, not one per chunk.
	if now := m.now().UTC(); now.Sub(up.Touched) > time.Minute {
		up.Touched = now
		if err := m.saveUpload(ctx, up); err != nil {
			return err
		}
	}
	httpjson.Write(w, http.StatusOK, m.uploadAnswer(up, have+n))
	return nil
}

// commitUpload: POST /api/{db}/_drive/uploads/{upload}/commit {rev} makes
// the staged bytes a new version of the file (rev must be its current
// revision: 409 otherwise) or a new file in the folder ({name?} renames it
// when its name was taken since the start; 201 either way). A refused
// commit keeps the upload, so it can be committed again.
func (m *Module) commitUpload(w http.ResponseWriter, r *http.Request) error {
	if err := m.noStaging(); err != nil {
		return err
	}
	ctx, db, p := r.Context(), r.PathValue("db"), module.Principal(r)
	var in struct {
		Rev  string  `json:"rev"`
		Name *string `json:"name"` // a new file's name, when the one given at the start was taken since
		// A presigned upload's parts, each with the ETag its PUT answered.
		Parts []struct {
			Number int32  `json:"number"`
			ETag   string `json:"etag"`
		} `json:"parts"`
	}
	if r.ContentLength != 0 {
		if err := httpjson.Decode(w, r, 16<<10, &in); err != nil {
			return err
		}
	}
	up, err := m.loadUpload(r)
	if err != nil {
		return err
	}
	l := m.lockFor(up.ID)
	if err := l.lock(ctx); err != nil {
		return err
	}
	defer l.unlock()
	if !up.presigned() {
		have, err := m.received(up.ID)
		if err != nil {
			return err
		}
		if have != up.Size {
			return fault.Newf(fault.Conflict, MsgUploadShort, have, up.Size)
		}
	}
	if in.Name != nil && up.FileID == "" {
		name, msg := CleanName(*in.Name)
		if msg != "" {
			return fault.Invalid(map[string][]string{"name": {msg}})
		}
		up.Name = name
	}
	id, name := up.FileID, up.Name
	if id != "" {
		d, body, err := m.fileFor(ctx, db, id)
		if err != nil {
			return err
		}
		if in.Rev == "" {
			return fault.Invalid(map[string][]string{"rev": {fault.CantBeBlank}})
		}
		if in.Rev != d.Rev {
			return store.ErrConflict
		}
		name = str(body["name"])
	} else {
		// A name taken since the start: say so before copying the bytes.
		if owner, err := m.claimOwner(ctx, db, up.DirID, up.Name); err != nil {
			return err
		} else if owner != "" {
			return errNameTaken(up.Name)
		}
		id = ids.New("fle")
		if up.presigned() {
			id = up.BlobID // where the parts went
		}
	}
	var v Version
	if up.presigned() {
		parts := make([]blob.Part, len(in.Parts))
		for i, pt := range in.Parts {
			parts[i] = blob.Part{Number: pt.Number, ETag: pt.ETag}
		}
		if v, err = m.completeParts(ctx, p, up, parts, name); err != nil {
			return err
		}
	} else {
		room, err := m.room(ctx, db, up.Size)
		if err != nil {
			return err
		}
		f, err := os.Open(m.stagedPath(up.ID))
		if err != nil {
			return fmt.Errorf("drive: open a staged upload: %w", err)
		}
		defer f.Close()
		if v, err = m.putBlob(ctx, p, db, id, f, room, contentType(up.ContentType, name)); err != nil {
			return err
		}
	}
	var saved store.Doc
	if up.FileID != "" {
		saved, err = m.addVersion(ctx, p, db, id, in.Rev, v)
		if err != nil {
			m.dropVersion(ctx, db, id, v.ID)
			return err
		}
	} else {
		body := map[string]any{"klass": Klass, "kind": KindFile, "name": up.Name, "dir_id": up.DirID, "stage": "done", "versions": []Version{v}}
		saved, err = m.docs.Save(asServer(ctx), p, db, id, "", body)
		if err != nil {
			if derr := m.blobs.Delete(context.WithoutCancel(ctx), BlobKey(db, id)); derr != nil {
				m.log.ErrorContext(ctx, "drop an uncommitted file", "db", db, "id", id, "err", derr)
			}
			return err
		}
	}
	if up.presigned() {
		m.dropRecord(ctx, up.ID)
	} else {
		m.dropUpload(ctx, up.ID)
	}
	httpjson.Write(w, http.StatusCreated, map[string]any{"ok": true, "id": id, "rev": saved.Rev, "version": v, "doc": rawDoc(saved)})
	return nil
}

// cancelUpload: DELETE /api/{db}/_drive/uploads/{upload}.
func (m *Module) cancelUpload(w http.ResponseWriter, r *http.Request) error {
	if err := m.noStaging(); err != nil {
		return err
	}
	up, err := m.loadUpload(r)
	if err != nil {
		return err
	}
	l := m.lockFor(up.ID)
	if err := l.lock(r.Context()); err != nil {
		return err
	}
	defer l.unlock()
	m.abortPresigned(r.Context(), up)
	m.dropUpload(r.Context(), up.ID)
	httpjson.Write(w, http.StatusOK, map[string]any{"ok": true})
	return nil
}

func (m *Module) dropUpload(ctx context.Context, id string) {
	if err := os.Remove(m.stagedPath(id)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		m.log.WarnContext(ctx, "remove a staged upload", "upload", id, "err", err)
	}
	m.dropRecord(ctx, id)
}

// dropRecord removes an upload's record.
func (m *Module) dropRecord(ctx context.Context, id string) {
	if err := m.st.DeleteRecord(context.WithoutCancel(ctx), kindUpload, id); err != nil {
		m.log.WarnContext(ctx, "remove an upload record", "upload", id, "err", err)
	}
}

// sweepUploads is the drive.uploads job: staged uploads nobody touched for
// UploadTTL (or whose record is gone) are removed with their records.
func (m *Module) sweepUploads(ctx context.Context, _ module.JobEvent) error {
	if m.staging == "" {
		return nil
	}
	entries, err := os.ReadDir(m.staging)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("drive: read %s: %w", m.staging, err)
	}
	for _, e := range entries {
		id := e.Name()
		if !uploadIDRe.MatchString(id) {
			continue
		}
		rec, err := m.st.GetRecord(ctx, kindUpload, id)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		var up upload
		if err == nil && json.Unmarshal(rec.Value, &up) == nil && m.now().Sub(up.Touched) < UploadTTL {
			continue
		}
		if info, ierr := e.Info(); err != nil && ierr == nil && time.Since(info.ModTime()) < time.Minute {
			continue // created a moment ago, its record on the way
		}
		l := m.lockFor(id)
		if err := l.lock(ctx); err != nil {
			return err
		}
		m.dropUpload(ctx, id)
		l.unlock()
		m.log.InfoContext(ctx, "abandoned upload removed", "upload", id)
	}
	return nil
}
