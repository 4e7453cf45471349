package blob_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/oficina/oficina/shared/blob"
	"github.com/oficina/oficina/shared/blob/blobtest"
)

// One gateway serves the whole test binary; each test gets a bucket.
func TestMain(m *testing.M) { os.Exit(blobtest.Main(m)) }

var _ blob.Presigner = (*blob.S3)(nil) // browsers upload and download straight to S3

func openS3(t *testing.T) *blob.S3 {
	client, bucket := blobtest.StartS3(t)
	return blob.NewS3(client, bucket, s3.NewPresignClient(client))
}

func TestS3Conformance(t *testing.T) {
	blobtest.Run(t, func(t *testing.T) blob.Store { return openS3(t) })
}

// TestS3SmallParts runs the multipart path with the smallest parts and
// more of them in flight than the default.
func TestS3SmallParts(t *testing.T) {
	s := openS3(t).WithPartSize(5<<20, 3)
	body := blobtest.Body{Seed: 7, Size: 23<<20 + 1}
	v, err := s.Put(t.Context(), "parts", body.Reader())
	if err != nil {
		t.Fatal(err)
	}
	if v.Size != body.Size {
		t.Fatalf("Size %d, want %d", v.Size, body.Size)
	}
	rc, _, err := s.Get(t.Context(), "parts", v.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	h := sha256.New()
	if _, err := io.Copy(h, rc); err != nil {
		t.Fatal(err)
	}
	if want := body.SHA256(0, body.Size); !bytes.Equal(h.Sum(nil), want[:]) {
		t.Fatal("the object read back is not the body put")
	}
}

// TestS3FailedPutAbortsUpload checks the bucket, not only the API: a body
// that fails midway leaves no multipart upload (whose parts S3 bills).
func TestS3FailedPutAbortsUpload(t *testing.T) {
	client, bucket := blobtest.StartS3(t)
	s := blob.NewS3(client, bucket, nil)
	boom := errors.New("boom")
	body := blobtest.Body{Seed: 8, Size: 30 << 20}
	if _, err := s.Put(t.Context(), "k", &failAfter{r: body.Reader(), n: 20 << 20, err: boom}); !errors.Is(err, boom) {
		t.Fatalf("Put = %v, want %v", err, boom)
	}
	out, err := client.ListMultipartUploads(t.Context(), &s3.ListMultipartUploadsInput{Bucket: &bucket})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Uploads) != 0 {
		t.Fatalf("a failed Put left %d multipart uploads", len(out.Uploads))
	}
}

// TestS3RefusesUnversionedBucket: on a bucket without versioning a Put
// would overwrite the only copy; the store says so instead of pretending.
func TestS3RefusesUnversionedBucket(t *testing.T) {
	client, _ := blobtest.StartS3(t)
	bucket := "p" + blobtest.BucketName(t)[1:] // "t<n>-…" is a versioned one
	ctx := context.Background()
	if _, err := client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: &bucket}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &bucket, Key: aws.String("k")})
		client.DeleteBucket(ctx, &s3.DeleteBucketInput{Bucket: &bucket})
	})
	s := blob.NewS3(client, bucket, nil)
	if _, err := s.Put(ctx, "k", blobtest.Body{Seed: 9, Size: 10}.Reader()); err == nil {
		t.Fatal("Put on an unversioned bucket succeeded")
	}
}

// TestS3PutRetained: in a bucket with Object Lock, a retained version
// (small, and multipart) carries governance mode, its date and its
// retention tag, and nobody can delete it before that date — not by
// version (what the blob store's DeleteVersion does), not with Delete —
// while it reads back as usual. A plain Put in that bucket is not locked.
func TestS3PutRetained(t *testing.T) {
	ctx := t.Context()
	client, _ := blobtest.StartS3(t)
	bucket := blobtest.BucketName(t) + "-lock"
	if err := blobtest.CreateLockedBucket(ctx, client, bucket); err != nil {
		t.Fatal(err)
	}
	var _ blob.Retainer = (*blob.S3)(nil)
	s := blob.NewS3(client, bucket, nil).WithPartSize(5<<20, 2)
	until := time.Now().Add(48 * time.Hour).UTC().Truncate(time.Second)
	for _, size := range []int64{1 << 10, 11 << 20} {
		key := fmt.Sprintf("backups/g1/b-%d.ndjson.gz", size)
		body := blobtest.Body{Seed: 3, Size: size}
		v, err := s.PutRetained(ctx, key, body.Reader(), blob.Retention{Until: until, Class: "15"})
		if err != nil {
			t.Fatalf("%d bytes: %v", size, err)
		}
		got, err := client.GetObjectRetention(ctx, &s3.GetObjectRetentionInput{Bucket: &bucket, Key: &key, VersionId: &v.ID})
		if err != nil {
			t.Fatal(err)
		}
		if got.Retention.Mode != types.ObjectLockRetentionModeGovernance || !aws.ToTime(got.Retention.RetainUntilDate).Equal(until) {
			t.Fatalf("%d bytes: retention %+v, want governance until %v", size, got.Retention, until)
		}
		tags, err := client.GetObjectTagging(ctx, &s3.GetObjectTaggingInput{Bucket: &bucket, Key: &key, VersionId: &v.ID})
		if err != nil {
			t.Fatal(err)
		}
		if len(tags.TagSet) != 1 || aws.ToString(tags.TagSet[0].Key) != blob.RetentionTag || aws.ToString(tags.TagSet[0].Value) != "15" {
			t.Fatalf("%d bytes: tags %+v", size, tags.TagSet)
		}
		if err := s.DeleteVersion(ctx, key, v.ID); err == nil {
			t.Fatalf("%d bytes: a locked version was deleted", size)
		}
		rc, _, err := s.Get(ctx, key, v.ID, nil)
		if err != nil {
			t.Fatalf("%d bytes: the locked version is gone: %v", size, err)
		}
		rc.Close()
	}
	v, err := s.Put(ctx, "plain", bytes.NewReader([]byte("x")))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteVersion(ctx, "plain", v.ID); err != nil {
		t.Fatalf("a version put without retention could not be deleted: %v", err)
	}
	if _, err := s.PutRetained(ctx, "k", bytes.NewReader(nil), blob.Retention{Class: "15"}); err == nil {
		t.Fatal("a retained put without a date was accepted")
	}
}

// TestS3RetainedCold: a cold retained version goes to Glacier Instant
// Retrieval when it is at least blob.ColdMinSize (single part and
// multipart), and stays in S3 Standard when smaller or not cold. The
// gateway stores every class alike, so the test reads the class off the
// requests.
func TestS3RetainedCold(t *testing.T) {
	ctx := t.Context()
	plain, _ := blobtest.StartS3(t)
	bucket := blobtest.BucketName(t) + "-lock"
	if err := blobtest.CreateLockedBucket(ctx, plain, bucket); err != nil {
		t.Fatal(err)
	}
	client, rec := blobtest.Recording(plain)
	s := blob.NewS3(client, bucket, nil).WithPartSize(5<<20, 2)
	until := time.Now().Add(time.Hour)
	for _, c := range []struct {
		name string
		size int64
		cold bool
		want string
	}{
		{"small-cold", blob.ColdMinSize - 1, true, ""},
		{"large-cold", blob.ColdMinSize, true, "GLACIER_IR"},
		{"multipart-cold", 11 << 20, true, "GLACIER_IR"},
		{"large-warm", 1 << 20, false, ""},
	} {
		if _, err := s.PutRetained(ctx, c.name, blobtest.Body{Seed: 1, Size: c.size}.Reader(), blob.Retention{Until: until, Class: "contents", Cold: c.cold}); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got, ok := rec.Class(c.name)
		if !ok || got != c.want {
			t.Errorf("%s: storage class %q (sent: %v), want %q", c.name, got, ok, c.want)
		}
	}
}

// TestS3ExtendAndReclass: a retained version's lock moves later in place
// (no new version) and cannot move earlier; Reclass retags the current
// version unless it was written at or after the given time; a missing key
// is ErrNotFound-like for both.
func TestS3ExtendAndReclass(t *testing.T) {
	ctx := t.Context()
	client, _ := blobtest.StartS3(t)
	bucket := blobtest.BucketName(t) + "-lock"
	if err := blobtest.CreateLockedBucket(ctx, client, bucket); err != nil {
		t.Fatal(err)
	}
	s := blob.NewS3(client, bucket, nil)
	until := time.Now().Add(48 * time.Hour).UTC().Truncate(time.Second)
	v, err := s.PutRetained(ctx, "c/sum", bytes.NewReader([]byte("contents")), blob.Retention{Until: until, Class: "contents"})
	if err != nil {
		t.Fatal(err)
	}
	later := until.Add(90 * 24 * time.Hour)
	if err := s.Extend(ctx, "c/sum", later); err != nil {
		t.Fatal(err)
	}
	got, err := client.GetObjectRetention(ctx, &s3.GetObjectRetentionInput{Bucket: &bucket, Key: aws.String("c/sum"), VersionId: &v.ID})
	if err != nil || !aws.ToTime(got.Retention.RetainUntilDate).Equal(later) {
		t.Fatalf("retention %+v (%v), want until %v", got, err, later)
	}
	if err := s.Extend(ctx, "c/sum", until); err == nil {
		t.Fatal("a lock was moved earlier")
	}
	if vs, err := s.Versions(ctx, "c/sum"); err != nil || len(vs) != 1 {
		t.Fatalf("versions %v (%v), want the one", vs, err)
	}
	tag := func() string {
		t.Helper()
		out, err := client.GetObjectTagging(ctx, &s3.GetObjectTaggingInput{Bucket: &bucket, Key: aws.String("c/sum"), VersionId: &v.ID})
		if err != nil || len(out.TagSet) != 1 {
			t.Fatalf("tags %+v (%v)", out, err)
		}
		return aws.ToString(out.TagSet[0].Value)
	}
	if done, err := s.Reclass(ctx, "c/sum", "dropped", time.Now().Add(-time.Hour)); err != nil || done {
		t.Fatalf("a version written just now was retagged (%v, %v)", done, err)
	}
	if got := tag(); got != "contents" {
		t.Fatalf("tag %q, want contents", got)
	}
	if done, err := s.Reclass(ctx, "c/sum", "dropped", time.Now().Add(time.Minute)); err != nil || !done {
		t.Fatalf("reclass: %v, %v", done, err)
	}
	if got := tag(); got != "dropped" {
		t.Fatalf("tag %q, want dropped", got)
	}
	if _, err := s.Reclass(ctx, "c/none", "dropped", time.Now()); err == nil {
		t.Fatal("a missing key was retagged")
	}
	if err := s.Extend(ctx, "c/none", later); err == nil {
		t.Fatal("a missing key's lock was extended")
	}
}

// TestS3Retire: a retired version is tagged for the lifecycle's grace and
// leaves LiveVersions, yet still reads back by its id (a table restored to
// a point inside the grace finds it); retiring a key retires every version
// and hides the key behind a delete marker, so its current version is
// noncurrent too, and every version still reads back.
func TestS3Retire(t *testing.T) {
	ctx := t.Context()
	s := openS3(t)
	var ids []string
	for _, body := range []string{"one", "two", "three"} {
		v, err := s.Put(ctx, "f", bytes.NewReader([]byte(body)))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, v.ID)
	}
	var _ blob.Retirer = s
	if err := s.RetireVersion(ctx, "f", ids[0]); err != nil {
		t.Fatal(err)
	}
	live, err := blob.Live(ctx, s, "f")
	if err != nil || len(live) != 2 || live[0].ID != ids[2] || live[1].ID != ids[1] {
		t.Fatalf("live versions %+v (%v), want the two newest", live, err)
	}
	read := func(id, want string) {
		t.Helper()
		rc, _, err := s.Get(ctx, "f", id, nil)
		if err != nil {
			t.Fatalf("version %s: %v", id, err)
		}
		defer rc.Close()
		if b, _ := io.ReadAll(rc); string(b) != want {
			t.Fatalf("version %s reads %q, want %q", id, b, want)
		}
	}
	read(ids[0], "one")
	if err := s.Retire(ctx, "f"); err != nil {
		t.Fatal(err)
	}
	if _, err := blob.Live(ctx, s, "f"); !errors.Is(err, blob.ErrNotFound) {
		t.Fatalf("live versions after Retire: %v", err)
	}
	for i, want := range []string{"one", "two", "three"} {
		read(ids[i], want)
	}
	if err := s.RetireVersion(ctx, "f", ""); !errors.Is(err, blob.ErrNotFound) {
		t.Fatalf("retire of no version: %v", err)
	}
}
