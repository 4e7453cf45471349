package drive

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/httpjson"
	"github.com/oficina/oficina/shared/stream"
)

// Usage is a Group's drive usage, from the stream's tally.
type Usage struct {
	Bytes        int64  `json:"bytes"` // every version of every entry, trash included
	Limit        int64  `json:"limit"`
	Plan         string `json:"plan"`
	Files        int64  `json:"files"`
	Dirs         int64  `json:"dirs"`
	TrashBytes   int64  `json:"trash_bytes"`
	TrashEntries int64  `json:"trash_entries"`
	// DavURL is the WebDAV address when it is not <origin>/dav/ (--dav-url).
	DavURL string `json:"dav_url,omitempty"`
}

// Limit is the drive limit of a plan (SPEC.md §9: 1 GB for pro and corp;
// a dedicated server 10 GB; free by configuration; a locked Group can be
// viewed, not changed).
func (l Limits) Limit(plan string) int64 {
	switch plan {
	case "pro", "corp":
		return l.Paid
	case "server":
		return l.Server
	case "locked":
		return 0
	}
	return l.Free // free, undefined, or a Group without a plan yet
}

// usage reads db's tally and its plan's limit.
func (m *Module) usage(ctx context.Context, db string) (Usage, error) {
	c, err := stream.Read(ctx, m.st, db)
	if err != nil {
		return Usage{}, err
	}
	t := c.Tally(TallyDrive)
	u := Usage{Bytes: t["bytes"], Files: t["files"], Dirs: t["dirs"], TrashBytes: t["trash_bytes"], TrashEntries: t["trash_entries"], DavURL: m.deps.Config.DavURL}
	if m.deps.Groups != nil {
		if u.Plan, err = m.deps.Groups.Plan(ctx, db); err != nil {
			return Usage{}, err
		}
	}
	if u.Plan == "" {
		u.Plan = "free"
	}
	u.Limit = m.limits.Limit(u.Plan)
	return u, nil
}

// room returns how many more bytes db may store, refusing (413) when need
// bytes do not fit. The usage is the stream's count, so writes of the last
// moments may not be in it yet.
func (m *Module) room(ctx context.Context, db string, need int64) (int64, error) {
	u, err := m.usage(ctx, db)
	if err != nil {
		return 0, err
	}
	left := max(u.Limit-u.Bytes, 0)
	if need > left || (need == 0 && left == 0 && u.Limit == 0) {
		return 0, m.full(u, need)
	}
	return left, nil
}

// full is the 413 of a refused upload: what is used, the limit, and the
// ways out.
func (m *Module) full(u Usage, need int64) error {
	if u.Plan == "locked" {
		return fault.New(fault.TooLarge, "This Group is locked: its drive can be read but takes no new files until its plan is renewed")
	}
	return fault.Newf(fault.TooLarge,
		"The drive of this Group is full: %s of its %s are used and this upload needs %s. Delete files or old versions and empty the trash (trashed files count until then), or move to a paid plan (pro and corp: %s)",
		HumanBytes(u.Bytes), HumanBytes(u.Limit), HumanBytes(need), HumanBytes(m.limits.Paid))
}

// HumanBytes writes a size in base 1000 with one decimal, as the screens do.
func HumanBytes(n int64) string {
	const unit = 1000
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for v := n / unit; v >= unit && exp < 4; v /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %cB", float64(n)/float64(div), "kMGTP"[exp])
}

func (m *Module) getUsage(w http.ResponseWriter, r *http.Request) error {
	u, err := m.usage(r.Context(), r.PathValue("db"))
	if err != nil {
		return err
	}
	httpjson.Write(w, http.StatusOK, u)
	return nil
}

// errOverQuota ends a body that outgrows the room it was given.
var errOverQuota = errors.New("drive: the upload outgrew the Group's drive limit")

// bodyReader reads an upload's body, stopping with errOverQuota once it
// passes room bytes, and remembers whether the body itself failed (a
// dropped connection) rather than the blob store.
type bodyReader struct {
	r       io.Reader
	room    int64
	n       int64
	over    bool
	readErr error
}

func (b *bodyReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.n += int64(n)
	if b.n > b.room {
		b.over = true
		return n, errOverQuota
	}
	if err != nil && err != io.EOF {
		b.readErr = err
	}
	return n, err
}
