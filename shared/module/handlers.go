package module

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/httpjson"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/ratelimit"
	"github.com/oficina/oficina/shared/store"
)

// Access is what the core checks before a handler runs.
type Access int

const (
	// AccessWrite needs write access to the db (the default).
	AccessWrite Access = iota
	// AccessRead needs read access.
	AccessRead
	// AccessAdmin needs the db's administrators.
	AccessAdmin
	// AccessSelf leaves the decision to the handler (an invitee accepts in
	// a Group db they cannot use yet). The caller is still signed in.
	AccessSelf
	// AccessPublic needs nobody signed in (public pages by secret token);
	// the core rate-limits such routes per client address.
	AccessPublic
)

// UpdateKey names an update handler.
type UpdateKey struct{ DDoc, Fn string }

// Update is a CouchDB update handler built in as Go code:
//
//	PUT  /api/{db}/_design/{ddoc}/_update/{fn}/{docid}   (WithID)
//	POST /api/{db}/_design/{ddoc}/_update/{fn}
type Update struct {
	DDoc, Fn string
	WithID   bool
	Access   Access
	// Klass is the klass of the documents the handler takes by id (the
	// tenant-isolation walk calls it with another Group's ids of it).
	Klass  string
	Handle func(ctx context.Context, c UpdateCall) (UpdateResult, error)
}

// UpdateCall is one call of an update handler.
type UpdateCall struct {
	DB        string
	DocID     string // "" for POST
	Principal *access.Principal
	Body      []byte // the request body, size-limited; may be empty
	Query     url.Values
}

// Decode decodes the body, which must be a JSON object, strictly into v;
// an empty body decodes as {}.
func (c UpdateCall) Decode(v any) error {
	if len(strings.TrimSpace(string(c.Body))) == 0 {
		return httpjson.Unmarshal([]byte("{}"), v)
	}
	return httpjson.UnmarshalObject(c.Body, v)
}

// UpdateResult is what an update handler answers: {"ok":true,"id","rev"}
// with the document's ETag, plus Extra members.
type UpdateResult struct {
	Status int // 0 = 200
	Doc    store.Doc
	Extra  map[string]any
}

// ViewKey names a view.
type ViewKey struct{ DDoc, Name string }

// View answers GET /api/{db}/_design/{ddoc}/_view/{name} to readers of db.
type View struct {
	DDoc, Name string
	// Serve returns the JSON answer ({"rows": …} for CouchDB clients).
	Serve func(ctx context.Context, c ViewCall) (any, error)
}

// ViewCall is one call of a view; the core has checked read access and
// that the db exists.
type ViewCall struct {
	DB        string
	Principal *access.Principal
	Query     url.Values
	Store     store.Store
}

// Job is a scheduled job: an EventBridge rule on AWS (functions/schedule),
// the in-process scheduler locally, with the same code and event shape.
type Job struct {
	Name string
	// Schedule is an EventBridge schedule expression: "rate(1 hour)",
	// "rate(15 minutes)", "cron(0 6 ? * MON *)" (UTC).
	Schedule string
	// Run does one round. A round never overlaps the previous one of the
	// same job locally; on AWS the job must tolerate it (it is idempotent).
	// For a job with Group it is the whole round in one call (EachGroup):
	// tests and tools use it, the scheduler fans out instead.
	Run func(ctx context.Context, ev JobEvent) error
	// Group, when set, does the round's work for one Group (its db). The
	// dispatcher (shared/schedule) then queues one task per Group and the
	// workers run them, each once per Group and firing, so a round scales
	// with the number of workers rather than one invocation's timeout.
	Group func(ctx context.Context, ev JobEvent, db string) error
	// Idempotent says a per-Group task may run twice for one firing with
	// no harm: its writes are conditional or the same twice, and any mail
	// it sends is marked conditionally first. The worker then keeps no run
	// record for its tasks (two writes a task: the claim and "done"), and
	// a task delivered twice runs twice. Jobs that fire often for every
	// Group (the hourly limit check) are where this pays.
	Idempotent bool
}

// EachGroup is the whole round of a per-Group job: fn for every live Group,
// one after the other; a Group that fails does not stop the others.
func EachGroup(st store.Store, fn func(ctx context.Context, ev JobEvent, db string) error) func(context.Context, JobEvent) error {
	return func(ctx context.Context, ev JobEvent) error {
		var errs []error
		err := WalkGroups(ctx, st, func(db string) error {
			if err := fn(ctx, ev, db); err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				errs = append(errs, fmt.Errorf("%s: %w", db, err))
			}
			return nil
		})
		return errors.Join(append(errs, err)...)
	}
}

// WalkGroups calls fn with the db of every live Group, in id order, a page at
// a time; an error from fn stops the walk.
func WalkGroups(ctx context.Context, st store.Store, fn func(db string) error) error {
	q := store.ListQuery{Klass: "Account", Limit: 500}
	for {
		page, err := st.List(ctx, ids.AccountsDB, q)
		if errors.Is(err, store.ErrDBNotFound) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("list the Groups: %w", err)
		}
		for _, d := range page.Docs {
			if d.Deleted {
				continue
			}
			if err := fn(d.ID); err != nil {
				return err
			}
		}
		if page.Next == "" {
			return nil
		}
		q.After = page.Next
	}
}

// JobEvent is what a round is told.
type JobEvent struct {
	Job  string
	Time time.Time // the scheduled time, UTC
}

// ParseSchedule checks an EventBridge schedule expression's form; the
// scheduler (shared/schedule) interprets it.
func ParseSchedule(expr string) (string, error) {
	if (strings.HasPrefix(expr, "rate(") || strings.HasPrefix(expr, "cron(")) && strings.HasSuffix(expr, ")") {
		return expr, nil
	}
	return "", fault.Newf(fault.BadRequest, "schedule %q is not rate(…) or cron(…)", expr)
}

// Route is an extra HTTP route of a module, mounted on the API's mux.
type Route struct {
	// Pattern is a net/http pattern under /api, e.g.
	// "GET /api/{db}/_ticket/{id}/receipt.pdf". A {db} wildcard names the
	// database whose access the core checks (unless Access is AccessSelf
	// or AccessPublic).
	Pattern string
	Access  Access
	// Klass is the klass of the ids its other wildcards take (the
	// tenant-isolation walk calls it with another Group's ids of it).
	Klass string
	// MaxBody bounds the request body (0 = the server's limit).
	MaxBody int64
	// Limit bounds the calls per client address (ratelimit.Edge's address:
	// the viewer's behind CloudFront). AccessPublic routes without one get
	// DefaultPublicLimit; other routes are not limited unless they set it.
	Limit *ratelimit.Limit
	// Handle writes the answer or returns an error the core writes as the
	// API's error envelope.
	Handle func(w http.ResponseWriter, r *http.Request) error
}

// DefaultPublicLimit bounds each public route per client address: enough
// for a customer refreshing a status page, far below guessing tokens.
var DefaultPublicLimit = ratelimit.Limit{Max: 60, Per: time.Minute}

// Principal returns the signed-in principal of a request (nil when anonymous).
func Principal(r *http.Request) *access.Principal { return principal(r.Context()) }
