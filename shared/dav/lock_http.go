package dav

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	"golang.org/x/net/webdav"
)

// LOCK is served here rather than by x/net/webdav, which takes exclusive
// locks only: shared write locks (RFC 4918 §6.2) are taken too, and every
// lock goes to the store's lock table (locks.go).

type lockInfo struct {
	XMLName   xml.Name  `xml:"DAV: lockinfo"`
	Exclusive *struct{} `xml:"DAV: lockscope>exclusive"`
	Shared    *struct{} `xml:"DAV: lockscope>shared"`
	Write     *struct{} `xml:"DAV: locktype>write"`
	Owner     *struct {
		InnerXML string `xml:",innerxml"`
	} `xml:"DAV: owner"`
}

var tokenRE = regexp.MustCompile(`<([^<>]+)>`)

// parseTimeout reads a Timeout header's first choice ("Infinite" or
// "Second-N"); none is infinite.
func parseTimeout(h string) (time.Duration, error) {
	first, _, _ := strings.Cut(h, ",")
	first = strings.TrimSpace(first)
	switch {
	case first == "", first == "Infinite":
		return -1, nil
	case strings.HasPrefix(first, "Second-"):
		n, err := strconv.ParseUint(strings.TrimPrefix(first, "Second-"), 10, 32)
		if err != nil {
			return 0, errors.New("bad Timeout header")
		}
		return time.Duration(n) * time.Second, nil
	}
	return 0, errors.New("bad Timeout header")
}

func (h *Handler) serveLock(w http.ResponseWriter, r *http.Request, fs *fsys, ls *lockSystem, mount string) {
	ctx := r.Context()
	duration, err := parseTimeout(r.Header.Get("Timeout"))
	if err != nil {
		plain(w, http.StatusBadRequest, err.Error())
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		plain(w, http.StatusBadRequest, "The request's body could not be read")
		return
	}
	name := clean(strings.TrimPrefix(r.URL.Path, mount))
	now := time.Now()
	if len(bytes.TrimSpace(body)) == 0 {
		// A refresh: the lock named by the If header.
		m := tokenRE.FindAllStringSubmatch(r.Header.Get("If"), -1)
		if len(m) != 1 {
			plain(w, http.StatusBadRequest, "A lock refresh names its lock in the If header")
			return
		}
		e, err := ls.refresh(now, m[0][1], duration)
		switch {
		case errors.Is(err, webdav.ErrNoSuchLock):
			plain(w, http.StatusPreconditionFailed, "No such lock")
			return
		case err != nil:
			h.log.ErrorContext(ctx, "webdav: refresh a lock", "err", err)
			plain(w, http.StatusInternalServerError, "Undefined error")
			return
		}
		writeLock(w, http.StatusOK, e, duration, mount)
		return
	}
	var li lockInfo
	if err := xml.Unmarshal(body, &li); err != nil || li.Write == nil || (li.Exclusive == nil) == (li.Shared == nil) {
		plain(w, http.StatusBadRequest, "The body must be a DAV:lockinfo with a write locktype and one lockscope")
		return
	}
	zero := false
	switch r.Header.Get("Depth") {
	case "", "infinity":
	case "0":
		zero = true
	default:
		plain(w, http.StatusBadRequest, "A LOCK's Depth is 0 or infinity")
		return
	}
	owner := ""
	if li.Owner != nil {
		owner = li.Owner.InnerXML
	}
	d := webdav.LockDetails{Root: name, Duration: duration, OwnerXML: owner, ZeroDepth: zero}
	// The resource must exist or be creatable (an empty file) first.
	status := http.StatusOK
	if _, err := fs.Stat(ctx, name); err != nil {
		if !os.IsNotExist(err) {
			h.log.ErrorContext(ctx, "webdav: stat", "err", err)
			plain(w, http.StatusInternalServerError, "Undefined error")
			return
		}
		if name == "/" {
			plain(w, http.StatusForbidden, MsgRoot)
			return
		}
		status = http.StatusCreated
	}
	token, err := ls.create(now, d, li.Shared != nil)
	switch {
	case errors.Is(err, webdav.ErrLocked):
		plain(w, http.StatusLocked, "Locked: "+name+" or a folder above it is locked")
		return
	case errors.Is(err, ErrTooManyLocks):
		plain(w, http.StatusServiceUnavailable, "This Group holds too many locks: unlock some first")
		return
	case err != nil:
		h.log.ErrorContext(ctx, "webdav: lock", "err", err)
		plain(w, http.StatusInternalServerError, "Undefined error")
		return
	}
	if status == http.StatusCreated {
		err := func() error {
			f, err := fs.OpenFile(ctx, name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
			if err != nil {
				return err
			}
			return f.Close()
		}()
		if err != nil {
			_ = ls.Unlock(now, token)
			code := http.StatusConflict
			if s := statusOf(fs.req.failure()); s != 0 {
				code = s
			}
			plain(w, code, "The resource cannot be created: its folder is missing, or the name is refused")
			return
		}
	}
	w.Header().Set("Lock-Token", "<"+token+">")
	writeLock(w, status, lockEntry{Token: token, Root: name, ZeroDepth: zero, Shared: li.Shared != nil, Owner: owner}, duration, mount)
}

func writeLock(w http.ResponseWriter, status int, e lockEntry, d time.Duration, mount string) {
	depth, scope, timeout := "infinity", "exclusive", "Infinite"
	if e.ZeroDepth {
		depth = "0"
	}
	if e.Shared {
		scope = "shared"
	}
	if d >= 0 {
		timeout = "Second-" + strconv.FormatInt(int64(d/time.Second), 10)
	}
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="utf-8"?>` + "\n" + `<D:prop xmlns:D="DAV:"><D:lockdiscovery><D:activelock>`)
	fmt.Fprintf(&b, `<D:locktype><D:write/></D:locktype><D:lockscope><D:%s/></D:lockscope><D:depth>%s</D:depth>`, scope, depth)
	if e.Owner != "" {
		b.WriteString(`<D:owner>` + e.Owner + `</D:owner>`)
	}
	fmt.Fprintf(&b, `<D:timeout>%s</D:timeout><D:locktoken><D:href>`, timeout)
	_ = xml.EscapeText(&b, []byte(e.Token))
	b.WriteString(`</D:href></D:locktoken><D:lockroot><D:href>`)
	_ = xml.EscapeText(&b, []byte((&url.URL{Path: path.Join(mount, e.Root)}).EscapedPath()))
	b.WriteString(`</D:href></D:lockroot></D:activelock></D:lockdiscovery></D:prop>`)
	w.Header().Set("Content-Type", "application/xml; charset=utf-8")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, b.String())
}
