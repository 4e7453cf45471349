package blob

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"
)

// S3 keeps versions as the object versions of a versioned bucket: Put is a
// PutObject (or a multipart upload once the body passes one part), each
// making a new version; DeleteVersion and Delete remove versions by ID, so
// no delete markers are ever written. A bucket without versioning is
// refused at the first Put, which would otherwise overwrite.
type S3 struct {
	client  *s3.Client
	presign *s3.PresignClient
	bucket  string

	// partSize and parallel bound a Put's memory to partSize×parallel
	// whatever the body's size: parts are read into reused buffers and
	// uploaded while the next one is read.
	partSize int
	parallel int
	// bufs recycles part buffers (*[]byte) across Puts, so a busy server
	// does not allocate (and collect) partSize bytes per part.
	bufs sync.Pool
}

const (
	// defaultPartSize: S3 allows 10,000 parts, so objects up to 80 GB; and
	// bodies up to this size go in one PutObject.
	defaultPartSize = 8 << 20
	defaultParallel = 2
	// minPartSize is S3's floor for every part but the last.
	minPartSize = 5 << 20
	// smallBody is read before a part buffer is taken.
	smallBody = 256 << 10
)

// buffer returns a part buffer of the current part size; release gives
// it back once no request reads it any more.
func (s *S3) buffer() []byte {
	if b, ok := s.bufs.Get().(*[]byte); ok && len(*b) == s.partSize {
		return *b
	}
	return make([]byte, s.partSize)
}

func (s *S3) release(b []byte) { s.bufs.Put(&b) }

// OpenS3 is the versioned bucket with the AWS configuration c; endpoint,
// when set, is an S3-compatible server addressed path-style.
func OpenS3(c aws.Config, bucket, endpoint string) *S3 {
	return NewS3(NewS3Client(c, endpoint), bucket, nil)
}

// NewS3Client is an S3 client with the AWS configuration c; endpoint, when
// set, is an S3-compatible server addressed path-style (it rarely has
// virtual-host DNS).
func NewS3Client(c aws.Config, endpoint string) *s3.Client {
	return s3.NewFromConfig(c, func(o *s3.Options) {
		if endpoint != "" {
			o.BaseEndpoint = aws.String(endpoint)
			o.UsePathStyle = true
		}
	})
}

// NewS3 returns a store on bucket, which must have versioning enabled.
// presign may be nil (one is made from client).
func NewS3(client *s3.Client, bucket string, presign *s3.PresignClient) *S3 {
	if presign == nil {
		presign = s3.NewPresignClient(client)
	}
	return &S3{client: client, presign: presign, bucket: bucket, partSize: defaultPartSize, parallel: defaultParallel}
}

// WithPartSize sets the multipart part size (at least 5 MiB) and how many
// parts are in flight at once; memory per Put is about size×parallel.
func (s *S3) WithPartSize(size, parallel int) *S3 {
	s.partSize = max(size, minPartSize)
	s.parallel = max(parallel, 1)
	return s
}

// Put streams r to a new object version.
func (s *S3) Put(ctx context.Context, key string, r io.Reader) (Version, error) {
	return s.put(ctx, key, r, retention{})
}

// PutRetained implements Retainer: the version is written under S3 Object
// Lock in governance mode until rt.Until (the bucket must have Object Lock
// on), tagged retention=<rt.Class>, the tag its lifecycle rules expire it
// by once the lock has passed, and in Glacier Instant Retrieval when cold
// and at least ColdMinSize.
func (s *S3) PutRetained(ctx context.Context, key string, r io.Reader, rt Retention) (Version, error) {
	if rt.Until.IsZero() || rt.Class == "" {
		return Version{}, fmt.Errorf("blob: put %q: a retained version needs a date and a class", key)
	}
	return s.put(ctx, key, r, retention{until: rt.Until.UTC(), tagging: url.Values{RetentionTag: {rt.Class}}.Encode(), cold: rt.Cold})
}

// Extend implements Retainer with PutObjectRetention on the current
// version: S3 refuses a date before the version's lock in governance mode
// without the bypass permission, which no role of the stack holds.
func (s *S3) Extend(ctx context.Context, key string, until time.Time) error {
	if err := ValidateKey(key); err != nil {
		return err
	}
	_, err := s.client.PutObjectRetention(ctx, &s3.PutObjectRetentionInput{
		Bucket: &s.bucket, Key: &key,
		Retention: &types.ObjectLockRetention{Mode: types.ObjectLockRetentionModeGovernance, RetainUntilDate: aws.Time(until.UTC())},
	})
	if err != nil {
		return s.fail("extend", key, "", err)
	}
	return nil
}

// Reclass implements Retainer: a HEAD names the current version and its
// time, and the tag goes on that version, so a version written meanwhile
// keeps its own.
func (s *S3) Reclass(ctx context.Context, key, class string, writtenBefore time.Time) (bool, error) {
	if err := ValidateKey(key); err != nil {
		return false, err
	}
	head, err := s.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &s.bucket, Key: &key})
	if err != nil {
		return false, s.fail("reclass", key, "", err)
	}
	if !modified(head.LastModified).Before(writtenBefore) {
		return false, nil
	}
	_, err = s.client.PutObjectTagging(ctx, &s3.PutObjectTaggingInput{
		Bucket: &s.bucket, Key: &key, VersionId: head.VersionId,
		Tagging: &types.Tagging{TagSet: []types.Tag{{Key: aws.String(RetentionTag), Value: aws.String(class)}}},
	})
	if err != nil {
		return false, s.fail("reclass", key, aws.ToString(head.VersionId), err)
	}
	return true, nil
}

// retention is how a version is locked and tagged (zero: neither), and
// whether it may go to the archive class.
type retention struct {
	until   time.Time
	tagging string
	cold    bool
}

func (rt retention) lock() (types.ObjectLockMode, *time.Time, *string) {
	if rt.until.IsZero() {
		return "", nil, nil
	}
	return types.ObjectLockModeGovernance, aws.Time(rt.until), aws.String(rt.tagging)
}

// class is the storage class of a version of size bytes ("": the
// bucket's default, S3 Standard).
func (rt retention) class(size int64) types.StorageClass {
	if rt.cold && size >= ColdMinSize {
		return types.StorageClassGlacierIr
	}
	return ""
}

func (s *S3) put(ctx context.Context, key string, r io.Reader, rt retention) (Version, error) {
	if err := ValidateKey(key); err != nil {
		return Version{}, err
	}
	body := ctxReader{ctx, r}
	// Most files are small: read a little first, and take a whole part
	// buffer only for a body that does not fit in it.
	first := make([]byte, smallBody)
	n, err := io.ReadFull(body, first)
	if err == nil {
		buf := s.buffer()
		defer s.release(buf)
		copy(buf, first)
		var m int
		m, err = io.ReadFull(body, buf[len(first):])
		first, n = buf, len(first)+m
	}
	var id, etag *string
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		// The whole body fits one part: one request, no upload to abort.
		mode, until, tagging := rt.lock()
		out, perr := s.client.PutObject(ctx, &s3.PutObjectInput{
			Bucket:                    &s.bucket,
			Key:                       &key,
			Body:                      bytes.NewReader(first[:n]),
			ContentLength:             aws.Int64(int64(n)),
			ObjectLockMode:            mode,
			ObjectLockRetainUntilDate: until,
			Tagging:                   tagging,
			StorageClass:              rt.class(int64(n)),
		})
		if perr != nil {
			return Version{}, s.fail("put", key, "", perr)
		}
		id, etag = out.VersionId, out.ETag
	case err != nil:
		return Version{}, fmt.Errorf("blob: put %q: read body: %w", key, err)
	default:
		done, perr := s.putMultipart(ctx, key, first, body, rt)
		if perr != nil {
			return Version{}, perr
		}
		id, etag = done.VersionId, done.ETag
	}
	return s.written(ctx, "put", key, id, etag)
}

// written describes the version a write made. The ETag is the write's own
// answer: a HEAD racing other writes to the key may describe another
// version's bytes on some servers (the Versity gateway does), and the
// answer to the write cannot.
func (s *S3) written(ctx context.Context, op, key string, id, etag *string) (Version, error) {
	if aws.ToString(id) == "" {
		return Version{}, fmt.Errorf("blob: %s %q: bucket %s has no versioning: the object was overwritten, not versioned", op, key, s.bucket)
	}
	v, err := s.head(ctx, op, key, *id)
	if err != nil {
		return Version{}, err
	}
	if e := unquote(aws.ToString(etag)); e != "" {
		v.ETag = e
	}
	return v, nil
}

// putMultipart uploads first and the rest of body as parts, at most
// s.parallel in flight, and completes the upload; any failure aborts it so
// no parts linger (and cost) in the bucket.
func (s *S3) putMultipart(ctx context.Context, key string, first []byte, body io.Reader, rt retention) (*s3.CompleteMultipartUploadOutput, error) {
	mode, until, tagging := rt.lock()
	created, err := s.client.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{
		Bucket: &s.bucket, Key: &key, ObjectLockMode: mode, ObjectLockRetainUntilDate: until, Tagging: tagging,
		StorageClass: rt.class(int64(len(first))), // a multipart body is larger than a part
	})
	if err != nil {
		return nil, s.fail("put", key, "", err)
	}
	uploadID := created.UploadId

	uctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	free := make(chan []byte, s.parallel) // buffers whose part is uploaded
	allocated := 1                        // first is the caller's to recycle
	var mine [][]byte
	defer func() {
		for _, b := range mine {
			s.release(b)
		}
	}()
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		parts []types.CompletedPart
	)
	send := func(num int32, data []byte) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := s.client.UploadPart(uctx, &s3.UploadPartInput{
				Bucket: &s.bucket, Key: &key, UploadId: uploadID, PartNumber: aws.Int32(num),
				Body: bytes.NewReader(data), ContentLength: aws.Int64(int64(len(data))),
			})
			if err != nil {
				cancel(fmt.Errorf("blob: put %q: part %d: %w", key, num, err))
			} else {
				mu.Lock()
				parts = append(parts, types.CompletedPart{PartNumber: aws.Int32(num), ETag: out.ETag})
				mu.Unlock()
			}
			free <- data[:cap(data)]
		}()
	}

	send(1, first)
	for num := int32(2); uctx.Err() == nil; num++ {
		var buf []byte
		if allocated < s.parallel {
			buf = s.buffer()
			mine = append(mine, buf)
			allocated++
		} else {
			select {
			case buf = <-free:
			case <-uctx.Done():
			}
		}
		if buf == nil {
			break // a part failed: stop reading
		}
		n, err := io.ReadFull(body, buf)
		if n > 0 && (err == nil || err == io.ErrUnexpectedEOF) {
			if num > 10000 {
				cancel(fmt.Errorf("blob: put %q: more than 10,000 parts of %d bytes", key, s.partSize))
				break
			}
			send(num, buf[:n])
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			cancel(fmt.Errorf("blob: put %q: read body: %w", key, err))
			break
		}
	}
	wg.Wait()
	if err := context.Cause(uctx); err != nil {
		if err == ctx.Err() { // the caller's cancellation, not one of ours
			err = fmt.Errorf("blob: put %q: %w", key, err)
		}
		return nil, s.abort(ctx, key, uploadID, err)
	}
	slices.SortFunc(parts, func(a, b types.CompletedPart) int { return int(*a.PartNumber - *b.PartNumber) })
	done, err := s.client.CompleteMultipartUpload(ctx, &s3.CompleteMultipartUploadInput{
		Bucket: &s.bucket, Key: &key, UploadId: uploadID,
		MultipartUpload: &types.CompletedMultipartUpload{Parts: parts},
	})
	if err != nil {
		return nil, s.abort(ctx, key, uploadID, s.fail("put", key, "", err))
	}
	return done, nil
}

// abort drops an upload after err, even when ctx was what ended it.
func (s *S3) abort(ctx context.Context, key string, uploadID *string, err error) error {
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	_, aerr := s.client.AbortMultipartUpload(actx, &s3.AbortMultipartUploadInput{Bucket: &s.bucket, Key: &key, UploadId: uploadID})
	if aerr != nil {
		return errors.Join(err, fmt.Errorf("blob: abort upload of %q (a bucket lifecycle rule must clean it up): %w", key, aerr))
	}
	return err
}

// head describes one version; PutObject and CompleteMultipartUpload do not
// return its size and time.
func (s *S3) head(ctx context.Context, op, key, versionID string) (Version, error) {
	out, err := s.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &s.bucket, Key: &key, VersionId: &versionID})
	if err != nil {
		return Version{}, s.fail(op, key, versionID, err)
	}
	return Version{
		ID:       versionID,
		Size:     aws.ToInt64(out.ContentLength),
		ETag:     unquote(aws.ToString(out.ETag)),
		Modified: modified(out.LastModified),
	}, nil
}

// Get opens one version with GetObject, ranged by an HTTP Range header.
func (s *S3) Get(ctx context.Context, key, versionID string, rng *Range) (io.ReadCloser, Version, error) {
	if err := ValidateKey(key); err != nil {
		return nil, Version{}, err
	}
	if err := checkRange(rng); err != nil {
		return nil, Version{}, err
	}
	in := &s3.GetObjectInput{Bucket: &s.bucket, Key: &key}
	if versionID != "" {
		in.VersionId = &versionID
	}
	if rng != nil {
		hdr := "bytes=" + strconv.FormatInt(rng.Offset, 10) + "-"
		if rng.Length > 0 {
			hdr += strconv.FormatInt(rng.Offset+rng.Length-1, 10)
		}
		in.Range = &hdr
	}
	out, err := s.client.GetObject(ctx, in)
	if err != nil {
		return nil, Version{}, s.fail("get", key, versionID, err)
	}
	v := Version{
		ID:       aws.ToString(out.VersionId),
		Size:     aws.ToInt64(out.ContentLength),
		ETag:     unquote(aws.ToString(out.ETag)),
		Modified: modified(out.LastModified),
	}
	if rng != nil {
		// "bytes 0-9/1234": the whole size is after the slash.
		cr := aws.ToString(out.ContentRange)
		total, err := strconv.ParseInt(cr[strings.LastIndexByte(cr, '/')+1:], 10, 64)
		if err != nil {
			out.Body.Close()
			return nil, Version{}, fmt.Errorf("blob: get %q: Content-Range %q: %w", key, cr, err)
		}
		v.Size = total
	}
	return out.Body, v, nil
}

// Versions lists the key's object versions, newest first as S3 lists them.
func (s *S3) Versions(ctx context.Context, key string) ([]Version, error) {
	if err := ValidateKey(key); err != nil {
		return nil, err
	}
	var vs []Version
	err := s.eachVersion(ctx, key, func(ov types.ObjectVersion) {
		vs = append(vs, Version{
			ID:       aws.ToString(ov.VersionId),
			Size:     aws.ToInt64(ov.Size),
			ETag:     unquote(aws.ToString(ov.ETag)),
			Modified: modified(ov.LastModified),
		})
	}, nil)
	if err != nil {
		return nil, s.fail("versions of", key, "", err)
	}
	if len(vs) == 0 {
		return nil, fmt.Errorf("blob: versions of %q: %w", key, ErrNotFound)
	}
	return vs, nil
}

// eachVersion calls fn for each version and marker of exactly key: the
// prefix also matches longer keys, which sort after it, so listing stops at
// the first of them.
func (s *S3) eachVersion(ctx context.Context, key string, fn func(types.ObjectVersion), marker func(types.DeleteMarkerEntry)) error {
	p := s3.NewListObjectVersionsPaginator(s.client, &s3.ListObjectVersionsInput{Bucket: &s.bucket, Prefix: &key})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return err
		}
		past := false
		for _, ov := range page.Versions {
			if aws.ToString(ov.Key) == key {
				fn(ov)
			} else {
				past = true
			}
		}
		for _, dm := range page.DeleteMarkers {
			if aws.ToString(dm.Key) == key && marker != nil {
				marker(dm)
			}
		}
		if past {
			return nil
		}
	}
	return nil
}

// DeleteVersion deletes one object version. S3 answers 204 for a version
// that does not exist, so a HEAD first tells the caller it was not there.
func (s *S3) DeleteVersion(ctx context.Context, key, versionID string) error {
	if err := ValidateKey(key); err != nil {
		return err
	}
	if versionID == "" {
		return fmt.Errorf("blob: delete %q version %q: %w", key, versionID, ErrNotFound)
	}
	if _, err := s.head(ctx, "delete", key, versionID); err != nil {
		return err
	}
	_, err := s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &s.bucket, Key: &key, VersionId: &versionID})
	if err != nil {
		return s.fail("delete", key, versionID, err)
	}
	return nil
}

// RetireVersion implements Retirer: the version is tagged RetiredTag (a
// version that does not exist is ErrNotFound).
func (s *S3) RetireVersion(ctx context.Context, key, versionID string) error {
	if err := ValidateKey(key); err != nil {
		return err
	}
	if versionID == "" {
		return fmt.Errorf("blob: retire %q version %q: %w", key, versionID, ErrNotFound)
	}
	_, err := s.client.PutObjectTagging(ctx, &s3.PutObjectTaggingInput{
		Bucket: &s.bucket, Key: &key, VersionId: &versionID,
		Tagging: &types.Tagging{TagSet: []types.Tag{{Key: aws.String(RetiredTag), Value: aws.String(RetiredValue)}}},
	})
	if err != nil {
		return s.fail("retire", key, versionID, err)
	}
	return nil
}

// LiveVersions implements Retirer: Versions, less those tagged retired
// (one tagging read per version).
func (s *S3) LiveVersions(ctx context.Context, key string) ([]Version, error) {
	vs, err := s.Versions(ctx, key)
	if err != nil {
		return nil, err
	}
	live := vs[:0]
	for _, v := range vs {
		out, err := s.client.GetObjectTagging(ctx, &s3.GetObjectTaggingInput{Bucket: &s.bucket, Key: &key, VersionId: &v.ID})
		if err != nil {
			return nil, s.fail("versions", key, v.ID, err)
		}
		if !slices.ContainsFunc(out.TagSet, func(t types.Tag) bool {
			return aws.ToString(t.Key) == RetiredTag && aws.ToString(t.Value) == RetiredValue
		}) {
			live = append(live, v)
		}
	}
	if len(live) == 0 {
		return nil, fmt.Errorf("blob: versions of %q: %w", key, ErrNotFound)
	}
	return live, nil
}

// Retire implements Retirer: every version is tagged, then a delete marker
// makes the current one noncurrent, so the lifecycle's grace applies to all.
func (s *S3) Retire(ctx context.Context, key string) error {
	if err := ValidateKey(key); err != nil {
		return err
	}
	var versions []string
	err := s.eachVersion(ctx, key, func(ov types.ObjectVersion) { versions = append(versions, aws.ToString(ov.VersionId)) }, func(types.DeleteMarkerEntry) {})
	if err != nil {
		return s.fail("retire", key, "", err)
	}
	if len(versions) == 0 {
		return fmt.Errorf("blob: retire %q: %w", key, ErrNotFound)
	}
	for _, v := range versions {
		if err := s.RetireVersion(ctx, key, v); err != nil {
			return err
		}
	}
	if _, err := s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &s.bucket, Key: &key}); err != nil {
		return s.fail("retire", key, "", err)
	}
	return nil
}

// Delete deletes every version of key (and any delete marker another
// client left) in batches of 1,000.
func (s *S3) Delete(ctx context.Context, key string) error {
	if err := ValidateKey(key); err != nil {
		return err
	}
	var ids []types.ObjectIdentifier
	found := false
	err := s.eachVersion(ctx, key, func(ov types.ObjectVersion) {
		found = true
		ids = append(ids, types.ObjectIdentifier{Key: &key, VersionId: ov.VersionId})
	}, func(dm types.DeleteMarkerEntry) {
		ids = append(ids, types.ObjectIdentifier{Key: &key, VersionId: dm.VersionId})
	})
	if err != nil {
		return s.fail("delete", key, "", err)
	}
	if !found {
		return fmt.Errorf("blob: delete %q: %w", key, ErrNotFound)
	}
	for batch := range slices.Chunk(ids, 1000) {
		out, err := s.client.DeleteObjects(ctx, &s3.DeleteObjectsInput{
			Bucket: &s.bucket,
			Delete: &types.Delete{Objects: batch, Quiet: aws.Bool(true)},
		})
		if err != nil {
			return s.fail("delete", key, "", err)
		}
		if len(out.Errors) > 0 {
			e := out.Errors[0]
			return fmt.Errorf("blob: delete %q: version %s: %s: %s (%d errors)", key,
				aws.ToString(e.VersionId), aws.ToString(e.Code), aws.ToString(e.Message), len(out.Errors))
		}
	}
	return nil
}

// PresignGet presigns a GetObject whose answer carries the original name.
func (s *S3) PresignGet(ctx context.Context, key, versionID, filename string, ttl time.Duration) (string, error) {
	if err := ValidateKey(key); err != nil {
		return "", err
	}
	if err := checkTTL(ttl); err != nil {
		return "", err
	}
	in := &s3.GetObjectInput{
		Bucket:                     &s.bucket,
		Key:                        &key,
		ResponseContentDisposition: aws.String(ContentDisposition("attachment", filename)),
	}
	if versionID != "" {
		in.VersionId = &versionID
	}
	req, err := s.presign.PresignGetObject(ctx, in, s3.WithPresignExpires(ttl))
	if err != nil {
		return "", fmt.Errorf("blob: presign get %q: %w", key, err)
	}
	return req.URL, nil
}

// CreateUpload starts a multipart upload for a browser.
func (s *S3) CreateUpload(ctx context.Context, key string) (string, error) {
	if err := ValidateKey(key); err != nil {
		return "", err
	}
	out, err := s.client.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{Bucket: &s.bucket, Key: &key})
	if err != nil {
		return "", s.fail("create upload of", key, "", err)
	}
	return aws.ToString(out.UploadId), nil
}

// PresignPart presigns one UploadPart; the SDK signs it without a checksum
// header, which a browser could not send.
func (s *S3) PresignPart(ctx context.Context, key, uploadID string, partNumber int32, ttl time.Duration) (string, error) {
	if err := ValidateKey(key); err != nil {
		return "", err
	}
	if err := checkTTL(ttl); err != nil {
		return "", err
	}
	if partNumber < 1 || partNumber > 10000 {
		return "", fmt.Errorf("blob: presign part of %q: part number %d outside 1..10000", key, partNumber)
	}
	if uploadID == "" {
		return "", fmt.Errorf("blob: presign part of %q: upload %q: %w", key, uploadID, ErrNotFound)
	}
	req, err := s.presign.PresignUploadPart(ctx, &s3.UploadPartInput{
		Bucket: &s.bucket, Key: &key, UploadId: &uploadID, PartNumber: &partNumber,
	}, s3.WithPresignExpires(ttl))
	if err != nil {
		return "", fmt.Errorf("blob: presign part of %q: %w", key, err)
	}
	return req.URL, nil
}

// CompleteUpload joins the parts into a new version.
func (s *S3) CompleteUpload(ctx context.Context, key, uploadID string, parts []Part) (Version, error) {
	if err := ValidateKey(key); err != nil {
		return Version{}, err
	}
	if uploadID == "" {
		return Version{}, fmt.Errorf("blob: complete upload of %q: upload %q: %w", key, uploadID, ErrNotFound)
	}
	if len(parts) == 0 {
		return Version{}, fmt.Errorf("blob: complete upload of %q: no parts", key)
	}
	cps := make([]types.CompletedPart, len(parts))
	for i, p := range parts {
		etag := `"` + unquote(p.ETag) + `"`
		cps[i] = types.CompletedPart{PartNumber: aws.Int32(p.Number), ETag: &etag}
	}
	slices.SortFunc(cps, func(a, b types.CompletedPart) int { return int(*a.PartNumber - *b.PartNumber) })
	out, err := s.client.CompleteMultipartUpload(ctx, &s3.CompleteMultipartUploadInput{
		Bucket: &s.bucket, Key: &key, UploadId: &uploadID,
		MultipartUpload: &types.CompletedMultipartUpload{Parts: cps},
	})
	if err != nil {
		return Version{}, s.fail("complete upload of", key, "", err)
	}
	return s.written(ctx, "complete upload of", key, out.VersionId, out.ETag)
}

// AbortUpload drops a browser's upload and its parts.
func (s *S3) AbortUpload(ctx context.Context, key, uploadID string) error {
	if err := ValidateKey(key); err != nil {
		return err
	}
	if uploadID == "" {
		return fmt.Errorf("blob: abort upload of %q: upload %q: %w", key, uploadID, ErrNotFound)
	}
	_, err := s.client.AbortMultipartUpload(ctx, &s3.AbortMultipartUploadInput{Bucket: &s.bucket, Key: &key, UploadId: &uploadID})
	if err != nil {
		return s.fail("abort upload of", key, "", err)
	}
	return nil
}

// fail wraps an SDK error, mapping the answers that mean "no such thing"
// to ErrNotFound and an unsatisfiable range to ErrInvalidRange.
func (s *S3) fail(op, key, versionID string, err error) error {
	what := fmt.Sprintf("blob: %s %q", op, key)
	if versionID != "" {
		what += fmt.Sprintf(" version %q", versionID)
	}
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		switch apiErr.ErrorCode() {
		case "NoSuchKey", "NoSuchVersion", "NotFound", "NoSuchUpload":
			return fmt.Errorf("%s: %w (%w)", what, ErrNotFound, err)
		case "InvalidRange":
			return fmt.Errorf("%s: %w (%w)", what, ErrInvalidRange, err)
		}
	}
	var respErr *awshttp.ResponseError
	if errors.As(err, &respErr) {
		switch status := respErr.HTTPStatusCode(); {
		case status == http.StatusNotFound:
			return fmt.Errorf("%s: %w (%w)", what, ErrNotFound, err)
		case status == http.StatusRequestedRangeNotSatisfiable:
			return fmt.Errorf("%s: %w (%w)", what, ErrInvalidRange, err)
		case status == http.StatusBadRequest && versionID != "":
			// S3 answers 400 "Invalid version id specified" for an ID
			// it could never have issued: for the caller, no such version.
			return fmt.Errorf("%s: %w (%w)", what, ErrNotFound, err)
		}
	}
	return fmt.Errorf("%s: %w", what, err)
}

// modified keeps whole seconds: HEAD and GET answer Last-Modified in
// seconds, listings in milliseconds, and one version must have one time.
func modified(t *time.Time) time.Time { return aws.ToTime(t).Truncate(time.Second) }

func unquote(etag string) string { return strings.Trim(etag, `"`) }
