package backup

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/oficina/oficina/shared/blob"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/ids"
)

// Keeping backups out of the api's reach (issue 24): in the stack only the
// worker function may write the backups bucket or sign reads of it; the
// api holds no grant there. The api asks the worker, by a synchronous
// invocation, to make a backup on request or to sign a short GET of one
// part of a backup: a download redirects to that URL and a restore reads
// through it. The local server has no keeper: the module reaches its
// archives itself.

// Invoke runs one request on the process that keeps the backups and
// returns its answer (the worker function's Keep, over Lambda's Invoke).
// The payload is {"backup": KeepRequest}: the worker tells it from its
// queue and topic events by that key.
type Invoke func(ctx context.Context, payload []byte) ([]byte, error)

// keepEnvelope is the payload of an Invoke.
type keepEnvelope struct {
	Backup *KeepRequest `json:"backup"`
}

// Part names one blob of a backup.
type Part string

// The parts of a backup.
const (
	PartArchive  Part = "archive"  // the documents and the files' manifest
	PartContents Part = "contents" // the files' contents in a tar (format 1)
	PartContent  Part = "content"  // one blob of contents, its SHA-256 for the ID (format 2)
)

// signedFor is how long a signed GET may start: the browser follows the
// redirect at once, and a restore opens the URL right after asking.
const signedFor = 5 * time.Minute

// KeepRequest is what the api asks the keeper.
type KeepRequest struct {
	// Op is "create" (a backup of DB now, made by Trigger) or "sign" (a
	// GET of Part of backup ID of DB, saved as Name; of PartContent, ID is
	// the contents' SHA-256).
	Op      string `json:"op"`
	DB      string `json:"db"`
	Trigger string `json:"trigger,omitempty"`
	ID      string `json:"id,omitempty"`
	Part    Part   `json:"part,omitempty"`
	Name    string `json:"name,omitempty"`
}

// KeepAnswer is the keeper's answer: the backup made, the signed URL, or
// the refusal a person should read (a fault's kind and reason).
type KeepAnswer struct {
	Info  *Info      `json:"info,omitempty"`
	URL   string     `json:"url,omitempty"`
	Fault *keepFault `json:"fault,omitempty"`
}

type keepFault struct {
	Kind   fault.Kind `json:"kind"`
	Reason string     `json:"reason"`
}

// WithKeeper makes the module ask invoke to make backups on request and to
// sign reads of them, instead of reaching the archives itself; nil keeps
// the module's own reach.
func (m *Module) WithKeeper(invoke Invoke) *Module {
	if invoke != nil {
		m.keeper, m.http = invoke, &http.Client{}
	}
	return m
}

// Keep serves one KeepRequest on the process that holds the archives (the
// worker function). A refusal is in the answer; an error is a failure of
// the keeper itself, which the caller reports as one.
func (m *Module) Keep(ctx context.Context, payload []byte) ([]byte, error) {
	var env keepEnvelope
	if err := json.Unmarshal(payload, &env); err != nil || env.Backup == nil {
		return nil, fmt.Errorf("backup: not a keep request (%v): %.200s", err, payload)
	}
	ans, err := m.keep(ctx, *env.Backup)
	if f, ok := fault.As(err); ok && f.Kind != fault.Internal {
		ans, err = KeepAnswer{Fault: &keepFault{Kind: f.Kind, Reason: f.Reason}}, nil
	}
	if err != nil {
		return nil, err
	}
	return json.Marshal(ans)
}

func (m *Module) keep(ctx context.Context, req KeepRequest) (KeepAnswer, error) {
	if !validDB(req.DB) {
		return KeepAnswer{}, fmt.Errorf("backup: keep %s: no db", req.Op)
	}
	switch req.Op {
	case "create":
		if req.Trigger != "request" {
			return KeepAnswer{}, fmt.Errorf("backup: keep create: trigger %q", req.Trigger)
		}
		info, err := m.Create(ctx, req.DB, req.Trigger)
		if err != nil {
			return KeepAnswer{}, err
		}
		return KeepAnswer{Info: &info}, nil
	case "sign":
		u, signs, err := m.presign(ctx, req.DB, req.ID, req.Part, req.Name)
		switch {
		case err != nil:
			return KeepAnswer{}, err
		case !signs:
			return KeepAnswer{}, errors.New("backup: keep sign: the archives' store signs no URLs")
		}
		return KeepAnswer{URL: u}, nil
	}
	return KeepAnswer{}, fmt.Errorf("backup: keep: unknown op %q", req.Op)
}

// validDB accepts the names of Group databases only: the keeper signs keys
// under backups/<db>/ and nothing else.
func validDB(db string) bool { return ids.Klass(db) == "Account" }

// partKey is the key of part of backup id of db.
func partKey(db, id string, part Part) (string, error) {
	if !validID(id) {
		return "", fault.New(fault.NotFound, MsgNoBackup)
	}
	switch part {
	case PartArchive:
		return archiveKey(db, id), nil
	case PartContents:
		return contentsKey(db, id), nil
	case PartContent:
		if !validSum(id) {
			return "", fault.New(fault.NotFound, MsgNoBackup)
		}
		return contentKey(db, id), nil
	}
	return "", fmt.Errorf("backup: unknown part %q", part)
}

// validID accepts the ids Create makes (a UTC stamp, "-", hex).
func validID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// ask sends req to the keeper and returns its answer, a refusal as its fault.
func (m *Module) ask(ctx context.Context, req KeepRequest) (KeepAnswer, error) {
	payload, err := json.Marshal(keepEnvelope{Backup: &req})
	if err != nil {
		return KeepAnswer{}, err
	}
	out, err := m.keeper(ctx, payload)
	if err != nil {
		return KeepAnswer{}, fmt.Errorf("backup: ask the keeper to %s: %w", req.Op, err)
	}
	var ans KeepAnswer
	if err := json.Unmarshal(out, &ans); err != nil {
		return KeepAnswer{}, fmt.Errorf("backup: the keeper's answer to %s: %w", req.Op, err)
	}
	if ans.Fault != nil {
		return KeepAnswer{}, fault.New(ans.Fault.Kind, ans.Fault.Reason)
	}
	return ans, nil
}

// create makes a backup of db now: through the keeper when there is one.
func (m *Module) create(ctx context.Context, db, trigger string) (Info, error) {
	if m.keeper == nil {
		return m.Create(ctx, db, trigger)
	}
	ans, err := m.ask(ctx, KeepRequest{Op: "create", DB: db, Trigger: trigger})
	if err != nil {
		return Info{}, err
	}
	if ans.Info == nil {
		return Info{}, errors.New("backup: the keeper made no backup")
	}
	return *ans.Info, nil
}

// signedGet is a URL that GETs part of backup id of db, saved as name:
// signed by the keeper, or by the archives' store when it signs (S3);
// "" when neither does (the local filesystem).
func (m *Module) signedGet(ctx context.Context, db, id string, part Part, name string) (string, error) {
	if m.keeper != nil {
		ans, err := m.ask(ctx, KeepRequest{Op: "sign", DB: db, ID: id, Part: part, Name: name})
		if err != nil {
			return "", err
		}
		return ans.URL, nil
	}
	u, _, err := m.presign(ctx, db, id, part, name)
	return u, err
}

// presign signs a GET of part of backup id of db with the archives' store;
// signs is false when that store signs no URLs (the local filesystem).
func (m *Module) presign(ctx context.Context, db, id string, part Part, name string) (u string, signs bool, err error) {
	key, err := partKey(db, id, part)
	if err != nil {
		return "", false, err
	}
	ps, ok := m.archives.(blob.Presigner)
	if !ok {
		return "", false, nil
	}
	u, err = ps.PresignGet(ctx, key, "", name, signedFor)
	return u, true, err
}

// open reads part of backup id of db: through a URL the keeper signs when
// the module may not reach the archives, else from the archives' store.
func (m *Module) open(ctx context.Context, db, id string, part Part) (io.ReadCloser, error) {
	key, err := partKey(db, id, part)
	if err != nil {
		return nil, err
	}
	if m.keeper == nil {
		rc, _, err := m.archives.Get(ctx, key, "", nil)
		return rc, err
	}
	u, err := m.signedGet(ctx, db, id, part, "")
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	res, err := m.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("backup: read %s: %w", key, err)
	}
	if res.StatusCode != http.StatusOK {
		res.Body.Close()
		if res.StatusCode == http.StatusNotFound {
			return nil, blob.ErrNotFound
		}
		return nil, fmt.Errorf("backup: read %s: %s", key, res.Status)
	}
	return res.Body, nil
}
