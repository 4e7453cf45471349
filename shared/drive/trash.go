package drive

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/httpjson"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/store"
)

// The trash. Trashing an entry sets its kind to file_deleted or dir_deleted
// with trashed_at, and everything under a folder follows with
// trashed_with = that folder; restoring brings back exactly what was
// trashed with it. Trashed entries keep their versions, and their bytes
// count in the quota until the trash is emptied. The root of a trashing is
// written first, so a trashing cut short is finished by trashing it again.

// Reasons of the trash routes.
const (
	MsgTrashedWith = "%q was moved to the trash with its folder: restore the folder %q"
	MsgNotInTrash  = "%q is not in the trash"
)

// trash: POST /api/{db}/_drive/files/{id}/trash[?rev=].
func (m *Module) trash(w http.ResponseWriter, r *http.Request) error {
	ctx, db, id, p := r.Context(), r.PathValue("db"), r.PathValue("id"), module.Principal(r)
	rev := revOf(r)
	saved, err := m.update(ctx, p, db, id, func(d store.Doc, body map[string]any) (bool, error) {
		kind := str(body["kind"])
		switch {
		case isTrashed(kind) && str(body["trashed_with"]) != "":
			return false, m.trashedWith(ctx, db, body)
		case isTrashed(kind):
			return false, nil // trashed already: finish its subtree
		case rev != "" && d.Rev != rev:
			return false, store.ErrConflict
		}
		m.markTrashed(body, kind)
		return true, nil
	})
	if err != nil {
		return err
	}
	n, err := m.trashUnder(ctx, p, db, id)
	if err != nil {
		return err
	}
	httpjson.Write(w, http.StatusOK, map[string]any{"ok": true, "id": id, "rev": saved.Rev, "trashed": 1 + n})
	return nil
}

func (m *Module) trashedWith(ctx context.Context, db string, body map[string]any) error {
	root := str(body["trashed_with"])
	name := root
	if _, rb, err := m.lookup(ctx, db, root); err == nil && rb != nil {
		name = str(rb["name"])
	}
	return fault.Newf(fault.Conflict, MsgTrashedWith, str(body["name"]), name)
}

// trashUnder trashes the live entries under folder root, level by level.
func (m *Module) trashUnder(ctx context.Context, p *access.Principal, db, root string) (int, error) {
	n := 0
	err := m.walk(ctx, db, root, func(d store.Doc, body map[string]any) (bool, error) {
		if !isLive(str(body["kind"])) {
			return str(body["trashed_with"]) == root, nil
		}
		n++
		_, err := m.update(ctx, p, db, d.ID, func(_ store.Doc, b map[string]any) (bool, error) {
			if !isLive(str(b["kind"])) {
				return false, nil
			}
			b["kind"] = trashedKind(str(b["kind"]))
			b["trashed_at"] = stamp(m.now())
			b["trashed_with"] = root
			return true, nil
		})
		return true, err
	})
	return n, err
}

// walk visits the entries under folder root breadth first; visit says
// whether to enter a folder.
func (m *Module) walk(ctx context.Context, db, root string, visit func(d store.Doc, body map[string]any) (bool, error)) error {
	queue := []string{root}
	for len(queue) > 0 {
		dir := queue[0]
		queue = queue[1:]
		type child struct {
			d    store.Doc
			body map[string]any
		}
		var kids []child
		if err := m.eachChild(ctx, db, dir, func(d store.Doc, body map[string]any) (bool, error) {
			kids = append(kids, child{d, body})
			return true, nil
		}); err != nil {
			return err
		}
		for _, k := range kids {
			enter, err := visit(k.d, k.body)
			if err != nil {
				return err
			}
			if enter && isDir(str(k.body["kind"])) {
				queue = append(queue, k.d.ID)
			}
		}
	}
	return nil
}

// restore: POST /api/{db}/_drive/files/{id}/restore brings an entry back
// to its folder (to the root when that folder is gone or in the trash),
// with what was trashed with it; 409 when its name is taken there now.
func (m *Module) restore(w http.ResponseWriter, r *http.Request) error {
	ctx, db, id, p := r.Context(), r.PathValue("db"), r.PathValue("id"), module.Principal(r)
	saved, err := m.update(ctx, p, db, id, func(d store.Doc, body map[string]any) (bool, error) {
		kind := str(body["kind"])
		switch {
		case !isTrashed(kind):
			return false, fault.Newf(fault.Conflict, MsgNotInTrash, str(body["name"]))
		case str(body["trashed_with"]) != "":
			return false, m.trashedWith(ctx, db, body)
		}
		if dir := str(body["dir_id"]); dir != "" {
			_, pb, err := m.lookup(ctx, db, dir)
			if err != nil {
				return false, err
			}
			if pb == nil || str(pb["kind"]) != KindDir {
				body["dir_id"] = ""
			}
		}
		body["kind"] = liveKind(kind)
		delete(body, "trashed_at")
		delete(body, "trashed_with")
		return true, nil
	})
	if err != nil {
		return err
	}
	n := 0
	err = m.walk(ctx, db, id, func(d store.Doc, body map[string]any) (bool, error) {
		if str(body["trashed_with"]) != id {
			return isLive(str(body["kind"])), nil // left by a trashing cut short
		}
		_, err := m.update(ctx, p, db, d.ID, func(_ store.Doc, b map[string]any) (bool, error) {
			if str(b["trashed_with"]) != id {
				return false, nil
			}
			b["kind"] = liveKind(str(b["kind"]))
			delete(b, "trashed_at")
			delete(b, "trashed_with")
			return true, nil
		})
		if _, refused := fault.As(err); refused {
			// A name taken meanwhile: the entry stays in the trash, as its own.
			m.log.WarnContext(ctx, "an entry stays in the trash", "db", db, "id", d.ID, "err", err)
			_, err = m.update(ctx, p, db, d.ID, func(_ store.Doc, b map[string]any) (bool, error) {
				delete(b, "trashed_with")
				return str(b["trashed_with"]) == id, nil
			})
			return false, err
		}
		if err == nil {
			n++
		}
		return true, err
	})
	if err != nil {
		return err
	}
	httpjson.Write(w, http.StatusOK, map[string]any{"ok": true, "id": id, "rev": saved.Rev, "restored": 1 + n, "dir_id": str(mustBody(saved)["dir_id"])})
	return nil
}

// listTrash: GET /api/{db}/_drive/trash lists what was moved to the trash
// (not what went with a folder), newest first.
func (m *Module) listTrash(w http.ResponseWriter, r *http.Request) error {
	ctx, db := r.Context(), r.PathValue("db")
	var out []json.RawMessage
	q := store.ListQuery{Klass: Klass, Prefix: trashPrefix, Descending: true, Limit: 500}
	for {
		page, err := m.st.List(ctx, db, q)
		if err != nil {
			if errors.Is(err, store.ErrDBNotFound) {
				return errMissing
			}
			return err
		}
		for _, d := range page.Docs {
			out = append(out, rawDoc(d))
		}
		if page.Next == "" {
			break
		}
		q.After = page.Next
	}
	writeListing(w, map[string]any{}, "entries", out)
	return nil
}

// emptyTrash: DELETE /api/{db}/_drive/trash deletes everything in the
// trash, documents and contents.
func (m *Module) emptyTrash(w http.ResponseWriter, r *http.Request) error {
	ctx, db, p := r.Context(), r.PathValue("db"), module.Principal(r)
	var roots []string
	q := store.ListQuery{Klass: Klass, Prefix: trashPrefix, Limit: 500}
	for {
		page, err := m.st.List(ctx, db, q)
		if err != nil {
			return err
		}
		for _, d := range page.Docs {
			roots = append(roots, d.ID)
		}
		if page.Next == "" {
			break
		}
		q.After = page.Next
	}
	n, bytes := 0, int64(0)
	for _, id := range roots {
		k, b, err := m.purge(ctx, p, db, id, 0)
		n, bytes = n+k, bytes+b
		if err != nil {
			return err
		}
	}
	httpjson.Write(w, http.StatusOK, map[string]any{"ok": true, "deleted": n, "bytes": bytes})
	return nil
}

// purgeOne: DELETE /api/{db}/_drive/trash/{id} deletes one entry of the
// trash for good (with what was trashed with it).
func (m *Module) purgeOne(w http.ResponseWriter, r *http.Request) error {
	ctx, db, id, p := r.Context(), r.PathValue("db"), r.PathValue("id"), module.Principal(r)
	_, body, err := m.entry(ctx, db, id)
	if err != nil {
		return err
	}
	if !isTrashed(str(body["kind"])) {
		return fault.Newf(fault.Conflict, MsgNotInTrash, str(body["name"]))
	}
	if str(body["trashed_with"]) != "" {
		return m.trashedWith(ctx, db, body)
	}
	n, bytes, err := m.purge(ctx, p, db, id, 0)
	if err != nil {
		return err
	}
	httpjson.Write(w, http.StatusOK, map[string]any{"ok": true, "deleted": n, "bytes": bytes})
	return nil
}

// purge deletes entry id and everything under it, deepest first (the
// effects delete the contents).
func (m *Module) purge(ctx context.Context, p *access.Principal, db, id string, depth int) (int, int64, error) {
	if depth > MaxDepth+1 {
		return 0, 0, fmt.Errorf("drive: purge %s/%s: deeper than %d levels", db, id, MaxDepth)
	}
	d, body, err := m.lookup(ctx, db, id)
	if err != nil || body == nil {
		return 0, 0, err
	}
	n, bytes := 0, int64(0)
	if isDir(str(body["kind"])) {
		var kids []string
		if err := m.eachChild(ctx, db, id, func(k store.Doc, _ map[string]any) (bool, error) {
			kids = append(kids, k.ID)
			return true, nil
		}); err != nil {
			return 0, 0, err
		}
		for _, k := range kids {
			kn, kb, err := m.purge(ctx, p, db, k, depth+1)
			n, bytes = n+kn, bytes+kb
			if err != nil {
				return n, bytes, err
			}
		}
	}
	for range 8 {
		_, err = m.docs.Delete(asServer(ctx), p, db, id, d.Rev)
		if !errors.Is(err, store.ErrConflict) {
			break
		}
		if d, body, err = m.lookup(ctx, db, id); err != nil || body == nil {
			return n, bytes, err
		}
	}
	if err != nil {
		return n, bytes, err
	}
	return n + 1, bytes + num(body["bytes"]), nil
}
