package drive_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/drive"
)

func (d *drv) chunk(up string, offset int, body any) apptest.Response {
	d.t.Helper()
	return d.ana.Do("PUT", d.api(fmt.Sprintf("/_drive/uploads/%s?offset=%d", up, offset)), body, "Content-Type", "application/octet-stream")
}

// TestChunkedUpload: a new file in 64 KB chunks, one of them cut half way
// by a dropped connection and resumed from what the server kept, a chunk
// at the wrong offset, then a new version of an existing file committed
// with its revision (a stale one refused).
func TestChunkedUpload(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		d := newDrive(t, e)
		dir := d.mkdir("uploads", "")
		body := payload(9, 5*drive.ChunkBytes+1234)
		up := d.ana.Do("POST", d.api("/_drive/uploads"), map[string]any{"dir_id": dir, "name": "video.mp4", "size": len(body)}).Expect(t, http.StatusCreated)
		uid := up["upload_id"].(string)
		if jsonNum(up["chunk_size"]) != drive.ChunkBytes || jsonNum(up["received"]) != 0 {
			t.Fatalf("start: %v", up)
		}
		const c = drive.ChunkBytes
		d.chunk(uid, 0, body[:c]).Expect(t, http.StatusOK)
		// The second chunk drops after 10,000 bytes: they are kept.
		d.chunk(uid, c, failAfter(body[c:2*c], 10_000)).ExpectError(t, http.StatusBadRequest, "send from there")
		st := d.ana.Do("GET", d.api("/_drive/uploads/"+uid), nil).Expect(t, http.StatusOK)
		got := int(jsonNum(st["received"]))
		if got != c+10_000 {
			t.Fatalf("received %d after the cut chunk, want %d", got, c+10_000)
		}
		// A chunk at the wrong offset: 409 with where to go on from.
		r := d.chunk(uid, 3*c, body[3*c:4*c])
		m := r.ExpectError(t, http.StatusConflict, fmt.Sprintf("send from byte %d", got))
		if int(jsonNum(m["offset"])) != got {
			t.Fatalf("409 without the offset: %v", m)
		}
		// Too small a chunk (not the last).
		d.chunk(uid, got, body[got:got+100]).ExpectError(t, http.StatusBadRequest, "at least 64 KB")
		// Not complete: no commit.
		d.ana.Do("POST", d.api("/_drive/uploads/"+uid+"/commit"), map[string]any{}).ExpectError(t, http.StatusConflict, "send the rest")
		// Resume from the server's offset, in chunks of 64 KB and the rest.
		for off := got; off < len(body); off += c {
			d.chunk(uid, off, body[off:min(off+c, len(body))]).Expect(t, http.StatusOK)
		}
		// Past the declared size.
		d.chunk(uid, len(body), []byte("more")).ExpectError(t, http.StatusRequestEntityTooLarge, "past the upload's declared size")
		done := d.ana.Do("POST", d.api("/_drive/uploads/"+uid+"/commit"), nil).Expect(t, http.StatusCreated)
		id := done["id"].(string)
		doc := d.doc(id)
		if doc["name"] != "video.mp4" || doc["dir_id"] != dir || doc["fullpath"] != "/uploads/video.mp4" || doc["content_type"] != "video/mp4" || jsonNum(doc["size"]) != int64(len(body)) {
			t.Fatalf("committed: %v", doc)
		}
		if !bytes.Equal(d.content(id, ""), body) {
			t.Fatal("the committed file differs from what was uploaded")
		}
		d.ana.Do("GET", d.api("/_drive/uploads/"+uid), nil).ExpectError(t, http.StatusNotFound, "does not exist")
		// The same name again is refused at the start, naming the file.
		d.ana.Do("POST", d.api("/_drive/uploads"), map[string]any{"dir_id": dir, "name": "video.mp4", "size": 1}).ExpectError(t, http.StatusConflict, id)
		// Taken between the start and the commit: 409, then committed under another name.
		up = d.ana.Do("POST", d.api("/_drive/uploads"), map[string]any{"dir_id": dir, "name": "late.txt", "size": 3}).Expect(t, http.StatusCreated)
		d.chunk(up["upload_id"].(string), 0, []byte("abc")).Expect(t, http.StatusOK)
		d.create("file", "late.txt", dir)
		commit := d.api("/_drive/uploads/" + up["upload_id"].(string) + "/commit")
		e.Unchanged(d.db, func() { d.ana.Do("POST", commit, nil).ExpectError(t, http.StatusConflict, `"late.txt" already exists`) })
		if late := d.ana.Do("POST", commit, map[string]any{"name": "late (2).txt"}).Expect(t, http.StatusCreated)["id"].(string); string(d.content(late, "")) != "abc" {
			t.Fatal("the renamed commit lost its contents")
		}

		// A new version of it, committed with its revision.
		v2 := payload(10, c+5)
		up = d.ana.Do("POST", d.api("/_drive/uploads"), map[string]any{"file_id": id, "size": len(v2), "content_type": "video/webm"}).Expect(t, http.StatusCreated)
		uid = up["upload_id"].(string)
		d.chunk(uid, 0, v2[:c]).Expect(t, http.StatusOK)
		d.chunk(uid, c, v2[c:]).Expect(t, http.StatusOK)
		rev := d.rev(id)
		d.edit(id, map[string]any{"starred": true}).Expect(t, http.StatusCreated) // someone changed it meanwhile
		e.Unchanged(d.db, func() {
			d.ana.Do("POST", d.api("/_drive/uploads/"+uid+"/commit"), map[string]any{"rev": rev}).ExpectError(t, http.StatusConflict, "")
			d.ana.Do("POST", d.api("/_drive/uploads/"+uid+"/commit"), map[string]any{}).ExpectFields(t, "rev", "can't be blank")
		})
		d.ana.Do("POST", d.api("/_drive/uploads/"+uid+"/commit"), map[string]any{"rev": d.rev(id)}).Expect(t, http.StatusCreated)
		if !bytes.Equal(d.content(id, ""), v2) || len(d.versionIDs(id)) != 2 || d.doc(id)["content_type"] != "video/webm" {
			t.Fatal("the new version is not the newest content")
		}
		d.sameSet(id)

		// Someone else's upload is not found, not even by a member.
		bia := e.SignUp("bia@example.com")
		e.Join(d.ana, bia, d.db, false)
		up = d.ana.Do("POST", d.api("/_drive/uploads"), map[string]any{"name": "mine.txt", "size": 3}).Expect(t, http.StatusCreated)
		bia.Do("GET", d.api("/_drive/uploads/"+up["upload_id"].(string)), nil).ExpectError(t, http.StatusNotFound, "")
		bia.Do("PUT", d.api("/_drive/uploads/"+up["upload_id"].(string)+"?offset=0"), []byte("abc")).ExpectError(t, http.StatusNotFound, "")
		d.ana.Do("DELETE", d.api("/_drive/uploads/"+up["upload_id"].(string)), nil).Expect(t, http.StatusOK)

		// Bad starts.
		d.ana.Do("POST", d.api("/_drive/uploads"), map[string]any{"size": 3}).ExpectError(t, http.StatusBadRequest, "file_id")
		d.ana.Do("POST", d.api("/_drive/uploads"), map[string]any{"name": "a/b", "size": 3}).ExpectFields(t, "name", drive.MsgNameSlash)
		d.ana.Do("POST", d.api("/_drive/uploads"), map[string]any{"name": "x", "size": -1}).ExpectFields(t, "size", "must be between 0 and 10000000000")
		d.ana.Do("POST", d.api("/_drive/uploads"), map[string]any{"name": "x"}).ExpectFields(t, "size", "can't be blank")
		d.ana.Do("POST", d.api("/_drive/uploads"), map[string]any{"file_id": dir, "size": 3}).ExpectError(t, http.StatusBadRequest, "is a folder")
	})
}

// TestAbandonedUploads: the hourly job removes uploads nobody touched for
// a day, staged bytes and record.
func TestAbandonedUploads(t *testing.T) {
	e := apptest.New(t, apptest.Bolt)
	d := newDrive(t, e)
	d.ana = e.WithToken(e.Token(d.ana, "read-write", d.db)) // a session would end with the day
	old := d.ana.Do("POST", d.api("/_drive/uploads"), map[string]any{"name": "old.bin", "size": 2 * drive.ChunkBytes}).Expect(t, http.StatusCreated)["upload_id"].(string)
	d.chunk(old, 0, payload(1, drive.ChunkBytes)).Expect(t, http.StatusOK)
	staged := filepath.Join(filepath.Dir(e.Outbox), "uploads", old)
	if _, err := os.Stat(staged); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(drive.UploadTTL - time.Hour)
	fresh := d.ana.Do("POST", d.api("/_drive/uploads"), map[string]any{"name": "fresh.bin", "size": 10}).Expect(t, http.StatusCreated)["upload_id"].(string)
	e.Clock.Advance(2 * time.Hour)
	if err := e.App.RunJob(context.Background(), drive.JobUploads, e.Clock.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(staged); !os.IsNotExist(err) {
		t.Fatalf("the abandoned upload is still staged: %v", err)
	}
	d.ana.Do("GET", d.api("/_drive/uploads/"+old), nil).ExpectError(t, http.StatusNotFound, "")
	d.ana.Do("GET", d.api("/_drive/uploads/"+fresh), nil).Expect(t, http.StatusOK)
}
