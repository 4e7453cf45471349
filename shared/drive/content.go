package drive

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/blob"
	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/httpjson"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/store"
)

// Reasons of the content routes.
const (
	MsgNoBlobs        = "This server keeps no file contents (it runs with --blobs=none)"
	MsgIsFolder       = "%q is a folder: folders have no contents"
	MsgNoVersion      = "This file has no such version"
	MsgOnlyVersion    = "%q has only this version: delete the file instead"
	MsgInterrupted    = "The upload stopped before the end of the file, so nothing was saved: send the file again"
	MsgFileTooLarge   = "A file is at most 10 GB"
	MsgMissingContent = "The contents of this version are missing from the file storage"
)

var errNoBlobs = fault.New(fault.BadRequest, MsgNoBlobs)

// orphanAge is how old a blob version no document lists must be before a
// new version's commit deletes it: younger ones may be another upload of
// the same file between its blob write and its document write.
const orphanAge = time.Hour

// copyBuffer is the size of the buffers bodies stream through.
const copyBuffer = 256 << 10

// fileFor reads a live file for a content change: 404 when missing, 409 in
// the trash, 400 for a folder.
func (m *Module) fileFor(ctx context.Context, db, id string) (store.Doc, map[string]any, error) {
	d, body, err := m.entry(ctx, db, id)
	if err == nil {
		err = liveFile(body)
	}
	if err != nil {
		return d, nil, err
	}
	return d, body, nil
}

// fileAtRev is fileFor for a request that changes the file's contents:
// it needs the blob store, and the request's rev (?rev= or If-Match, "" if
// none), when it names one, must be the file's current one.
func (m *Module) fileAtRev(r *http.Request, db, id string) (body map[string]any, rev string, err error) {
	if m.blobs == nil {
		return nil, "", errNoBlobs
	}
	d, body, err := m.fileFor(r.Context(), db, id)
	if err != nil {
		return nil, "", err
	}
	if rev = revOf(r); rev != "" && rev != d.Rev {
		return nil, "", store.ErrConflict
	}
	return body, rev, nil
}

// liveFile refuses a folder (400) or an entry in the trash (409).
func liveFile(body map[string]any) error {
	switch kind := str(body["kind"]); {
	case isDir(kind):
		return fault.Newf(fault.BadRequest, MsgIsFolder, str(body["name"]))
	case isTrashed(kind):
		return fault.Newf(fault.Conflict, MsgInTrash, str(body["name"]))
	}
	return nil
}

// revOf is the revision a client states (?rev= or If-Match), "" for none.
func revOf(r *http.Request) string {
	if rev := r.URL.Query().Get("rev"); rev != "" {
		return rev
	}
	return trimQuotes(r.Header.Get("If-Match"))
}

// putBlob streams body into a new blob version of file id, hashing it on
// the way; nothing is stored unless the whole body arrives within room.
func (m *Module) putBlob(ctx context.Context, p *access.Principal, db, id string, body io.Reader, room int64, contentType string) (Version, error) {
	// The write guards (a view-only Group) refuse before any byte is stored;
	// the document write that follows passes them again.
	if err := m.deps.Docs.Check(ctx, p, db, Klass, nil); err != nil {
		return Version{}, err
	}
	h := sha256.New()
	br := &bodyReader{r: body, room: room}
	bv, err := m.blobs.Put(ctx, BlobKey(db, id), io.TeeReader(br, h))
	if err != nil {
		var tooBig *http.MaxBytesError
		switch {
		case br.over:
			u, uerr := m.usage(ctx, db)
			if uerr != nil {
				return Version{}, uerr
			}
			return Version{}, m.full(u, br.n)
		case errors.As(err, &tooBig):
			return Version{}, fault.New(fault.TooLarge, MsgFileTooLarge)
		case br.readErr != nil, ctx.Err() != nil:
			return Version{}, fault.Wrap(fault.BadRequest, MsgInterrupted, err)
		}
		return Version{}, err
	}
	return Version{
		ID: bv.ID, Size: bv.Size, SHA256: hex.EncodeToString(h.Sum(nil)), ETag: bv.ETag,
		ContentType: contentType, Modified: stamp(m.now()), By: Who{ID: p.UserID, Label: p.Label},
	}, nil
}

// addVersion makes v the newest version of file id (rev: the revision the
// client read, checked; "" adds to whatever is current). The rule trims the
// list to max_versions and the effect deletes the trimmed versions.
func (m *Module) addVersion(ctx context.Context, p *access.Principal, db, id, rev string, v Version) (store.Doc, error) {
	var kept []Version
	saved, err := m.update(ctx, p, db, id, func(d store.Doc, body map[string]any) (bool, error) {
		if err := liveFile(body); err != nil {
			return false, err
		}
		if rev != "" && d.Rev != rev {
			return false, store.ErrConflict
		}
		kept = append([]Version{v}, versionsOf(body["versions"])...)
		body["versions"] = kept
		body["stage"] = "done"
		return true, nil
	})
	if err != nil {
		return saved, err
	}
	m.dropOrphans(ctx, db, id, kept)
	return saved, nil
}

// dropVersion removes a blob version no document lists (retired where the
// store can: it may be one a trim or a crash left, which a restored table
// could list).
func (m *Module) dropVersion(ctx context.Context, db, id, version string) {
	remove := m.blobs.DeleteVersion
	if r, ok := m.blobs.(blob.Retirer); ok {
		remove = r.RetireVersion
	}
	if err := remove(context.WithoutCancel(ctx), BlobKey(db, id), version); err != nil && !errors.Is(err, blob.ErrNotFound) {
		m.log.ErrorContext(ctx, "drop an uncommitted version", "db", db, "id", id, "version", version, "err", err)
	}
}

// dropOrphans deletes the blob versions of a file that its document does
// not list and that are older than orphanAge: left by a crash between a
// blob write and its document write, or a failed effect.
func (m *Module) dropOrphans(ctx context.Context, db, id string, listed []Version) {
	vs, err := blob.Live(ctx, m.blobs, BlobKey(db, id))
	if err != nil {
		return
	}
	for _, v := range vs {
		if m.now().Sub(v.Modified) < orphanAge || slices.ContainsFunc(listed, func(l Version) bool { return l.ID == v.ID }) {
			continue
		}
		m.dropVersion(ctx, db, id, v.ID)
	}
}

// contentType is the media type of an upload: the request's, unless it is
// missing or says nothing (a form or octet stream), then the name's.
func contentType(header, name string) string {
	if mt, params, err := mime.ParseMediaType(header); err == nil && mt != "application/octet-stream" &&
		mt != "application/x-www-form-urlencoded" && !strings.HasPrefix(mt, "multipart/") {
		return mime.FormatMediaType(mt, params)
	}
	if ct := mime.TypeByExtension(strings.ToLower(path.Ext(name))); ct != "" {
		return ct
	}
	return "application/octet-stream"
}

// putContent: PUT /api/{db}/_drive/files/{id}/content[?rev=] with the file's
// bytes as the body makes a new version (201). The declared length is
// checked against the Group's room first, and the stream is cut as soon as
// it outgrows it; a body that fails or is cut leaves no version.
func (m *Module) putContent(w http.ResponseWriter, r *http.Request) error {
	ctx, db, id, p := r.Context(), r.PathValue("db"), r.PathValue("id"), module.Principal(r)
	body, rev, err := m.fileAtRev(r, db, id)
	if err != nil {
		return err
	}
	if r.ContentLength > MaxFileBytes {
		return fault.New(fault.TooLarge, MsgFileTooLarge)
	}
	room, err := m.room(ctx, db, max(r.ContentLength, 0))
	if err != nil {
		return err
	}
	v, err := m.putBlob(ctx, p, db, id, r.Body, room, contentType(r.Header.Get("Content-Type"), str(body["name"])))
	if err != nil {
		return err
	}
	return m.answerVersion(ctx, w, p, db, id, rev, v)
}

// answerVersion lists the stored blob v as the file's newest version and
// answers 201; if the document write fails, the blob goes again.
func (m *Module) answerVersion(ctx context.Context, w http.ResponseWriter, p *access.Principal, db, id, rev string, v Version) error {
	saved, err := m.addVersion(ctx, p, db, id, rev, v)
	if err != nil {
		m.dropVersion(ctx, db, id, v.ID)
		return err
	}
	httpjson.Write(w, http.StatusCreated, map[string]any{"ok": true, "id": id, "rev": saved.Rev, "version": v})
	return nil
}

// safeInline are the types a browser may show inline from the API's
// origin: they cannot run script. Anything else is always an attachment.
var safeInline = map[string]bool{
	"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true, "image/avif": true,
	"text/plain": true, "application/pdf": true, "audio/mpeg": true, "audio/ogg": true, "video/mp4": true, "video/webm": true,
}

// getContent: GET /api/{db}/_drive/files/{id}/content[?version=&inline=true]
// streams a version (the newest by default) with its Content-Type, a strong
// ETag (its SHA-256), Last-Modified, Content-Disposition with the file's
// name, and one byte range (Range, If-Range; 206/416). HEAD answers the
// headers alone.
func (m *Module) getContent(w http.ResponseWriter, r *http.Request) error {
	ctx, db, id := r.Context(), r.PathValue("db"), r.PathValue("id")
	_, body, err := m.entry(ctx, db, id)
	if err != nil {
		return err
	}
	name := str(body["name"])
	if isDir(str(body["kind"])) {
		return fault.Newf(fault.BadRequest, MsgIsFolder, name)
	}
	inline, err := httpjson.BoolParam(r.URL.Query().Get("inline"), "inline")
	if err != nil {
		return err
	}
	vs := versionsOf(body["versions"])
	var v Version
	if want := r.URL.Query().Get("version"); want != "" {
		i := slices.IndexFunc(vs, func(v Version) bool { return v.ID == want })
		if i < 0 {
			return fault.New(fault.NotFound, MsgNoVersion)
		}
		v = vs[i]
	} else if len(vs) > 0 {
		v = vs[0]
	} else {
		v = Version{SHA256: hex.EncodeToString(emptySHA[:]), ContentType: contentType("", name)}
	}
	if v.ID != "" && m.blobs == nil {
		return errNoBlobs
	}
	h := w.Header()
	etag := quoted(v.SHA256)
	ct := v.ContentType
	if ct == "" {
		ct = "application/octet-stream"
	}
	mt, _, _ := mime.ParseMediaType(ct)
	disposition := "attachment"
	if inline && safeInline[mt] {
		disposition = "inline"
	}
	h.Set("Content-Type", ct)
	h.Set("Content-Disposition", blob.ContentDisposition(disposition, name))
	h.Set("ETag", etag)
	h.Set("Accept-Ranges", "bytes")
	h.Set("Cache-Control", "private, no-cache")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'")
	h.Set("No-Gzip-Compression", "1") // bytes as stored: exact lengths, ranges and ETags
	if t, err := time.Parse(docs.TimeFormat, v.Modified); err == nil {
		h.Set("Last-Modified", t.UTC().Format(http.TimeFormat))
	}
	if etagMatches(r.Header.Get("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	if !inline {
		// In the cloud the bytes come straight from S3 (presign.go).
		if done, err := m.presignedGet(w, r, BlobKey(db, id), v.ID, name); done || err != nil {
			return err
		}
	}
	rng, ok := parseRange(r.Header.Get("Range"), v.Size)
	if ir := r.Header.Get("If-Range"); ir != "" && ir != etag {
		rng, ok = nil, true // changed since: the whole version
	}
	if !ok {
		h.Set("Content-Range", fmt.Sprintf("bytes */%d", v.Size))
		h.Del("Content-Disposition")
		httpjson.Write(w, http.StatusRequestedRangeNotSatisfiable, map[string]string{"error": "range_not_satisfiable", "reason": fmt.Sprintf("The file has %d bytes", v.Size)})
		return nil
	}
	status, length := http.StatusOK, v.Size
	if rng != nil {
		length = v.Size - rng.Offset
		if rng.Length > 0 && rng.Length < length {
			length = rng.Length
		}
		status = http.StatusPartialContent
		h.Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", rng.Offset, rng.Offset+length-1, v.Size))
	}
	h.Set("Content-Length", strconv.FormatInt(length, 10))
	if r.Method == http.MethodHead || v.ID == "" {
		w.WriteHeader(status)
		return nil
	}
	rc, _, err := m.blobs.Get(ctx, BlobKey(db, id), v.ID, rng)
	if errors.Is(err, blob.ErrNotFound) {
		m.log.ErrorContext(ctx, "a listed version is missing", "db", db, "id", id, "version", v.ID)
		resetContentHeaders(h)
		return fault.New(fault.NotFound, MsgMissingContent)
	}
	if err != nil {
		resetContentHeaders(h)
		return err
	}
	defer rc.Close()
	w.WriteHeader(status)
	_, _ = io.CopyBuffer(w, rc, make([]byte, copyBuffer)) // a client gone is nothing to report
	return nil
}

var emptySHA = sha256.Sum256(nil)

// resetContentHeaders drops the content headers before an error envelope.
func resetContentHeaders(h http.Header) {
	for _, k := range []string{"Content-Disposition", "Content-Length", "Content-Range", "ETag", "Last-Modified", "Accept-Ranges"} {
		h.Del(k)
	}
}

func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}

// parseRange reads a Range header of one byte range for a version of size
// bytes: nil for none (or one it does not serve: several ranges, another
// unit, bad syntax — the whole version is the right answer then), false
// when the range cannot be satisfied (416).
func parseRange(header string, size int64) (*blob.Range, bool) {
	spec, ok := strings.CutPrefix(header, "bytes=")
	if !ok || strings.Contains(spec, ",") || size == 0 {
		return nil, true
	}
	first, last, ok := strings.Cut(strings.TrimSpace(spec), "-")
	if !ok {
		return nil, true
	}
	if first == "" { // the last N bytes
		n, err := strconv.ParseInt(last, 10, 64)
		if err != nil || n < 0 {
			return nil, true
		}
		if n == 0 {
			return nil, false
		}
		return &blob.Range{Offset: max(size-n, 0)}, true
	}
	start, err := strconv.ParseInt(first, 10, 64)
	if err != nil || start < 0 {
		return nil, true
	}
	if start >= size {
		return nil, false
	}
	if last == "" {
		return &blob.Range{Offset: start}, true
	}
	end, err := strconv.ParseInt(last, 10, 64)
	if err != nil || end < start {
		return nil, true
	}
	return &blob.Range{Offset: start, Length: min(end, size-1) - start + 1}, true
}

// listVersions: GET /api/{db}/_drive/files/{id}/versions.
func (m *Module) listVersions(w http.ResponseWriter, r *http.Request) error {
	ctx, db, id := r.Context(), r.PathValue("db"), r.PathValue("id")
	d, body, err := m.entry(ctx, db, id)
	if err != nil {
		return err
	}
	if isDir(str(body["kind"])) {
		return fault.Newf(fault.BadRequest, MsgIsFolder, str(body["name"]))
	}
	vs := versionsOf(body["versions"])
	if vs == nil {
		vs = []Version{}
	}
	httpjson.Write(w, http.StatusOK, map[string]any{"id": id, "rev": d.Rev, "name": body["name"], "max_versions": num(body["max_versions"]), "versions": vs})
	return nil
}

// restoreVersion: POST …/versions/{version}/restore[?rev=] copies a version
// as the newest (201): the blob store's newest is what the document's
// newest says, and a bucket's lifecycle rule on noncurrent versions never
// takes the file's current contents.
func (m *Module) restoreVersion(w http.ResponseWriter, r *http.Request) error {
	ctx, db, id, p := r.Context(), r.PathValue("db"), r.PathValue("id"), module.Principal(r)
	body, rev, err := m.fileAtRev(r, db, id)
	if err != nil {
		return err
	}
	vs := versionsOf(body["versions"])
	i := slices.IndexFunc(vs, func(v Version) bool { return v.ID == r.PathValue("version") })
	if i < 0 {
		return fault.New(fault.NotFound, MsgNoVersion)
	}
	old := vs[i]
	room, err := m.room(ctx, db, old.Size)
	if err != nil {
		return err
	}
	rc, _, err := m.blobs.Get(ctx, BlobKey(db, id), old.ID, nil)
	if errors.Is(err, blob.ErrNotFound) {
		return fault.New(fault.NotFound, MsgMissingContent)
	}
	if err != nil {
		return err
	}
	defer rc.Close()
	v, err := m.putBlob(ctx, p, db, id, rc, room, old.ContentType)
	if err != nil {
		return err
	}
	v.RestoredFrom = old.ID
	return m.answerVersion(ctx, w, p, db, id, rev, v)
}

// deleteVersion: DELETE …/versions/{version}[?rev=]; the file keeps at
// least one version.
func (m *Module) deleteVersion(w http.ResponseWriter, r *http.Request) error {
	ctx, db, id, p := r.Context(), r.PathValue("db"), r.PathValue("id"), module.Principal(r)
	rev, want := revOf(r), r.PathValue("version")
	saved, err := m.update(ctx, p, db, id, func(d store.Doc, body map[string]any) (bool, error) {
		if err := liveFile(body); err != nil {
			return false, err
		}
		if rev != "" && d.Rev != rev {
			return false, store.ErrConflict
		}
		vs := versionsOf(body["versions"])
		i := slices.IndexFunc(vs, func(v Version) bool { return v.ID == want })
		if i < 0 {
			return false, fault.New(fault.NotFound, MsgNoVersion)
		}
		if len(vs) == 1 {
			return false, fault.Newf(fault.Conflict, MsgOnlyVersion, str(body["name"]))
		}
		body["versions"] = slices.Delete(slices.Clone(vs), i, i+1)
		return true, nil
	})
	if err != nil {
		return err
	}
	httpjson.Write(w, http.StatusOK, map[string]any{"ok": true, "id": id, "rev": saved.Rev})
	return nil
}

// rawDoc renders a stored document as the API does.
func rawDoc(d store.Doc) json.RawMessage { return json.RawMessage(docs.WithMeta(d)) }
