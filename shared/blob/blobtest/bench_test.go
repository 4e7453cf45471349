package blobtest_test

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/oficina/oficina/shared/blob"
	"github.com/oficina/oficina/shared/blob/blobtest"
)

// One gateway serves the whole benchmark binary.
func TestMain(m *testing.M) { os.Exit(blobtest.Main(m)) }

// benchSize is the file of BenchmarkBlob: big enough that per-request
// costs vanish and S3 Puts go multipart.
const benchSize = 64 << 20

// BenchmarkBlob puts and gets a 64 MB file on each backend, reporting MB/s
// (the S3 figures are the Versity gateway's on loopback, not AWS's).
func BenchmarkBlob(b *testing.B) {
	backends := []struct {
		name string
		open func(b *testing.B) blob.Store
	}{
		{"fs", func(b *testing.B) blob.Store {
			s, err := blob.NewFS(filepath.Join(b.TempDir(), "blobs"))
			if err != nil {
				b.Fatal(err)
			}
			return s
		}},
		{"s3", func(b *testing.B) blob.Store {
			client, bucket := blobtest.StartS3(b)
			return blob.NewS3(client, bucket, nil)
		}},
	}
	body := blobtest.Body{Seed: 1, Size: benchSize}
	for _, be := range backends {
		b.Run(be.name+"/put", func(b *testing.B) {
			s := be.open(b)
			b.SetBytes(benchSize)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				v, err := s.Put(b.Context(), "bench", body.Reader())
				if err != nil {
					b.Fatal(err)
				}
				// Keep the store at one version, as the drive's last-N
				// rule keeps it small, so disks do not fill up.
				b.StopTimer()
				if err := s.DeleteVersion(b.Context(), "bench", v.ID); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
		})
		b.Run(be.name+"/get", func(b *testing.B) {
			s := be.open(b)
			if _, err := s.Put(b.Context(), "bench", body.Reader()); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(benchSize)
			b.ReportAllocs()
			for b.Loop() {
				rc, _, err := s.Get(b.Context(), "bench", "", nil)
				if err != nil {
					b.Fatal(err)
				}
				n, err := io.Copy(io.Discard, rc)
				rc.Close()
				if err != nil || n != benchSize {
					b.Fatalf("read %d bytes: %v", n, err)
				}
			}
		})
	}
}
