// Package limits enforces the plan limits of SPEC.md §3 and §9 on the
// server and keeps the usage history:
//
//   - a free Group holds up to 1,000 records (phones, addresses and the
//     other klasses the change stream does not count as records are free);
//     past it the Group gets a notice (over_since, kept from the moment the
//     count first crosses the limit, cleared when it is back under), and 30
//     days later it becomes view-only: every write but a delete is refused
//     until it is back under the limit or on a paid plan. The check is a
//     guard on the document write path (docs.Service), so every route that
//     writes — PUT, POST, _bulk_docs, update handlers, imports, drive
//     uploads — passes it;
//   - mail to the Group's administrators at 80 % and 100 % of the record
//     limit and when the Group becomes view-only, each once per crossing;
//   - daily usage snapshots (records and bytes per klass, 90 days);
//   - GET /api/{db}/_limits and GET /api/{db}/_usage.
package limits

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"slices"
	"time"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/drive"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/httpjson"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/mail"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/stream"
)

// Limits of SPEC.md §9.
const (
	// Grace is how long a Group over the limit keeps writing.
	Grace = 30 * 24 * time.Hour
	// UsageDays is how many daily snapshots are kept.
	UsageDays = 90
)

// ViewOnlyMessage is the refusal of a write to a view-only Group whose plan
// allows limit records.
func ViewOnlyMessage(limit int64) string {
	return fmt.Sprintf("This Group is over the free plan's %s records and is view-only: delete records or upgrade", mail.FormatInt(limit, mail.DefaultLocale))
}

// Record kinds (store records, never documents: nothing here shows in a
// Group's changes feed or its backups).
const (
	kindState = "limits.state" // key db: over_since and the mail sent
	kindUsage = "limits.usage" // key db: the daily snapshots
)

// Job names.
const (
	JobCheck    = "limits.check"
	JobSnapshot = "limits.snapshot"
)

// exempt klasses stay writable in a view-only Group: configuration (the
// plan itself is an adjustment, so paying must get through), people and
// the Group's record.
var exempt = map[string]bool{"Adjustment": true, "Membership": true, "UserToken": true, "Account": true}

// Module is the limits module.
type Module struct {
	deps  module.Deps
	st    store.Store
	log   *slog.Logger
	now   func() time.Time
	tpl   mail.Renderer
	drive drive.Limits
	base  string
	// freeRecords is the free plan's record limit (--free-records).
	freeRecords int64
	// suppressions is the addresses the product no longer mails.
	suppressions *mail.Suppressions
}

// New builds the module.
func New(d module.Deps) *Module {
	tpl := d.Templates
	if tpl == nil {
		tpl = mail.NoTemplates
	}
	return &Module{deps: d, st: d.Store, log: d.Logger("limits"), now: d.Clock(), tpl: tpl,
		drive: drive.ConfiguredLimits(d.Config), base: d.BaseURL, freeRecords: cmp.Or(d.Config.FreeRecords, config.DefaultFreeRecords),
		suppressions: mail.NewSuppressions(d.Store)}
}

// Name implements module.Module.
func (m *Module) Name() string { return "limits" }

// Register implements module.Module:
//
//	GET  /api/{db}/_limits            → Status
//	GET  /api/{db}/_usage?days=90     → {days: [{date, klasses: {klass: {records, bytes}}}]}
//	POST /api/_mail/unsubscribe/{token}  one-click unsubscribe (RFC 8058) of the optional mail
//	GET  /api/{db}/_mail/suppressed    → the memberships whose address bounced or complained (suppressed.go)
//	POST /api/{db}/_limits/test/backdate {days}       (--stripe-test-checkout=on only)
//	POST /api/{db}/_limits/test/snapshot {days_ago}   (--stripe-test-checkout=on only)
//
// and the guard every write passes, the jobs limits.check (hourly: notices
// and limit mail) and limits.snapshot (daily usage), and the weekly
// summary (digest.go).
func (m *Module) Register(r *module.Registry) error {
	m.RegisterWrites(r)
	r.Route(module.Route{Pattern: "GET /api/{db}/_limits", Access: module.AccessRead, Handle: m.getLimits})
	r.Route(module.Route{Pattern: "GET /api/{db}/_usage", Access: module.AccessRead, Handle: m.getUsage})
	r.Route(module.Route{Pattern: "POST /api/_mail/unsubscribe/{token}", Access: module.AccessPublic, Handle: m.unsubscribe})
	r.Route(module.Route{Pattern: "GET /api/{db}/_mail/suppressed", Access: module.AccessRead, Handle: m.getSuppressed})
	if m.deps.Config.Stripe.TestCheckout {
		// Test-only (the e2e server's --stripe-test-checkout=on, never in
		// the cloud): moves an over-limit Group's notice back in time.
		r.Route(module.Route{Pattern: "POST /api/{db}/_limits/test/backdate", Access: module.AccessAdmin, Handle: m.backdate})
		// …and takes a usage snapshot dated days_ago days back, since the
		// daily job does not run there.
		r.Route(module.Route{Pattern: "POST /api/{db}/_limits/test/snapshot", Access: module.AccessAdmin, Handle: m.testSnapshot})
	}
	m.RegisterJobs(r)
	return nil
}

// RegisterWrites implements module.WritePath: the guard every write passes
// and the effect of a plan change.
func (m *Module) RegisterWrites(r *module.Registry) {
	r.Actor(module.Actor{ID: system.UserID, Name: module.L("Plan limits", "Limites do plano")})
	r.Guard(m.guard)
	r.Effect("Adjustment", m.planChanged)
}

// RegisterJobs implements module.JobRunner: limit checks and mail, usage
// snapshots, the weekly summary.
func (m *Module) RegisterJobs(r *module.Registry) {
	// Each runs per Group: the dispatcher fans a firing out, one task a Group.
	// The check writes its state and limit-mail marks conditionally (one
	// mail per crossing however many runs), so a task may run twice.
	r.Job(module.Job{Name: JobCheck, Schedule: "rate(1 hour)", Group: m.checkGroup, Run: module.EachGroup(m.st, m.checkGroup), Idempotent: true})
	r.Job(module.Job{Name: JobSnapshot, Schedule: "cron(15 0 * * ? *)", Group: m.snapshotGroup, Run: module.EachGroup(m.st, m.snapshotGroup)})
	r.Job(module.Job{Name: JobDigest, Schedule: "cron(0 9 ? * MON *)", Group: m.digestGroup, Run: module.EachGroup(m.st, m.digestGroup)})
}

// Status is a Group's standing against its plan (GET /api/{db}/_limits).
type Status struct {
	Plan        string     `json:"plan"`
	Records     int64      `json:"records"`
	RecordLimit int64      `json:"record_limit"` // 0: unlimited
	OverSince   *time.Time `json:"over_since"`
	ViewOnlyAt  *time.Time `json:"view_only_at"`
	ViewOnly    bool       `json:"view_only"`
	Bytes       int64      `json:"bytes"`
	DriveBytes  int64      `json:"drive_bytes"`
	DriveLimit  int64      `json:"drive_limit"`
}

// recordLimit is a plan's record limit (0: unlimited). A Group without a
// plan yet counts as free.
func (m *Module) recordLimit(plan string) int64 {
	switch plan {
	case "", "free":
		return m.freeRecords
	}
	return 0
}

// state is what the module keeps per Group.
type state struct {
	OverSince *time.Time `json:"over_since,omitempty"`
	// Sent holds the limit mail sent in the current crossing: "80", "100",
	// "view_only". A mark is dropped when the Group is back under its
	// threshold, so the next crossing mails again.
	Sent map[string]bool `json:"sent,omitempty"`
	// Plan is the plan as of the last evaluation: a paid one lets the
	// guard skip the counts on creates. A plan change refreshes it (an
	// effect on the confirmed-plan adjustment), the hourly check too.
	Plan string `json:"plan,omitempty"`
}

func (s state) equal(o state) bool {
	if (s.OverSince == nil) != (o.OverSince == nil) || (s.OverSince != nil && !s.OverSince.Equal(*o.OverSince)) {
		return false
	}
	return s.Plan == o.Plan && maps.Equal(s.Sent, o.Sent)
}

// readState returns the state and its stored bytes (nil when absent), the
// condition of the next update.
func (m *Module) readState(ctx context.Context, db string) (state, []byte, error) {
	r, err := m.st.GetRecord(ctx, kindState, db)
	if errors.Is(err, store.ErrNotFound) {
		return state{}, nil, nil
	}
	if err != nil {
		return state{}, nil, fmt.Errorf("limits: read state of %s: %w", db, err)
	}
	var s state
	if err := json.Unmarshal(r.Value, &s); err != nil {
		return state{}, nil, fmt.Errorf("limits: decode state of %s: %w", db, err)
	}
	return s, r.Value, nil
}

// errRace is a state update that lost to another writer; callers read again.
var errRace = errors.New("limits: state changed meanwhile")

// writeState replaces the state on condition that it still is old.
func (m *Module) writeState(ctx context.Context, db string, old []byte, s state) error {
	raw, err := json.Marshal(s)
	if err != nil {
		return err
	}
	if err := m.st.Transact(ctx, []store.RecordWrite{store.SwapWrite(kindState, db, raw, old)}); err != nil {
		if errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrExists) {
			return errRace
		}
		return fmt.Errorf("limits: write state of %s: %w", db, err)
	}
	return nil
}

// usage sums the stream's counts: records and bytes of the klasses that
// count as records, and the drive's bytes.
func usage(c stream.Counts) (records, bytes, driveBytes int64) {
	for _, k := range c.Klass {
		records += k.Records
		bytes += k.Bytes
	}
	return records, bytes, c.Tally(drive.TallyDrive)["bytes"]
}

// plan returns the Group's confirmed plan ("free" when unset).
func (m *Module) plan(ctx context.Context, db string) (string, error) {
	if m.deps.Groups == nil {
		return "free", nil
	}
	p, err := m.deps.Groups.Plan(ctx, db)
	if err != nil {
		return "", fmt.Errorf("limits: plan of %s: %w", db, err)
	}
	if p == "" {
		p = "free"
	}
	return p, nil
}

// Evaluate reads a Group's counts and plan, moves its state (over_since set
// when it first crosses the limit, cleared when back under, mail marks
// dropped below their thresholds) and returns its status with the state.
func (m *Module) Evaluate(ctx context.Context, db string) (Status, error) {
	st, _, err := m.evaluate(ctx, db)
	return st, err
}

func (m *Module) evaluate(ctx context.Context, db string) (Status, state, error) {
	c, err := stream.Read(ctx, m.st, db)
	if err != nil {
		return Status{}, state{}, err
	}
	plan, err := m.plan(ctx, db)
	if err != nil {
		return Status{}, state{}, err
	}
	records, bytes, driveBytes := usage(c)
	limit := m.recordLimit(plan)
	now := m.now().UTC()
	for range 10 {
		s, raw, err := m.readState(ctx, db)
		if err != nil {
			return Status{}, state{}, err
		}
		next := state{OverSince: s.OverSince, Sent: maps.Clone(s.Sent), Plan: plan}
		over := limit > 0 && records > limit
		switch {
		case over && next.OverSince == nil:
			t := now.Truncate(time.Millisecond)
			next.OverSince = &t
		case !over:
			next.OverSince = nil
		}
		for mark, below := range map[string]bool{
			"80":        limit == 0 || records*100 < limit*80,
			"100":       limit == 0 || records < limit,
			"view_only": !over,
		} {
			if below {
				delete(next.Sent, mark)
			}
		}
		if len(next.Sent) == 0 {
			next.Sent = nil
		}
		if !next.equal(s) {
			if err := m.writeState(ctx, db, raw, next); errors.Is(err, errRace) {
				continue
			} else if err != nil {
				return Status{}, state{}, err
			}
		}
		out := Status{Plan: plan, Records: records, RecordLimit: limit, OverSince: next.OverSince,
			Bytes: bytes, DriveBytes: driveBytes, DriveLimit: m.drive.Limit(plan)}
		if next.OverSince != nil {
			at := next.OverSince.Add(Grace)
			out.ViewOnlyAt = &at
			out.ViewOnly = !now.Before(at)
		}
		return out, next, nil
	}
	return Status{}, state{}, fmt.Errorf("limits: state of %s keeps changing", db)
}

// guard refuses the writes a view-only Group may not take. Its fast path is
// one record read (the state); a create also reads the counts, so the
// notice starts with the write that crosses the limit.
func (m *Module) guard(ctx context.Context, w *docs.Write) error {
	if w.Deleting || exempt[w.Klass] || trashing(w) {
		return nil
	}
	if p, ok := ids.Parse(w.DB); !ok || p != "acc" {
		return nil
	}
	s, _, err := m.readState(ctx, w.DB)
	if err != nil {
		return err
	}
	if s.OverSince == nil {
		if w.Old != nil || (s.Plan != "" && m.recordLimit(s.Plan) == 0) {
			return nil // an update, or a paid plan: nothing to count
		}
		c, err := stream.Read(ctx, m.st, w.DB)
		if err != nil {
			return err
		}
		if records, _, _ := usage(c); records >= m.freeRecords {
			// Maybe crossing now (the stream lags a moment behind).
			if _, _, err := m.evaluate(ctx, w.DB); err != nil {
				return err
			}
		}
		return nil
	}
	if m.now().Before(s.OverSince.Add(Grace)) {
		return nil
	}
	st, _, err := m.evaluate(ctx, w.DB)
	if err != nil {
		return err
	}
	if st.ViewOnly {
		return fault.New(fault.Forbidden, ViewOnlyMessage(m.freeRecords))
	}
	return nil
}

// backdate sets an over-limit Group's over_since {"days"} days back (test only).
func (m *Module) backdate(w http.ResponseWriter, r *http.Request) error {
	ctx, db := r.Context(), r.PathValue("db")
	var in struct {
		Days int `json:"days"`
	}
	if err := httpjson.Decode(w, r, 1<<10, &in); err != nil {
		return err
	}
	if in.Days < 0 || in.Days > 365 {
		return fault.Invalid(map[string][]string{"days": {"must be from 0 to 365"}})
	}
	if _, _, err := m.evaluate(ctx, db); err != nil {
		return err
	}
	s, raw, err := m.readState(ctx, db)
	if err != nil {
		return err
	}
	if s.OverSince == nil {
		return fault.New(fault.Conflict, "This Group is not over its plan's record limit")
	}
	t := m.now().UTC().Add(-time.Duration(in.Days) * 24 * time.Hour).Truncate(time.Millisecond)
	s.OverSince = &t
	if err := m.writeState(ctx, db, raw, s); err != nil {
		return err
	}
	return m.getLimits(w, r)
}

// planChanged re-evaluates a Group whose confirmed plan was written, so
// the notice and the guard's view of the plan follow at once. A failure is
// logged: the hourly check evaluates again.
func (m *Module) planChanged(ctx context.Context, w *docs.Write, _ store.Doc) error {
	if w.Deleting || str(w.New["key"]) != "confirmed-plan" {
		return nil
	}
	if p, ok := ids.Parse(w.DB); !ok || p != "acc" {
		return nil
	}
	if _, _, err := m.evaluate(ctx, w.DB); err != nil {
		m.log.ErrorContext(ctx, "re-evaluate after a plan change", "db", w.DB, "err", err)
	}
	return nil
}

// trashing reports a drive entry moving to the trash: the drive's (and
// WebDAV's) delete, so a way out like any delete.
func trashing(w *docs.Write) bool {
	if w.Klass != drive.Klass || w.Old == nil || w.New == nil {
		return false
	}
	k := str(w.New["kind"])
	return (k == drive.KindFileDeleted || k == drive.KindDirDeleted) && str(w.Old["kind"]) != k
}

func (m *Module) getLimits(w http.ResponseWriter, r *http.Request) error {
	st, err := m.Evaluate(r.Context(), r.PathValue("db"))
	if err != nil {
		return err
	}
	httpjson.Write(w, http.StatusOK, st)
	return nil
}

// groupName reads a Group's name from its account document; live is false
// for a Group deleted since the job's tasks were queued.
func (m *Module) groupName(ctx context.Context, db string) (name string, live bool, err error) {
	d, err := m.st.Get(ctx, ids.AccountsDB, db)
	if errors.Is(err, store.ErrDeleted) || errors.Is(err, store.ErrNotFound) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("limits: the account of %s: %w", db, err)
	}
	body, err := docs.Decode(d.Body)
	if err != nil {
		return "", false, fmt.Errorf("limits: decode the account of %s: %w", db, err)
	}
	return str(body["name"]), true, nil
}

// admins returns the accepted administrators of a Group's db.
func (m *Module) members(ctx context.Context, db string, adminsOnly bool) ([]member, error) {
	var out []member
	q := store.ListQuery{Klass: "Membership", Limit: 200}
	for {
		page, err := m.st.List(ctx, db, q)
		if err != nil {
			return nil, err
		}
		for _, d := range page.Docs {
			if d.Deleted {
				continue
			}
			b, err := docs.Decode(d.Body)
			if err != nil {
				return nil, err
			}
			if str(b["status"]) != "accepted" || (adminsOnly && b["admin"] != true) {
				continue
			}
			uid := str(b["user_id"])
			if uid == "" || slices.ContainsFunc(out, func(x member) bool { return x.UserID == uid }) {
				continue
			}
			u, ok, err := m.user(ctx, uid)
			if err != nil {
				return nil, err
			}
			if !ok || u.Email == "" {
				continue
			}
			out = append(out, u)
		}
		if page.Next == "" {
			return out, nil
		}
		q.After = page.Next
	}
}

// member is who limit mail and summaries go to.
type member struct {
	UserID     string
	Email      string
	Name       string
	Locale     string
	Newsletter bool
}

// user reads a user's document (the address, the name, the locale, the
// newsletter choice the preferences page keeps in sync).
func (m *Module) user(ctx context.Context, id string) (member, bool, error) {
	d, err := m.st.Get(ctx, ids.UsersDB, id)
	if errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrDeleted) {
		return member{}, false, nil
	}
	if err != nil {
		return member{}, false, err
	}
	var u struct {
		Email      string `json:"email"`
		Fullname   string `json:"fullname"`
		Locale     string `json:"locale"`
		Newsletter bool   `json:"newsletter"`
	}
	if err := json.Unmarshal(d.Body, &u); err != nil {
		return member{}, false, err
	}
	return member{UserID: id, Email: u.Email, Name: u.Fullname, Locale: u.Locale, Newsletter: u.Newsletter}, true, nil
}

func str(v any) string { s, _ := v.(string); return s }

// system is the principal of the module's own writes.
var system = &access.Principal{UserID: "_limits", Name: "_limits", Label: "limits", Via: access.ViaSession}
