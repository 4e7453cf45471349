package drive

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/blob"
	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/store"
)

// The drive as a file system, for WebDAV (shared/dav). Every write below
// goes through the same write path as the API's routes: the rule (names,
// folders, full paths, versions trimmed to max_versions, the name claim),
// the quota checked before and during the upload, and the effects that
// delete trimmed versions. The caller checks the Group's access.

// Entry is a live entry of the drive as a file system sees it.
type Entry struct {
	ID          string
	Rev         string
	Name        string
	DirID       string // "" for the root
	Dir         bool
	Size        int64
	ContentType string
	SHA256      string // the newest version's ("" for folders)
	Version     string // the newest version's blob ID ("" for folders and empty files)
	Modified    time.Time
	Created     time.Time
	// Props are the WebDAV dead properties: "{namespace}local" → inner XML.
	Props map[string]string
}

// PropsField is the document field holding WebDAV dead properties.
const PropsField = "dav_props"

// ErrFull marks a write refused because the Group's drive is full (WebDAV
// answers 507); errors.Is finds it in the fault it is returned with.
var ErrFull = errors.New("drive: the Group's drive is full")

// MsgFileExistsDir is the refusal of a file written where a folder is.
const MsgFileExistsDir = "%q is a folder: a file cannot replace it"

func entryOf(d store.Doc, body map[string]any) Entry {
	e := Entry{ID: d.ID, Rev: d.Rev, Name: str(body["name"]), DirID: str(body["dir_id"]), Dir: isDir(str(body["kind"]))}
	e.Created, _ = time.Parse(docs.TimeFormat, str(body["created_at"]))
	e.Modified, _ = time.Parse(docs.TimeFormat, str(body["updated_at"]))
	if !e.Dir {
		e.Size = num(body["size"])
		e.ContentType = str(body["content_type"])
		if vs := versionsOf(body["versions"]); len(vs) > 0 {
			e.SHA256, e.Version = vs[0].SHA256, vs[0].ID
			if t, err := time.Parse(docs.TimeFormat, vs[0].Modified); err == nil {
				e.Modified = t
			}
		} else {
			e.SHA256 = fmt.Sprintf("%x", emptySHA)
		}
		if e.ContentType == "" {
			e.ContentType = contentType("", e.Name)
		}
	}
	if raw, ok := body[PropsField].(map[string]any); ok {
		e.Props = make(map[string]string, len(raw))
		for k, v := range raw {
			if s, ok := v.(string); ok {
				e.Props[k] = s
			}
		}
	}
	return e
}

// fsDoc is what a listing needs of a CloudFile document: decoding into it
// is several times cheaper than into a map (a 1,000-entry PROPFIND).
type fsDoc struct {
	Kind        string `json:"kind"`
	Name        string `json:"name"`
	DirID       string `json:"dir_id"`
	Size        int64  `json:"size"`
	ContentType string `json:"content_type"`
	CreatedAt   string `json:"created_at"`
	UpdatedAt   string `json:"updated_at"`
	Versions    []struct {
		ID       string `json:"id"`
		SHA256   string `json:"sha256"`
		Modified string `json:"modified"`
	} `json:"versions"`
	Props map[string]string `json:"dav_props"`
}

// fastEntry decodes a stored document as entryOf would; live says whether
// it is a live entry.
func fastEntry(d store.Doc) (Entry, bool, error) {
	var f fsDoc
	if err := json.Unmarshal(d.Body, &f); err != nil {
		return Entry{}, false, err
	}
	if !isLive(f.Kind) {
		return Entry{}, false, nil
	}
	e := Entry{ID: d.ID, Rev: d.Rev, Name: f.Name, DirID: f.DirID, Dir: isDir(f.Kind), Props: f.Props}
	e.Created, _ = time.Parse(docs.TimeFormat, f.CreatedAt)
	e.Modified, _ = time.Parse(docs.TimeFormat, f.UpdatedAt)
	if !e.Dir {
		e.Size, e.ContentType = f.Size, f.ContentType
		if len(f.Versions) > 0 {
			e.SHA256, e.Version = f.Versions[0].SHA256, f.Versions[0].ID
			if t, err := time.Parse(docs.TimeFormat, f.Versions[0].Modified); err == nil {
				e.Modified = t
			}
		} else {
			e.SHA256 = fmt.Sprintf("%x", emptySHA)
		}
		if e.ContentType == "" {
			e.ContentType = contentType("", e.Name)
		}
	}
	return e, true, nil
}

// missingEntry is the 404 of a path element that does not exist.
func missingEntry() error { return fault.New(fault.NotFound, "missing") }

// IsNotFound reports whether err says an entry does not exist.
func IsNotFound(err error) bool {
	fe, ok := fault.As(err)
	return ok && fe.Kind == fault.NotFound
}

// FSEntry reads live entry id of db (a 404 fault for anything else).
func (m *Module) FSEntry(ctx context.Context, db, id string) (Entry, error) {
	d, body, err := m.entry(ctx, db, id)
	if err != nil {
		return Entry{}, err
	}
	if !isLive(str(body["kind"])) {
		return Entry{}, missingEntry()
	}
	return entryOf(d, body), nil
}

// FSLookup finds the live entry called name in folder dir ("" = the root)
// through its name claim: two reads, whatever the folder's size. name is
// compared in NFC, as names are stored.
func (m *Module) FSLookup(ctx context.Context, db, dir, name string) (Entry, error) {
	clean, msg := CleanName(name)
	if msg != "" {
		return Entry{}, missingEntry()
	}
	cur, _, ok, err := m.readClaim(ctx, claimKey(db, dir, clean))
	if err != nil {
		return Entry{}, err
	}
	if !ok || ids.Klass(cur.ID) != Klass {
		return Entry{}, missingEntry()
	}
	d, body, err := m.lookup(ctx, db, cur.ID)
	if err != nil {
		return Entry{}, err
	}
	if body == nil || !isLive(str(body["kind"])) || str(body["dir_id"]) != dir || str(body["name"]) != clean {
		return Entry{}, missingEntry()
	}
	return entryOf(d, body), nil
}

// FSList lists the live entries of folder dir ("" = the root): folders,
// then files, by name. At most max entries (a folder with more answers an
// error rather than a partial listing).
func (m *Module) FSList(ctx context.Context, db, dir string, max int) ([]Entry, error) {
	var out []Entry
	q := store.ListQuery{Klass: Klass, Prefix: dir + "/", Limit: 1000}
	for {
		page, err := m.st.List(ctx, db, q)
		if errors.Is(err, store.ErrDBNotFound) {
			return nil, missingEntry()
		}
		if err != nil {
			return nil, err
		}
		for _, d := range page.Docs {
			if len(d.SortKey) > len(q.Prefix) && d.SortKey[len(q.Prefix)] == 't' {
				return out, nil // trashed with the folder: not listed
			}
			e, live, err := fastEntry(d)
			if err != nil {
				return nil, fmt.Errorf("drive: decode %s/%s: %w", db, d.ID, err)
			}
			if !live {
				continue
			}
			if len(out) >= max {
				return nil, fault.Newf(fault.Forbidden, "This folder has more than %d entries: list it in the web app", max)
			}
			out = append(out, e)
		}
		if page.Next == "" {
			return out, nil
		}
		q.After = page.Next
	}
}

// FSMkdir makes folder name in dir.
func (m *Module) FSMkdir(ctx context.Context, p *access.Principal, db, dir, name string) (Entry, error) {
	body := map[string]any{"klass": Klass, "kind": KindDir, "name": name, "dir_id": dir}
	d, err := m.docs.Save(ctx, p, db, ids.New("fle"), "", body)
	if err != nil {
		return Entry{}, err
	}
	return entryOf(d, mustBody(d)), nil
}

// FSPut writes body as the newest content of the file called name in dir:
// a new version of the file there, or a new file. size is the declared
// length (-1 when unknown: a chunked body), checked against the Group's
// room first; the stream is cut as soon as it outgrows the room. A refused
// or failed write leaves nothing: no document, no version. created says
// whether the file is new.
func (m *Module) FSPut(ctx context.Context, p *access.Principal, db, dir, name string, body io.Reader, size int64, ctype string) (e Entry, created bool, err error) {
	if m.blobs == nil {
		return Entry{}, false, errNoBlobs
	}
	clean, msg := CleanName(name)
	if msg != "" {
		return Entry{}, false, fault.Invalid(map[string][]string{"name": {msg}})
	}
	if size > MaxFileBytes {
		return Entry{}, false, fault.New(fault.TooLarge, MsgFileTooLarge)
	}
	cur, err := m.FSLookup(ctx, db, dir, clean)
	switch {
	case err == nil && cur.Dir:
		return Entry{}, false, fault.Newf(fault.Conflict, MsgFileExistsDir, clean)
	case err != nil && !IsNotFound(err):
		return Entry{}, false, err
	}
	exists := err == nil
	if !exists && dir != "" {
		if _, pb, err := m.lookup(ctx, db, dir); err != nil {
			return Entry{}, false, err
		} else if pb == nil || str(pb["kind"]) != KindDir {
			return Entry{}, false, missingEntry()
		}
	}
	room, err := m.room(ctx, db, max(size, 0))
	if err != nil {
		return Entry{}, false, fullErr(err)
	}
	id := cur.ID
	if !exists {
		id = ids.New("fle")
	}
	v, err := m.putBlob(ctx, p, db, id, body, room, contentType(ctype, clean))
	if err != nil {
		return Entry{}, false, fullErr(err)
	}
	if exists {
		saved, err := m.addVersion(ctx, p, db, id, "", v)
		if err != nil {
			m.dropVersion(ctx, db, id, v.ID)
			return Entry{}, false, err
		}
		return entryOf(saved, mustBody(saved)), false, nil
	}
	doc := map[string]any{"klass": Klass, "kind": KindFile, "name": clean, "dir_id": dir, "versions": []Version{v}, "stage": "done"}
	saved, err := m.docs.Save(asServer(ctx), p, db, id, "", doc)
	if err != nil {
		if err := m.blobs.Delete(context.WithoutCancel(ctx), BlobKey(db, id)); err != nil && !errors.Is(err, blob.ErrNotFound) {
			m.log.ErrorContext(ctx, "drop an uncommitted file", "db", db, "id", id, "err", err)
		}
		return Entry{}, false, err
	}
	return entryOf(saved, mustBody(saved)), true, nil
}

// fullErr marks the quota's refusal with ErrFull.
func fullErr(err error) error {
	if fe, ok := fault.As(err); ok && fe.Kind == fault.TooLarge && fe.Reason != MsgFileTooLarge {
		return &fault.Error{Kind: fe.Kind, Reason: fe.Reason, Err: ErrFull}
	}
	return err
}

// FSOpen opens the newest content of file e (all of it, or rng).
func (m *Module) FSOpen(ctx context.Context, db string, e Entry, rng *blob.Range) (io.ReadCloser, error) {
	if e.Dir {
		return nil, fault.Newf(fault.BadRequest, MsgIsFolder, e.Name)
	}
	if e.Version == "" {
		return io.NopCloser(bytes.NewReader(nil)), nil
	}
	if m.blobs == nil {
		return nil, errNoBlobs
	}
	rc, _, err := m.blobs.Get(ctx, BlobKey(db, e.ID), e.Version, rng)
	if errors.Is(err, blob.ErrNotFound) {
		return nil, fault.New(fault.NotFound, MsgMissingContent)
	}
	return rc, err
}

// FSPresign returns a URL that GETs the newest content of file e straight
// from the blob store for PresignTTL (S3, answering with the file's name
// as an attachment), or "" when the store presigns nothing (the
// filesystem) or e has no content: WebDAV then serves it itself.
func (m *Module) FSPresign(ctx context.Context, db string, e Entry) (string, error) {
	ps := m.presigner()
	if ps == nil || e.Dir || e.Version == "" {
		return "", nil
	}
	u, err := ps.PresignGet(ctx, BlobKey(db, e.ID), e.Version, e.Name, PresignTTL)
	if err != nil {
		return "", fmt.Errorf("drive: presign %s: %w", e.ID, err)
	}
	return u, nil
}

// FSMove renames and/or moves entry id to folder dir as name (the rule
// refuses a folder moved into itself, a taken name, a bad name).
func (m *Module) FSMove(ctx context.Context, p *access.Principal, db, id, dir, name string) (Entry, error) {
	saved, err := m.update(ctx, p, db, id, func(_ store.Doc, body map[string]any) (bool, error) {
		if !isLive(str(body["kind"])) {
			return false, missingEntry()
		}
		body["dir_id"], body["name"] = dir, name
		return true, nil
	})
	if err != nil {
		return Entry{}, err
	}
	return entryOf(saved, mustBody(saved)), nil
}

// FSTrash moves entry id (and everything under it) to the trash, as
// POST …/files/{id}/trash does: a WebDAV DELETE can be undone in the web app.
func (m *Module) FSTrash(ctx context.Context, p *access.Principal, db, id string) error {
	_, err := m.update(ctx, p, db, id, func(_ store.Doc, body map[string]any) (bool, error) {
		kind := str(body["kind"])
		if !isLive(kind) {
			return false, missingEntry()
		}
		m.markTrashed(body, kind)
		return true, nil
	})
	if err != nil {
		return err
	}
	_, err = m.trashUnder(ctx, p, db, id)
	return err
}

// FSSetProps replaces the dead properties of entry id.
func (m *Module) FSSetProps(ctx context.Context, p *access.Principal, db, id string, props map[string]string) (Entry, error) {
	saved, err := m.update(ctx, p, db, id, func(_ store.Doc, body map[string]any) (bool, error) {
		if !isLive(str(body["kind"])) {
			return false, missingEntry()
		}
		if len(props) == 0 {
			delete(body, PropsField)
		} else {
			body[PropsField] = props
		}
		return true, nil
	})
	if err != nil {
		return Entry{}, err
	}
	return entryOf(saved, mustBody(saved)), nil
}

// FSUsage is the Group's drive usage (quota-used-bytes, quota-available-bytes).
func (m *Module) FSUsage(ctx context.Context, db string) (Usage, error) { return m.usage(ctx, db) }

// FSRoom refuses (507 through ErrFull) a write of need bytes that does not
// fit the Group's drive, before any byte is read.
func (m *Module) FSRoom(ctx context.Context, db string, need int64) error {
	if need > MaxFileBytes {
		return fault.New(fault.TooLarge, MsgFileTooLarge)
	}
	_, err := m.room(ctx, db, need)
	return fullErr(err)
}
