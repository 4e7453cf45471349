package drive_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/blob"
	"github.com/oficina/oficina/shared/drive"
)

func TestMain(m *testing.M) { os.Exit(apptest.Main(m)) }

// drv is a Group with a drive: Ana's, and Zed's next door.
type drv struct {
	t        testing.TB
	e        *apptest.Env
	ana, zed *apptest.Client
	db, zdb  string
}

func newDrive(t testing.TB, e *apptest.Env) *drv {
	d := &drv{t: t, e: e}
	d.ana, d.zed = e.SignUp("ana@example.com"), e.SignUp("zed@example.com")
	d.db, d.zdb = e.Group(d.ana, "Oficina da Ana"), e.Group(d.zed, "Zed")
	return d
}

func (d *drv) api(path string) string { return "/api/" + d.db + path }

// create posts an entry and returns its id.
func (d *drv) create(kind, name, dir string, extra ...any) string {
	d.t.Helper()
	body := map[string]any{"klass": "CloudFile", "kind": kind, "name": name, "dir_id": dir}
	for i := 0; i+1 < len(extra); i += 2 {
		body[extra[i].(string)] = extra[i+1]
	}
	return d.ana.Do("POST", "/api/"+d.db, body).Expect(d.t, http.StatusCreated)["id"].(string)
}

func (d *drv) mkdir(name, dir string) string { return d.create(drive.KindDir, name, dir) }

// file creates a file with content and returns its id.
func (d *drv) file(name, dir string, content []byte) string {
	d.t.Helper()
	id := d.create(drive.KindFile, name, dir)
	d.put(id, content)
	return id
}

// put uploads a new version and returns the answer.
func (d *drv) put(id string, content []byte, headers ...string) map[string]any {
	d.t.Helper()
	h := append([]string{"Content-Type", "text/plain"}, headers...)
	return d.ana.Do("PUT", d.api("/_drive/files/"+id+"/content"), content, h...).Expect(d.t, http.StatusCreated)
}

func (d *drv) doc(id string) map[string]any {
	d.t.Helper()
	return d.e.Doc(d.db, id)
}

func (d *drv) rev(id string) string { return d.doc(id)["_rev"].(string) }

// content downloads a file's newest (or given) version.
func (d *drv) content(id, version string) []byte {
	d.t.Helper()
	q := ""
	if version != "" {
		q = "?version=" + version
	}
	r := d.ana.Do("GET", d.api("/_drive/files/"+id+"/content"+q), nil)
	if r.Code == http.StatusFound { // S3: a presigned GET
		return fetch(d.t, r.Header.Get("Location"))
	}
	if r.Code != http.StatusOK {
		d.t.Fatalf("download %s: %d %s", id, r.Code, r.Body)
	}
	return r.Body
}

// fetch GETs a presigned URL's bytes.
func fetch(t testing.TB, u string) []byte {
	t.Helper()
	res, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v %s", u, res.StatusCode, err, b)
	}
	return b
}

// versionIDs lists a file's version ids as its document has them.
func (d *drv) versionIDs(id string) []string {
	d.t.Helper()
	var out []string
	list, _ := d.doc(id)["versions"].([]any)
	for _, v := range list {
		out = append(out, v.(map[string]any)["id"].(string))
	}
	return out
}

// blobVersions lists the blob store's versions of a file (nil for none).
func (d *drv) blobVersions(id string) []string {
	d.t.Helper()
	vs, err := blob.Live(context.Background(), d.e.Blobs, drive.BlobKey(d.db, id))
	if errors.Is(err, blob.ErrNotFound) {
		return nil
	}
	if err != nil {
		d.t.Fatal(err)
	}
	var out []string
	for _, v := range vs {
		out = append(out, v.ID)
	}
	slices.Sort(out)
	return out
}

// sameSet fails unless the document's versions are exactly the blob store's.
func (d *drv) sameSet(id string) {
	d.t.Helper()
	listed := slices.Clone(d.versionIDs(id))
	slices.Sort(listed)
	if got := d.blobVersions(id); !slices.Equal(listed, got) {
		d.t.Fatalf("%s: the document lists %v, the blob store holds %v", id, listed, got)
	}
}

func (d *drv) usage() map[string]any {
	d.t.Helper()
	return d.ana.Do("GET", d.api("/_drive/usage"), nil).Expect(d.t, http.StatusOK)
}

// payload is n bytes that differ with seed.
func payload(seed, n int) []byte {
	b := make([]byte, n)
	x := uint32(seed)*2654435761 + 1
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = byte(x)
	}
	return b
}

func sha(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

// failingReader yields n bytes of b, then fails like a dropped connection.
type failingReader struct {
	r io.Reader
}

func failAfter(b []byte, n int) io.Reader {
	return &failingReader{r: bytes.NewReader(b[:n])}
}

func (f *failingReader) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err == io.EOF {
		return n, io.ErrUnexpectedEOF
	}
	return n, err
}

func jsonNum(v any) int64 {
	if f, ok := v.(float64); ok {
		return int64(f)
	}
	var n int64
	fmt.Sscan(fmt.Sprint(v), &n)
	return n
}
