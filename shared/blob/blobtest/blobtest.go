// Package blobtest is the conformance suite every blob.Store implementation
// must pass, so that the drive behaves the same on disk and on S3, and the
// S3-protocol server the S3 tests run against (see StartS3).
//
// The suite streams generated bodies (Body) and checks them by hash, so a
// store that held a whole body in memory shows up as allocation, not as a
// slow test.
package blobtest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/blob"
)

// bigSize is the streamed body: past S3's 5 MiB part floor and several
// times a multipart part, so the memory check tells streaming from holding.
const bigSize = 48<<20 + 12345

// Run runs the conformance suite. Each subtest calls open for a fresh,
// empty store (open registers its own cleanups). The scenarios of
// presigned URLs run when the store is a blob.Presigner.
func Run(t *testing.T, open func(t *testing.T) blob.Store) {
	t.Helper()
	tests := []struct {
		name    string
		presign bool // needs a blob.Presigner
		fn      func(t *testing.T, s blob.Store)
	}{
		{"RoundTripStreamed", false, testRoundTripStreamed},
		{"Empty", false, testEmpty},
		{"VersionsNewestFirst", false, testVersionsNewestFirst},
		{"GetByVersion", false, testGetByVersion},
		{"Ranges", false, testRanges},
		{"DeleteVersion", false, testDeleteVersion},
		{"Delete", false, testDelete},
		{"NotFound", false, testNotFound},
		{"HostileKeys", false, testHostileKeys},
		{"UnusualKeys", false, testUnusualKeys},
		{"ConcurrentPuts", false, testConcurrentPuts},
		{"FailedPut", false, testFailedPut},
		{"CancelledPut", false, testCancelledPut},
		{"PresignGet", true, testPresignGet},
		{"PresignMultipart", true, testPresignMultipart},
		{"AbortUpload", true, testAbortUpload},
	}
	_, presigns := open(t).(blob.Presigner)
	for _, tc := range tests {
		if tc.presign && !presigns {
			t.Logf("%s: not applicable, the store has no blob.Presigner", tc.name)
			continue
		}
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, open(t)) })
	}
}

// ---- helpers ----

func put(t *testing.T, s blob.Store, key string, b Body) blob.Version {
	t.Helper()
	v, err := s.Put(t.Context(), key, b.Reader())
	if err != nil {
		t.Fatalf("Put(%q, %d bytes): %v", key, b.Size, err)
	}
	if v.ID == "" || v.Size != b.Size || v.ETag == "" || v.Modified.IsZero() {
		t.Fatalf("Put(%q, %d bytes) = %+v: want an ID, the size, an ETag and a time", key, b.Size, v)
	}
	if d := time.Since(v.Modified); d < -time.Minute || d > time.Minute {
		t.Fatalf("Put(%q): Modified %v is %v from now", key, v.Modified, d)
	}
	return v
}

func versions(t *testing.T, s blob.Store, key string) []blob.Version {
	t.Helper()
	vs, err := s.Versions(t.Context(), key)
	if err != nil {
		t.Fatalf("Versions(%q): %v", key, err)
	}
	return vs
}

// wantVersions checks Versions(key) against want, newest first.
func wantVersions(t *testing.T, s blob.Store, key string, want ...blob.Version) {
	t.Helper()
	got := versions(t, s, key)
	if len(got) != len(want) {
		t.Fatalf("Versions(%q): %d versions, want %d:\n got  %s\n want %s", key, len(got), len(want), fmtVersions(got), fmtVersions(want))
	}
	for i := range want {
		if !sameVersion(got[i], want[i]) {
			t.Fatalf("Versions(%q)[%d]:\n got  %s\n want %s", key, i, fmtVersions(got), fmtVersions(want))
		}
	}
}

// sameVersion compares versions; their times may differ by a little: the
// test gateway's POSIX backend restores the previous version when the
// newest is deleted by moving its file back, and then reports the move's
// time (S3 and FS keep a version's time).
func sameVersion(a, b blob.Version) bool {
	d := a.Modified.Sub(b.Modified).Abs()
	return a.ID == b.ID && a.Size == b.Size && a.ETag == b.ETag && d <= modifiedSlack
}

const modifiedSlack = 3 * time.Second

func fmtVersions(vs []blob.Version) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = fmt.Sprintf("{%s %dB %s %s}", v.ID, v.Size, v.ETag, v.Modified.Format(time.RFC3339Nano))
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// wantContent reads key's version (all of it, or rng) and checks it against
// bytes [off, off+n) of b by hash, and the Version against want.
func wantContent(t *testing.T, s blob.Store, key, versionID string, rng *blob.Range, want blob.Version, b Body, off, n int64) {
	t.Helper()
	rc, v, err := s.Get(t.Context(), key, versionID, rng)
	if err != nil {
		t.Fatalf("Get(%q, %q, %+v): %v", key, versionID, rng, err)
	}
	defer rc.Close()
	h := sha256.New()
	got, err := io.Copy(h, rc)
	if err != nil {
		t.Fatalf("Get(%q, %q, %+v): read: %v", key, versionID, rng, err)
	}
	if got != n || !bytes.Equal(h.Sum(nil), hashOf(b.SHA256(off, n))) {
		t.Fatalf("Get(%q, %q, %+v): %d bytes, want %d (bytes %d.. of seed %d); same hash: %v",
			key, versionID, rng, got, n, off, b.Seed, bytes.Equal(h.Sum(nil), hashOf(b.SHA256(off, n))))
	}
	if !sameVersion(v, want) {
		t.Fatalf("Get(%q, %q, %+v) version:\n got  %s\n want %s", key, versionID, rng, fmtVersions([]blob.Version{v}), fmtVersions([]blob.Version{want}))
	}
}

func hashOf(sum [32]byte) []byte { return sum[:] }

func wantErr(t *testing.T, what string, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("%s: err = %v, want %v", what, err, want)
	}
}

// allocated returns the bytes the process allocated while fn ran; a store
// that buffers a whole body allocates at least its size.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// failingReader yields n bytes of a body, then err.
func failingReader(b Body, n int64, err error) io.Reader {
	return io.MultiReader(b.Section(0, n), errReader{err})
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// untouchable fails the test if a store reads a body it should refuse.
type untouchable struct{ t *testing.T }

func (u untouchable) Read([]byte) (int, error) {
	u.t.Error("a refused Put read its body")
	return 0, io.EOF
}

// ---- scenarios ----

func testRoundTripStreamed(t *testing.T, s blob.Store) {
	b := Body{Seed: 1, Size: bigSize}
	var v blob.Version
	n := allocated(func() { v = put(t, s, "big/file.bin", b) })
	t.Logf("Put of %d bytes allocated %d bytes", b.Size, n)
	if n > bigSize/2 {
		t.Errorf("Put of %d bytes allocated %d bytes: the body must stream, not be held", b.Size, n)
	}
	wantVersions(t, s, "big/file.bin", v)
	n = allocated(func() { wantContent(t, s, "big/file.bin", "", nil, v, b, 0, b.Size) })
	t.Logf("Get of %d bytes allocated %d bytes", b.Size, n)
	if n > bigSize/2 {
		t.Errorf("Get of %d bytes allocated %d bytes: the body must stream, not be held", b.Size, n)
	}
	wantContent(t, s, "big/file.bin", v.ID, nil, v, b, 0, b.Size)
}

func testEmpty(t *testing.T, s blob.Store) {
	b := Body{Seed: 2}
	v := put(t, s, "empty", b)
	wantVersions(t, s, "empty", v)
	wantContent(t, s, "empty", "", nil, v, b, 0, 0)
	// No byte of an empty version exists, so no range is satisfiable.
	_, _, err := s.Get(t.Context(), "empty", "", &blob.Range{Offset: 0, Length: 1})
	wantErr(t, "Get(empty, range 0+1)", err, blob.ErrInvalidRange)
}

func testVersionsNewestFirst(t *testing.T, s blob.Store) {
	var vs []blob.Version
	for i := range 4 {
		vs = append(vs, put(t, s, "doc.txt", Body{Seed: 10 + uint64(i), Size: 1000 + int64(i)}))
	}
	slices.Reverse(vs)
	wantVersions(t, s, "doc.txt", vs...)
	seen := map[string]bool{}
	for i, v := range vs {
		if seen[v.ID] || seen["etag:"+v.ETag] {
			t.Fatalf("version %d repeats an ID or ETag: %s", i, fmtVersions(vs))
		}
		seen[v.ID], seen["etag:"+v.ETag] = true, true
		if i > 0 && v.Modified.After(vs[i-1].Modified) {
			t.Fatalf("version %d is newer than version %d: %s", i, i-1, fmtVersions(vs))
		}
	}
	wantContent(t, s, "doc.txt", "", nil, vs[0], Body{Seed: 13, Size: 1003}, 0, 1003)
}

func testGetByVersion(t *testing.T, s blob.Store) {
	bodies := []Body{{Seed: 20, Size: 70_000}, {Seed: 21, Size: 10}, {Seed: 22, Size: 300_000}}
	var vs []blob.Version
	for _, b := range bodies {
		vs = append(vs, put(t, s, "by/version", b))
	}
	for i, b := range bodies {
		wantContent(t, s, "by/version", vs[i].ID, nil, vs[i], b, 0, b.Size)
	}
	wantContent(t, s, "by/version", "", nil, vs[2], bodies[2], 0, bodies[2].Size)
}

func testRanges(t *testing.T, s blob.Store) {
	old := Body{Seed: 30, Size: 5000}
	cur := Body{Seed: 31, Size: 300_000}
	vOld := put(t, s, "ranged", old)
	vCur := put(t, s, "ranged", cur)
	size := cur.Size
	ok := []struct {
		name      string
		rng       blob.Range
		off, want int64
	}{
		{"first byte", blob.Range{Offset: 0, Length: 1}, 0, 1},
		{"all as a range", blob.Range{Offset: 0}, 0, size},
		{"middle", blob.Range{Offset: 65_530, Length: 70_000}, 65_530, 70_000},
		{"to the end", blob.Range{Offset: 1000}, 1000, size - 1000},
		{"last byte", blob.Range{Offset: size - 1, Length: 1}, size - 1, 1},
		{"past the end is cut", blob.Range{Offset: size - 10, Length: 100}, size - 10, 10},
	}
	for _, tc := range ok {
		t.Run(tc.name, func(t *testing.T) {
			rng := tc.rng
			wantContent(t, s, "ranged", "", &rng, vCur, cur, tc.off, tc.want)
			wantContent(t, s, "ranged", vCur.ID, &rng, vCur, cur, tc.off, tc.want)
		})
	}
	t.Run("older version", func(t *testing.T) {
		wantContent(t, s, "ranged", vOld.ID, &blob.Range{Offset: 4000, Length: 2000}, vOld, old, 4000, 1000)
	})
	bad := []blob.Range{
		{Offset: size, Length: 1},
		{Offset: size + 1000},
		{Offset: -1, Length: 10},
		{Offset: 0, Length: -1},
	}
	for _, rng := range bad {
		_, _, err := s.Get(t.Context(), "ranged", "", &rng)
		wantErr(t, fmt.Sprintf("Get(range %+v of %d bytes)", rng, size), err, blob.ErrInvalidRange)
	}
	_, _, err := s.Get(t.Context(), "ranged", vOld.ID, &blob.Range{Offset: old.Size})
	wantErr(t, "Get(older version, range at its end)", err, blob.ErrInvalidRange)
}

func testDeleteVersion(t *testing.T, s blob.Store) {
	bodies := []Body{{Seed: 40, Size: 100}, {Seed: 41, Size: 200}, {Seed: 42, Size: 300}}
	var v []blob.Version
	for _, b := range bodies {
		v = append(v, put(t, s, "trim", b))
	}
	ctx := t.Context()

	// Deleting the newest makes the next newest current.
	if err := s.DeleteVersion(ctx, "trim", v[2].ID); err != nil {
		t.Fatalf("DeleteVersion(newest): %v", err)
	}
	wantVersions(t, s, "trim", v[1], v[0])
	wantContent(t, s, "trim", "", nil, v[1], bodies[1], 0, bodies[1].Size)
	_, _, err := s.Get(ctx, "trim", v[2].ID, nil)
	wantErr(t, "Get(deleted version)", err, blob.ErrNotFound)
	wantErr(t, "DeleteVersion(deleted version)", s.DeleteVersion(ctx, "trim", v[2].ID), blob.ErrNotFound)

	// Deleting the oldest (the last-N rule) leaves the current alone.
	if err := s.DeleteVersion(ctx, "trim", v[0].ID); err != nil {
		t.Fatalf("DeleteVersion(oldest): %v", err)
	}
	wantVersions(t, s, "trim", v[1])

	// Deleting the last version deletes the key.
	if err := s.DeleteVersion(ctx, "trim", v[1].ID); err != nil {
		t.Fatalf("DeleteVersion(last): %v", err)
	}
	_, err = s.Versions(ctx, "trim")
	wantErr(t, "Versions(after the last version)", err, blob.ErrNotFound)
	_, _, err = s.Get(ctx, "trim", "", nil)
	wantErr(t, "Get(after the last version)", err, blob.ErrNotFound)

	// And the key takes new versions again.
	nv := put(t, s, "trim", bodies[0])
	wantVersions(t, s, "trim", nv)
}

func testDelete(t *testing.T, s blob.Store) {
	ctx := t.Context()
	// Keys that share a prefix with the deleted one must survive it.
	// (None is a "directory" of another: the test gateway maps keys to
	// POSIX paths and cannot hold both "a" and "a/b"; S3 and FS can.)
	others := []string{"del/ab", "del/a-", "del/a.v2", "del/b"}
	kept := map[string]blob.Version{}
	for i, k := range others {
		kept[k] = put(t, s, k, Body{Seed: 50 + uint64(i), Size: 64})
	}
	var gone []blob.Version
	for i := range 3 {
		gone = append(gone, put(t, s, "del/a", Body{Seed: 60 + uint64(i), Size: 1000}))
	}
	if err := s.Delete(ctx, "del/a"); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	_, err := s.Versions(ctx, "del/a")
	wantErr(t, "Versions(deleted key)", err, blob.ErrNotFound)
	_, _, err = s.Get(ctx, "del/a", "", nil)
	wantErr(t, "Get(deleted key)", err, blob.ErrNotFound)
	for _, v := range gone {
		_, _, err = s.Get(ctx, "del/a", v.ID, nil)
		wantErr(t, "Get(deleted key, old version)", err, blob.ErrNotFound)
	}
	wantErr(t, "Delete(deleted key)", s.Delete(ctx, "del/a"), blob.ErrNotFound)
	for i, k := range others {
		wantVersions(t, s, k, kept[k])
		wantContent(t, s, k, "", nil, kept[k], Body{Seed: 50 + uint64(i), Size: 64}, 0, 64)
	}
}

func testNotFound(t *testing.T, s blob.Store) {
	ctx := t.Context()
	_, _, err := s.Get(ctx, "missing", "", nil)
	wantErr(t, "Get(missing key)", err, blob.ErrNotFound)
	_, err = s.Versions(ctx, "missing")
	wantErr(t, "Versions(missing key)", err, blob.ErrNotFound)
	wantErr(t, "Delete(missing key)", s.Delete(ctx, "missing"), blob.ErrNotFound)

	v := put(t, s, "present", Body{Seed: 70, Size: 10})
	_, _, err = s.Get(ctx, "missing", v.ID, nil)
	wantErr(t, "Get(missing key, another key's version)", err, blob.ErrNotFound)
	wantErr(t, "DeleteVersion(missing key, another key's version)", s.DeleteVersion(ctx, "missing", v.ID), blob.ErrNotFound)

	// Version IDs come from callers (URLs, WebDAV): hostile ones are
	// simply versions that do not exist.
	ids := []string{
		"nope",
		"../../../../etc/passwd",
		"..",
		strings.Repeat("0", 2000),
		"20260101T000000.000000000Z-00000000000000000000000000000000",
		"3/HL7qWqlhvYHfSsNlxZbiZmqQAJo9r8", // S3-shaped
		"a\x00b",
	}
	for _, id := range ids {
		_, _, err = s.Get(ctx, "present", id, nil)
		wantErr(t, fmt.Sprintf("Get(version %.40q)", id), err, blob.ErrNotFound)
		wantErr(t, fmt.Sprintf("DeleteVersion(version %.40q)", id), s.DeleteVersion(ctx, "present", id), blob.ErrNotFound)
	}
	wantVersions(t, s, "present", v)
}

// hostileKeys are refused by every method of every store.
var hostileKeys = []string{
	"",
	"/etc/passwd",
	"..",
	"../x",
	"a/../../b",
	"a/..",
	".",
	"./a",
	"a/./b",
	"a//b",
	"a/",
	"a\x00b",
	"a\nb",
	"a\rb",
	"a\x7fb",
	"\xff\xfe",
	strings.Repeat("k", blob.MaxKeyBytes+1),
}

func testHostileKeys(t *testing.T, s blob.Store) {
	ctx := t.Context()
	good := put(t, s, "good", Body{Seed: 80, Size: 10})
	for _, key := range hostileKeys {
		what := func(op string) string { return fmt.Sprintf("%s(%.40q)", op, key) }
		_, err := s.Put(ctx, key, untouchable{t})
		wantErr(t, what("Put"), err, blob.ErrInvalidKey)
		_, _, err = s.Get(ctx, key, "", nil)
		wantErr(t, what("Get"), err, blob.ErrInvalidKey)
		_, _, err = s.Get(ctx, key, good.ID, nil)
		wantErr(t, what("Get version"), err, blob.ErrInvalidKey)
		_, err = s.Versions(ctx, key)
		wantErr(t, what("Versions"), err, blob.ErrInvalidKey)
		wantErr(t, what("DeleteVersion"), s.DeleteVersion(ctx, key, good.ID), blob.ErrInvalidKey)
		wantErr(t, what("Delete"), s.Delete(ctx, key), blob.ErrInvalidKey)
		if p, ok := s.(blob.Presigner); ok {
			_, err = p.PresignGet(ctx, key, "", "x", time.Minute)
			wantErr(t, what("PresignGet"), err, blob.ErrInvalidKey)
			_, err = p.CreateUpload(ctx, key)
			wantErr(t, what("CreateUpload"), err, blob.ErrInvalidKey)
			_, err = p.PresignPart(ctx, key, "u", 1, time.Minute)
			wantErr(t, what("PresignPart"), err, blob.ErrInvalidKey)
			_, err = p.CompleteUpload(ctx, key, "u", []blob.Part{{Number: 1, ETag: "x"}})
			wantErr(t, what("CompleteUpload"), err, blob.ErrInvalidKey)
			wantErr(t, what("AbortUpload"), p.AbortUpload(ctx, key, "u"), blob.ErrInvalidKey)
		}
		if err := blob.ValidateKey(key); err == nil || !strings.Contains(err.Error(), "invalid blob key") {
			t.Fatalf("ValidateKey(%.40q) = %v: want a clear refusal", key, err)
		}
	}
	wantVersions(t, s, "good", good)
}

func testUnusualKeys(t *testing.T, s blob.Store) {
	// Longest key: segments of 200 bytes, since the test gateway's POSIX
	// mapping makes each segment a file name (255 bytes at most).
	var long strings.Builder
	for long.Len() < blob.MaxKeyBytes-201 {
		long.WriteString(strings.Repeat("s", 200) + "/")
	}
	long.WriteString(strings.Repeat("e", blob.MaxKeyBytes-long.Len()))
	keys := []string{
		"ação/relatório final (1).pdf",
		"with space/and+plus&amp;=eq?q#h",
		"pct%2fencoded%00not-nul",
		"emoji 😀/日本語.txt",
		"UPPER/lower", "upper/lower", // distinct keys, even on case-insensitive disks
		"dot.file", "..dots..", "a.../...b",
		long.String(),
	}
	vs := map[string]blob.Version{}
	for i, k := range keys {
		vs[k] = put(t, s, k, Body{Seed: 90 + uint64(i), Size: 100 + int64(i)})
	}
	for i, k := range keys {
		wantVersions(t, s, k, vs[k])
		b := Body{Seed: 90 + uint64(i), Size: 100 + int64(i)}
		wantContent(t, s, k, "", nil, vs[k], b, 0, b.Size)
	}
}

func testConcurrentPuts(t *testing.T, s blob.Store) {
	const n = 8
	bodies := make([]Body, n)
	got := make([]blob.Version, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		bodies[i] = Body{Seed: 100 + uint64(i), Size: 200_000 + int64(i)}
		wg.Go(func() { got[i], errs[i] = s.Put(t.Context(), "contended", bodies[i].Reader()) })
	}
	wg.Wait()
	byID := map[string]int{}
	for i, err := range errs {
		if err != nil {
			t.Fatalf("Put %d: %v", i, err)
		}
		byID[got[i].ID] = i
	}
	if len(byID) != n {
		t.Fatalf("%d concurrent puts made %d distinct version IDs", n, len(byID))
	}
	vs := versions(t, s, "contended")
	if len(vs) != n {
		t.Fatalf("Versions: %d, want all %d concurrent puts kept: %s", len(vs), n, fmtVersions(vs))
	}
	for _, v := range vs {
		i, ok := byID[v.ID]
		if !ok {
			t.Fatalf("Versions lists %s, which no Put returned", v.ID)
		}
		wantContent(t, s, "contended", v.ID, nil, got[i], bodies[i], 0, bodies[i].Size)
	}
	// The newest listed is the one Get serves.
	i := byID[vs[0].ID]
	wantContent(t, s, "contended", "", nil, got[i], bodies[i], 0, bodies[i].Size)
}

var errBoom = errors.New("boom: the client went away")

func testFailedPut(t *testing.T, s blob.Store) {
	ctx := t.Context()
	b := Body{Seed: 110, Size: 1000}
	v := put(t, s, "half", b)
	// Cut past one multipart part (S3) and many write buffers (FS).
	for _, cut := range []int64{0, 100_000, 20 << 20} {
		_, err := s.Put(ctx, "half", failingReader(Body{Seed: 111, Size: 40 << 20}, cut, errBoom))
		wantErr(t, fmt.Sprintf("Put failing after %d bytes", cut), err, errBoom)
		wantVersions(t, s, "half", v)
		wantContent(t, s, "half", "", nil, v, b, 0, b.Size)

		_, err = s.Put(ctx, "never", failingReader(Body{Seed: 112, Size: 40 << 20}, cut, errBoom))
		wantErr(t, fmt.Sprintf("Put(new key) failing after %d bytes", cut), err, errBoom)
		_, err = s.Versions(ctx, "never")
		wantErr(t, "Versions(key whose only Put failed)", err, blob.ErrNotFound)
		_, _, err = s.Get(ctx, "never", "", nil)
		wantErr(t, "Get(key whose only Put failed)", err, blob.ErrNotFound)
	}
}

func testCancelledPut(t *testing.T, s blob.Store) {
	ctx, cancel := context.WithCancel(t.Context())
	// The reader cancels the request midway, as a dropped connection does.
	r := io.MultiReader(Body{Seed: 120, Size: 10 << 20}.Reader(), cancelReader{cancel}, Body{Seed: 121, Size: 10 << 20}.Reader())
	_, err := s.Put(ctx, "cancelled", r)
	wantErr(t, "Put(cancelled midway)", err, context.Canceled)
	_, err = s.Versions(t.Context(), "cancelled")
	wantErr(t, "Versions(after a cancelled Put)", err, blob.ErrNotFound)
}

type cancelReader struct{ cancel context.CancelFunc }

func (c cancelReader) Read([]byte) (int, error) { c.cancel(); return 0, io.EOF }

// ---- presigned URLs ----

func testPresignGet(t *testing.T, s blob.Store) {
	p := s.(blob.Presigner)
	ctx := t.Context()
	old := Body{Seed: 130, Size: 150_000}
	cur := Body{Seed: 131, Size: 2000}
	vOld := put(t, s, "dl/file", old)
	put(t, s, "dl/file", cur)

	names := []string{
		`relatório de ação — €100, "final"; v2.pdf`,
		"plain.txt",
		"日本語 ファイル.docx",
		"a\\b\r\nSet-Cookie: x=1.txt",
	}
	for _, name := range names {
		u, err := p.PresignGet(ctx, "dl/file", vOld.ID, name, time.Minute)
		if err != nil {
			t.Fatalf("PresignGet(%q): %v", name, err)
		}
		resp, err := http.Get(u)
		if err != nil {
			t.Fatalf("GET presigned: %v", err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET presigned: %d %v\n%s", resp.StatusCode, err, body)
		}
		if sha256.Sum256(body) != old.SHA256(0, old.Size) {
			t.Fatalf("GET presigned (older version): %d bytes, not the version's", len(body))
		}
		if resp.Header.Get("Set-Cookie") != "" {
			t.Fatalf("a file name injected a header: %v", resp.Header)
		}
		cd := resp.Header.Get("Content-Disposition")
		disp, params, err := mime.ParseMediaType(cd)
		if err != nil || disp != "attachment" || params["filename"] != name {
			t.Fatalf("Content-Disposition %q = %q %q (%v), want attachment with %q", cd, disp, params["filename"], err, name)
		}
	}

	// The newest, with a plain name.
	u, err := p.PresignGet(ctx, "dl/file", "", "x.bin", time.Minute)
	if err != nil {
		t.Fatalf("PresignGet(newest): %v", err)
	}
	resp, err := http.Get(u)
	if err != nil {
		t.Fatalf("GET presigned: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || sha256.Sum256(body) != cur.SHA256(0, cur.Size) {
		t.Fatalf("GET presigned (newest): %d, %d bytes", resp.StatusCode, len(body))
	}

	// A tampered URL is refused by the server.
	resp, err = http.Get(strings.Replace(u, "dl%2Ffile", "dl%2Fother", 1) + "&x-id=1")
	if err == nil {
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			t.Fatal("a tampered presigned URL was served")
		}
	}
	for _, ttl := range []time.Duration{0, -time.Second, blob.MaxPresignTTL + time.Second} {
		if _, err := p.PresignGet(ctx, "dl/file", "", "x", ttl); err == nil {
			t.Fatalf("PresignGet(ttl %v) succeeded", ttl)
		}
	}
}

// putPart PUTs one part to a presigned URL as a browser would, streaming
// it, and returns the ETag the answer carries.
func putPart(t *testing.T, url string, body io.Reader, size int64) string {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPut, url, body)
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = size
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("PUT part: %v", err)
	}
	msg, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("PUT part: %d\n%s", resp.StatusCode, msg)
	}
	etag := resp.Header.Get("ETag")
	if etag == "" {
		t.Fatal("PUT part: no ETag header")
	}
	return etag
}

func testPresignMultipart(t *testing.T, s blob.Store) {
	p := s.(blob.Presigner)
	ctx := t.Context()
	const first = 5 << 20 // S3's floor for all parts but the last
	b := Body{Seed: 140, Size: first + 4321}
	prev := put(t, s, "up/video.mp4", Body{Seed: 141, Size: 10})

	id, err := p.CreateUpload(ctx, "up/video.mp4")
	if err != nil || id == "" {
		t.Fatalf("CreateUpload: %q, %v", id, err)
	}
	var parts []blob.Part
	// The second part goes first: browsers upload parts in any order.
	for _, pt := range []struct {
		num       int32
		off, size int64
	}{{2, first, b.Size - first}, {1, 0, first}} {
		u, err := p.PresignPart(ctx, "up/video.mp4", id, pt.num, time.Minute)
		if err != nil {
			t.Fatalf("PresignPart(%d): %v", pt.num, err)
		}
		parts = append(parts, blob.Part{Number: pt.num, ETag: putPart(t, u, b.Section(pt.off, pt.size), pt.size)})
	}
	// Uploaded parts are no version until completed.
	wantVersions(t, s, "up/video.mp4", prev)

	v, err := p.CompleteUpload(ctx, "up/video.mp4", id, parts)
	if err != nil {
		t.Fatalf("CompleteUpload: %v", err)
	}
	if v.ID == "" || v.Size != b.Size || v.ETag == "" {
		t.Fatalf("CompleteUpload = %+v", v)
	}
	wantVersions(t, s, "up/video.mp4", v, prev)
	wantContent(t, s, "up/video.mp4", "", nil, v, b, 0, b.Size)

	// A browser may retry the completion; S3 answers a retry within a
	// while as it did the first time, gateways differ, but none may make
	// a second version of it.
	_, _ = p.CompleteUpload(ctx, "up/video.mp4", id, parts)
	wantVersions(t, s, "up/video.mp4", v, prev)
	if _, err := p.PresignPart(ctx, "up/video.mp4", id, 0, time.Minute); err == nil {
		t.Fatal("PresignPart(part 0) succeeded")
	}
	if _, err := p.PresignPart(ctx, "up/video.mp4", id, 10001, time.Minute); err == nil {
		t.Fatal("PresignPart(part 10001) succeeded")
	}
}

func testAbortUpload(t *testing.T, s blob.Store) {
	p := s.(blob.Presigner)
	ctx := t.Context()
	id, err := p.CreateUpload(ctx, "up/dropped")
	if err != nil {
		t.Fatalf("CreateUpload: %v", err)
	}
	u, err := p.PresignPart(ctx, "up/dropped", id, 1, time.Minute)
	if err != nil {
		t.Fatalf("PresignPart: %v", err)
	}
	b := Body{Seed: 150, Size: 1000}
	etag := putPart(t, u, b.Reader(), b.Size)
	if err := p.AbortUpload(ctx, "up/dropped", id); err != nil {
		t.Fatalf("AbortUpload: %v", err)
	}
	_, err = p.CompleteUpload(ctx, "up/dropped", id, []blob.Part{{Number: 1, ETag: etag}})
	wantErr(t, "CompleteUpload(aborted)", err, blob.ErrNotFound)
	wantErr(t, "AbortUpload(again)", p.AbortUpload(ctx, "up/dropped", id), blob.ErrNotFound)
	_, err = s.Versions(ctx, "up/dropped")
	wantErr(t, "Versions(aborted upload)", err, blob.ErrNotFound)
	_, err = p.CompleteUpload(ctx, "up/dropped", "no-such-upload", []blob.Part{{Number: 1, ETag: etag}})
	wantErr(t, "CompleteUpload(unknown upload)", err, blob.ErrNotFound)
}
