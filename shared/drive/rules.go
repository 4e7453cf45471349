package drive

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/oficina/oficina/shared/blob"
	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/stream"
)

// Version is one content of a file, as its document lists it (newest
// first). ID is the blob store's version ID.
type Version struct {
	ID          string `json:"id"`
	Size        int64  `json:"size"`
	SHA256      string `json:"sha256"`
	ETag        string `json:"etag,omitempty"` // the blob store's (S3: MD5 or multipart form)
	ContentType string `json:"content_type,omitempty"`
	Modified    string `json:"modified"`
	By          Who    `json:"by"`
	// RestoredFrom names the version this one is a copy of (a restore).
	RestoredFrom string `json:"restored_from,omitempty"`
}

// Who wrote a version, as updated_by names people.
type Who struct {
	ID    string `json:"_id"`
	Label string `json:"label,omitempty"`
}

// versionsOf reads a document's versions (decoded JSON or []Version).
func versionsOf(v any) []Version {
	switch t := v.(type) {
	case nil:
		return nil
	case []Version:
		return t
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var out []Version
	if json.Unmarshal(raw, &out) != nil {
		return nil
	}
	return out
}

// Field messages of the rule.
const (
	MsgDirMissing   = "must be a folder of this Group"
	MsgDirTrashed   = "is in the trash: restore it first, or choose another folder"
	MsgDirSelf      = "cannot be the folder itself"
	MsgDirInside    = "cannot be inside the folder being moved"
	MsgKindTrash    = "is set by the trash: use POST /api/{db}/_drive/files/{id}/trash and …/restore"
	MsgKindChange   = "cannot change: a file stays a file and a folder a folder"
	MsgNotGroupDB   = "The drive belongs to a Group: files live in the Group's database (acc-…)"
	MsgInTrash      = "%q is in the trash: restore it first"
	MsgFolderNotEmp = "The folder %q is not empty: move it to the trash, then empty the trash"
)

var msgTooDeep = fmt.Sprintf("is too deep: folders nest at most %d levels", MaxDepth)

// rule checks and completes every write of a CloudFile, on every route:
// the server-kept fields, the kind, the name, the folder (a live folder of
// the same Group, never the entry itself or inside it), the full path, the
// versions trimmed to max_versions with size and bytes, and last the name
// claim.
func (m *Module) rule(ctx context.Context, w *docs.Write) error {
	if !strings.HasPrefix(w.DB, "acc-") {
		return fault.New(fault.Forbidden, MsgNotGroupDB)
	}
	if w.Deleting {
		return m.deleteRule(ctx, w)
	}
	server := isServer(ctx)
	oldKind := str(w.Old["kind"])
	kind := str(w.New["kind"])
	if !server {
		for _, f := range serverKept {
			if v, ok := w.Old[f]; ok && w.Old != nil {
				w.New[f] = v
			} else {
				delete(w.New, f)
			}
		}
		if w.Old != nil && isTrashed(oldKind) {
			return fault.Newf(fault.Conflict, MsgInTrash, str(w.Old["name"]))
		}
		if isTrashed(kind) {
			return fault.Invalid(map[string][]string{"kind": {MsgKindTrash}})
		}
		if w.Old != nil && kind != oldKind {
			return fault.Invalid(map[string][]string{"kind": {MsgKindChange}})
		}
	}

	errs := map[string][]string{}
	name, msg := CleanName(w.New["name"])
	if msg != "" {
		errs["name"] = []string{msg}
	} else {
		w.New["name"] = name
	}
	dir := ""
	switch v := w.New["dir_id"].(type) {
	case nil:
	case string:
		dir = v
	default:
		errs["dir_id"] = []string{MsgDirMissing}
	}
	var parent map[string]any
	switch {
	case dir == "":
	case dir == w.ID:
		errs["dir_id"] = []string{MsgDirSelf}
	case ids.Klass(dir) != Klass:
		errs["dir_id"] = []string{MsgDirMissing}
	default:
		_, p, err := m.lookup(ctx, w.DB, dir)
		if err != nil {
			return err
		}
		switch {
		case p == nil || !isDir(str(p["kind"])):
			errs["dir_id"] = []string{MsgDirMissing}
		case isLive(kind) && str(p["kind"]) != KindDir:
			errs["dir_id"] = []string{MsgDirTrashed}
		default:
			parent = p
		}
	}
	if len(errs) > 0 {
		return fault.Invalid(errs)
	}
	w.New["dir_id"] = dir

	parentPath := ""
	if parent != nil {
		parentPath = str(parent["fullpath"])
		if strings.Count(parentPath, "/") >= MaxDepth {
			return fault.Invalid(map[string][]string{"dir_id": {msgTooDeep}})
		}
	}
	moved := w.Old != nil && str(w.Old["dir_id"]) != dir
	if moved && isDir(kind) && dir != "" {
		if err := m.checkNotInside(ctx, w.DB, w.ID, dir); err != nil {
			return err
		}
	}
	w.New["fullpath"] = parentPath + "/" + name

	if isFile(kind) {
		// A file of a record lives in the record's folder and says so.
		if rec := str(parent["record_id"]); rec != "" {
			w.New["record_id"] = rec
		} else {
			delete(w.New, "record_id")
		}
		w.New["attachment_key"] = BlobKey(w.DB, w.ID)
		vs := versionsOf(w.New["versions"])
		if max := int(num(w.New["max_versions"])); max > 0 && len(vs) > max {
			vs = vs[:max]
		}
		var size, bytes int64
		ct := ""
		if len(vs) > 0 {
			size, ct = vs[0].Size, vs[0].ContentType
		}
		for _, v := range vs {
			bytes += v.Size
		}
		if vs == nil {
			vs = []Version{}
		}
		w.New["versions"] = vs
		w.New["size"] = size
		w.New["bytes"] = bytes
		if ct != "" {
			w.New["content_type"] = ct
		} else {
			delete(w.New, "content_type")
		}
	} else {
		for _, f := range []string{"versions", "size", "bytes", "content_type", "attachment_key"} {
			delete(w.New, f)
		}
	}
	if !isTrashed(kind) {
		delete(w.New, "trashed_at")
		delete(w.New, "trashed_with")
	}

	// The name, last: every other check has passed.
	if !isLive(kind) {
		return nil
	}
	if w.Old != nil && isLive(oldKind) && str(w.Old["dir_id"]) == dir && str(w.Old["name"]) == name {
		return m.ensure(ctx, w.DB, dir, name, w.ID)
	}
	return m.take(ctx, w.DB, dir, name, w.ID)
}

// checkNotInside refuses moving folder id under dir when dir is id itself
// or one of its descendants, walking up from dir.
func (m *Module) checkNotInside(ctx context.Context, db, id, dir string) error {
	cur := dir
	for depth := 0; cur != ""; depth++ {
		if cur == id {
			return fault.Invalid(map[string][]string{"dir_id": {MsgDirInside}})
		}
		if depth > MaxDepth {
			return fault.Invalid(map[string][]string{"dir_id": {msgTooDeep}})
		}
		_, body, err := m.lookup(ctx, db, cur)
		if err != nil {
			return err
		}
		if body == nil {
			return nil
		}
		cur = str(body["dir_id"])
	}
	return nil
}

// deleteRule refuses deleting a folder that still has entries (live, or
// trashed with it): they would lose their folder.
func (m *Module) deleteRule(ctx context.Context, w *docs.Write) error {
	if !isDir(str(w.Old["kind"])) {
		return nil
	}
	empty := true
	err := m.eachChild(ctx, w.DB, w.ID, func(store.Doc, map[string]any) (bool, error) {
		empty = false
		return false, nil
	})
	if err != nil {
		return err
	}
	if !empty {
		return fault.Newf(fault.Conflict, MsgFolderNotEmp, str(w.Old["name"]))
	}
	return nil
}

// effect follows a stored write: the entry's old name claim is released
// when it left that folder and name, and blob versions the document no
// longer lists (trimmed, deleted, or the whole file deleted) leave the blob
// store. Failures are logged, not returned: the document is written, its
// bytes no longer count, and what a failure leaves is found again.
func (m *Module) effect(ctx context.Context, w *docs.Write, _ store.Doc) error {
	oldKind, kind := str(w.Old["kind"]), str(w.New["kind"])
	if w.Old != nil && isLive(oldKind) {
		od, on := str(w.Old["dir_id"]), str(w.Old["name"])
		if w.Deleting || !isLive(kind) || od != str(w.New["dir_id"]) || on != str(w.New["name"]) {
			m.release(ctx, w.DB, od, on, w.ID)
		}
	}
	if m.blobs == nil || w.Old == nil || !isFile(oldKind) {
		return nil
	}
	key := BlobKey(w.DB, w.ID)
	// Where the store can, versions are retired rather than deleted: the
	// bucket's lifecycle removes them after a grace period, so a table
	// restored to a point inside it finds the versions it lists.
	retirer, retire := m.blobs.(blob.Retirer)
	if w.Deleting {
		remove := m.blobs.Delete
		if retire {
			remove = retirer.Retire
		}
		if err := remove(ctx, key); err != nil && !errors.Is(err, blob.ErrNotFound) {
			m.log.ErrorContext(ctx, "delete a file's contents", "db", w.DB, "id", w.ID, "err", err)
		}
		return nil
	}
	kept := map[string]bool{}
	for _, v := range versionsOf(w.New["versions"]) {
		kept[v.ID] = true
	}
	removeVersion := m.blobs.DeleteVersion
	if retire {
		removeVersion = retirer.RetireVersion
	}
	for _, v := range versionsOf(w.Old["versions"]) {
		if kept[v.ID] {
			continue
		}
		if err := removeVersion(ctx, key, v.ID); err != nil && !errors.Is(err, blob.ErrNotFound) {
			m.log.ErrorContext(ctx, "delete a version", "db", w.DB, "id", w.ID, "version", v.ID, "err", err)
		}
	}
	return nil
}

// Sort keys put a folder's entries together in the klass index, so a
// listing reads one range: "<dir_id>/d<name>" for folders, "<dir_id>/f<name>"
// for files, "<dir_id>/t<name>" for entries trashed with their folder (the
// root's dir_id is ""), and "~/<trashed_at>" for what was moved to the trash
// itself (the trash's list, oldest first).
const trashPrefix = "~/"

func sortKey(body map[string]any) string {
	kind, dir, name := str(body["kind"]), str(body["dir_id"]), str(body["name"])
	switch {
	case isTrashed(kind) && str(body["trashed_with"]) == "":
		return trashPrefix + str(body["trashed_at"])
	case isTrashed(kind):
		return dir + "/t" + name
	case kind == KindDir:
		return dir + "/d" + name
	}
	return dir + "/f" + name
}

// driveTally is what one entry adds to its Group's drive counts.
func driveTally(f stream.Fields) map[string]int64 {
	out := map[string]int64{"bytes": f.Int("bytes")}
	switch f.Str("kind") {
	case KindFile:
		out["files"] = 1
	case KindDir:
		out["dirs"] = 1
	case KindFileDeleted, KindDirDeleted:
		out["trash_bytes"] = f.Int("bytes")
		out["trash_entries"] = 1
	}
	return out
}

// events adds "attach" to a change that added a version and "archive" to
// one that moved an entry to the trash.
func events(old, new stream.Fields) []string {
	var out []string
	var was, is []Version
	if old != nil {
		old.Decode("versions", &was)
	}
	new.Decode("versions", &is)
	if len(is) > 0 && !slices.ContainsFunc(was, func(v Version) bool { return v.ID == is[0].ID }) {
		out = append(out, "attach")
	}
	if isTrashed(new.Str("kind")) && (old == nil || isLive(old.Str("kind"))) {
		out = append(out, "archive")
	}
	return out
}
