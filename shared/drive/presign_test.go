package drive_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/drive"
)

// putPart PUTs one part to a presigned URL, as a browser does, and returns
// the ETag S3 answered.
func putPart(t testing.TB, u string, b []byte) string {
	t.Helper()
	req, err := http.NewRequest(http.MethodPut, u, bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK || res.Header.Get("ETag") == "" {
		t.Fatalf("PUT part: %d %s", res.StatusCode, body)
	}
	return res.Header.Get("ETag")
}

type part struct {
	Number int32  `json:"number"`
	ETag   string `json:"etag"`
}

// sendParts asks for the upload's part URLs and PUTs body's parts to S3.
func (d *drv) sendParts(uid string, body []byte, partSize int) []part {
	d.t.Helper()
	n := (len(body) + partSize - 1) / partSize
	numbers := make([]int, n)
	for i := range numbers {
		numbers[i] = i + 1
	}
	ans := d.ana.Do("POST", d.api("/_drive/uploads/"+uid+"/parts"), map[string]any{"parts": numbers}).Expect(d.t, http.StatusOK)
	urls := ans["parts"].([]any)
	if len(urls) != n {
		d.t.Fatalf("%d part URLs, want %d", len(urls), n)
	}
	var out []part
	for _, x := range urls {
		p := x.(map[string]any)
		num := int(jsonNum(p["number"]))
		chunk := body[(num-1)*partSize : min(num*partSize, len(body))]
		out = append(out, part{Number: int32(num), ETag: putPart(d.t, p["url"].(string), chunk)})
	}
	return out
}

// TestPresignedTransfers: on S3 the browser's bytes go straight to the
// bucket. A new file in two presigned parts (one PUT again after a "drop",
// as a resumed upload does) is committed with its parts' ETags, hashed and
// counted like any other version; a download is a 302 to a presigned GET
// naming the file; a new version checks the revision; bad part lists, a
// size that is not the declared one and a chunk PUT to the server are
// refused and leave nothing. Both stores, against the real S3 server.
func TestPresignedTransfers(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		d := newDrive(t, e)
		dir := d.mkdir("Obras", "")
		body := payload(21, int(drive.PartBytes)+70_000)
		up := d.ana.Do("POST", d.api("/_drive/uploads"), map[string]any{"dir_id": dir, "name": "planta baixa.pdf", "size": len(body)}).Expect(t, http.StatusCreated)
		uid := up["upload_id"].(string)
		if up["mode"] != drive.ModePresigned || jsonNum(up["part_size"]) != drive.PartBytes || jsonNum(up["parts"]) != 2 {
			t.Fatalf("start: %v", up)
		}
		// Chunks to the server are refused: the parts go to S3.
		d.chunk(uid, 0, body[:drive.ChunkBytes]).ExpectError(t, http.StatusBadRequest, "straight to the file storage")
		// Bad part numbers.
		for _, bad := range []any{[]int{}, []int{0}, []int{3}, []int{-1}} {
			d.ana.Do("POST", d.api("/_drive/uploads/"+uid+"/parts"), map[string]any{"parts": bad}).ExpectFields(t, "parts", "must be part numbers from 1 to 2, at most 100 at a time")
		}
		parts := d.sendParts(uid, body, int(drive.PartBytes))
		// The first part again (its first PUT "dropped"): the same number replaces it.
		again := d.ana.Do("POST", d.api("/_drive/uploads/"+uid+"/parts"), map[string]any{"parts": []int{1}}).Expect(t, http.StatusOK)
		parts[0].ETag = putPart(t, again["parts"].([]any)[0].(map[string]any)["url"].(string), body[:drive.PartBytes])
		// A commit with a part missing, twice, or without an ETag changes nothing.
		commit := d.api("/_drive/uploads/" + uid + "/commit")
		e.Unchanged(d.db, func() {
			d.ana.Do("POST", commit, map[string]any{"parts": parts[:1]}).ExpectFields(t, "parts", fmt.Sprintf(drive.MsgPartsList, 2))
			d.ana.Do("POST", commit, map[string]any{"parts": []part{parts[0], parts[0]}}).ExpectFields(t, "parts", fmt.Sprintf(drive.MsgPartsList, 2))
			d.ana.Do("POST", commit, map[string]any{"parts": []part{parts[0], {Number: 2}}}).ExpectFields(t, "parts", fmt.Sprintf(drive.MsgPartsList, 2))
		})
		done := d.ana.Do("POST", commit, map[string]any{"parts": parts}).Expect(t, http.StatusCreated)
		id := done["id"].(string)
		sum := sha256.Sum256(body)
		doc := d.doc(id)
		vs := doc["versions"].([]any)
		if doc["fullpath"] != "/Obras/planta baixa.pdf" || jsonNum(doc["size"]) != int64(len(body)) || len(vs) != 1 ||
			vs[0].(map[string]any)["sha256"] != hex.EncodeToString(sum[:]) || doc["content_type"] != "application/pdf" {
			t.Fatalf("committed: %v", doc)
		}
		d.sameSet(id)
		d.ana.Do("GET", d.api("/_drive/uploads/"+uid), nil).ExpectError(t, http.StatusNotFound, "does not exist")

		// The download is a presigned GET with the name in Content-Disposition.
		r := d.ana.Do("GET", d.api("/_drive/files/"+id+"/content"), nil)
		if r.Code != http.StatusFound || r.Header.Get("Cache-Control") != "no-store" {
			t.Fatalf("download: %d %v", r.Code, r.Header)
		}
		res, err := http.Get(r.Header.Get("Location"))
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(res.Body)
		res.Body.Close()
		cd := res.Header.Get("Content-Disposition")
		if res.StatusCode != http.StatusOK || !bytes.Equal(got, body) || !strings.HasPrefix(cd, "attachment") ||
			!strings.Contains(cd, "filename*=UTF-8''planta%20baixa.pdf") {
			t.Fatalf("presigned GET: %d, %d bytes, Content-Disposition %q", res.StatusCode, len(got), cd)
		}
		// Inline views stay on the server (its sandboxing headers).
		if r := d.ana.Do("GET", d.api("/_drive/files/"+id+"/content?inline=true"), nil); r.Code != http.StatusOK || !bytes.Equal(r.Body, body) {
			t.Fatalf("inline: %d", r.Code)
		}

		// A new version checks the revision before joining the parts.
		v2 := payload(22, 1000)
		up = d.ana.Do("POST", d.api("/_drive/uploads"), map[string]any{"file_id": id, "size": len(v2)}).Expect(t, http.StatusCreated)
		uid = up["upload_id"].(string)
		parts = d.sendParts(uid, v2, int(drive.PartBytes))
		commit = d.api("/_drive/uploads/" + uid + "/commit")
		stale := d.rev(id)
		d.edit(id, map[string]any{"starred": true}).Expect(t, http.StatusCreated)
		e.Unchanged(d.db, func() {
			d.ana.Do("POST", commit, map[string]any{"rev": stale, "parts": parts}).ExpectError(t, http.StatusConflict, "")
		})
		d.ana.Do("POST", commit, map[string]any{"rev": d.rev(id), "parts": parts}).Expect(t, http.StatusCreated)
		if !bytes.Equal(d.content(id, ""), v2) || len(d.versionIDs(id)) != 2 {
			t.Fatal("the new version is not the newest content")
		}
		d.sameSet(id)

		// Parts that make another size than the one declared: refused, no version left.
		before := d.blobVersions(id)
		up = d.ana.Do("POST", d.api("/_drive/uploads"), map[string]any{"file_id": id, "size": 500}).Expect(t, http.StatusCreated)
		uid = up["upload_id"].(string)
		parts = d.sendParts(uid, payload(23, 400), int(drive.PartBytes))
		e.Unchanged(d.db, func() {
			d.ana.Do("POST", d.api("/_drive/uploads/"+uid+"/commit"), map[string]any{"rev": d.rev(id), "parts": parts}).
				ExpectError(t, http.StatusBadRequest, "The parts make 400 bytes, but the upload declared 500")
		})
		if after := d.blobVersions(id); fmt.Sprint(after) != fmt.Sprint(before) {
			t.Fatalf("a refused commit left a version: %v → %v", before, after)
		}

		// An empty file needs no parts.
		up = d.ana.Do("POST", d.api("/_drive/uploads"), map[string]any{"name": "vazio.txt", "size": 0}).Expect(t, http.StatusCreated)
		empty := d.ana.Do("POST", d.api("/_drive/uploads/"+up["upload_id"].(string)+"/commit"), map[string]any{}).Expect(t, http.StatusCreated)["id"].(string)
		if len(d.content(empty, "")) != 0 || jsonNum(d.doc(empty)["size"]) != 0 {
			t.Fatal("the empty file is not empty")
		}

		// Too big for the Group: refused at the start, nothing written.
		e.Unchanged(d.db, func() {
			d.ana.Do("POST", d.api("/_drive/uploads"), map[string]any{"name": "huge.bin", "size": 2_000_000_000}).ExpectError(t, http.StatusRequestEntityTooLarge, "full")
		})
		// Cancelled: S3's upload is aborted, the record gone.
		up = d.ana.Do("POST", d.api("/_drive/uploads"), map[string]any{"name": "later.bin", "size": 10}).Expect(t, http.StatusCreated)
		uid = up["upload_id"].(string)
		d.ana.Do("DELETE", d.api("/_drive/uploads/"+uid), nil).Expect(t, http.StatusOK)
		d.ana.Do("POST", d.api("/_drive/uploads/"+uid+"/parts"), map[string]any{"parts": []int{1}}).ExpectError(t, http.StatusNotFound, "does not exist")
		// Someone else's upload is not found.
		up = d.ana.Do("POST", d.api("/_drive/uploads"), map[string]any{"name": "mine.bin", "size": 10}).Expect(t, http.StatusCreated)
		d.zed.Do("POST", "/api/"+d.zdb+"/_drive/uploads/"+up["upload_id"].(string)+"/parts", map[string]any{"parts": []int{1}}).ExpectError(t, http.StatusNotFound, "")
		d.zed.Do("POST", d.api("/_drive/uploads/"+up["upload_id"].(string)+"/parts"), map[string]any{"parts": []int{1}}).Expect(t, http.StatusForbidden)
	}, apptest.S3Blobs(t))
}

// TestServerTransfersOnDisk: the filesystem store presigns nothing, so
// uploads go through the server in chunks and downloads are served here.
func TestServerTransfersOnDisk(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		d := newDrive(t, e)
		up := d.ana.Do("POST", d.api("/_drive/uploads"), map[string]any{"name": "a.txt", "size": 3}).Expect(t, http.StatusCreated)
		if up["mode"] != drive.ModeServer || jsonNum(up["chunk_size"]) != drive.ChunkBytes {
			t.Fatalf("start: %v", up)
		}
		uid := up["upload_id"].(string)
		d.ana.Do("POST", d.api("/_drive/uploads/"+uid+"/parts"), map[string]any{"parts": []int{1}}).ExpectError(t, http.StatusBadRequest, "goes through the server")
		d.chunk(uid, 0, []byte("abc")).Expect(t, http.StatusOK)
		id := d.ana.Do("POST", d.api("/_drive/uploads/"+uid+"/commit"), nil).Expect(t, http.StatusCreated)["id"].(string)
		r := d.ana.Do("GET", d.api("/_drive/files/"+id+"/content"), nil)
		if r.Code != http.StatusOK || string(r.Body) != "abc" {
			t.Fatalf("download: %d %s", r.Code, r.Body)
		}
	})
}
