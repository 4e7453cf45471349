// Package dav serves the drive (shared/drive) over WebDAV with
// golang.org/x/net/webdav, on a webdav.FileSystem over the drive's domain
// — never over the operating system's files — in the manner of SFTPGo's
// WebDAV server over its own virtual file system.
//
//	/dav/                      one folder per Group the user may use (its db name, acc-…)
//	/dav/{db}/…                that Group's drive: folders and files by name
//
// Clients sign in with HTTP Basic auth: the user's e-mail and one of their
// API tokens (a token limited to some Groups sees only those; a read token
// can read, not write). Every write goes through the drive's rules exactly
// as the API's routes do: names (NFC, no "/", control characters, "." or
// ".."), the name claim (409 on a taken name), the Group's quota (507
// before any byte is read when the length is declared, and as soon as a
// chunked body outgrows it, leaving nothing), versions (each PUT is a new
// version; beyond max_versions the oldest go), and DELETE moves to the
// trash. Locks live in the store (locks.go), dead properties on the
// entry's document (PROPPATCH), and every file has its Content-Type and
// its ETag (the content's SHA-256, the API's own).
package dav

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/net/webdav"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/drive"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/ratelimit"
	"github.com/oficina/oficina/shared/store"
)

// Prefix is where the server is mounted.
const Prefix = "/dav"

// Tokens resolves an API token to its user (auth.Service.TokenPrincipal).
type Tokens interface {
	TokenPrincipal(ctx context.Context, token string) (*access.Principal, error)
}

// Options build a Handler.
type Options struct {
	Store  store.Store
	Tokens Tokens
	Drive  *drive.Module
	Log    *slog.Logger
	// Prefix is the mount point (default "/dav").
	Prefix string
	// MaxListing bounds the entries one folder's PROPFIND lists (default 10,000).
	MaxListing int
	// Limiter counts failed sign-ins per client address (SignInFailures;
	// nil: none). Its Edge says who the client is: behind the Lambda Web
	// Adapter, the sourceIp of the Function URL's request context.
	Limiter *ratelimit.Limiter
	// MaxPut is the largest PUT body taken (0: the drive's limits only).
	// On Lambda it is what fits in a request payload: a PUT declaring more
	// gets 413 (MsgPutTooLarge) before anything else, a chunked one as soon
	// as its body passes it, and nothing is stored.
	MaxPut int64
	// RedirectAbove makes a GET of a file larger than this many bytes a 302
	// to a presigned GET on the blob store (S3), which has no answer limit
	// (0: never; nor on a store that presigns nothing). On Lambda it is
	// the Function URL's response limit.
	RedirectAbove int64
}

// SignInFailures bounds failed sign-ins per client address (IPv6 by /64):
// past it, every request from that address that carries credentials gets
// 429 with Retry-After until the window ends, before its token is looked
// up. Requests without credentials get 401 and touch nothing.
var SignInFailures = ratelimit.Limit{Name: "dav-signin", Max: 20, Per: 15 * time.Minute}

// Handler is the WebDAV server.
type Handler struct {
	st            store.Store
	tokens        Tokens
	drive         *drive.Module
	log           *slog.Logger
	prefix        string
	maxListing    int
	limiter       *ratelimit.Limiter
	maxPut        int64
	redirectAbove int64
}

// New builds the handler.
func New(o Options) *Handler {
	h := &Handler{st: o.Store, tokens: o.Tokens, drive: o.Drive, log: o.Log, prefix: o.Prefix, maxListing: o.MaxListing,
		limiter: o.Limiter, maxPut: o.MaxPut, redirectAbove: o.RedirectAbove}
	if h.log == nil {
		h.log = slog.New(slog.DiscardHandler)
	}
	if h.prefix == "" {
		h.prefix = Prefix
	}
	h.prefix = strings.TrimSuffix(h.prefix, "/")
	if h.maxListing <= 0 {
		h.maxListing = 10_000
	}
	return h
}

// Matches reports whether path is the handler's (the mount point or below).
func (h *Handler) Matches(path string) bool {
	return path == h.prefix || strings.HasPrefix(path, h.prefix+"/")
}

// Handles reports whether the handler answers r: its paths, and OPTIONS
// on "/", which Windows' WebDAV client sends to the host before it
// connects to a folder of it.
func (h *Handler) Handles(r *http.Request) bool {
	return h.Matches(r.URL.Path) || (r.Method == http.MethodOptions && r.URL.Path == "/")
}

// Reasons of the handler's own refusals.
const (
	MsgAuth        = "Sign in with your e-mail as the user name and an API token as the password"
	MsgBadPath     = `A path cannot contain an encoded "/" (%2F), "." or ".." segments, or empty segments`
	MsgFiniteDepth = "PROPFIND with Depth: infinity is not served: ask with Depth 0 or 1"
	MsgOtherGroup  = "Copies and moves stay within one Group's folder"
	MsgTopLevel    = "The top level holds one folder per Group: create files and folders inside a Group's folder"
	// MsgPutTooLarge names the limit (MaxPut) and the ways around it.
	MsgPutTooLarge = "This WebDAV server takes files of at most %s: it runs on AWS Lambda, whose requests stop at 6 MB " +
		"(6,291,456 bytes, with the file base64-encoded). Upload larger files in the web app's drive, " +
		"or through the same server image run on AWS App Runner or Fargate, which has no such limit"
)

// ExpectedLengthHeader is where macOS's WebDAV client declares the length
// of a chunked PUT.
const ExpectedLengthHeader = "X-Expected-Entity-Length"

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.serve(w, r)
}

func (h *Handler) serve(w http.ResponseWriter, r *http.Request) {
	hdr := w.Header()
	// Files are served from the app's origin: a browser must never run
	// them as the app's pages.
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Content-Security-Policy", "sandbox; default-src 'none'")
	if r.Method == http.MethodOptions && !h.Matches(r.URL.Path) {
		davOptions(w, "OPTIONS")
		return
	}
	// "/dav" is the top level as "/dav/" is: Windows' client does not
	// follow a redirect of a PROPFIND.
	rest := strings.TrimPrefix(strings.TrimPrefix(r.URL.Path, h.prefix), "/")
	if !cleanPath(r.URL, rest) {
		plain(w, http.StatusBadRequest, MsgBadPath)
		return
	}
	if r.Method == http.MethodPut && h.maxPut > 0 && declaredLength(r) > h.maxPut {
		plain(w, http.StatusRequestEntityTooLarge, h.putTooLarge())
		return
	}
	p, err := h.authenticate(r)
	if fe, ok := fault.As(err); ok && fe.Kind == fault.TooManyRequests {
		h.log.WarnContext(r.Context(), "webdav: sign-ins refused after failures", "client", h.limiter.ClientAddress(r))
		hdr.Set("Retry-After", strconv.Itoa(fe.RetryAfter))
		plain(w, http.StatusTooManyRequests, fe.Reason)
		return
	}
	if err != nil {
		h.log.ErrorContext(r.Context(), "webdav: authenticate", "err", err)
		plain(w, http.StatusInternalServerError, "Undefined error")
		return
	}
	if p == nil {
		hdr.Set("WWW-Authenticate", `Basic realm="Oficina", charset="UTF-8"`)
		plain(w, http.StatusUnauthorized, MsgAuth)
		return
	}
	db, sub, _ := strings.Cut(rest, "/")
	if db == "" {
		h.serveTop(w, r, p)
		return
	}
	ctx := r.Context()
	if pre, ok := ids.Parse(db); !ok || pre != "acc" || access.Check(ctx, h.st, p, db, access.Read) != nil {
		if sub == "" && writes(r.Method) {
			plain(w, http.StatusForbidden, MsgTopLevel)
			return
		}
		plain(w, http.StatusNotFound, "Not found")
		return
	}
	if writes(r.Method) {
		if err := access.Check(ctx, h.st, p, db, access.Write); err != nil {
			fe, _ := fault.As(err)
			reason := fault.MsgPermissionDenied
			if fe != nil && fe.Kind != fault.Internal {
				reason = fe.Reason
			}
			plain(w, http.StatusForbidden, reason)
			return
		}
	}
	if r.Method == "PROPFIND" {
		switch r.Header.Get("Depth") {
		case "infinity":
			finiteDepth(w)
			return
		case "":
			r.Header.Set("Depth", "1") // bounded: a missing Depth is not infinity here
		}
	}
	var xmlBody []byte
	if r.Method == "PROPFIND" || r.Method == "PROPPATCH" || r.Method == "LOCK" {
		body, err := readXMLBody(r)
		if err != nil {
			plain(w, http.StatusBadRequest, err.Error())
			return
		}
		xmlBody = body
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	mount := h.prefix + "/" + db
	if r.Method == "COPY" || r.Method == "MOVE" {
		if d := r.Header.Get("Destination"); d != "" {
			u, err := url.Parse(d)
			if err != nil || !cleanPath(u, strings.TrimPrefix(u.Path, h.prefix+"/")) {
				plain(w, http.StatusBadRequest, MsgBadPath)
				return
			}
			if u.Path != mount && !strings.HasPrefix(u.Path, mount+"/") {
				plain(w, http.StatusForbidden, MsgOtherGroup)
				return
			}
		}
	}
	req := &request{
		method: r.Method, path: clean("/" + sub), contentLength: r.ContentLength,
		contentType: r.Header.Get("Content-Type"), header: hdr,
	}
	fs := &fsys{h: h, db: db, p: p, req: req}
	if r.Method == http.MethodPut {
		// A body that fails to arrive (or passes MaxPut) must not become a
		// truncated version: the file's writer aborts on it.
		r.Body = &putBody{ReadCloser: r.Body, req: req, left: h.maxPut, tooLarge: h.maxPut > 0, reason: h.putTooLarge()}
	}
	if r.Method == http.MethodGet && h.redirectAbove > 0 && sub != "" && h.redirect(w, r, fs) {
		return
	}
	if r.Method == "PROPFIND" {
		fs.cache = map[string]drive.Entry{}
	}
	if r.Method == "PROPFIND" && fs.fastPropfind(ctx, w, xmlBody, mount, r.Header.Get("Depth")) {
		return
	}
	ls := &lockSystem{st: h.st, db: db, ctx: ctx, method: r.Method, fs: fs}
	if r.Method == "LOCK" {
		h.serveLock(w, r, fs, ls, mount)
		return
	}
	wd := &webdav.Handler{
		Prefix:     mount,
		FileSystem: fs,
		LockSystem: ls,
		Logger: func(r *http.Request, err error) {
			if err != nil && req.failure() == nil && !errors.Is(err, os.ErrNotExist) {
				h.log.DebugContext(r.Context(), "webdav", "method", r.Method, "path", r.URL.Path, "err", err)
			}
		},
	}
	ew := &errWriter{ResponseWriter: w, req: req, log: h.log, r: r}
	wd.ServeHTTP(ew, r)
}

// MaxXMLBody bounds the XML body of a PROPFIND, PROPPATCH or LOCK.
const MaxXMLBody = 1 << 20

// readXMLBody reads a request's XML body (at most MaxXMLBody) and refuses
// what Go's XML decoder lets through but XML Namespaces forbid: a prefix
// declared empty (xmlns:p="").
func readXMLBody(r *http.Request) ([]byte, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxXMLBody+1))
	if err != nil {
		return nil, fmt.Errorf("The request's body could not be read: %w", err)
	}
	if len(body) > MaxXMLBody {
		return nil, fmt.Errorf("The request's XML body is over %d bytes", MaxXMLBody)
	}
	dec := xml.NewDecoder(bytes.NewReader(body))
	for {
		tok, err := dec.RawToken()
		if err == io.EOF {
			return body, nil
		}
		if err != nil {
			return body, nil // the webdav handler answers malformed XML itself
		}
		if se, ok := tok.(xml.StartElement); ok {
			for _, a := range se.Attr {
				if a.Name.Space == "xmlns" && a.Value == "" {
					return nil, fmt.Errorf("Invalid XML: the namespace prefix %q is declared empty", a.Name.Local)
				}
			}
		}
	}
}

// writes reports whether a method changes the drive (or its locks).
func writes(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions, "PROPFIND":
		return false
	}
	return true
}

// cleanPath refuses what would let a path mean something else than its
// segments say: an encoded "/" (a name cannot hold one), "." and ".."
// segments, empty segments.
func cleanPath(u *url.URL, rest string) bool {
	if strings.Contains(strings.ToLower(u.EscapedPath()), "%2f") {
		return false
	}
	segs := strings.Split(rest, "/")
	for i, s := range segs {
		switch {
		case s == "." || s == "..":
			return false
		case s == "" && i != len(segs)-1:
			return false
		}
	}
	return true
}

// authenticate resolves Basic auth: the user's e-mail and an API token.
// A token whose user has another address is refused like a wrong one.
// Without credentials it answers nil at once, touching nothing; with the
// limiter, an address that failed SignInFailures times gets its 429 before
// the token is looked up, and every failure counts.
func (h *Handler) authenticate(r *http.Request) (*access.Principal, error) {
	user, pass, ok := r.BasicAuth()
	if !ok || user == "" || pass == "" {
		return nil, nil
	}
	ctx := r.Context()
	var client string
	if h.limiter != nil {
		client = ratelimit.AddressKey(h.limiter.ClientAddress(r))
		if err := h.limiter.Spent(ctx, SignInFailures, client); err != nil {
			return nil, err
		}
	}
	p, err := h.tokens.TokenPrincipal(ctx, pass)
	if err != nil {
		return nil, err
	}
	if p != nil {
		a, b := sha256.Sum256([]byte(strings.ToLower(strings.TrimSpace(user)))), sha256.Sum256([]byte(strings.ToLower(p.Email)))
		if subtle.ConstantTimeCompare(a[:], b[:]) == 1 {
			return p, nil
		}
	}
	if h.limiter != nil {
		return nil, h.limiter.Allow(ctx, SignInFailures, client)
	}
	return nil, nil
}

// declaredLength is the length a PUT says its body has: Content-Length,
// or macOS's X-Expected-Entity-Length on a chunked one (-1: unknown).
func declaredLength(r *http.Request) int64 {
	n := r.ContentLength
	if v, err := strconv.ParseInt(r.Header.Get(ExpectedLengthHeader), 10, 64); err == nil && v > n {
		n = v
	}
	return n
}

// putTooLarge is the 413's reason, naming MaxPut.
func (h *Handler) putTooLarge() string {
	return fmt.Sprintf(MsgPutTooLarge, byteSize(h.maxPut))
}

// byteSize writes n as "4 MiB (4,194,304 bytes)", or "N bytes" below a KiB.
func byteSize(n int64) string {
	digits := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, c := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	exact := b.String() + " bytes"
	for _, u := range []struct {
		name string
		size int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.size {
			x := math.Round(float64(n)/float64(u.size)*10) / 10
			return strconv.FormatFloat(x, 'f', -1, 64) + " " + u.name + " (" + exact + ")"
		}
	}
	return exact
}

// putBody is a PUT's body as the file system reads it: a read that fails
// (the client went away) or passes the size limit is recorded on the
// request, so the file's writer aborts instead of storing what arrived.
type putBody struct {
	io.ReadCloser
	req       *request
	left      int64 // bytes still allowed when tooLarge
	tooLarge  bool
	reason    string
	exhausted bool
}

func (b *putBody) Read(p []byte) (int, error) {
	if b.tooLarge && int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.ReadCloser.Read(p)
	if b.tooLarge {
		b.left -= int64(n)
		if b.left < 0 {
			err = fault.New(fault.TooLarge, b.reason)
			n = 0
		}
	}
	if err != nil && err != io.EOF {
		b.req.bodyFailed(err)
	}
	return n, err
}

// redirect answers a GET of a file over RedirectAbove with a 302 to a
// presigned GET of its content on the blob store; false leaves the
// request to the webdav handler (a folder, a smaller file, a missing
// path, or a store that presigns nothing).
func (h *Handler) redirect(w http.ResponseWriter, r *http.Request, fs *fsys) bool {
	e, err := fs.resolve(r.Context(), fs.req.path)
	if err != nil || e.Dir || e.Size <= h.redirectAbove {
		return false
	}
	u, err := h.drive.FSPresign(r.Context(), fs.db, e)
	if err != nil {
		h.log.ErrorContext(r.Context(), "webdav: presign a large file", "db", fs.db, "id", e.ID, "err", err)
		plain(w, http.StatusInternalServerError, "Undefined error")
		return true
	}
	if u == "" {
		return false
	}
	hdr := w.Header()
	hdr.Set("Location", u)
	hdr.Set("Cache-Control", "no-store")
	plain(w, http.StatusFound, "This file is served from the file storage: follow the Location header")
	return true
}

// groups lists the Groups p may read: the token's, or the user's memberships.
func (h *Handler) groups(ctx context.Context, p *access.Principal) []string {
	cand := p.TokenDBs
	if len(cand) == 0 {
		for _, r := range p.Roles {
			if pre, ok := ids.Parse(r); ok && pre == "acc" {
				cand = append(cand, r)
			}
		}
	}
	var out []string
	for _, db := range cand {
		if !slices.Contains(out, db) && access.Check(ctx, h.st, p, db, access.Read) == nil {
			out = append(out, db)
		}
	}
	slices.Sort(out)
	return out
}

// serveTop answers the top level: a read-only collection of Group folders.
func (h *Handler) serveTop(w http.ResponseWriter, r *http.Request, p *access.Principal) {
	switch r.Method {
	case http.MethodOptions:
		davOptions(w, "OPTIONS, PROPFIND")
	case "PROPFIND":
		depth := r.Header.Get("Depth")
		if depth == "infinity" {
			finiteDepth(w)
			return
		}
		var b strings.Builder
		b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<D:multistatus xmlns:D="DAV:">`)
		collection(&b, h.prefix+"/", "Oficina")
		if depth != "0" {
			for _, db := range h.groups(r.Context(), p) {
				collection(&b, h.prefix+"/"+db+"/", db)
			}
		}
		b.WriteString(`</D:multistatus>`)
		w.Header().Set("Content-Type", "application/xml; charset=utf-8")
		w.WriteHeader(http.StatusMultiStatus)
		_, _ = w.Write([]byte(b.String()))
	case http.MethodGet, http.MethodHead:
		plain(w, http.StatusMethodNotAllowed, "Open this address in a WebDAV client (see the drive's WebDAV help)")
	default:
		plain(w, http.StatusForbidden, MsgTopLevel)
	}
}

// davOptions answers an OPTIONS that names WebDAV's classes.
func davOptions(w http.ResponseWriter, allow string) {
	w.Header().Set("Allow", allow)
	w.Header().Set("DAV", "1, 2")
	w.Header().Set("MS-Author-Via", "DAV")
	w.WriteHeader(http.StatusOK)
}

func collection(b *strings.Builder, href, name string) {
	b.WriteString(`<D:response><D:href>`)
	_ = xml.EscapeText(b, []byte((&url.URL{Path: href}).EscapedPath()))
	b.WriteString(`</D:href><D:propstat><D:prop><D:resourcetype><D:collection/></D:resourcetype><D:displayname>`)
	_ = xml.EscapeText(b, []byte(name))
	b.WriteString(`</D:displayname><D:supportedlock/></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>`)
}

// finiteDepth is RFC 4918's refusal of an infinite-depth PROPFIND.
func finiteDepth(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/xml; charset=utf-8")
	w.WriteHeader(http.StatusForbidden)
	_, _ = fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?>`+"\n"+`<D:error xmlns:D="DAV:"><D:propfind-finite-depth/><D:responsedescription>%s</D:responsedescription></D:error>`, MsgFiniteDepth)
}

func plain(w http.ResponseWriter, status int, reason string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(reason + "\n"))
}

// statusOf maps a domain error the file system met to the answer.
func statusOf(err error) int {
	if errors.Is(err, store.ErrConflict) {
		return http.StatusConflict
	}
	fe, ok := fault.As(err)
	if !ok {
		return 0
	}
	switch fe.Kind {
	case fault.TooLarge:
		if errors.Is(err, drive.ErrFull) {
			return http.StatusInsufficientStorage
		}
		return http.StatusRequestEntityTooLarge
	case fault.BadRequest, fault.Unprocessable:
		return http.StatusBadRequest
	case fault.Forbidden:
		return http.StatusForbidden
	case fault.Conflict:
		return http.StatusConflict
	case fault.Precondition:
		return http.StatusPreconditionFailed
	case fault.Unauthorized:
		return http.StatusUnauthorized
	case fault.TooManyRequests:
		return http.StatusTooManyRequests
	}
	return 0
}

// reasonOf is what the answer says about a domain error.
func reasonOf(err error) string {
	fe, ok := fault.As(err)
	if !ok {
		return "Document update conflict: try again"
	}
	reason := fe.Reason
	for field, msgs := range fe.Fields {
		reason += fmt.Sprintf("; %s %s", field, strings.Join(msgs, ", "))
	}
	return reason
}

// errWriter replaces the webdav handler's generic failure statuses (405,
// 404, 500 for anything its file system returns) with the status and the
// reason of the domain error behind them: 507 for a full drive, 409 for a
// taken name, 400 for a bad name.
type errWriter struct {
	http.ResponseWriter
	req      *request
	log      *slog.Logger
	r        *http.Request
	replaced bool
	wrote    bool
}

func (w *errWriter) WriteHeader(code int) {
	if w.wrote {
		return
	}
	w.wrote = true
	w.req.mu.Lock()
	locked := w.req.locked
	w.req.mu.Unlock()
	if code == http.StatusPreconditionFailed && locked {
		// Every list of the If header failed and the resource is locked
		// by a token the request did not present: 423, not 412.
		w.replaced = true
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.ResponseWriter.WriteHeader(http.StatusLocked)
		_, _ = w.ResponseWriter.Write([]byte("Locked: present the lock's token in the If header\n"))
		return
	}
	if code >= 400 {
		if err := w.req.failure(); err != nil {
			if status := statusOf(err); status != 0 {
				w.replaced = true
				h := w.Header()
				h.Del("ETag")
				h.Set("Content-Type", "text/plain; charset=utf-8")
				w.ResponseWriter.WriteHeader(status)
				_, _ = w.ResponseWriter.Write([]byte(reasonOf(err) + "\n"))
				return
			}
			w.log.ErrorContext(w.r.Context(), "webdav", "method", w.r.Method, "path", w.r.URL.Path, "err", err)
		}
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *errWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	if w.replaced {
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the real writer.
func (w *errWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Drive is the drive the handler serves.
func (h *Handler) Drive() *drive.Module { return h.drive }
