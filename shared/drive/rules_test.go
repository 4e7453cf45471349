package drive_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/drive"
	"github.com/oficina/oficina/shared/ids"
)

// writeRoutes tries body (a new CloudFile) through POST, PUT and _bulk_docs
// and expects each to refuse it with field's message msg; then through PUT
// as a change of a good entry.
func writeRoutes(t *testing.T, d *drv, body map[string]any, field, msg string) {
	t.Helper()
	d.e.Unchanged(d.db, func() {
		d.ana.Do("POST", "/api/"+d.db, body).ExpectFields(t, field, msg)
		d.ana.Do("PUT", "/api/"+d.db+"/"+ids.New("fle"), body).ExpectFields(t, field, msg)
		d.ana.Do("POST", "/api/"+d.db+"/_bulk_docs", map[string]any{"docs": []any{body}}).ExpectBulkField(t, field, msg)
	})
}

// edit changes an entry through PUT with the changes applied to its document.
func (d *drv) edit(id string, changes map[string]any) apptest.Response {
	d.t.Helper()
	doc := d.doc(id)
	for k, v := range changes {
		doc[k] = v
	}
	return d.ana.Do("PUT", "/api/"+d.db+"/"+id, doc)
}

func TestNames(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		d := newDrive(t, e)
		long := strings.Repeat("é", 128) // 256 bytes
		bad := []struct {
			name any
			msg  string
		}{
			{"", drive.MsgNameBlank},
			{"   ", drive.MsgNameBlank},
			{nil, drive.MsgNameBlank},
			{42, drive.MsgNameInvalid},
			{".", drive.MsgNameDots},
			{"..", drive.MsgNameDots},
			{"a/b", drive.MsgNameSlash},
			{"/", drive.MsgNameSlash},
			{"../../etc/passwd", drive.MsgNameSlash},
			{"nul\x00byte", drive.MsgNameControl},
			{"line\nbreak", drive.MsgNameControl},
			{"tab\there", drive.MsgNameControl},
			{"del\x7f", drive.MsgNameControl},
			{"c1\u0085", drive.MsgNameControl},
			{"invoice\u202egpj.exe", drive.MsgNameControl},
			{long, drive.MsgNameLong},
		}
		for _, b := range bad {
			writeRoutes(t, d, map[string]any{"klass": "CloudFile", "kind": "file", "name": b.name}, "name", b.msg)
		}
		// A good entry renamed badly is refused too, and keeps its name.
		ok := d.create("file", "ok.txt", "")
		for _, b := range bad {
			d.e.Unchanged(d.db, func() { d.edit(ok, map[string]any{"name": b.name}).ExpectFields(t, "name", b.msg) })
		}

		// Names that look hostile but are just names.
		for _, name := range []string{"%2f", "%2e%2e", "..a", "a..", ". hidden", "...", "C:\\windows", "<img src=x onerror=alert(1)>", "😀 emoji", "名前", strings.Repeat("é", 127) + "x"} {
			id := d.create("file", name, "")
			if got := d.doc(id)["name"]; got != name {
				t.Errorf("name %q stored as %q", name, got)
			}
			if got := d.doc(id)["fullpath"]; got != "/"+name {
				t.Errorf("fullpath of %q: %q", name, got)
			}
		}
		// Unicode normalisation: "é" as e + combining accent is stored in
		// NFC, so it is the same name as the precomposed one.
		nfd := d.create("file", "cafe\u0301.txt", "")
		if got := d.doc(nfd)["name"]; got != "caf\u00e9.txt" {
			t.Fatalf("NFD name stored as %q", got)
		}
		d.ana.Do("POST", "/api/"+d.db, map[string]any{"klass": "CloudFile", "kind": "file", "name": "caf\u00e9.txt"}).ExpectError(t, http.StatusConflict, "already exists")
		// Case sensitive: "Ok.txt" and "OK.TXT" are other names.
		d.create("file", "Ok.txt", "")
		d.create("file", "OK.TXT", "")
	})
}

func TestFieldRules(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		d := newDrive(t, e)
		a := d.mkdir("a", "")
		b := d.mkdir("b", a)
		c := d.mkdir("c", b)
		f := d.create("file", "f.txt", a)
		zdir := d.zed.Do("POST", "/api/"+d.zdb, map[string]any{"klass": "CloudFile", "kind": "dir", "name": "zed's"}).Expect(t, http.StatusCreated)["id"].(string)
		tik := d.ana.Do("POST", "/api/"+d.db, map[string]any{"klass": "Ticket", "content": "a ticket"}).Expect(t, http.StatusCreated)["id"].(string)

		file := func(extra ...any) map[string]any {
			m := map[string]any{"klass": "CloudFile", "kind": "file", "name": "x.txt"}
			for i := 0; i+1 < len(extra); i += 2 {
				m[extra[i].(string)] = extra[i+1]
			}
			return m
		}
		// dir_id: a live folder of this Group, never another Group's, a
		// file, a ticket or nothing at all.
		for _, dir := range []any{zdir, f, tik, ids.New("fle"), "root", 7} {
			writeRoutes(t, d, file("dir_id", dir), "dir_id", drive.MsgDirMissing)
		}
		writeRoutes(t, d, file("kind", "file_deleted"), "kind", drive.MsgKindTrash)
		writeRoutes(t, d, file("kind", "folder"), "kind", "not in allowed list")
		writeRoutes(t, d, file("max_versions", 0), "max_versions", "must be greater than or equal to 1")
		writeRoutes(t, d, file("max_versions", 101), "max_versions", "must be less than or equal to 100")
		writeRoutes(t, d, file("max_versions", 2.5), "max_versions", "must be an integer")
		writeRoutes(t, d, file("color", "red"), "color", "is invalid")
		writeRoutes(t, d, file("stage", "flying"), "stage", "not in allowed list")
		writeRoutes(t, d, file("starred", "yes"), "starred", "is invalid")
		writeRoutes(t, d, file("move_destination", zdir), "move_destination", "must exist")

		// Moving a folder into itself or below it.
		e.Unchanged(d.db, func() {
			d.edit(a, map[string]any{"dir_id": a}).ExpectFields(t, "dir_id", drive.MsgDirSelf)
			d.edit(a, map[string]any{"dir_id": b}).ExpectFields(t, "dir_id", drive.MsgDirInside)
			d.edit(a, map[string]any{"dir_id": c}).ExpectFields(t, "dir_id", drive.MsgDirInside)
			d.edit(a, map[string]any{"kind": "file"}).ExpectFields(t, "kind", drive.MsgKindChange)
			d.edit(f, map[string]any{"kind": "dir"}).ExpectFields(t, "kind", drive.MsgKindChange)
			d.edit(f, map[string]any{"kind": "file_deleted"}).ExpectFields(t, "kind", drive.MsgKindTrash)
			d.ana.Do("POST", "/api/"+d.db+"/_bulk_docs", map[string]any{"docs": []any{mergeDoc(d.doc(a), "dir_id", c)}}).ExpectBulkField(t, "dir_id", drive.MsgDirInside)
		})

		// Server-kept fields: a client's values are ignored.
		id := d.create("file", "kept.txt", "", "fullpath", "/etc/passwd", "size", 99, "bytes", 1, "versions", []any{map[string]any{"id": "x", "size": 5}},
			"attachment_key", d.zdb+"/x", "record_id", tik, "content_type", "text/html", "trashed_with", a)
		doc := d.doc(id)
		if doc["fullpath"] != "/kept.txt" || jsonNum(doc["size"]) != 0 || jsonNum(doc["bytes"]) != 0 || len(doc["versions"].([]any)) != 0 ||
			doc["attachment_key"] != d.db+"/"+id || doc["record_id"] != nil || doc["content_type"] != nil || doc["trashed_with"] != nil {
			t.Fatalf("server-kept fields taken from the client: %v", doc)
		}
		if jsonNum(doc["max_versions"]) != drive.DefaultMaxVersions || doc["starred"] != false {
			t.Fatalf("defaults: %v", doc)
		}
		d.edit(id, map[string]any{"fullpath": "/x", "bytes": 1e9, "versions": []any{}}).Expect(t, http.StatusCreated)
		if doc := d.doc(id); doc["fullpath"] != "/kept.txt" || jsonNum(doc["bytes"]) != 0 {
			t.Fatalf("a PUT changed server-kept fields: %v", doc)
		}
		// A valid move and the full path.
		d.edit(f, map[string]any{"dir_id": c, "color": "#AABBCC", "starred": true}).Expect(t, http.StatusCreated)
		if doc := d.doc(f); doc["fullpath"] != "/a/b/c/f.txt" || doc["color"] != "#aabbcc" {
			t.Fatalf("moved: %v", doc)
		}
		// Only Group databases have a drive.
		d.ana.Do("POST", "/api/"+d.ana.ID, file()).ExpectError(t, http.StatusForbidden, "belongs to a Group")
		// A folder that is not empty cannot be deleted.
		d.ana.Do("DELETE", "/api/"+d.db+"/"+c+"?rev="+d.rev(c), nil).ExpectError(t, http.StatusConflict, "is not empty")
	})
}

func mergeDoc(doc map[string]any, kv ...any) map[string]any {
	for i := 0; i+1 < len(kv); i += 2 {
		doc[kv[i].(string)] = kv[i+1]
	}
	return doc
}

func TestDepth(t *testing.T) {
	e := apptest.New(t, apptest.Bolt)
	d := newDrive(t, e)
	dir := ""
	for i := range drive.MaxDepth {
		dir = d.mkdir(fmt.Sprint(i), dir)
	}
	d.ana.Do("POST", "/api/"+d.db, map[string]any{"klass": "CloudFile", "kind": "dir", "name": "deep", "dir_id": dir}).ExpectFields(t, "dir_id", fmt.Sprintf("is too deep: folders nest at most %d levels", drive.MaxDepth))
}

func TestDuplicateNames(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		d := newDrive(t, e)
		a := d.mkdir("a", "")
		d.create("file", "report.pdf", a)
		other := d.create("file", "other.pdf", a)
		root := d.create("file", "report.pdf", "") // another folder: fine
		dup := map[string]any{"klass": "CloudFile", "kind": "file", "name": "report.pdf", "dir_id": a}
		e.Unchanged(d.db, func() {
			d.ana.Do("POST", "/api/"+d.db, dup).ExpectError(t, http.StatusConflict, `An entry named "report.pdf" already exists in this folder`)
			d.ana.Do("PUT", "/api/"+d.db+"/"+ids.New("fle"), dup).ExpectError(t, http.StatusConflict, "already exists")
			d.ana.Do("POST", "/api/"+d.db, map[string]any{"klass": "CloudFile", "kind": "dir", "name": "report.pdf", "dir_id": a}).ExpectError(t, http.StatusConflict, "already exists")
			d.edit(other, map[string]any{"name": "report.pdf"}).ExpectError(t, http.StatusConflict, "already exists")
			d.edit(root, map[string]any{"dir_id": a}).ExpectError(t, http.StatusConflict, "already exists")
		})
		r := d.ana.Do("POST", "/api/"+d.db+"/_bulk_docs", map[string]any{"docs": []any{dup}})
		if r.Code != http.StatusCreated || !strings.Contains(string(r.Body), `"conflict"`) {
			t.Fatalf("bulk duplicate: %d %s", r.Code, r.Body)
		}
		// Two of one name in one _bulk_docs: one wins.
		pair := map[string]any{"klass": "CloudFile", "kind": "file", "name": "twin", "dir_id": a}
		r = d.ana.Do("POST", "/api/"+d.db+"/_bulk_docs", map[string]any{"docs": []any{pair, pair}})
		if strings.Count(string(r.Body), `"ok":true`) != 1 || strings.Count(string(r.Body), `"conflict"`) != 1 {
			t.Fatalf("bulk twins: %s", r.Body)
		}
		// A rename frees the old name at once; the new one is taken.
		d.edit(other, map[string]any{"name": "renamed.pdf"}).Expect(t, http.StatusCreated)
		d.create("file", "other.pdf", a)
		d.ana.Do("POST", "/api/"+d.db, map[string]any{"klass": "CloudFile", "kind": "file", "name": "renamed.pdf", "dir_id": a}).ExpectError(t, http.StatusConflict, "already exists")
		// A move frees the name in the folder it left.
		d.edit(root, map[string]any{"dir_id": d.mkdir("b", "")}).Expect(t, http.StatusCreated)
		d.create("file", "report.pdf", "")
		// A deleted entry frees its name.
		gone := d.create("file", "gone.txt", "")
		d.ana.Do("DELETE", "/api/"+d.db+"/"+gone+"?rev="+d.rev(gone), nil).Expect(t, http.StatusOK)
		d.create("file", "gone.txt", "")
		// Saving an entry without changing its name or folder keeps working.
		d.edit(other, map[string]any{"description": "still mine"}).Expect(t, http.StatusCreated)
	})
}

// TestConcurrentSameName: many writers create one name in one folder at
// once, through POST and PUT with their own ids: exactly one wins.
func TestConcurrentSameName(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		d := newDrive(t, e)
		dir := d.mkdir("race", "")
		tok := e.Token(d.ana, "read-write", d.db)
		const writers = 24
		for round, name := range []string{"same.txt", "same-dir"} {
			var wg sync.WaitGroup
			codes := make([]int, writers)
			for i := range writers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					c := e.WithToken(tok)
					body := map[string]any{"klass": "CloudFile", "kind": []string{"file", "dir"}[round], "name": name, "dir_id": dir}
					if i%2 == 0 {
						codes[i] = c.Do("POST", "/api/"+d.db, body).Code
					} else {
						codes[i] = c.Do("PUT", "/api/"+d.db+"/"+ids.New("fle"), body).Code
					}
				}()
			}
			wg.Wait()
			won, lost := 0, 0
			for _, c := range codes {
				switch c {
				case http.StatusCreated:
					won++
				case http.StatusConflict:
					lost++
				default:
					t.Errorf("a writer got %d", c)
				}
			}
			if won != 1 || lost != writers-1 {
				t.Fatalf("%s: %d won, %d lost, want exactly one winner", name, won, lost)
			}
		}
		r := d.ana.Do("GET", d.api("/_drive/dirs/"+dir), nil).Expect(t, http.StatusOK)
		if n := len(r["entries"].([]any)); n != 2 {
			t.Fatalf("the folder lists %d entries, want 2", n)
		}
	})
}

func TestFullpathsFollow(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		d := newDrive(t, e)
		a := d.mkdir("a", "")
		b := d.mkdir("b", a)
		c := d.mkdir("c", b)
		f1 := d.create("file", "1.txt", a)
		f2 := d.create("file", "2.txt", b)
		f3 := d.create("file", "3.txt", c)
		want := func(paths map[string]string) {
			t.Helper()
			for id, p := range paths {
				if got := d.doc(id)["fullpath"]; got != p {
					t.Errorf("%s: fullpath %q, want %q", id, got, p)
				}
			}
		}
		want(map[string]string{a: "/a", b: "/a/b", c: "/a/b/c", f1: "/a/1.txt", f2: "/a/b/2.txt", f3: "/a/b/c/3.txt"})
		d.edit(a, map[string]any{"name": "A2"}).Expect(t, http.StatusCreated)
		e.Drain()
		want(map[string]string{a: "/A2", b: "/A2/b", c: "/A2/b/c", f1: "/A2/1.txt", f2: "/A2/b/2.txt", f3: "/A2/b/c/3.txt"})
		// Move b (with c under it) to the root, and rename c.
		d.edit(b, map[string]any{"dir_id": ""}).Expect(t, http.StatusCreated)
		d.edit(c, map[string]any{"name": "see"}).Expect(t, http.StatusCreated)
		e.Drain()
		want(map[string]string{a: "/A2", b: "/b", c: "/b/see", f1: "/A2/1.txt", f2: "/b/2.txt", f3: "/b/see/3.txt"})
		// A replay of every change writes nothing more.
		seq := e.UpdateSeq(d.db)
		e.Replay(3)
		e.Drain()
		if after := e.UpdateSeq(d.db); after != seq {
			t.Fatalf("a replay wrote: update_seq %d → %d", seq, after)
		}
		want(map[string]string{b: "/b", c: "/b/see", f3: "/b/see/3.txt"})
	})
}
