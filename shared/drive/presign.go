package drive

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/blob"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/httpjson"
	"github.com/oficina/oficina/shared/ids"
)

// Cloud transfers (DESIGN.md §5, issue 13 §3): when the blob store can
// presign (S3), the bytes of a file never pass through the server, whose
// requests and answers stop at 6 MB on Lambda.
//
//   - Uploads: POST /uploads answers mode "presigned" with a part size and a
//     part count; the browser asks POST /uploads/{upload}/parts for presigned
//     UploadPart URLs, PUTs each part straight to S3 keeping the ETag each
//     answers, and commits with the list {parts: [{number, etag}]}. The
//     commit joins the parts into a new blob version of the file's key, reads
//     it back once to hash it (the SHA-256 is the drive's content ETag, as
//     for every other write path) and to check its size and the Group's
//     room, then records the version as the chunked upload does. A part that
//     failed is simply PUT again (the same number replaces it), so an upload
//     resumes from the parts that were acknowledged.
//   - Downloads: GET /files/{id}/content answers 302 to a presigned GET of the
//     version, which S3 answers with Content-Disposition: attachment and the
//     file's name (inline views and HEAD stay on the server).
//
// The filesystem store presigns nothing: it keeps the through-server path.

// Modes of an upload, in its answers.
const (
	ModeServer    = "server"    // chunks PUT to the server (the filesystem store)
	ModePresigned = "presigned" // parts PUT to S3 with presigned URLs
)

// Presigned transfer limits.
const (
	// PartBytes is a presigned upload's part size unless the file needs
	// bigger parts to fit in MaxParts (S3: at least 5 MiB but the last).
	PartBytes int64 = 8 << 20
	// MaxParts is S3's limit on a multipart upload's parts.
	MaxParts = 10_000
	// PresignTTL is how long a presigned URL works.
	PresignTTL = time.Hour
	// maxPartsPerCall bounds one POST …/parts.
	maxPartsPerCall = 100
)

// Reasons of the presigned routes.
const (
	MsgNotPresigned   = "This upload goes through the server: PUT its chunks to /uploads/{upload}?offset=N"
	MsgPresignedChunk = "This upload goes straight to the file storage: PUT its parts to the URLs of POST /uploads/{upload}/parts"
	MsgPartNumbers    = "must be part numbers from 1 to %d, at most %d at a time"
	MsgPartsList      = "must list each of the upload's %d parts once, with the ETag its PUT answered"
	MsgPartsSize      = "The parts make %d bytes, but the upload declared %d: upload them again"
)

// presigner is the blob store's presigning side, nil when it has none.
func (m *Module) presigner() blob.Presigner {
	p, _ := m.blobs.(blob.Presigner)
	return p
}

// partSize is the part size of a presigned upload of size bytes.
func partSize(size int64) int64 {
	const mib = 1 << 20
	need := (size + MaxParts - 1) / MaxParts
	need = (need + mib - 1) / mib * mib
	return max(PartBytes, need)
}

// partCount is how many parts a presigned upload has (0 for an empty file,
// which the commit stores without S3's multipart upload).
func (up upload) partCount() int {
	if up.Size == 0 || up.PartSize == 0 {
		return 0
	}
	return int((up.Size + up.PartSize - 1) / up.PartSize)
}

// startPresigned makes up a presigned upload: the file's id is chosen now
// (its blob key is where the parts go) and S3's multipart upload is made.
func (m *Module) startPresigned(ctx context.Context, ps blob.Presigner, up *upload) error {
	up.Mode, up.BlobID = ModePresigned, up.FileID
	if up.BlobID == "" {
		up.BlobID = ids.New("fle")
	}
	up.PartSize = partSize(up.Size)
	if up.Size == 0 {
		return nil
	}
	id, err := ps.CreateUpload(ctx, BlobKey(up.DB, up.BlobID))
	if err != nil {
		return fmt.Errorf("drive: start a presigned upload: %w", err)
	}
	up.S3Upload = id
	return nil
}

// presignParts: POST /api/{db}/_drive/uploads/{upload}/parts {parts: [n…]}
// → {upload_id, part_size, parts: [{number, url}], expires_at}.
func (m *Module) presignParts(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Parts []int32 `json:"parts"`
	}
	if err := httpjson.Decode(w, r, 16<<10, &in); err != nil {
		return err
	}
	up, err := m.loadUpload(r)
	if err != nil {
		return err
	}
	ps := m.presigner()
	if up.Mode != ModePresigned || ps == nil {
		return fault.New(fault.BadRequest, MsgNotPresigned)
	}
	n := up.partCount()
	if len(in.Parts) == 0 || len(in.Parts) > maxPartsPerCall {
		return fault.Invalid(map[string][]string{"parts": {fmt.Sprintf(MsgPartNumbers, n, maxPartsPerCall)}})
	}
	for _, p := range in.Parts {
		if p < 1 || int(p) > n {
			return fault.Invalid(map[string][]string{"parts": {fmt.Sprintf(MsgPartNumbers, n, maxPartsPerCall)}})
		}
	}
	ctx := r.Context()
	out := make([]map[string]any, 0, len(in.Parts))
	for _, p := range in.Parts {
		u, err := ps.PresignPart(ctx, BlobKey(up.DB, up.BlobID), up.S3Upload, p, PresignTTL)
		if err != nil {
			return err
		}
		out = append(out, map[string]any{"number": p, "url": u})
	}
	if now := m.now().UTC(); now.Sub(up.Touched) > time.Minute {
		up.Touched = now
		if err := m.saveUpload(ctx, up); err != nil {
			return err
		}
	}
	httpjson.Write(w, http.StatusOK, map[string]any{
		"upload_id": up.ID, "part_size": up.PartSize, "parts": out, "expires_at": stamp(m.now().Add(PresignTTL)),
	})
	return nil
}

// completeParts joins a presigned upload's parts into a new blob version of
// its file, hashes it and checks its size and the Group's room; whatever
// fails leaves no version behind.
func (m *Module) completeParts(ctx context.Context, p *access.Principal, up upload, parts []blob.Part, name string) (Version, error) {
	ps := m.presigner()
	if ps == nil {
		return Version{}, errNoBlobs
	}
	key := BlobKey(up.DB, up.BlobID)
	ct := contentType(up.ContentType, name)
	if up.Size == 0 {
		room, err := m.room(ctx, up.DB, 0)
		if err != nil {
			return Version{}, err
		}
		return m.putBlob(ctx, p, up.DB, up.BlobID, http.NoBody, room, ct)
	}
	n := up.partCount()
	seen := make(map[int32]bool, len(parts))
	bad := len(parts) != n
	for _, pt := range parts {
		if pt.Number < 1 || int(pt.Number) > n || seen[pt.Number] || trimQuotes(pt.ETag) == "" {
			bad = true
		}
		seen[pt.Number] = true
	}
	if bad {
		return Version{}, fault.Invalid(map[string][]string{"parts": {fmt.Sprintf(MsgPartsList, n)}})
	}
	bv, err := ps.CompleteUpload(ctx, key, up.S3Upload, parts)
	if errors.Is(err, blob.ErrNotFound) {
		return Version{}, fault.New(fault.NotFound, MsgUploadMissing)
	}
	if err != nil {
		return Version{}, fmt.Errorf("drive: complete a presigned upload: %w", err)
	}
	drop := func() { m.dropVersion(ctx, up.DB, up.BlobID, bv.ID) }
	if bv.Size != up.Size {
		drop()
		return Version{}, fault.Newf(fault.BadRequest, MsgPartsSize, bv.Size, up.Size)
	}
	if _, err := m.room(ctx, up.DB, bv.Size); err != nil {
		drop()
		return Version{}, err
	}
	sum, err := m.hashVersion(ctx, key, bv.ID)
	if err != nil {
		drop()
		return Version{}, err
	}
	return Version{
		ID: bv.ID, Size: bv.Size, SHA256: sum, ETag: bv.ETag,
		ContentType: ct, Modified: stamp(m.now()), By: Who{ID: p.UserID, Label: p.Label},
	}, nil
}

// hashVersion streams one blob version through SHA-256.
func (m *Module) hashVersion(ctx context.Context, key, version string) (string, error) {
	rc, _, err := m.blobs.Get(ctx, key, version, nil)
	if err != nil {
		return "", fmt.Errorf("drive: read back %s: %w", key, err)
	}
	defer rc.Close()
	h := sha256.New()
	if _, err := io.CopyBuffer(h, rc, make([]byte, copyBuffer)); err != nil {
		return "", fmt.Errorf("drive: hash %s: %w", key, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// abortPresigned drops S3's side of a presigned upload.
func (m *Module) abortPresigned(ctx context.Context, up upload) {
	ps := m.presigner()
	if ps == nil || up.S3Upload == "" {
		return
	}
	if err := ps.AbortUpload(context.WithoutCancel(ctx), BlobKey(up.DB, up.BlobID), up.S3Upload); err != nil && !errors.Is(err, blob.ErrNotFound) {
		m.log.WarnContext(ctx, "abort a presigned upload", "upload", up.ID, "err", err)
	}
}

// presignedGet answers a download with a redirect to a presigned GET when
// the store has them: 302 and true, or false to serve it here.
func (m *Module) presignedGet(w http.ResponseWriter, r *http.Request, key, version, name string) (bool, error) {
	ps := m.presigner()
	if ps == nil || r.Method != http.MethodGet || version == "" {
		return false, nil
	}
	u, err := ps.PresignGet(r.Context(), key, version, name, PresignTTL)
	if err != nil {
		return false, err
	}
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	for _, k := range []string{"Content-Disposition", "Content-Type", "Accept-Ranges", "Last-Modified"} {
		h.Del(k)
	}
	h.Set("Location", u)
	w.WriteHeader(http.StatusFound)
	return true, nil
}
