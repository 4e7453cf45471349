package drive_test

import (
	"bytes"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
)

// TestVersions: every content is a version; beyond max_versions the oldest
// leave the document and the blob store in the same request; each kept
// version downloads as it was; restore makes a copy the newest; delete
// removes one; lowering max_versions trims. On both stores with the
// filesystem blob store, and on bbolt with S3 (the test gateway).
func TestVersions(t *testing.T) {
	apptest.Each(t, testVersions)
	t.Run("s3", func(t *testing.T) { testVersions(t, apptest.New(t, apptest.Bolt, apptest.S3Blobs(t))) })
}

func testVersions(t *testing.T, e *apptest.Env) {
	d := newDrive(t, e)
	id := d.create("file", "notes.txt", "")
	var contents [][]byte
	var vids []string
	for i := range 4 {
		c := payload(i, 70_000+i)
		contents = append(contents, c)
		r := d.put(id, c)
		v := r["version"].(map[string]any)
		if v["sha256"] != sha(c) || jsonNum(v["size"]) != int64(len(c)) || v["content_type"] != "text/plain" || r["rev"] != d.rev(id) {
			t.Fatalf("put %d answered %v", i, r)
		}
		vids = append(vids, v["id"].(string))
		if i < 3 {
			d.sameSet(id)
		}
	}
	// The fourth version pushed the first out of both.
	if got := d.versionIDs(id); !slices.Equal(got, []string{vids[3], vids[2], vids[1]}) {
		t.Fatalf("versions %v, want the three newest of %v", got, vids)
	}
	d.sameSet(id)
	doc := d.doc(id)
	if jsonNum(doc["size"]) != int64(len(contents[3])) || jsonNum(doc["bytes"]) != int64(len(contents[1])+len(contents[2])+len(contents[3])) || doc["stage"] != "done" {
		t.Fatalf("size and bytes: %v %v", doc["size"], doc["bytes"])
	}
	for i := 1; i < 4; i++ {
		if !bytes.Equal(d.content(id, vids[i]), contents[i]) {
			t.Fatalf("version %d does not download as uploaded", i)
		}
	}
	if !bytes.Equal(d.content(id, ""), contents[3]) {
		t.Fatal("the newest version is not the default download")
	}
	d.ana.Do("GET", d.api("/_drive/files/"+id+"/content?version="+vids[0]), nil).ExpectError(t, http.StatusNotFound, "no such version")

	// Restore the oldest kept: a copy becomes the newest, the oldest (the
	// restored one itself, now) is trimmed.
	r := d.ana.Do("POST", d.api("/_drive/files/"+id+"/versions/"+vids[1]+"/restore"), nil).Expect(t, http.StatusCreated)
	restored := r["version"].(map[string]any)
	if restored["restored_from"] != vids[1] || restored["sha256"] != sha(contents[1]) {
		t.Fatalf("restore answered %v", r)
	}
	if got := d.versionIDs(id); len(got) != 3 || got[0] != restored["id"] || got[1] != vids[3] || got[2] != vids[2] {
		t.Fatalf("after restore: %v", got)
	}
	d.sameSet(id)
	if !bytes.Equal(d.content(id, ""), contents[1]) {
		t.Fatal("the restored version is not the newest content")
	}
	// The versions route.
	lv := d.ana.Do("GET", d.api("/_drive/files/"+id+"/versions"), nil).Expect(t, http.StatusOK)
	if len(lv["versions"].([]any)) != 3 || jsonNum(lv["max_versions"]) != 3 {
		t.Fatalf("versions route: %v", lv)
	}
	// Delete one: gone from both.
	d.ana.Do("DELETE", d.api("/_drive/files/"+id+"/versions/"+vids[2]), nil).Expect(t, http.StatusOK)
	if got := d.versionIDs(id); slices.Contains(got, vids[2]) || len(got) != 2 {
		t.Fatalf("after delete: %v", got)
	}
	d.sameSet(id)
	// Lowering max_versions trims on a plain PUT of the document.
	d.edit(id, map[string]any{"max_versions": 1}).Expect(t, http.StatusCreated)
	if got := d.versionIDs(id); len(got) != 1 || got[0] != restored["id"] {
		t.Fatalf("after max_versions 1: %v", got)
	}
	d.sameSet(id)
	e.Unchanged(d.db, func() {
		d.ana.Do("DELETE", d.api("/_drive/files/"+id+"/versions/"+got0(d, id)), nil).ExpectError(t, http.StatusConflict, "has only this version")
		d.ana.Do("DELETE", d.api("/_drive/files/"+id+"/versions/nope"), nil).ExpectError(t, http.StatusNotFound, "no such version")
		d.ana.Do("POST", d.api("/_drive/files/"+id+"/versions/nope/restore"), nil).ExpectError(t, http.StatusNotFound, "no such version")
		// A stale revision.
		d.ana.Do("PUT", d.api("/_drive/files/"+id+"/content?rev=1-00000000000000000000000000000000"), []byte("x")).ExpectError(t, http.StatusConflict, "")
	})
	if v := d.blobVersions(id); len(v) != 1 {
		t.Fatalf("a refused request left blob versions: %v", v)
	}
	// With the right revision (If-Match works too).
	d.put(id, []byte("with rev"), "If-Match", `"`+d.rev(id)+`"`)
	// Deleting the file deletes its contents.
	d.ana.Do("DELETE", "/api/"+d.db+"/"+id+"?rev="+d.rev(id), nil).Expect(t, http.StatusOK)
	if v := d.blobVersions(id); v != nil {
		t.Fatalf("a deleted file kept blob versions %v", v)
	}
}

func got0(d *drv, id string) string { return d.versionIDs(id)[0] }

// TestDownload: headers, ranges, conditional requests, HEAD, an empty file.
func TestDownload(t *testing.T) {
	e := apptest.New(t, apptest.Bolt)
	d := newDrive(t, e)
	body := payload(7, 100_000)
	id := d.create("file", `relatório "final"; v2.pdf`, "")
	d.ana.Do("GET", d.api("/_drive/files/"+id+"/content"), nil).Expect(t, http.StatusOK) // no content yet: empty
	d.put(id, body, "Content-Type", "application/pdf")
	get := func(headers ...string) apptest.Response {
		return d.ana.Do("GET", d.api("/_drive/files/"+id+"/content"), nil, headers...)
	}
	r := get()
	h := r.Header
	if r.Code != http.StatusOK || !bytes.Equal(r.Body, body) || h.Get("Content-Type") != "application/pdf" || h.Get("Content-Length") != fmt.Sprint(len(body)) ||
		h.Get("ETag") != `"`+sha(body)+`"` || h.Get("Accept-Ranges") != "bytes" || h.Get("Last-Modified") == "" || h.Get("X-Content-Type-Options") != "nosniff" {
		t.Fatalf("download: %d %v", r.Code, h)
	}
	if cd := h.Get("Content-Disposition"); !strings.HasPrefix(cd, `attachment; filename="relat_rio _final_; v2.pdf"; filename*=UTF-8''relat%C3%B3rio%20%22final%22%3B%20v2.pdf`) {
		t.Fatalf("Content-Disposition %q", cd)
	}
	if !strings.Contains(h.Get("Content-Security-Policy"), "sandbox") {
		t.Fatalf("no sandbox: %v", h)
	}
	if r := get("If-None-Match", h.Get("ETag")); r.Code != http.StatusNotModified || len(r.Body) != 0 {
		t.Fatalf("If-None-Match: %d", r.Code)
	}
	for _, c := range []struct {
		rng        string
		start, end int
	}{{"bytes=0-99", 0, 99}, {"bytes=99990-", 99990, 99999}, {"bytes=-10", 99990, 99999}, {"bytes=500-1000000", 500, 99999}} {
		r := get("Range", c.rng)
		if r.Code != http.StatusPartialContent || !bytes.Equal(r.Body, body[c.start:c.end+1]) ||
			r.Header.Get("Content-Range") != fmt.Sprintf("bytes %d-%d/%d", c.start, c.end, len(body)) {
			t.Fatalf("%s: %d %v (%d bytes)", c.rng, r.Code, r.Header, len(r.Body))
		}
	}
	if r := get("Range", "bytes=100000-"); r.Code != http.StatusRequestedRangeNotSatisfiable || r.Header.Get("Content-Range") != "bytes */100000" {
		t.Fatalf("past the end: %d %v", r.Code, r.Header)
	}
	if r := get("Range", "bytes=0-1,5-6"); r.Code != http.StatusOK || len(r.Body) != len(body) {
		t.Fatalf("several ranges get the whole file: %d", r.Code)
	}
	if r := get("Range", "bytes=0-9", "If-Range", `"stale"`); r.Code != http.StatusOK {
		t.Fatalf("If-Range with another ETag: %d", r.Code)
	}
	if r := d.ana.Do("HEAD", d.api("/_drive/files/"+id+"/content"), nil); r.Code != http.StatusOK || len(r.Body) != 0 || r.Header.Get("Content-Length") != fmt.Sprint(len(body)) {
		t.Fatalf("HEAD: %d %v", r.Code, r.Header)
	}
	// inline only for types that cannot run script.
	if cd := d.ana.Do("GET", d.api("/_drive/files/"+id+"/content?inline=true"), nil).Header.Get("Content-Disposition"); !strings.HasPrefix(cd, "inline;") {
		t.Fatalf("pdf inline: %q", cd)
	}
	html := d.create("file", "page.html", "")
	d.put(html, []byte("<script>alert(1)</script>"), "Content-Type", "text/html")
	if cd := d.ana.Do("GET", d.api("/_drive/files/"+html+"/content?inline=true"), nil).Header.Get("Content-Disposition"); !strings.HasPrefix(cd, "attachment;") {
		t.Fatalf("html inline: %q", cd)
	}
	// The name's type when the upload says nothing.
	png := d.create("file", "photo.PNG", "")
	d.put(png, []byte("\x89PNG"), "Content-Type", "application/octet-stream")
	if ct := d.doc(png)["content_type"]; ct != "image/png" {
		t.Fatalf("content type from the name: %v", ct)
	}
	// A folder has no content.
	dir := d.mkdir("folder", "")
	d.ana.Do("GET", d.api("/_drive/files/"+dir+"/content"), nil).ExpectError(t, http.StatusBadRequest, "is a folder")
	d.ana.Do("PUT", d.api("/_drive/files/"+dir+"/content"), []byte("x")).ExpectError(t, http.StatusBadRequest, "is a folder")
}

// TestFailingBody: an upload whose body fails half way (a dropped
// connection) or that is cancelled leaves no version, in the document or
// in the blob store.
func TestFailingBody(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		d := newDrive(t, e)
		id := d.create("file", "big.bin", "")
		d.put(id, payload(1, 1000))
		before := d.blobVersions(id)
		big := payload(2, 600_000)
		e.Unchanged(d.db, func() {
			d.ana.Do("PUT", d.api("/_drive/files/"+id+"/content"), failAfter(big, 300_000), "Content-Type", "application/octet-stream").
				ExpectError(t, http.StatusBadRequest, "nothing was saved")
		})
		if got := d.blobVersions(id); !slices.Equal(got, before) {
			t.Fatalf("blob versions %v, want %v", got, before)
		}
		d.sameSet(id)
	})
}
