package drive_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/blob"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/drive"
	"github.com/oficina/oficina/shared/store"
)

// smallFree makes a free Group's drive 200 kB.
func smallFree(c *config.Config) { c.DriveFreeLimit = 200_000 }

// TestQuota: the plan's limit, checked before an upload is accepted (the
// declared size of a PUT or of a chunked upload) and while it streams; a
// refusal writes nothing; the usage route; trashed bytes count until the
// trash is emptied.
func TestQuota(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		d := newDrive(t, e)
		u := d.usage()
		if jsonNum(u["limit"]) != 200_000 || u["plan"] != "free" || jsonNum(u["bytes"]) != 0 {
			t.Fatalf("usage of an empty free drive: %v", u)
		}
		a := d.file("a.bin", "", payload(1, 150_000))
		e.Drain()
		u = d.usage()
		if jsonNum(u["bytes"]) != 150_000 || jsonNum(u["files"]) != 1 {
			t.Fatalf("usage: %v", u)
		}
		b := d.create("file", "b.bin", "")
		before := d.blobVersions(b)
		full := "The drive of this Group is full: 150.0 kB of its 200.0 kB are used and this upload needs 60.0 kB"
		e.Unchanged(d.db, func() {
			// Declared by Content-Length.
			d.ana.Do("PUT", d.api("/_drive/files/"+b+"/content"), payload(2, 60_000)).ExpectError(t, http.StatusRequestEntityTooLarge, full)
			// Not declared: cut while it streams.
			r := d.ana.Do("PUT", d.api("/_drive/files/"+b+"/content"), io.MultiReader(bytes.NewReader(payload(2, 60_000))))
			r.ExpectError(t, http.StatusRequestEntityTooLarge, "The drive of this Group is full")
			if !strings.Contains(string(r.Body), "empty the trash") || !strings.Contains(string(r.Body), "pro and corp: 1.0 GB") {
				t.Fatalf("the refusal does not say the way out: %s", r.Body)
			}
			// A chunked upload's declared size, and a restore.
			d.ana.Do("POST", d.api("/_drive/uploads"), map[string]any{"name": "c.bin", "size": 60_000}).ExpectError(t, http.StatusRequestEntityTooLarge, full)
			d.ana.Do("POST", d.api("/_drive/files/"+a+"/versions/"+d.versionIDs(a)[0]+"/restore"), nil).ExpectError(t, http.StatusRequestEntityTooLarge, "is full")
		})
		if got := d.blobVersions(b); !slices.Equal(got, before) {
			t.Fatalf("a refused upload left blob versions %v", got)
		}
		d.put(b, payload(3, 40_000)) // what fits is taken
		e.Drain()
		// Trashed bytes still count; emptying the trash frees them.
		d.ana.Do("POST", d.api("/_drive/files/"+a+"/trash"), nil).Expect(t, http.StatusOK)
		e.Drain()
		u = d.usage()
		if jsonNum(u["bytes"]) != 190_000 || jsonNum(u["trash_bytes"]) != 150_000 || jsonNum(u["files"]) != 1 || jsonNum(u["trash_entries"]) != 1 {
			t.Fatalf("usage with a file in the trash: %v", u)
		}
		d.ana.Do("PUT", d.api("/_drive/files/"+b+"/content"), payload(4, 20_000)).ExpectError(t, http.StatusRequestEntityTooLarge, "is full")
		d.ana.Do("DELETE", d.api("/_drive/trash"), nil).Expect(t, http.StatusOK)
		e.Drain()
		if u = d.usage(); jsonNum(u["bytes"]) != 40_000 || jsonNum(u["trash_bytes"]) != 0 {
			t.Fatalf("usage after emptying the trash: %v", u)
		}
		d.put(b, payload(4, 20_000))
		// A paid plan: SPEC §9's 1 GB.
		e.SetPlan(d.db, "pro")
		if u = d.usage(); jsonNum(u["limit"]) != 1_000_000_000 || u["plan"] != "pro" {
			t.Fatalf("pro: %v", u)
		}
		e.SetPlan(d.db, "locked")
		d.ana.Do("PUT", d.api("/_drive/files/"+b+"/content"), []byte("x")).ExpectError(t, http.StatusRequestEntityTooLarge, "locked")
	}, smallFree)
}

// TestCountsUnderReplay: random uploads, versions, renames, trashing,
// restoring and emptying; the drive's tally equals a recount from the
// documents, and a shuffled replay of every change moves nothing.
func TestCountsUnderReplay(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		d := newDrive(t, e)
		r := rand.New(rand.NewPCG(5, 6))
		dirs := []string{""}
		var files []string
		n := 150
		if testing.Short() {
			n = 60
		}
		for i := range n {
			switch op := r.IntN(10); {
			case op < 2 || len(files) == 0:
				// The folder may be in the trash: then nothing is created.
				body := map[string]any{"klass": "CloudFile", "kind": "file", "name": fmt.Sprintf("f%d", i), "dir_id": dirs[r.IntN(len(dirs))], "max_versions": 1 + r.IntN(3)}
				if res := d.ana.Do("POST", "/api/"+d.db, body); res.Code == http.StatusCreated {
					files = append(files, res.JSON(t)["id"].(string))
				}
			case op < 3:
				body := map[string]any{"klass": "CloudFile", "kind": "dir", "name": fmt.Sprintf("d%d", i), "dir_id": dirs[r.IntN(len(dirs))]}
				if res := d.ana.Do("POST", "/api/"+d.db, body); res.Code == http.StatusCreated {
					dirs = append(dirs, res.JSON(t)["id"].(string))
				}
			case op < 6:
				d.ana.Do("PUT", d.api("/_drive/files/"+files[r.IntN(len(files))]+"/content"), payload(i, 1+r.IntN(5000))) // may be in the trash
			case op < 7:
				id := files[r.IntN(len(files))]
				if doc := d.doc(id); doc != nil {
					d.edit(id, map[string]any{"max_versions": 1 + r.IntN(3), "name": fmt.Sprintf("r%d", i)})
				}
			case op < 8:
				all := append(slices.Clone(files), dirs[1:]...)
				d.ana.Do("POST", d.api("/_drive/files/"+all[r.IntN(len(all))]+"/trash"), nil)
			case op < 9:
				all := append(slices.Clone(files), dirs[1:]...)
				d.ana.Do("POST", d.api("/_drive/files/"+all[r.IntN(len(all))]+"/restore"), nil)
			default:
				if r.IntN(3) == 0 {
					d.ana.Do("DELETE", d.api("/_drive/trash"), nil).Expect(t, http.StatusOK)
				}
			}
			if i%25 == 0 {
				e.Drain()
			}
		}
		before := e.CheckCounts(d.db)
		e.Replay(11)
		after := e.CheckCounts(d.db)
		if fmt.Sprint(before) != fmt.Sprint(after) {
			t.Fatalf("a replay moved the counts:\n%v\n%v", before, after)
		}
		// The tally is what the blob store holds.
		var total, blobBytes int64
		page, err := e.Store.List(context.Background(), d.db, store.ListQuery{Klass: drive.Klass})
		if err != nil {
			t.Fatal(err)
		}
		for _, doc := range page.Docs {
			body, _ := docs.Decode(doc.Body)
			total += jsonNum(body["bytes"])
			if vs, err := blob.Live(context.Background(), e.Blobs, drive.BlobKey(d.db, doc.ID)); err == nil {
				for _, v := range vs {
					blobBytes += v.Size
				}
			}
			d.sameSet(doc.ID)
		}
		if got := after.Tally(drive.TallyDrive)["bytes"]; got != total || got != blobBytes {
			t.Fatalf("tally %d bytes, documents %d, blob store %d", got, total, blobBytes)
		}
	})
}
