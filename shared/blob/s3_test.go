package blob_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"io"
	"os"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

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
