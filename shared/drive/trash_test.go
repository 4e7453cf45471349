package drive_test

import (
	"net/http"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/drive"
	"github.com/oficina/oficina/shared/ids"
)

func entryIDs(m map[string]any) []string {
	var out []string
	list, _ := m["entries"].([]any)
	for _, e := range list {
		out = append(out, e.(map[string]any)["_id"].(string))
	}
	return out
}

// TestTrash: a folder goes to the trash with everything under it and comes
// back with exactly that; its name is free meanwhile, so restoring it where
// the name was taken again is a 409; emptying the trash deletes documents
// and contents.
func TestTrash(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		d := newDrive(t, e)
		proj := d.mkdir("project", "")
		sub := d.mkdir("sub", proj)
		f1 := d.file("plan.txt", proj, []byte("plan"))
		f2 := d.file("deep.txt", sub, []byte("deep"))
		alone := d.file("alone.txt", sub, []byte("alone"))
		keep := d.file("keep.txt", "", []byte("keep"))
		// alone.txt goes first, on its own.
		d.ana.Do("POST", d.api("/_drive/files/"+alone+"/trash"), nil).Expect(t, http.StatusOK)
		r := d.ana.Do("POST", d.api("/_drive/files/"+proj+"/trash"), nil).Expect(t, http.StatusOK)
		if jsonNum(r["trashed"]) != 4 {
			t.Fatalf("trash answered %v, want 4 entries", r)
		}
		kinds := map[string]string{proj: "dir_deleted", sub: "dir_deleted", f1: "file_deleted", f2: "file_deleted", alone: "file_deleted", keep: "file"}
		for id, k := range kinds {
			if got := d.doc(id)["kind"]; got != k {
				t.Fatalf("%s: kind %v, want %s", id, got, k)
			}
		}
		if w := d.doc(f2)["trashed_with"]; w != proj {
			t.Fatalf("trashed_with %v", w)
		}
		root := d.ana.Do("GET", d.api("/_drive/dirs/root"), nil).Expect(t, http.StatusOK)
		if ids := entryIDs(root); len(ids) != 1 || ids[0] != keep {
			t.Fatalf("the root lists %v", ids)
		}
		trash := d.ana.Do("GET", d.api("/_drive/trash"), nil).Expect(t, http.StatusOK)
		if ids := entryIDs(trash); len(ids) != 2 || ids[0] != proj || ids[1] != alone {
			t.Fatalf("the trash lists %v, want the folder, then alone.txt", ids)
		}
		// A trashed folder's listing shows what went with it.
		if ids := entryIDs(d.ana.Do("GET", d.api("/_drive/dirs/"+sub), nil).Expect(t, http.StatusOK)); len(ids) != 1 || ids[0] != f2 {
			t.Fatalf("the trashed folder lists %v", ids)
		}
		// In the trash: no edits, no content, nothing created inside.
		e.Unchanged(d.db, func() {
			d.edit(f1, map[string]any{"name": "x"}).ExpectError(t, http.StatusConflict, `"plan.txt" is in the trash`)
			d.ana.Do("PUT", d.api("/_drive/files/"+f1+"/content"), []byte("x")).ExpectError(t, http.StatusConflict, "in the trash")
			d.ana.Do("POST", "/api/"+d.db, map[string]any{"klass": "CloudFile", "kind": "file", "name": "n", "dir_id": proj}).ExpectFields(t, "dir_id", drive.MsgDirTrashed)
			d.ana.Do("POST", d.api("/_drive/files/"+f2+"/restore"), nil).ExpectError(t, http.StatusConflict, `restore the folder "project"`)
			d.ana.Do("POST", d.api("/_drive/files/"+keep+"/restore"), nil).ExpectError(t, http.StatusConflict, "is not in the trash")
			d.ana.Do("POST", d.api("/_drive/files/"+f2+"/trash"), nil).ExpectError(t, http.StatusConflict, "with its folder")
		})
		// Downloading from the trash works.
		if string(d.content(f1, "")) != "plan" {
			t.Fatal("a trashed file does not download")
		}
		// The name is free: take it, and the restore is refused.
		other := d.mkdir("project", "")
		e.Unchanged(d.db, func() {
			d.ana.Do("POST", d.api("/_drive/files/"+proj+"/restore"), nil).ExpectError(t, http.StatusConflict, `An entry named "project" already exists`)
		})
		d.edit(other, map[string]any{"name": "project (new)"}).Expect(t, http.StatusCreated)
		r = d.ana.Do("POST", d.api("/_drive/files/"+proj+"/restore"), nil).Expect(t, http.StatusOK)
		if jsonNum(r["restored"]) != 4 {
			t.Fatalf("restore answered %v, want the folder and the 3 trashed with it", r)
		}
		for id, k := range map[string]string{proj: "dir", sub: "dir", f1: "file", f2: "file", alone: "file_deleted"} {
			if got := d.doc(id)["kind"]; got != k {
				t.Fatalf("after restore %s: kind %v, want %s", id, got, k)
			}
		}
		if d.doc(f2)["trashed_with"] != nil || d.doc(f2)["fullpath"] != "/project/sub/deep.txt" {
			t.Fatalf("restored: %v", d.doc(f2))
		}
		// alone.txt's folder is live again: it comes back there.
		d.ana.Do("POST", d.api("/_drive/files/"+alone+"/restore"), nil).Expect(t, http.StatusOK)
		if doc := d.doc(alone); doc["dir_id"] != sub || doc["kind"] != "file" {
			t.Fatalf("alone.txt restored: %v", doc)
		}
		// A file whose folder is gone comes back to the root.
		d.ana.Do("POST", d.api("/_drive/files/"+f1+"/trash"), nil).Expect(t, http.StatusOK)
		d.ana.Do("POST", d.api("/_drive/files/"+proj+"/trash"), nil).Expect(t, http.StatusOK)
		d.ana.Do("DELETE", d.api("/_drive/trash/"+proj), nil).Expect(t, http.StatusOK)
		d.ana.Do("POST", d.api("/_drive/files/"+f1+"/restore"), nil).Expect(t, http.StatusOK)
		if doc := d.doc(f1); doc["dir_id"] != "" || doc["fullpath"] != "/plan.txt" {
			t.Fatalf("restored without its folder: %v", doc)
		}
		for _, id := range []string{proj, sub, f2, alone} {
			if d.doc(id) != nil || d.blobVersions(id) != nil {
				t.Fatalf("%s survived its deletion from the trash", id)
			}
		}
		// Empty the trash.
		d.ana.Do("POST", d.api("/_drive/files/"+keep+"/trash"), nil).Expect(t, http.StatusOK)
		d.ana.Do("POST", d.api("/_drive/files/"+other+"/trash"), nil).Expect(t, http.StatusOK)
		r = d.ana.Do("DELETE", d.api("/_drive/trash"), nil).Expect(t, http.StatusOK)
		if jsonNum(r["deleted"]) != 2 || jsonNum(r["bytes"]) != 4 {
			t.Fatalf("empty trash answered %v", r)
		}
		if d.doc(keep) != nil || d.blobVersions(keep) != nil || len(entryIDs(d.ana.Do("GET", d.api("/_drive/trash"), nil).Expect(t, http.StatusOK))) != 0 {
			t.Fatal("the trash is not empty")
		}
		e.CheckCounts(d.db)
	})
}

// TestOtherGroupsIDs: a Group's drive routes never reach another Group's
// entries, even when given their ids.
func TestOtherGroupsIDs(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		d := newDrive(t, e)
		zfile := d.zed.Do("POST", "/api/"+d.zdb, map[string]any{"klass": "CloudFile", "kind": "file", "name": "zed.txt"}).Expect(t, http.StatusCreated)["id"].(string)
		d.zed.Do("PUT", "/api/"+d.zdb+"/_drive/files/"+zfile+"/content", []byte("zed's secret")).Expect(t, http.StatusCreated)
		zv := d.zed.Do("GET", "/api/"+d.zdb+"/_drive/files/"+zfile+"/versions", nil).Expect(t, http.StatusOK)["versions"].([]any)[0].(map[string]any)["id"].(string)
		zcus := d.zed.Do("POST", "/api/"+d.zdb, map[string]any{"klass": "Customer", "name": "Zed's customer"}).Expect(t, http.StatusCreated)["id"].(string)
		d.zed.Do("POST", "/api/"+d.zdb+"/_drive/records/"+zcus, nil).Expect(t, http.StatusCreated)
		zup := d.zed.Do("POST", "/api/"+d.zdb+"/_drive/uploads", map[string]any{"name": "z.bin", "size": 10}).Expect(t, http.StatusCreated)["upload_id"].(string)
		calls := []struct {
			method, path string
			body         any
		}{
			{"GET", "/_drive/files/" + zfile + "/content", nil},
			{"GET", "/_drive/files/" + zfile + "/content?version=" + zv, nil},
			{"PUT", "/_drive/files/" + zfile + "/content", []byte("x")},
			{"GET", "/_drive/files/" + zfile + "/versions", nil},
			{"POST", "/_drive/files/" + zfile + "/versions/" + zv + "/restore", nil},
			{"DELETE", "/_drive/files/" + zfile + "/versions/" + zv, nil},
			{"POST", "/_drive/files/" + zfile + "/trash", nil},
			{"POST", "/_drive/files/" + zfile + "/restore", nil},
			{"DELETE", "/_drive/trash/" + zfile, nil},
			{"GET", "/_drive/dirs/" + zfile, nil},
			{"GET", "/_drive/records/" + zcus, nil},
			{"POST", "/_drive/records/" + zcus, nil},
			{"POST", "/_drive/uploads", map[string]any{"file_id": zfile, "size": 1}},
			{"GET", "/_drive/uploads/" + zup, nil},
			{"PUT", "/_drive/uploads/" + zup + "?offset=0", []byte("0123456789")},
			{"POST", "/_drive/uploads/" + zup + "/commit", nil},
			{"DELETE", "/_drive/uploads/" + zup, nil},
		}
		zseq := e.UpdateSeq(d.zdb)
		e.Unchanged(d.db, func() {
			for _, c := range calls {
				r := d.ana.Do(c.method, d.api(c.path), c.body)
				if r.Code != http.StatusNotFound {
					t.Errorf("%s %s: %d %s", c.method, c.path, r.Code, r.Body)
				}
			}
		})
		if e.UpdateSeq(d.zdb) != zseq {
			t.Fatal("Zed's Group changed")
		}
		d.zed.Do("GET", "/api/"+d.zdb+"/_drive/uploads/"+zup, nil).Expect(t, http.StatusOK)
		// Another Group's folder as dir_id, through every write route.
		zdir := d.zed.Do("POST", "/api/"+d.zdb, map[string]any{"klass": "CloudFile", "kind": "dir", "name": "zdir"}).Expect(t, http.StatusCreated)["id"].(string)
		writeRoutes(t, d, map[string]any{"klass": "CloudFile", "kind": "file", "name": "x", "dir_id": zdir}, "dir_id", drive.MsgDirMissing)
		d.ana.Do("POST", d.api("/_drive/uploads"), map[string]any{"dir_id": zdir, "name": "x", "size": 1}).ExpectFields(t, "dir_id", drive.MsgDirMissing)
	})
}

// TestRecordFolder: a ticket, customer or equipment has its own folder;
// files put in it carry the record's id and are listed for the record.
func TestRecordFolder(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		d := newDrive(t, e)
		cus := d.ana.Do("POST", "/api/"+d.db, map[string]any{"klass": "Customer", "name": "Bia / Oficina"}).Expect(t, http.StatusCreated)["id"].(string)
		tik := d.ana.Do("POST", "/api/"+d.db, map[string]any{"klass": "Ticket", "content": "broken screen", "customer_id": cus}).Expect(t, http.StatusCreated)["id"].(string)
		r := d.ana.Do("GET", d.api("/_drive/records/"+cus), nil).Expect(t, http.StatusOK)
		if r["folder"] != nil || len(r["entries"].([]any)) != 0 {
			t.Fatalf("no folder yet: %v", r)
		}
		r = d.ana.Do("POST", d.api("/_drive/records/"+cus), nil).Expect(t, http.StatusCreated)
		folder := r["id"].(string)
		if folder != drive.RecordFolderID(d.db, cus) || d.doc(folder)["name"] != "Bia   Oficina" || d.doc(folder)["record_id"] != cus {
			t.Fatalf("the customer's folder: %v", d.doc(folder))
		}
		d.ana.Do("POST", d.api("/_drive/records/"+cus), nil).Expect(t, http.StatusOK) // exists: the same
		f := d.file("photo.jpg", folder, []byte("jpeg"))
		if d.doc(f)["record_id"] != cus {
			t.Fatalf("a file of the record's folder: %v", d.doc(f))
		}
		r = d.ana.Do("GET", d.api("/_drive/records/"+cus), nil).Expect(t, http.StatusOK)
		if ids := entryIDs(r); len(ids) != 1 || ids[0] != f {
			t.Fatalf("the record lists %v", ids)
		}
		// Moved out, it is no longer the record's.
		d.edit(f, map[string]any{"dir_id": ""}).Expect(t, http.StatusCreated)
		if d.doc(f)["record_id"] != nil || len(entryIDs(d.ana.Do("GET", d.api("/_drive/records/"+cus), nil).Expect(t, http.StatusOK))) != 0 {
			t.Fatal("a file moved out still belongs to the record")
		}
		// A ticket's folder is named by its number; a client cannot set record_id.
		r = d.ana.Do("POST", d.api("/_drive/records/"+tik), map[string]any{}).Expect(t, http.StatusCreated)
		if name := d.doc(r["id"].(string))["name"]; name != "Ticket 1" {
			t.Fatalf("the ticket's folder is named %v", name)
		}
		d.ana.Do("POST", d.api("/_drive/records/"+tik), map[string]any{"name": "other"}).Expect(t, http.StatusOK)
		id := d.create("dir", "mine", "", "record_id", tik)
		if d.doc(id)["record_id"] != nil {
			t.Fatal("a client set record_id")
		}
		// Only those klasses, and only live ones.
		d.ana.Do("POST", d.api("/_drive/records/"+f), nil).ExpectError(t, http.StatusNotFound, "")
		d.ana.Do("GET", d.api("/_drive/records/"+ids.New("tik")), nil).ExpectError(t, http.StatusNotFound, "")
	})
}
