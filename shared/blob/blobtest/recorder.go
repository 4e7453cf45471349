package blobtest

import (
	"net/http"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// Recorder counts what an S3 client asks of the server, by kind, for
// tests and benchmarks that measure requests and bytes rather than trust
// a server that ignores part of them (the gateway stores every storage
// class alike).
type Recorder struct {
	next http.RoundTripper

	sync.Mutex // guards the counts
	// Objects counts object writes (PutObject, CreateMultipartUpload);
	// Bytes the bodies written (PutObject, UploadPart).
	Objects int
	Bytes   int64
	// Retentions counts PutObjectRetention, Taggings PutObjectTagging.
	Retentions, Taggings int
	// Classes is the storage class each object write asked for, by the
	// key's last segment ("" for the bucket's default).
	Classes map[string]string
}

// Recording returns a copy of client whose requests r records.
func Recording(client *s3.Client) (*s3.Client, *Recorder) {
	r := &Recorder{next: http.DefaultTransport, Classes: map[string]string{}}
	return s3.New(client.Options(), func(o *s3.Options) { o.HTTPClient = &http.Client{Transport: r} }), r
}

// RoundTrip implements http.RoundTripper.
func (r *Recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	q := req.URL.Query()
	r.Lock()
	switch {
	case req.Method == http.MethodPut && q.Has("retention"):
		r.Retentions++
	case req.Method == http.MethodPut && q.Has("tagging"):
		r.Taggings++
	case req.Method == http.MethodPut && q.Has("partNumber"):
		r.Bytes += max(req.ContentLength, 0)
	case req.Method == http.MethodPut && !q.Has("uploadId") || req.Method == http.MethodPost && q.Has("uploads"):
		r.Objects++
		r.Bytes += max(req.ContentLength, 0)
		r.Classes[req.URL.Path[strings.LastIndexByte(req.URL.Path, '/')+1:]] = req.Header.Get("X-Amz-Storage-Class")
	}
	r.Unlock()
	return r.next.RoundTrip(req)
}

// Snapshot returns the counts so far and resets them.
func (r *Recorder) Snapshot() (objects int, bytes int64, retentions, taggings int) {
	r.Lock()
	defer r.Unlock()
	objects, bytes, retentions, taggings = r.Objects, r.Bytes, r.Retentions, r.Taggings
	r.Objects, r.Bytes, r.Retentions, r.Taggings = 0, 0, 0, 0
	return
}

// Class is the storage class the write of key (its last segment) asked for.
func (r *Recorder) Class(key string) (string, bool) {
	r.Lock()
	defer r.Unlock()
	c, ok := r.Classes[key]
	return c, ok
}
