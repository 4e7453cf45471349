package dav

import (
	"context"
	"encoding/xml"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"strings"
	"sync"
	"time"

	"golang.org/x/net/webdav"
	"golang.org/x/text/unicode/norm"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/blob"
	"github.com/oficina/oficina/shared/drive"
	"github.com/oficina/oficina/shared/fault"
)

// fsys is a webdav.FileSystem over one Group's drive, for one request: it
// never touches the operating system's files. Paths are resolved from the
// root through the drive's name claims (two reads per segment, whatever
// the size of the folders); a PROPFIND keeps what it read in a cache, so a
// listing of N entries costs one range read, not N lookups.
type fsys struct {
	h     *Handler
	db    string
	p     *access.Principal
	req   *request
	mu    sync.Mutex
	cache map[string]drive.Entry // PROPFIND only
}

// request is what a request's file system calls need from it, and the
// domain error they met (the answer's status comes from it).
type request struct {
	method        string
	path          string // the resource path (relative to the Group)
	contentLength int64
	contentType   string
	header        http.Header
	mu            sync.Mutex
	err           error
	bodyErr       error // reading a PUT's body failed (or it passed MaxPut)
	locked        bool  // an If header failed on a resource locked by others
}

// bodyFailed records the first failure to read a PUT's body.
func (r *request) bodyFailed(err error) {
	r.mu.Lock()
	if r.bodyErr == nil {
		r.bodyErr = err
	}
	r.mu.Unlock()
}

func (r *request) bodyError() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.bodyErr
}

func (r *request) setLocked() {
	r.mu.Lock()
	r.locked = true
	r.mu.Unlock()
}

func (r *request) fail(err error) error {
	if err == nil {
		return nil
	}
	if fe, ok := fault.As(err); ok && fe.Kind != fault.NotFound {
		r.mu.Lock()
		r.err = err
		r.mu.Unlock()
	}
	return err
}

// failure is the error the answer's status comes from: the body's own
// failure first (what the drive then met follows from it).
func (r *request) failure() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := fault.As(r.bodyErr); ok {
		return r.bodyErr
	}
	return r.err
}

// Junk reports whether name is one of macOS Finder's metadata files
// ("._*" AppleDouble files, ".DS_Store"). They are accepted and ignored:
// a PUT or MKCOL of one answers success and stores nothing; a read, a
// PROPFIND or a DELETE answers 404, as nothing is there. They never reach
// the Group's drive nor its quota.
func Junk(name string) bool {
	return name == ".DS_Store" || strings.HasPrefix(name, "._")
}

// clean turns a request path into "/"-separated NFC segments.
func clean(name string) string {
	p := path.Clean("/" + name)
	return norm.NFC.String(p)
}

func split(name string) []string {
	p := clean(name)
	if p == "/" {
		return nil
	}
	return strings.Split(p[1:], "/")
}

var rootEntry = drive.Entry{Dir: true}

func notExist(name string) error { return &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist} }

// resolve finds the entry at name ("/" is the Group's root folder).
func (f *fsys) resolve(ctx context.Context, name string) (drive.Entry, error) {
	name = clean(name)
	if name == "/" {
		return rootEntry, nil
	}
	if f.cache != nil {
		f.mu.Lock()
		e, ok := f.cache[name]
		f.mu.Unlock()
		if ok {
			return e, nil
		}
	}
	segs := split(name)
	if Junk(segs[len(segs)-1]) {
		return drive.Entry{}, notExist(name)
	}
	cur := rootEntry
	for i, seg := range segs {
		if !cur.Dir {
			return drive.Entry{}, notExist(name)
		}
		if f.cache != nil {
			f.mu.Lock()
			e, ok := f.cache["/"+strings.Join(segs[:i+1], "/")]
			f.mu.Unlock()
			if ok {
				cur = e
				continue
			}
		}
		e, err := f.h.drive.FSLookup(ctx, f.db, cur.ID, seg)
		if drive.IsNotFound(err) {
			return drive.Entry{}, notExist(name)
		}
		if err != nil {
			return drive.Entry{}, f.req.fail(err)
		}
		cur = e
	}
	f.remember(name, cur)
	return cur, nil
}

func (f *fsys) remember(name string, e drive.Entry) {
	if f.cache == nil {
		return
	}
	f.mu.Lock()
	f.cache[name] = e
	f.mu.Unlock()
}

// parent resolves the folder of name and returns it with name's last segment.
func (f *fsys) parent(ctx context.Context, name string) (drive.Entry, string, error) {
	name = clean(name)
	if name == "/" {
		return drive.Entry{}, "", f.req.fail(fault.New(fault.Forbidden, MsgRoot))
	}
	dir, base := path.Split(name)
	pe, err := f.resolve(ctx, dir)
	if err != nil {
		return drive.Entry{}, "", err
	}
	if !pe.Dir {
		return drive.Entry{}, "", notExist(name)
	}
	return pe, base, nil
}

// MsgRoot refuses changing a Group's root folder itself.
const MsgRoot = "This is the Group's root folder: it cannot be replaced, moved or deleted"

func (f *fsys) Mkdir(ctx context.Context, name string, _ os.FileMode) error {
	pe, base, err := f.parent(ctx, name)
	if err != nil {
		return err
	}
	if Junk(base) {
		return nil
	}
	if _, err := f.h.drive.FSLookup(ctx, f.db, pe.ID, base); err == nil {
		return fs.ErrExist
	}
	_, err = f.h.drive.FSMkdir(ctx, f.p, f.db, pe.ID, base)
	return f.req.fail(err)
}

func (f *fsys) OpenFile(ctx context.Context, name string, flag int, _ os.FileMode) (webdav.File, error) {
	if flag&os.O_CREATE != 0 {
		return f.create(ctx, name)
	}
	e, err := f.resolve(ctx, name)
	if err != nil {
		return nil, err
	}
	if clean(name) == f.req.path && (f.req.method == http.MethodGet || f.req.method == http.MethodHead) && !e.Dir {
		f.req.header.Set("Content-Type", e.ContentType)
	}
	return &file{fs: f, ctx: ctx, e: e, name: clean(name)}, nil
}

// create opens a file for writing: its content streams to the drive as it
// is written and becomes the newest version when the file is closed.
func (f *fsys) create(ctx context.Context, name string) (webdav.File, error) {
	pe, base, err := f.parent(ctx, name)
	if err != nil {
		return nil, err
	}
	if Junk(base) {
		return &junkFile{name: base}, nil
	}
	size, ctype := int64(-1), ""
	if f.req.method == http.MethodPut && clean(name) == f.req.path {
		size, ctype = f.req.contentLength, f.req.contentType
		if size > 0 {
			if err := f.h.drive.FSRoom(ctx, f.db, size); err != nil {
				return nil, f.req.fail(err)
			}
		}
	}
	if cur, err := f.h.drive.FSLookup(ctx, f.db, pe.ID, base); err == nil && cur.Dir {
		return nil, f.req.fail(fault.Newf(fault.Conflict, drive.MsgFileExistsDir, cur.Name))
	}
	pr, pw := io.Pipe()
	w := &writer{fs: f, ctx: ctx, name: base, pw: pw, done: make(chan struct{})}
	go func() {
		defer close(w.done)
		e, _, err := f.h.drive.FSPut(ctx, f.p, f.db, pe.ID, base, pr, size, ctype)
		w.e, w.err = e, err
		pr.CloseWithError(err) // a writer still writing gets the refusal
	}()
	return w, nil
}

func (f *fsys) RemoveAll(ctx context.Context, name string) error {
	if clean(name) == "/" {
		return f.req.fail(fault.New(fault.Forbidden, MsgRoot))
	}
	if segs := split(name); Junk(segs[len(segs)-1]) {
		return nil
	}
	e, err := f.resolve(ctx, name)
	if err != nil {
		return err
	}
	return f.req.fail(f.h.drive.FSTrash(ctx, f.p, f.db, e.ID))
}

func (f *fsys) Rename(ctx context.Context, oldName, newName string) error {
	if clean(oldName) == "/" {
		return f.req.fail(fault.New(fault.Forbidden, MsgRoot))
	}
	e, err := f.resolve(ctx, oldName)
	if err != nil {
		return err
	}
	pe, base, err := f.parent(ctx, newName)
	if err != nil {
		return err
	}
	_, err = f.h.drive.FSMove(ctx, f.p, f.db, e.ID, pe.ID, base)
	return f.req.fail(err)
}

func (f *fsys) Stat(ctx context.Context, name string) (os.FileInfo, error) {
	e, err := f.resolve(ctx, name)
	if err != nil {
		return nil, err
	}
	return info{e}, nil
}

// info is an entry as an os.FileInfo, with its ETag and Content-Type.
type info struct{ e drive.Entry }

func (i info) Name() string {
	if i.e.ID == "" && i.e.Dir {
		return "/"
	}
	return i.e.Name
}
func (i info) Size() int64 { return i.e.Size }
func (i info) Mode() os.FileMode {
	if i.e.Dir {
		return os.ModeDir | 0o755
	}
	return 0o644
}
func (i info) ModTime() time.Time { return i.e.Modified }
func (i info) IsDir() bool        { return i.e.Dir }
func (i info) Sys() any           { return nil }

// ETag is 128 bits of the newest version's SHA-256 (the API's ETag is all
// 256: litmus, like some clients, keeps an If header in 200 bytes); a
// folder's is its revision.
func (i info) ETag(context.Context) (string, error) {
	if i.e.Dir {
		if i.e.Rev == "" {
			return `"root"`, nil
		}
		return `"` + i.e.Rev + `"`, nil
	}
	return `"` + i.e.SHA256[:min(32, len(i.e.SHA256))] + `"`, nil
}

func (i info) ContentType(context.Context) (string, error) {
	if i.e.Dir {
		return "", webdav.ErrNotImplemented
	}
	return i.e.ContentType, nil
}

// file is an entry opened for reading (GET, PROPFIND, COPY's source) or
// for its properties (PROPPATCH). Its content is read lazily from the blob
// store from the current offset, so a Seek costs nothing until the next Read.
type file struct {
	fs   *fsys
	ctx  context.Context
	e    drive.Entry
	name string
	off  int64
	rc   io.ReadCloser
}

func (f *file) Close() error {
	if f.rc != nil {
		err := f.rc.Close()
		f.rc = nil
		return err
	}
	return nil
}

func (f *file) Read(p []byte) (int, error) {
	if f.e.Dir {
		return 0, &fs.PathError{Op: "read", Path: f.name, Err: errors.New("is a folder")}
	}
	if f.off >= f.e.Size {
		return 0, io.EOF
	}
	if f.rc == nil {
		var rng *blob.Range
		if f.off > 0 {
			rng = &blob.Range{Offset: f.off}
		}
		rc, err := f.fs.h.drive.FSOpen(f.ctx, f.fs.db, f.e, rng)
		if err != nil {
			return 0, f.fs.req.fail(err)
		}
		f.rc = rc
	}
	n, err := f.rc.Read(p)
	f.off += int64(n)
	return n, err
}

func (f *file) Seek(offset int64, whence int) (int64, error) {
	var abs int64
	switch whence {
	case io.SeekStart:
		abs = offset
	case io.SeekCurrent:
		abs = f.off + offset
	case io.SeekEnd:
		abs = f.e.Size + offset
	default:
		return 0, errors.New("dav: bad whence")
	}
	if abs < 0 {
		return 0, errors.New("dav: negative position")
	}
	if abs != f.off && f.rc != nil {
		f.rc.Close()
		f.rc = nil
	}
	f.off = abs
	return abs, nil
}

func (f *file) Readdir(count int) ([]fs.FileInfo, error) {
	if !f.e.Dir {
		return nil, &fs.PathError{Op: "readdir", Path: f.name, Err: errors.New("not a folder")}
	}
	list, err := f.fs.h.drive.FSList(f.ctx, f.fs.db, f.e.ID, f.fs.h.maxListing)
	if err != nil {
		return nil, f.fs.req.fail(err)
	}
	out := make([]fs.FileInfo, 0, len(list))
	for _, e := range list {
		f.fs.remember(path.Join(f.name, e.Name), e)
		out = append(out, info{e})
	}
	return out, nil
}

func (f *file) Stat() (fs.FileInfo, error) { return info{f.e}, nil }

func (f *file) Write([]byte) (int, error) {
	return 0, &fs.PathError{Op: "write", Path: f.name, Err: fs.ErrPermission}
}

// DeadProps implements webdav.DeadPropsHolder from the entry's stored properties.
func (f *file) DeadProps() (map[xml.Name]webdav.Property, error) {
	return deadProps(f.e.Props), nil
}

// Patch implements webdav.DeadPropsHolder: the properties are saved on the
// entry's document (the root folder, which has none, refuses them).
func (f *file) Patch(patches []webdav.Proppatch) ([]webdav.Propstat, error) {
	if f.e.ID == "" {
		return forbidden(patches), nil
	}
	props, pstat, ok := applyPatches(f.e.Props, patches)
	if !ok {
		return pstat, nil
	}
	e, err := f.fs.h.drive.FSSetProps(f.ctx, f.fs.p, f.fs.db, f.e.ID, props)
	if err != nil {
		return nil, f.fs.req.fail(err)
	}
	f.e = e
	return pstat, nil
}

// writer streams a PUT's (or a COPY's) body into the drive through a pipe.
type writer struct {
	fs    *fsys
	ctx   context.Context
	name  string
	pw    *io.PipeWriter
	done  chan struct{}
	e     drive.Entry
	err   error
	props []webdav.Proppatch // COPY's dead properties, saved after the content
	wi    *writerInfo
}

func (w *writer) Write(p []byte) (int, error) {
	n, err := w.pw.Write(p)
	if err != nil {
		w.fs.req.fail(err)
	}
	return n, err
}

func (w *writer) Close() error {
	if err := w.fs.req.bodyError(); err != nil {
		// What arrived is not the file: the drive drops it.
		w.pw.CloseWithError(err)
		<-w.done
		return err
	}
	w.pw.Close()
	<-w.done
	if w.err != nil {
		return w.fs.req.fail(w.err)
	}
	if w.wi != nil {
		w.wi.e = w.e
	}
	if len(w.props) > 0 {
		props, _, ok := applyPatches(w.e.Props, w.props)
		if ok {
			if e, err := w.fs.h.drive.FSSetProps(w.ctx, w.fs.p, w.fs.db, w.e.ID, props); err == nil {
				w.e = e
			}
		}
	}
	return nil
}

func (w *writer) Read([]byte) (int, error) { return 0, io.EOF }
func (w *writer) Seek(int64, int) (int64, error) {
	return 0, &fs.PathError{Op: "seek", Path: w.name, Err: fs.ErrInvalid}
}
func (w *writer) Readdir(int) ([]fs.FileInfo, error) {
	return nil, &fs.PathError{Op: "readdir", Path: w.name, Err: fs.ErrInvalid}
}

// Stat is called by the PUT handler before Close: its answer is filled in
// by Close, so the ETag the handler sends is the committed version's.
func (w *writer) Stat() (fs.FileInfo, error) {
	if w.wi == nil {
		w.wi = &writerInfo{e: drive.Entry{Name: w.name}}
	}
	return w.wi, nil
}

func (w *writer) DeadProps() (map[xml.Name]webdav.Property, error) { return nil, nil }
func (w *writer) Patch(patches []webdav.Proppatch) ([]webdav.Propstat, error) {
	w.props = append(w.props, patches...)
	return []webdav.Propstat{{Status: http.StatusOK}}, nil
}

type writerInfo struct{ e drive.Entry }

func (i *writerInfo) Name() string       { return i.e.Name }
func (i *writerInfo) Size() int64        { return i.e.Size }
func (i *writerInfo) Mode() os.FileMode  { return 0o644 }
func (i *writerInfo) ModTime() time.Time { return i.e.Modified }
func (i *writerInfo) IsDir() bool        { return false }
func (i *writerInfo) Sys() any           { return nil }
func (i *writerInfo) ETag(ctx context.Context) (string, error) {
	return info{i.e}.ETag(ctx)
}

// junkFile takes a Finder metadata file's bytes and keeps none.
type junkFile struct {
	name string
}

func (j *junkFile) Close() error                       { return nil }
func (j *junkFile) Read([]byte) (int, error)           { return 0, io.EOF }
func (j *junkFile) Write(p []byte) (int, error)        { return len(p), nil }
func (j *junkFile) Seek(int64, int) (int64, error)     { return 0, nil }
func (j *junkFile) Readdir(int) ([]fs.FileInfo, error) { return nil, fs.ErrInvalid }
func (j *junkFile) Stat() (fs.FileInfo, error)         { return &writerInfo{e: drive.Entry{Name: j.name}}, nil }

// ---- dead properties ------------------------------------------------------------

// MaxPropsBytes bounds an entry's dead properties.
const MaxPropsBytes = 64 << 10

func propKey(n xml.Name) string { return "{" + n.Space + "}" + n.Local }

func deadProps(stored map[string]string) map[xml.Name]webdav.Property {
	if len(stored) == 0 {
		return nil
	}
	out := make(map[xml.Name]webdav.Property, len(stored))
	for k, v := range stored {
		space, local, ok := strings.Cut(strings.TrimPrefix(k, "{"), "}")
		if !ok {
			continue
		}
		n := xml.Name{Space: space, Local: local}
		out[n] = webdav.Property{XMLName: n, InnerXML: []byte(v)}
	}
	return out
}

// applyPatches applies PROPPATCH's instructions in order to a copy of
// stored; false (with a 507 for every property) when the result is too big.
func applyPatches(stored map[string]string, patches []webdav.Proppatch) (map[string]string, []webdav.Propstat, bool) {
	out := make(map[string]string, len(stored))
	for k, v := range stored {
		out[k] = v
	}
	pstat := webdav.Propstat{Status: http.StatusOK}
	for _, patch := range patches {
		for _, p := range patch.Props {
			pstat.Props = append(pstat.Props, webdav.Property{XMLName: p.XMLName})
			if patch.Remove {
				delete(out, propKey(p.XMLName))
				continue
			}
			out[propKey(p.XMLName)] = string(p.InnerXML)
		}
	}
	size := 0
	for k, v := range out {
		size += len(k) + len(v)
	}
	if size > MaxPropsBytes {
		pstat.Status = http.StatusInsufficientStorage
		return nil, []webdav.Propstat{pstat}, false
	}
	return out, []webdav.Propstat{pstat}, true
}

func forbidden(patches []webdav.Proppatch) []webdav.Propstat {
	pstat := webdav.Propstat{Status: http.StatusForbidden}
	for _, patch := range patches {
		for _, p := range patch.Props {
			pstat.Props = append(pstat.Props, webdav.Property{XMLName: p.XMLName})
		}
	}
	return []webdav.Propstat{pstat}
}
