package blobtest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/oficina/oficina/shared/blob"
)

// TestSidecarGateway runs the suite on the gateway as StartS3 falls back to
// it where the temp filesystem has no user xattrs (tmpfs before Linux
// 6.6): metadata in a sidecar directory.
func TestSidecarGateway(t *testing.T) {
	bin, err := findBinary()
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	g, _, err := launch(bin, tmp, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.stop)
	Run(t, func(t *testing.T) blob.Store {
		bucket := BucketName(t)
		if err := CreateVersionedBucket(t.Context(), g.client, bucket); err != nil {
			t.Fatal(err)
		}
		return blob.NewS3(g.client, bucket, s3.NewPresignClient(g.client))
	})
	if entries, err := os.ReadDir(filepath.Join(tmp, "meta")); err != nil || len(entries) == 0 {
		t.Fatalf("the sidecar directory is empty (%v): the gateway kept metadata elsewhere", err)
	}
}
