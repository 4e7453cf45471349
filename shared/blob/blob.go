// Package blob is the drive's blob port: versioned byte streams under keys.
// Two real implementations satisfy it — FS (files under <data>/blobs, the
// embedded default) and S3 (a versioned bucket) — and both pass the same
// conformance suite in blob/blobtest.
//
// Every method streams: bodies go from the caller's reader to the backend
// and from the backend to the caller's writer in bounded buffers, so the
// size of a file never becomes the size of a process.
package blob

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"
)

// Sentinel errors, wrapped with %w; the HTTP layer maps them to statuses.
var (
	// ErrNotFound: the key has no versions, or not the version asked for,
	// or the multipart upload does not exist (any more).
	ErrNotFound = errors.New("blob not found")
	// ErrInvalidKey: the key is refused before any backend sees it.
	ErrInvalidKey = errors.New("invalid blob key")
	// ErrInvalidRange: the range starts at or past the end of the version
	// (HTTP 416), or has a negative offset or length.
	ErrInvalidRange = errors.New("invalid blob range")
)

// MaxKeyBytes bounds a key on every backend (S3's own limit), so the
// filesystem accepts exactly the keys S3 accepts.
const MaxKeyBytes = 1024

// Version is one stored version of a key. Versions are immutable: a new Put
// makes a new version and never changes an old one.
type Version struct {
	// ID names the version within its key; opaque to callers. Filesystem
	// IDs sort by commit time; S3 IDs are the bucket's version IDs.
	ID   string
	Size int64 // bytes of the whole version, also when a range was read
	// ETag is a strong validator of the content, without quotes: equal
	// bytes may share one, different bytes never do. S3: the object's ETag
	// (MD5 or multipart form); filesystem: 128 bits of the content's SHA-256.
	ETag     string
	Modified time.Time // when the version was committed (S3: second precision)
}

// Range selects bytes of a version, as an HTTP Range or a WebDAV partial GET.
type Range struct {
	Offset int64 // first byte, >= 0 and < the version's size
	// Length is the number of bytes wanted; 0 means "to the end". A range
	// running past the end is cut at the end, as HTTP does.
	Length int64
}

// Part is one uploaded part of a multipart upload, as the client saw it.
type Part struct {
	Number int32  // 1..10000, in the order the parts make the object
	ETag   string // the ETag header the part's PUT answered (quotes allowed)
}

// Store is the blob port. Keys are validated by ValidateKey on every call.
// Implementations are safe for concurrent use.
type Store interface {
	// Put stores r's bytes as the newest version of key. A Put that fails
	// (reader error, cancelled context, backend error) leaves no version
	// and nothing visible behind.
	Put(ctx context.Context, key string, r io.Reader) (Version, error)
	// Get opens one version (versionID "" = the newest), all of it or the
	// range rng (nil = all). The returned Version describes the whole
	// version. The caller closes the reader.
	Get(ctx context.Context, key, versionID string, rng *Range) (io.ReadCloser, Version, error)
	// Versions lists the versions of key, newest first; ErrNotFound when
	// there are none.
	Versions(ctx context.Context, key string) ([]Version, error)
	// DeleteVersion removes one version; the next newest becomes current.
	DeleteVersion(ctx context.Context, key, versionID string) error
	// Delete removes every version of key.
	Delete(ctx context.Context, key string) error
}

// Presigner is implemented by backends that clients can reach directly
// (S3): downloads and browser uploads then bypass the server, which matters
// on Lambda, whose requests and answers stop at 6 MB.
type Presigner interface {
	// PresignGet returns a URL that GETs one version (versionID "" = the
	// newest) for ttl, answering with Content-Disposition: attachment and
	// filename as the saved name (see ContentDisposition).
	PresignGet(ctx context.Context, key, versionID, filename string, ttl time.Duration) (string, error)
	// CreateUpload starts a multipart upload to key and returns its ID.
	CreateUpload(ctx context.Context, key string) (uploadID string, err error)
	// PresignPart returns a URL to PUT part partNumber (1..10000) of an
	// upload for ttl. Every part but the last must be at least 5 MiB; the
	// client keeps the ETag header of each answer for CompleteUpload.
	PresignPart(ctx context.Context, key, uploadID string, partNumber int32, ttl time.Duration) (string, error)
	// CompleteUpload joins the parts into the newest version of key.
	CompleteUpload(ctx context.Context, key, uploadID string, parts []Part) (Version, error)
	// AbortUpload drops an upload and its parts.
	AbortUpload(ctx context.Context, key, uploadID string) error
}

// MaxPresignTTL is SigV4's limit on a presigned URL's life.
const MaxPresignTTL = 7 * 24 * time.Hour

// ValidateKey refuses keys that could escape a directory, confuse a path
// mapping or not survive S3's XML listings: empty, longer than MaxKeyBytes,
// not UTF-8, a leading "/", an empty, "." or ".." segment, NUL or any other
// control character. The error wraps ErrInvalidKey and says why.
func ValidateKey(key string) error {
	why := ""
	switch {
	case key == "":
		why = "empty"
	case len(key) > MaxKeyBytes:
		why = fmt.Sprintf("longer than %d bytes", MaxKeyBytes)
	case !utf8.ValidString(key):
		why = "not valid UTF-8"
	case strings.HasPrefix(key, "/"):
		why = `starts with "/"`
	case strings.ContainsFunc(key, isControl):
		why = "contains a control character"
	default:
		for seg := range strings.SplitSeq(key, "/") {
			switch seg {
			case "":
				why = `has an empty segment ("//" or a trailing "/")`
			case ".", "..":
				why = fmt.Sprintf("has a %q segment", seg)
			}
			if why != "" {
				break
			}
		}
	}
	if why == "" {
		return nil
	}
	shown := key
	if len(shown) > 80 {
		shown = shown[:80] + "…"
	}
	return fmt.Errorf("%w %q: %s", ErrInvalidKey, shown, why)
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }

// checkRange refuses what no backend could serve; a start past the end is
// found by each backend, which knows the size.
func checkRange(rng *Range) error {
	if rng != nil && (rng.Offset < 0 || rng.Length < 0) {
		return fmt.Errorf("%w: offset %d, length %d", ErrInvalidRange, rng.Offset, rng.Length)
	}
	return nil
}

func checkTTL(ttl time.Duration) error {
	if ttl <= 0 || ttl > MaxPresignTTL {
		return fmt.Errorf("blob: presign ttl %v outside (0, %v]", ttl, MaxPresignTTL)
	}
	return nil
}

// ContentDisposition returns a Content-Disposition value (RFC 6266) for
// disposition ("attachment" or "inline") that names the file filename in
// every browser: an ASCII fallback in filename="…" for old clients, and the
// exact name in filename* (UTF-8, RFC 5987 percent-encoding), which clients
// that know it prefer. Quotes, backslashes and control characters
// never reach the header, so a name cannot inject header text.
func ContentDisposition(disposition, filename string) string {
	if filename == "" {
		return disposition
	}
	var fallback, ext strings.Builder
	for _, r := range filename {
		switch {
		case r == utf8.RuneError, isControl(r), r == '"', r == '\\', r > 0x7e:
			fallback.WriteByte('_')
		default:
			fallback.WriteRune(r)
		}
	}
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(filename); i++ {
		c := filename[i]
		if isAttrChar(c) {
			ext.WriteByte(c)
		} else {
			ext.WriteByte('%')
			ext.WriteByte(hex[c>>4])
			ext.WriteByte(hex[c&15])
		}
	}
	return fmt.Sprintf(`%s; filename="%s"; filename*=UTF-8''%s`, disposition, fallback.String(), ext.String())
}

// isAttrChar is RFC 5987's attr-char: what may stand unencoded in ext-value.
func isAttrChar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("!#$&+-.^_`|~", c) >= 0
}

// ctxReader stops a stream once its context ends, so a cancelled request
// stops reading a body (and writing a temp file) at the next buffer.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// RetentionTag is the object tag a retained version carries: the
// backups bucket's lifecycle rules expire versions by its value.
const RetentionTag = "retention"

// RetiredTag is the object tag, with value RetiredValue, of a version the
// drive no longer lists: the bucket's lifecycle removes such versions a
// grace period after they became noncurrent.
const (
	RetiredTag   = "retired"
	RetiredValue = "drive"
)

// Retirer is a Store whose versions can be retired instead of deleted:
// tagged RetiredTag, and removed by the bucket's lifecycle after a grace
// period, so that a table restored to a point inside it still finds every
// version it lists (docs/operating.md, disaster recovery).
type Retirer interface {
	// RetireVersion retires one noncurrent version.
	RetireVersion(ctx context.Context, key, versionID string) error
	// Retire retires every version of key and hides the key (a delete
	// marker), so that its current version becomes noncurrent too.
	Retire(ctx context.Context, key string) error
	// LiveVersions is Versions without the retired ones.
	LiveVersions(ctx context.Context, key string) ([]Version, error)
}

// Live lists the versions of key that are not retired, newest first.
func Live(ctx context.Context, s Store, key string) ([]Version, error) {
	if r, ok := s.(Retirer); ok {
		return r.LiveVersions(ctx, key)
	}
	return s.Versions(ctx, key)
}

// Retainer is a Store that can write a version nobody may delete before a
// date (S3 Object Lock, governance mode): the backups' store. Deleting is
// then the bucket lifecycle's work, by the version's retention class.
type Retainer interface {
	PutRetained(ctx context.Context, key string, r io.Reader, rt Retention) (Version, error)
	// Extend moves the lock of key's current version to until. A lock
	// cannot be shortened: an until before the version's lock fails.
	Extend(ctx context.Context, key string, until time.Time) error
	// Reclass tags key's current version with class (the lifecycle rule
	// it falls under), unless that version was written at or after
	// writtenBefore; it reports whether it did.
	Reclass(ctx context.Context, key, class string, writtenBefore time.Time) (bool, error)
}

// Retention is how a retained version is kept: locked until Until and
// tagged RetentionTag=Class, the tag the bucket's lifecycle rules expire
// versions by. Cold versions that are large enough go to an archive class
// read in milliseconds but billed less to keep (S3 Glacier Instant
// Retrieval): bytes kept for months and read only to restore.
type Retention struct {
	Until time.Time
	Class string
	Cold  bool
}

// ColdMinSize is the smallest version written cold: Glacier Instant
// Retrieval bills each object at least 128 KiB, so a smaller one costs
// less in S3 Standard.
const ColdMinSize = 128 << 10
