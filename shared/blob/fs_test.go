package blob_test

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/blob"
	"github.com/oficina/oficina/shared/blob/blobtest"
)

func openFS(t *testing.T) *blob.FS {
	t.Helper()
	s, err := blob.NewFS(filepath.Join(t.TempDir(), "blobs"))
	if err != nil {
		t.Fatalf("NewFS: %v", err)
	}
	return s
}

func TestFSConformance(t *testing.T) {
	blobtest.Run(t, func(t *testing.T) blob.Store { return openFS(t) })
}

// files lists every regular file under dir, relative to it.
func files(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestFSFailedPutLeavesNothing checks the disk itself, not only the API:
// a Put whose body fails leaves no version and no temp file behind.
func TestFSFailedPutLeavesNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "blobs")
	s, err := blob.NewFS(dir)
	if err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	body := blobtest.Body{Seed: 1, Size: 3 << 20}
	if _, err := s.Put(t.Context(), "k", &failAfter{r: body.Reader(), n: 2 << 20, err: boom}); !errors.Is(err, boom) {
		t.Fatalf("Put = %v, want %v", err, boom)
	}
	if got := files(t, dir); len(got) != 0 {
		t.Fatalf("a failed Put left files: %v", got)
	}
	v, err := s.Put(t.Context(), "k", strings.NewReader("ok"))
	if err != nil {
		t.Fatal(err)
	}
	if got := files(t, dir); len(got) != 1 || filepath.Base(got[0]) != v.ID {
		t.Fatalf("after one Put, files %v, want one named %s", got, v.ID)
	}
}

type failAfter struct {
	r   interface{ Read([]byte) (int, error) }
	n   int
	err error
}

func (f *failAfter) Read(p []byte) (int, error) {
	if f.n <= 0 {
		return 0, f.err
	}
	if len(p) > f.n {
		p = p[:f.n]
	}
	n, err := f.r.Read(p)
	f.n -= n
	return n, err
}

// TestFSCrashLeftovers plays what a crash leaves: a temp file mid-write
// and a file in a key's directory that is no version. Neither is ever
// served, and NewFS removes temp files once they are stale.
func TestFSCrashLeftovers(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "blobs")
	s, err := blob.NewFS(dir)
	if err != nil {
		t.Fatal(err)
	}
	v, err := s.Put(t.Context(), "k", strings.NewReader("whole"))
	if err != nil {
		t.Fatal(err)
	}
	var keyDir string
	for _, f := range files(t, dir) {
		if filepath.Base(f) == v.ID {
			keyDir = filepath.Join(dir, filepath.Dir(f))
		}
	}
	stray := filepath.Join(keyDir, "put-123456")
	fresh := filepath.Join(dir, ".tmp", "put-fresh")
	stale := filepath.Join(dir, ".tmp", "put-stale")
	for _, p := range []string{stray, fresh, stale} {
		if err := os.WriteFile(p, []byte("half"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-48 * time.Hour)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	vs, err := s.Versions(t.Context(), "k")
	if err != nil || len(vs) != 1 || vs[0].ID != v.ID {
		t.Fatalf("Versions = %v, %v; want only %s", vs, err, v.ID)
	}
	if _, _, err := s.Get(t.Context(), "k", "put-123456", nil); !errors.Is(err, blob.ErrNotFound) {
		t.Fatalf("Get(stray file) = %v, want ErrNotFound", err)
	}
	if _, err := blob.NewFS(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("stale temp file survived NewFS: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Fatalf("NewFS removed a fresh temp file (another upload's): %v", err)
	}
}

// TestFSVersionIDsOrdered checks that IDs sort in commit order and stay
// unique when many commits land in one clock tick.
func TestFSVersionIDsOrdered(t *testing.T) {
	s := openFS(t)
	var prev string
	for i := range 200 {
		v, err := s.Put(t.Context(), "tick", strings.NewReader("same"))
		if err != nil {
			t.Fatal(err)
		}
		if v.ID <= prev {
			t.Fatalf("put %d: ID %s not after %s", i, v.ID, prev)
		}
		prev = v.ID
	}
	vs, err := s.Versions(t.Context(), "tick")
	if err != nil || len(vs) != 200 || vs[0].ID != prev {
		t.Fatalf("Versions: %d versions, newest %v, err %v", len(vs), vs[0].ID, err)
	}
}

// TestFSConcurrentUse mixes Puts, Gets, DeleteVersions and Deletes of one
// key: every call either succeeds or finds nothing, and every read is a
// whole version, never a file being written or removed.
func TestFSConcurrentUse(t *testing.T) {
	s := openFS(t)
	ctx := t.Context()
	const rounds = 40
	bodies := []blobtest.Body{{Seed: 1, Size: 70_000}, {Seed: 2, Size: 130_000}}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	report := func(op string, err error) {
		if err != nil && !errors.Is(err, blob.ErrNotFound) {
			errs <- fmt.Errorf("%s: %w", op, err)
		}
	}
	for w := range 3 {
		wg.Go(func() {
			for range rounds {
				_, err := s.Put(ctx, "busy", bodies[w%2].Reader())
				report("Put", err)
			}
		})
	}
	wg.Go(func() {
		for range rounds {
			report("Delete", s.Delete(ctx, "busy"))
		}
	})
	wg.Go(func() {
		for range rounds {
			if vs, err := s.Versions(ctx, "busy"); err == nil {
				report("DeleteVersion", s.DeleteVersion(ctx, "busy", vs[len(vs)-1].ID))
			}
		}
	})
	wg.Go(func() {
		for range rounds * 2 {
			rc, v, err := s.Get(ctx, "busy", "", nil)
			report("Get", err)
			if err != nil {
				continue
			}
			n, err := io.Copy(io.Discard, rc)
			rc.Close()
			if err != nil || n != v.Size || (n != bodies[0].Size && n != bodies[1].Size) {
				errs <- fmt.Errorf("Get read %d bytes of %d (%v): not a whole version", n, v.Size, err)
			}
		}
	})
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
