package drive

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"

	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/httpjson"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/store"
)

// RootID names the root folder in routes.
const RootID = "root"

// Listing bounds.
const (
	defaultListLimit = 1000
	maxListLimit     = 10_000
)

// Crumb is one folder of a breadcrumb.
type Crumb struct {
	ID   string `json:"_id"`
	Name string `json:"name"`
}

// listDir: GET /api/{db}/_drive/dirs/{id}[?limit=&after=] with a folder's id
// or "root" answers {dir, path, entries, next}: the folder (null for the
// root), its breadcrumb from the root, its entries (folders, then files, by
// name; what was trashed with a trashed folder when that is the one asked),
// and the cursor of the next page ("" at the end).
func (m *Module) listDir(w http.ResponseWriter, r *http.Request) error {
	ctx, db, id := r.Context(), r.PathValue("db"), r.PathValue("id")
	q := r.URL.Query()
	limit, err := httpjson.IntParam(q.Get("limit"), "limit", defaultListLimit)
	if err != nil {
		return err
	}
	if limit < 1 || limit > maxListLimit {
		return fault.Newf(fault.BadRequest, "limit must be between 1 and %d", maxListLimit)
	}
	var dir json.RawMessage = json.RawMessage("null")
	path := []Crumb{}
	trashed := false
	dirID := ""
	if id != RootID {
		d, body, err := m.entry(ctx, db, id)
		if err != nil {
			return err
		}
		if !isDir(str(body["kind"])) {
			return fault.Newf(fault.BadRequest, "%q is a file, not a folder", str(body["name"]))
		}
		dir, dirID, trashed = rawDoc(d), id, isTrashed(str(body["kind"]))
		if path, err = m.breadcrumb(r, db, id, body); err != nil {
			return err
		}
	}
	entries := []json.RawMessage{}
	lq := store.ListQuery{Klass: Klass, Prefix: dirID + "/", Limit: limit, After: q.Get("after")}
	page, err := m.st.List(ctx, db, lq)
	if errors.Is(err, store.ErrDBNotFound) {
		return errMissing
	}
	if err != nil && lq.After != "" {
		return fault.Wrap(fault.BadRequest, "after: not a cursor of this listing", err)
	}
	if err != nil {
		return err
	}
	next := page.Next
	for _, d := range page.Docs {
		if !trashed && len(d.SortKey) > len(lq.Prefix) && d.SortKey[len(lq.Prefix)] == 't' {
			next = "" // what follows was trashed with the folder
			break
		}
		entries = append(entries, rawDoc(d))
	}
	writeListing(w, map[string]any{"dir": dir, "path": path, "next": next}, "entries", entries)
	return nil
}

// writeListing answers head's members and the stored documents as the
// array name, as httpjson.Write would, without re-validating each stored
// document (encoding/json compacts every json.RawMessage it writes, which
// was three quarters of a 1,000-entry listing's time).
func writeListing(w http.ResponseWriter, head map[string]any, name string, entries []json.RawMessage) {
	raw, err := json.Marshal(head)
	if err != nil { // plain strings and crumbs: unreachable
		httpjson.Write(w, http.StatusInternalServerError, map[string]string{"error": "unknown_error", "reason": "Undefined error"})
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "must-revalidate")
	w.WriteHeader(http.StatusOK)
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.Write(raw[:len(raw)-1])
	if len(head) > 0 {
		bw.WriteByte(',')
	}
	bw.WriteString(`"` + name + `":[`)
	for i, e := range entries {
		if i > 0 {
			bw.WriteByte(',')
		}
		bw.Write(e)
	}
	bw.WriteString("]}\n")
	_ = bw.Flush() // a client gone is nothing to report
}

// breadcrumb lists the folders from the root down to id.
func (m *Module) breadcrumb(r *http.Request, db, id string, body map[string]any) ([]Crumb, error) {
	out := []Crumb{{ID: id, Name: str(body["name"])}}
	for cur := str(body["dir_id"]); cur != "" && len(out) <= MaxDepth; {
		_, b, err := m.lookup(r.Context(), db, cur)
		if err != nil {
			return nil, err
		}
		if b == nil {
			break
		}
		out = append(out, Crumb{ID: cur, Name: str(b["name"])})
		cur = str(b["dir_id"])
	}
	slices.Reverse(out)
	return out, nil
}

// record reads a ticket, customer or equipment of db for its folder.
func (m *Module) record(r *http.Request, db, id string) (map[string]any, error) {
	if !slices.Contains(RecordKlasses, ids.Klass(id)) {
		return nil, errMissing
	}
	d, err := m.st.Get(r.Context(), db, id)
	if errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrDeleted) || errors.Is(err, store.ErrDBNotFound) {
		return nil, errMissing
	}
	if err != nil {
		return nil, err
	}
	return docs.Decode(d.Body)
}

// recordFiles: GET /api/{db}/_drive/records/{id} answers the folder of a
// ticket, customer or equipment and its live entries:
// {record_id, folder (null when it has none), entries}.
func (m *Module) recordFiles(w http.ResponseWriter, r *http.Request) error {
	ctx, db, id := r.Context(), r.PathValue("db"), r.PathValue("id")
	if _, err := m.record(r, db, id); err != nil {
		return err
	}
	out := map[string]any{"record_id": id, "folder": nil}
	var entries []json.RawMessage
	fd, body, err := m.lookup(ctx, db, RecordFolderID(db, id))
	if err != nil {
		return err
	}
	if body != nil && str(body["record_id"]) == id {
		out["folder"] = rawDoc(fd)
		if str(body["kind"]) == KindDir {
			err := m.eachChild(ctx, db, fd.ID, func(d store.Doc, b map[string]any) (bool, error) {
				if !isLive(str(b["kind"])) {
					return false, nil
				}
				entries = append(entries, rawDoc(d))
				return len(entries) < maxListLimit, nil
			})
			if err != nil {
				return err
			}
		}
	}
	writeListing(w, out, "entries", entries)
	return nil
}

// recordFolder: POST /api/{db}/_drive/records/{id} {name?, dir_id?} makes
// the folder of a ticket, customer or equipment (201), named after it
// unless a name is given, in the root unless dir_id says; 200 with the
// folder when it exists. Files put in it carry the record's id.
func (m *Module) recordFolder(w http.ResponseWriter, r *http.Request) error {
	ctx, db, id, p := r.Context(), r.PathValue("db"), r.PathValue("id"), module.Principal(r)
	var in struct {
		Name  *string `json:"name"`
		DirID string  `json:"dir_id"`
	}
	if r.ContentLength != 0 {
		if err := httpjson.Decode(w, r, 16<<10, &in); err != nil {
			return err
		}
	}
	rec, err := m.record(r, db, id)
	if err != nil {
		return err
	}
	fid := RecordFolderID(db, id)
	if d, body, err := m.lookup(ctx, db, fid); err != nil {
		return err
	} else if body != nil {
		if str(body["record_id"]) != id {
			return fault.New(fault.Conflict, "Another entry has this record folder's id")
		}
		httpjson.Write(w, http.StatusOK, map[string]any{"ok": true, "id": fid, "rev": d.Rev, "folder": rawDoc(d)})
		return nil
	}
	names := []string{}
	if in.Name != nil {
		names = append(names, *in.Name)
	} else {
		base := recordName(id, rec)
		names = append(names, base)
		for i := 2; i <= 9; i++ {
			names = append(names, fmt.Sprintf("%s (%d)", base, i))
		}
	}
	for i, name := range names {
		body := map[string]any{"klass": Klass, "kind": KindDir, "name": name, "dir_id": in.DirID, "record_id": id}
		saved, err := m.docs.Save(asServer(ctx), p, db, fid, "", body)
		if fe, ok := fault.As(err); ok && fe.Kind == fault.Conflict && fe.Fields != nil && i < len(names)-1 {
			continue // the name is taken: the next
		}
		if err != nil {
			return err
		}
		httpjson.Write(w, http.StatusCreated, map[string]any{"ok": true, "id": fid, "rev": saved.Rev, "folder": rawDoc(saved)})
		return nil
	}
	return store.ErrConflict // unreachable: the last name's error returned
}

// recordName names a record's folder: the ticket's number, the customer's
// name, the equipment's identifier; a character a name cannot hold
// becomes a space.
func recordName(id string, rec map[string]any) string {
	name := ""
	switch ids.Klass(id) {
	case "Ticket":
		if n := num(rec["number"]); n > 0 {
			name = "Ticket " + strconv.FormatInt(n, 10)
		} else {
			name = "Ticket"
		}
	case "Customer":
		name = str(rec["name"])
	case "Equipment":
		name = str(rec["identifier"])
	}
	clean := []rune{}
	for _, c := range name {
		if c == '/' || nameControl(c) {
			c = ' '
		}
		clean = append(clean, c)
	}
	name = string(clean)
	if n, msg := CleanName(name); msg == "" {
		if len(n) > 200 {
			n = n[:200]
		}
		if n2, msg := CleanName(n); msg == "" {
			return n2
		}
	}
	return ids.Klass(id) + " " + id[len(id)-8:]
}
