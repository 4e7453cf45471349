package dav_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/unicode/norm"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/blob"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/dav"
	"github.com/oficina/oficina/shared/drive"
)

// TestFiles: the basic round trip on both stores: PUT, GET with
// Content-Type and ETag, MKCOL, PROPFIND Depth 1, MOVE, COPY, DELETE to the
// trash, a chunked PUT, and what the API then sees.
func TestFiles(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		d := newEnv(t, e)
		put := d.expect(d.do("PUT", "notes.txt", strings.NewReader("hello"), "Content-Type", "text/plain"), http.StatusCreated)
		sum := sha256.Sum256([]byte("hello"))
		if want := `"` + hex.EncodeToString(sum[:16]) + `"`; put.header.Get("ETag") != want {
			t.Errorf("PUT ETag %q, want %q", put.header.Get("ETag"), want)
		}
		get := d.expect(d.do("GET", "notes.txt", nil), http.StatusOK)
		if get.body != "hello" || get.header.Get("Content-Type") != "text/plain" || get.header.Get("ETag") != put.header.Get("ETag") {
			t.Errorf("GET: %q %v", get.body, get.header)
		}
		if get.header.Get("Content-Security-Policy") == "" || get.header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET serves a file without the sandbox: %v", get.header)
		}
		rng := d.expect(d.do("GET", "notes.txt", nil, "Range", "bytes=1-3"), http.StatusPartialContent)
		if rng.body != "ell" {
			t.Errorf("range: %q", rng.body)
		}
		d.expect(d.do("MKCOL", "Docs", nil), http.StatusCreated)
		d.expect(d.do("MKCOL", "Docs", nil), http.StatusMethodNotAllowed)
		d.expect(d.do("MKCOL", "Missing/Sub", nil), http.StatusConflict)
		d.expect(d.do("PUT", "Missing/x.txt", strings.NewReader("x")), http.StatusConflict)

		// A chunked body streams in.
		big := bytes.Repeat([]byte("0123456789abcdef"), 40_000) // 640 kB
		d.expect(d.do("PUT", "Docs/big.bin", chunked{bytes.NewReader(big)}), http.StatusCreated)
		if got := d.expect(d.do("GET", "Docs/big.bin", nil), http.StatusOK); got.body != string(big) || got.header.Get("Content-Type") != "application/octet-stream" {
			t.Errorf("chunked PUT came back as %d bytes, %q", len(got.body), got.header.Get("Content-Type"))
		}

		pf := d.expect(d.do("PROPFIND", "", nil, "Depth", "1"), http.StatusMultiStatus)
		got := hrefs(t, pf.body)
		want := []string{"/dav/" + d.db + "/", "/dav/" + d.db + "/Docs/", "/dav/" + d.db + "/notes.txt"}
		if !slices.Equal(got, want) {
			t.Errorf("PROPFIND hrefs %v, want %v", got, want)
		}
		if !strings.Contains(pf.body, "<D:getcontenttype>text/plain</D:getcontenttype>") || !strings.Contains(pf.body, put.header.Get("ETag")) {
			t.Errorf("PROPFIND lacks the file's content type or ETag:\n%s", pf.body)
		}

		// Named live properties: found ones 200, hidden or folder-less ones 404.
		named := `<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><D:getetag/><D:creationdate/><D:resourcetype/></D:prop></D:propfind>`
		pf = d.expect(d.do("PROPFIND", "", strings.NewReader(named), "Depth", "1"), http.StatusMultiStatus)
		if !strings.Contains(pf.body, "<D:getetag>"+put.header.Get("ETag")+"</D:getetag>") || strings.Count(pf.body, "404 Not Found") != 3 ||
			!strings.Contains(pf.body, `<D:collection xmlns:D="DAV:"/>`) {
			t.Errorf("named properties:\n%s", pf.body)
		}
		// propname is x/net/webdav's.
		pn := d.expect(d.do("PROPFIND", "notes.txt", strings.NewReader(`<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:propname/></D:propfind>`), "Depth", "0"), http.StatusMultiStatus)
		if !strings.Contains(pn.body, "getetag") {
			t.Errorf("propname:\n%s", pn.body)
		}

		// Depth: infinity is refused with RFC 4918's precondition.
		inf := d.expect(d.do("PROPFIND", "", nil, "Depth", "infinity"), http.StatusForbidden)
		if !strings.Contains(inf.body, "propfind-finite-depth") {
			t.Errorf("Depth infinity: %s", inf.body)
		}

		d.expect(d.do("MOVE", "notes.txt", nil, "Destination", d.url("Docs/renamed.txt")), http.StatusCreated)
		d.expect(d.do("GET", "notes.txt", nil), http.StatusNotFound)
		d.expect(d.do("COPY", "Docs/renamed.txt", nil, "Destination", d.url("copy.txt")), http.StatusCreated)
		if got := d.expect(d.do("GET", "copy.txt", nil), http.StatusOK); got.body != "hello" {
			t.Errorf("copy: %q", got.body)
		}
		// Moving a folder into itself is refused and changes nothing.
		d.expect(d.do("MKCOL", "Docs/Inner", nil), http.StatusCreated)
		if a := d.do("MOVE", "Docs", nil, "Destination", d.url("Docs/Inner/Docs")); a.code < 400 {
			t.Errorf("MOVE into itself: %d", a.code)
		}
		d.expect(d.do("DELETE", "copy.txt", nil), http.StatusNoContent)
		d.expect(d.do("GET", "copy.txt", nil), http.StatusNotFound)
		e.Drain()
		if names := d.rootNames(); !slices.Equal(names, []string{"Docs"}) {
			t.Errorf("the API's root: %v", names)
		}
		trash := d.ana.Do("GET", "/api/"+d.db+"/_drive/trash", nil).Expect(t, http.StatusOK)["entries"].([]any)
		if len(trash) != 1 || trash[0].(map[string]any)["name"] != "copy.txt" {
			t.Errorf("DELETE goes to the trash: %v", trash)
		}

		// macOS metadata is accepted and ignored.
		d.expect(d.do("PUT", "._notes.txt", strings.NewReader("apple double")), http.StatusCreated)
		d.expect(d.do("PUT", "Docs/.DS_Store", strings.NewReader("finder")), http.StatusCreated)
		d.expect(d.do("GET", "._notes.txt", nil), http.StatusNotFound)
		d.expect(d.do("PROPFIND", "Docs/.DS_Store", nil, "Depth", "0"), http.StatusNotFound)
		d.expect(d.do("DELETE", "._notes.txt", nil), http.StatusNotFound)
		if names := d.rootNames(); !slices.Equal(names, []string{"Docs"}) {
			t.Errorf("junk reached the drive: %v", names)
		}

		// Dead properties are kept on the entry.
		patch := `<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:x-test:"><D:set><D:prop><Z:colour>blue</Z:colour></D:prop></D:set></D:propertyupdate>`
		d.expect(d.do("PROPPATCH", "Docs/renamed.txt", strings.NewReader(patch)), http.StatusMultiStatus)
		q := `<?xml version="1.0"?><D:propfind xmlns:D="DAV:" xmlns:Z="urn:x-test:"><D:prop><Z:colour/></D:prop></D:propfind>`
		if a := d.expect(d.do("PROPFIND", "Docs/renamed.txt", strings.NewReader(q), "Depth", "0"), http.StatusMultiStatus); !strings.Contains(a.body, ">blue<") {
			t.Errorf("dead property: %s", a.body)
		}
	})
}

// TestAuth: Basic auth with the user's e-mail and an API token, nothing else.
func TestAuth(t *testing.T) {
	e := apptest.New(t, apptest.Bolt)
	d := newEnv(t, e)
	ro := e.Token(d.ana, "read", d.db)
	for _, c := range []struct{ user, pass string }{
		{"", ""}, {"ana@example.com", ""}, {"ana@example.com", "oft_wrong"}, {"zed@example.com", d.token}, {"ana@example.com", apptest.Password},
	} {
		a := d.as(c.user, c.pass, "PROPFIND", "", nil, "Depth", "0")
		if a.code != http.StatusUnauthorized || !strings.HasPrefix(a.header.Get("WWW-Authenticate"), "Basic") {
			t.Errorf("%q/%q: %d %v", c.user, c.pass, a.code, a.header)
		}
	}
	d.expect(d.as("ANA@example.com", d.token, "PROPFIND", "", nil, "Depth", "0"), http.StatusMultiStatus)
	// The top level lists the token's Group.
	top := d.expect(d.do("PROPFIND", d.srv.URL+"/dav/", nil, "Depth", "1"), http.StatusMultiStatus)
	if got := hrefs(t, top.body); !slices.Equal(got, []string{"/dav/", "/dav/" + d.db + "/"}) {
		t.Errorf("top level: %v", got)
	}
	d.expect(d.do("MKCOL", d.srv.URL+"/dav/New", nil), http.StatusForbidden)
	// Windows asks the host's root for WebDAV first, and PROPFINDs the mount without its slash.
	if a := d.as("", "", "OPTIONS", d.srv.URL+"/", nil); a.code != http.StatusOK || a.header.Get("DAV") != "1, 2" {
		t.Errorf("OPTIONS /: %d %v", a.code, a.header)
	}
	if got := hrefs(t, d.expect(d.do("PROPFIND", d.srv.URL+"/dav", nil, "Depth", "1"), http.StatusMultiStatus).body); len(got) != 2 {
		t.Errorf("PROPFIND /dav: %v", got)
	}
	// A read token reads and writes nothing.
	d.expect(d.do("PUT", "a.txt", strings.NewReader("a")), http.StatusCreated)
	d.expect(d.as("ana@example.com", ro, "GET", "a.txt", nil), http.StatusOK)
	seq := e.UpdateSeq(d.db)
	for _, m := range []string{"PUT", "DELETE", "MKCOL", "PROPPATCH", "LOCK", "MOVE"} {
		a := d.as("ana@example.com", ro, m, "a.txt", strings.NewReader(""), "Destination", d.url("b.txt"))
		if a.code != http.StatusForbidden {
			t.Errorf("read token %s: %d %s", m, a.code, a.body)
		}
	}
	if after := e.UpdateSeq(d.db); after != seq {
		t.Errorf("a read token wrote: seq %d → %d", seq, after)
	}
}

// TestHostileNames: what a name cannot be is refused over WebDAV as in the
// API, and changes nothing; a name is one name in any Unicode form.
func TestHostileNames(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		d := newEnv(t, e)
		nfd := norm.NFD.String("café.txt")
		d.expect(d.do("PUT", url.PathEscape(nfd), strings.NewReader("decomposed")), http.StatusCreated)
		// The NFC spelling reaches the same file, and a second PUT in NFC is a new version of it.
		if a := d.expect(d.do("GET", url.PathEscape("café.txt"), nil), http.StatusOK); a.body != "decomposed" {
			t.Errorf("NFC read: %q", a.body)
		}
		d.expect(d.do("PUT", url.PathEscape("café.txt"), strings.NewReader("composed")), http.StatusCreated)
		e.Drain()
		if names := d.rootNames(); !slices.Equal(names, []string{"café.txt"}) || !norm.NFC.IsNormalString(names[0]) {
			t.Errorf("names %q", names)
		}

		seq := e.UpdateSeq(d.db)
		for _, c := range []struct {
			path string
			code int
		}{
			{"a%2Fb.txt", http.StatusBadRequest},
			{"a%2fb.txt", http.StatusBadRequest},
			{"../x.txt", http.StatusBadRequest},
			{"Docs/../../x.txt", http.StatusBadRequest},
			{"./x.txt", http.StatusBadRequest},
			{"a//b.txt", http.StatusBadRequest},
			{strings.Repeat("n", 256) + ".txt", http.StatusBadRequest},
			{strings.Repeat("é", 128) + ".txt", http.StatusBadRequest}, // 261 bytes
			{"tab%09name.txt", http.StatusBadRequest},
			{"nul%00.txt", http.StatusBadRequest},
			{"line%0Abreak.txt", http.StatusBadRequest},
			{"del%7F.txt", http.StatusBadRequest},
			{url.PathEscape("gpj\u202e.exe"), http.StatusBadRequest},
			{"%20%20", http.StatusBadRequest},
		} {
			target := d.srv.URL + "/dav/" + d.db + "/" + c.path
			for _, m := range []string{"PUT", "MKCOL"} {
				req, err := http.NewRequest(m, target, strings.NewReader("x"))
				if err != nil { // the client refuses it: so much the better
					continue
				}
				req.SetBasicAuth("ana@example.com", d.token)
				if m == "MKCOL" {
					req.Body, req.ContentLength = nil, 0
				}
				res, err := d.client.Do(req)
				if err != nil {
					continue
				}
				res.Body.Close()
				if res.StatusCode != c.code {
					t.Errorf("%s %s: %d, want %d", m, c.path, res.StatusCode, c.code)
				}
			}
			a := d.do("MOVE", "café.txt", nil, "Destination", target)
			if a.code < 400 {
				t.Errorf("MOVE to %s: %d", c.path, a.code)
			}
		}
		if after := e.UpdateSeq(d.db); after != seq {
			t.Errorf("hostile names wrote: seq %d → %d", seq, after)
		}
		// A long name that fits (255 bytes) is fine.
		long := strings.Repeat("n", 251) + ".txt"
		d.expect(d.do("PUT", long, strings.NewReader("long")), http.StatusCreated)
		e.Drain()
		if names := d.rootNames(); len(names) != 2 {
			t.Errorf("names %q", names)
		}
	})
}

func smallDrive(c *config.Config) { c.DriveFreeLimit = 100_000 }

// TestQuota: a PUT that does not fit the Group's drive answers 507 and
// leaves nothing, declared length or chunked; one that fits is kept.
func TestQuota(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		d := newEnv(t, e)
		d.expect(d.do("PUT", "fits.bin", bytes.NewReader(make([]byte, 60_000))), http.StatusCreated)
		e.Drain()
		// RFC 4331's quota properties, as the quota bar has them.
		q := `<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><D:quota-available-bytes/><D:quota-used-bytes/></D:prop></D:propfind>`
		qa := d.expect(d.do("PROPFIND", "", strings.NewReader(q), "Depth", "0"), http.StatusMultiStatus)
		if !strings.Contains(qa.body, "<D:quota-used-bytes>60000</D:quota-used-bytes>") || !strings.Contains(qa.body, "<D:quota-available-bytes>40000</D:quota-available-bytes>") {
			t.Errorf("quota properties: %s", qa.body)
		}
		blobsBefore := countBlobs(t, d)
		seq := e.UpdateSeq(d.db)
		a := d.do("PUT", "declared.bin", bytes.NewReader(make([]byte, 50_000)))
		if a.code != http.StatusInsufficientStorage || !strings.Contains(a.body, "full") {
			t.Errorf("declared: %d %s", a.code, a.body)
		}
		a = d.do("PUT", "chunked.bin", chunked{bytes.NewReader(make([]byte, 50_000))})
		if a.code != http.StatusInsufficientStorage {
			t.Errorf("chunked: %d %s", a.code, a.body)
		}
		// A new version of the existing file that does not fit: the old one stays.
		a = d.do("PUT", "fits.bin", chunked{bytes.NewReader(make([]byte, 50_000))})
		if a.code != http.StatusInsufficientStorage {
			t.Errorf("new version: %d %s", a.code, a.body)
		}
		if after := e.UpdateSeq(d.db); after != seq {
			t.Errorf("refused writes wrote documents: seq %d → %d", seq, after)
		}
		if n := countBlobs(t, d); n != blobsBefore {
			t.Errorf("refused writes left blob versions: %d → %d", blobsBefore, n)
		}
		if names := d.rootNames(); !slices.Equal(names, []string{"fits.bin"}) {
			t.Errorf("names %v", names)
		}
	}, smallDrive)
}

// countBlobs counts the blob versions of every file of the Group.
func countBlobs(t testing.TB, d *env) int {
	t.Helper()
	r := d.ana.Do("GET", "/api/"+d.db+"/_drive/dirs/root", nil).Expect(t, http.StatusOK)
	n := 0
	for _, x := range r["entries"].([]any) {
		id := x.(map[string]any)["_id"].(string)
		vs, err := blob.Live(t.Context(), d.e.Blobs, drive.BlobKey(d.db, id))
		if err == nil {
			n += len(vs)
		}
	}
	return n
}

// TestVersions: four PUTs of one path keep the newest three versions
// (max_versions' default), and the oldest leaves the blob store; on both
// stores and both blob stores.
func TestVersions(t *testing.T) {
	run := func(t *testing.T, e *apptest.Env) {
		d := newEnv(t, e)
		var etags []string
		for i := 1; i <= 4; i++ {
			a := d.expect(d.do("PUT", "report.txt", strings.NewReader(fmt.Sprintf("version %d", i))), http.StatusCreated)
			etags = append(etags, a.header.Get("ETag"))
		}
		if got := d.expect(d.do("GET", "report.txt", nil), http.StatusOK); got.body != "version 4" || got.header.Get("ETag") != etags[3] {
			t.Errorf("newest: %q %q", got.body, got.header.Get("ETag"))
		}
		e.Drain()
		r := d.ana.Do("GET", "/api/"+d.db+"/_drive/dirs/root", nil).Expect(t, http.StatusOK)
		id := r["entries"].([]any)[0].(map[string]any)["_id"].(string)
		vs := d.ana.Do("GET", "/api/"+d.db+"/_drive/files/"+id+"/versions", nil).Expect(t, http.StatusOK)["versions"].([]any)
		if len(vs) != 3 {
			t.Fatalf("%d versions, want 3", len(vs))
		}
		for i, v := range vs {
			if want := strings.Trim(etags[3-i], `"`); !strings.HasPrefix(v.(map[string]any)["sha256"].(string), want) {
				t.Errorf("version %d is %v, want %s", i, v, want)
			}
		}
		blobs, err := blob.Live(t.Context(), e.Blobs, drive.BlobKey(d.db, id))
		if err != nil || len(blobs) != 3 {
			t.Errorf("blob store keeps %d versions (%v), want 3", len(blobs), err)
		}
	}
	apptest.Each(t, run, bigDrive)
	t.Run("s3", func(t *testing.T) { run(t, apptest.New(t, apptest.Bolt, bigDrive, apptest.S3Blobs(t))) })
}

// TestLocksAcrossInstances: a lock taken through one server holds on
// another that shares the store, as two Lambda instances would.
func TestLocksAcrossInstances(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		d := newEnv(t, e)
		other := dav.New(dav.Options{Store: e.Store, Tokens: e.App.Auth, Drive: driveOf(t, e)})
		srv2 := httptestServer(t, other)
		at2 := func(p string) string { return srv2 + "/dav/" + d.db + "/" + p }

		d.expect(d.do("PUT", "shared.txt", strings.NewReader("v1")), http.StatusCreated)
		lock := `<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>ana</D:owner></D:lockinfo>`
		a := d.expect(d.do("LOCK", "shared.txt", strings.NewReader(lock), "Timeout", "Second-600", "Depth", "0"), http.StatusOK)
		token := strings.Trim(a.header.Get("Lock-Token"), "<>")
		if !strings.HasPrefix(token, "opaquelocktoken:") {
			t.Fatalf("Lock-Token %q", a.header.Get("Lock-Token"))
		}
		// The second instance refuses writes without the token, and a second lock.
		d.expect(d.do("PUT", at2("shared.txt"), strings.NewReader("v2")), http.StatusLocked)
		d.expect(d.do("DELETE", at2("shared.txt"), nil), http.StatusLocked)
		d.expect(d.do("LOCK", at2("shared.txt"), strings.NewReader(lock), "Depth", "0"), http.StatusLocked)
		// With the token it writes.
		d.expect(d.do("PUT", at2("shared.txt"), strings.NewReader("v2"), "If", "(<"+token+">)"), http.StatusCreated)
		// A refresh on one, the unlock on the other.
		d.expect(d.do("LOCK", at2("shared.txt"), nil, "If", "(<"+token+">)", "Timeout", "Second-60"), http.StatusOK)
		d.expect(d.do("UNLOCK", at2("shared.txt"), nil, "Lock-Token", "<"+token+">"), http.StatusNoContent)
		d.expect(d.do("PUT", "shared.txt", strings.NewReader("v3")), http.StatusCreated)
		// An infinite-depth lock on a folder covers what is inside.
		d.expect(d.do("MKCOL", "Dir", nil), http.StatusCreated)
		a = d.expect(d.do("LOCK", "Dir", strings.NewReader(lock), "Depth", "infinity"), http.StatusOK)
		d.expect(d.do("PUT", at2("Dir/inside.txt"), strings.NewReader("x")), http.StatusLocked)
		dirToken := strings.Trim(a.header.Get("Lock-Token"), "<>")
		d.expect(d.do("PUT", at2("Dir/inside.txt"), strings.NewReader("x"), "If", "(<"+dirToken+">)"), http.StatusCreated)
		// The lock table lives in the store: a third instance sees it too.
		third := httptestServer(t, dav.New(dav.Options{Store: e.Store, Tokens: e.App.Auth, Drive: driveOf(t, e)}))
		d.expect(d.do("UNLOCK", third+"/dav/"+d.db+"/Dir", nil, "Lock-Token", "<"+dirToken+">"), http.StatusNoContent)
		d.expect(d.do("PUT", at2("Dir/inside.txt"), strings.NewReader("y")), http.StatusCreated)
		_ = time.Second
	})
}

// TestChunkedPutStreams: a 128 MB chunked PUT grows the heap by far less
// than its size (BenchmarkUploadMemory does 1 GB): the body streams from
// the connection to the blob store.
func TestChunkedPutStreams(t *testing.T) {
	const size = 128 << 20
	e := apptest.New(t, apptest.Bolt, bigDrive)
	d := newEnv(t, e)
	growth := heapGrowth(func() {
		req, _ := http.NewRequest("PUT", d.url("stream.bin"), chunked{newPayload(size)})
		req.SetBasicAuth("ana@example.com", d.token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusCreated {
			t.Fatalf("PUT: %d", res.StatusCode)
		}
	})
	if growth > MaxHeapGrowth/2 {
		t.Errorf("the heap grew by %d MB during a %d MB upload", growth>>20, size>>20)
	}
	a := d.expect(d.do("PROPFIND", "stream.bin", nil, "Depth", "0"), http.StatusMultiStatus)
	if !strings.Contains(a.body, fmt.Sprintf("<D:getcontentlength>%d</D:getcontentlength>", size)) {
		t.Errorf("size: %s", a.body)
	}
}

// TestListingBound: a folder over the listing bound is refused with its
// reason, not answered in part.
func TestListingBound(t *testing.T) {
	e := apptest.New(t, apptest.Bolt)
	d := newEnv(t, e)
	h := dav.New(dav.Options{Store: e.Store, Tokens: e.App.Auth, Drive: driveOf(t, e), MaxListing: 3})
	srv := httptestServer(t, h)
	for i := range 4 {
		d.expect(d.do("PUT", fmt.Sprintf("f%d.txt", i), strings.NewReader("x")), http.StatusCreated)
	}
	a := d.do("PROPFIND", srv+"/dav/"+d.db+"/", nil, "Depth", "1")
	if a.code != http.StatusForbidden || !strings.Contains(a.body, "more than 3 entries") {
		t.Errorf("%d %s", a.code, a.body)
	}
	d.expect(d.do("PROPFIND", srv+"/dav/"+d.db+"/", nil, "Depth", "0"), http.StatusMultiStatus)
}
