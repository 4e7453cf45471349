package httpapi

import (
	"net/http"

	"github.com/klauspost/compress/gzhttp"
)

// gzipMinBytes: smaller answers gain nothing from compression.
const gzipMinBytes = 1024

// Compress gzips the answers of h for clients that accept it (negotiated
// from Accept-Encoding, with Vary set), leaving bodies under 1 KiB alone;
// Flush passes through, so streamed answers still flush. ETags are kept
// unchanged: CouchDB clients send a document's ETag back as its revision.
// On Lambda the gzipped body is binary, so the API Gateway adapter returns
// it base64-encoded and API Gateway decodes it for the client.
func Compress(h http.Handler) http.Handler {
	wrap, err := gzhttp.NewWrapper(gzhttp.MinSize(gzipMinBytes), gzhttp.EnableZstd(false))
	if err != nil {
		panic(err) // the options are constants
	}
	return wrap(h)
}
