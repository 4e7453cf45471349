package blobtest

import (
	"context"
	"fmt"
	"github.com/oficina/oficina/shared/testproc"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

// The S3 server of the tests is Versity's gateway (versitygw) on its POSIX
// backend with bucket versioning: a real S3 protocol server that keeps
// object versions, built from Go source by `make deps`:
//
//	GOBIN=$PWD/bin go install github.com/versity/versitygw/cmd/versitygw@v1.8.0
//
// StartS3 runs bin/versitygw (or $OFICINA_VERSITYGW) on a free loopback port
// with a temp directory. A missing binary fails the test, never skips it,
// so a green run always means the S3 code ran against a server.
const (
	// Region and credentials are dummies the gateway is started with.
	Region    = "us-east-1"
	AccessKey = "oficina-test"
	SecretKey = "oficina-test-secret"

	// BinaryEnv overrides the gateway binary's path.
	BinaryEnv = "OFICINA_VERSITYGW"

	readyTimeout = 30 * time.Second
	startTries   = 3 // a free port can be taken before the gateway binds it
	installHint  = "run `make deps`, or: GOBIN=$PWD/bin go install github.com/versity/versitygw/cmd/versitygw@v1.8.0"
)

// The shared process is the only package state, and it exists for tests only.
var shared = testproc.Shared[*gateway]{
	Name:  "versitygw",
	Start: startGateway,
	Stop:  func(g *gateway) { g.stop() },
	Proc:  func(g *gateway) *testproc.Process { return g.proc },
}

var bucketSeq atomic.Int64

// Main runs the tests of a binary with one shared gateway, started by the
// first StartS3 and stopped when the tests end. Use it from TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(blobtest.Main(m)) }
func Main(m *testing.M) int { return shared.Main(m) }

// StartS3 returns a client of a running S3 server and a new, empty bucket
// with versioning enabled, deleted (with every version) when tb ends.
// Without Main, each call runs a private gateway stopped when tb ends.
func StartS3(tb testing.TB) (*s3.Client, string) {
	tb.Helper()
	inst, err := shared.Get(tb)
	if err != nil {
		tb.Fatalf("blobtest: %v", err)
	}
	bucket := BucketName(tb)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := CreateVersionedBucket(ctx, inst.client, bucket); err != nil {
		tb.Fatalf("blobtest: %v\n%s", err, inst.proc.Output())
	}
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := emptyBucket(ctx, inst.client, bucket); err != nil {
			tb.Errorf("blobtest: drop bucket %s: %v", bucket, err)
		}
	})
	return inst.client, bucket
}

// NewClient returns an S3 client for a gateway endpoint, with static dummy
// credentials and no shared AWS configuration, so that nothing on the
// machine can point tests at a real account. Path-style addressing: the
// gateway has no virtual-host DNS.
func NewClient(endpoint string) *s3.Client {
	return s3.New(s3.Options{
		Region:       Region,
		Credentials:  credentials.NewStaticCredentialsProvider(AccessKey, SecretKey, ""),
		BaseEndpoint: aws.String(endpoint),
		UsePathStyle: true,
	})
}

// CreateVersionedBucket creates bucket and enables versioning on it, as the
// CDK stack does for the drive's bucket.
func CreateVersionedBucket(ctx context.Context, client *s3.Client, bucket string) error {
	if _, err := client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: &bucket}); err != nil {
		return fmt.Errorf("create bucket %s: %w", bucket, err)
	}
	_, err := client.PutBucketVersioning(ctx, &s3.PutBucketVersioningInput{
		Bucket:                  &bucket,
		VersioningConfiguration: &types.VersioningConfiguration{Status: types.BucketVersioningStatusEnabled},
	})
	if err != nil {
		return fmt.Errorf("enable versioning on %s: %w", bucket, err)
	}
	return nil
}

// emptyBucket deletes every version, marker and upload, then the bucket,
// keeping the gateway's temp directory small over a long run.
// CreateLockedBucket creates a bucket with Object Lock on (and so
// versioning), as the stack's backups bucket is.
func CreateLockedBucket(ctx context.Context, client *s3.Client, bucket string) error {
	if _, err := client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: &bucket, ObjectLockEnabledForBucket: aws.Bool(true)}); err != nil {
		return fmt.Errorf("create locked bucket %s: %w", bucket, err)
	}
	return nil
}

func emptyBucket(ctx context.Context, client *s3.Client, bucket string) error {
	uploads, err := client.ListMultipartUploads(ctx, &s3.ListMultipartUploadsInput{Bucket: &bucket})
	if err != nil {
		return fmt.Errorf("list uploads: %w", err)
	}
	for _, u := range uploads.Uploads {
		if _, err := client.AbortMultipartUpload(ctx, &s3.AbortMultipartUploadInput{Bucket: &bucket, Key: u.Key, UploadId: u.UploadId}); err != nil {
			return fmt.Errorf("abort upload: %w", err)
		}
	}
	p := s3.NewListObjectVersionsPaginator(client, &s3.ListObjectVersionsInput{Bucket: &bucket})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return fmt.Errorf("list versions: %w", err)
		}
		var ids []types.ObjectIdentifier
		for _, v := range page.Versions {
			ids = append(ids, types.ObjectIdentifier{Key: v.Key, VersionId: v.VersionId})
		}
		for _, m := range page.DeleteMarkers {
			ids = append(ids, types.ObjectIdentifier{Key: m.Key, VersionId: m.VersionId})
		}
		for _, id := range ids {
			if _, err := client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &bucket, Key: id.Key, VersionId: id.VersionId}); err != nil {
				return fmt.Errorf("delete %s version %s: %w", aws.ToString(id.Key), aws.ToString(id.VersionId), err)
			}
		}
	}
	if _, err := client.DeleteBucket(ctx, &s3.DeleteBucketInput{Bucket: &bucket}); err != nil {
		return fmt.Errorf("delete bucket: %w", err)
	}
	return nil
}

// BucketName returns a valid bucket name (3–63 of [a-z0-9-]) unique within
// the test binary and recognisable in the gateway's directory.
func BucketName(tb testing.TB) string {
	var b strings.Builder
	fmt.Fprintf(&b, "t%d-", bucketSeq.Add(1))
	for _, r := range strings.ToLower(tb.Name()) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	name := b.String()
	if len(name) > 63 {
		name = name[:63]
	}
	return strings.TrimRight(name, "-")
}

type gateway struct {
	proc     *testproc.Process
	endpoint string
	client   *s3.Client
	tmp      string
}

func startGateway() (*gateway, error) {
	bin, err := findBinary()
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "versitygw-")
	if err != nil {
		return nil, fmt.Errorf("temp dir: %w", err)
	}
	var lastErr error
	sidecar := false
	for try := 0; try < startTries; try++ {
		g, retry, err := launch(bin, tmp, sidecar)
		if err == nil {
			return g, nil
		}
		lastErr = err
		switch {
		case !sidecar && strings.Contains(err.Error(), "xattr check failed"):
			// The temp filesystem has no user xattrs (tmpfs before Linux
			// 6.6): keep the gateway's metadata in a sidecar directory.
			sidecar = true
		case !retry:
			os.RemoveAll(tmp)
			return nil, lastErr
		}
	}
	os.RemoveAll(tmp)
	return nil, lastErr
}

// launch starts one process; retry reports a lost race for the port.
func launch(bin, tmp string, sidecar bool) (g *gateway, retry bool, err error) {
	port, err := testproc.FreePort()
	if err != nil {
		return nil, false, err
	}
	root, versions, meta := filepath.Join(tmp, "root"), filepath.Join(tmp, "versions"), filepath.Join(tmp, "meta")
	for _, d := range []string{root, versions, meta} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, false, fmt.Errorf("create %s: %w", d, err)
		}
	}
	addr := "127.0.0.1:" + strconv.Itoa(port)
	args := []string{"--port", addr, "--quiet", "posix", "--versioning-dir", versions}
	if sidecar {
		args = append(args, "--sidecar", meta)
	}
	args = append(args, root)
	cmd := exec.Command(bin, args...)
	cmd.Dir = tmp
	// Credentials go by environment, as the gateway documents; the rest of
	// the environment is kept (HOME, TMPDIR) but no AWS_* can leak in.
	env := []string{"ROOT_ACCESS_KEY=" + AccessKey, "ROOT_SECRET_KEY=" + SecretKey}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "AWS_") && !strings.HasPrefix(kv, "VGW_") && !strings.HasPrefix(kv, "ROOT_") {
			env = append(env, kv)
		}
	}
	cmd.Env = env
	proc, err := testproc.Start(cmd)
	if err != nil {
		return nil, false, err
	}
	g = &gateway{proc: proc, endpoint: "http://" + addr, tmp: tmp}
	g.client = NewClient(g.endpoint)
	if err := g.proc.WaitReady(strings.TrimPrefix(g.endpoint, "http://"), readyTimeout, g.probe); err != nil {
		g.proc.Kill()
		text := g.proc.Output()
		retry = strings.Contains(text, "address already in use")
		return nil, retry, fmt.Errorf("versitygw on %s: %w\n--- output ---\n%s", addr, err, text)
	}
	return g, false, nil
}

// probe asks the gateway for its buckets: it answers once it is up.
func (g *gateway) probe(ctx context.Context) error {
	_, err := g.client.ListBuckets(ctx, &s3.ListBucketsInput{}, func(o *s3.Options) { o.RetryMaxAttempts = 1 })
	return err
}

func (g *gateway) stop() { g.proc.Stop(func() { os.RemoveAll(g.tmp) }) }

// findBinary looks at $OFICINA_VERSITYGW, then <repo>/bin/versitygw.
func findBinary() (string, error) {
	return testproc.FindBinary(BinaryEnv, "versitygw", "the S3 test server", installHint)
}
