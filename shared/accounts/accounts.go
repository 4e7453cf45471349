// Package accounts is the Group domain (SPEC.md §3–§6, DESIGN.md §3):
// Groups (account records, their acc-<id> databases and sub-groups),
// memberships and invitations, roles and the admin decision, the Group's
// configuration (adjustments) and API user tokens.
//
// Client writes reach Memberships, Adjustments, UserTokens and Accounts
// through the document write path (docs.Service), whatever the route; this
// package registers the rules that check them there and the effects that
// follow them (mirrors, roles, mail). Its own multi-document operations
// (creating a Group, accepting, bookmarking, tokens) write through the same
// path marked as system writes, which the rules let through.
package accounts

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"strings"
	"time"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/auth"
	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/mail"
	"github.com/oficina/oficina/shared/phonerules"
	"github.com/oficina/oficina/shared/store"
)

// Messages of the error catalogue (SPEC.md §8) this package raises.
const (
	MsgFreeLimitUnconfirmed = "You can have only 1 free Group, please confirm email to unlock more"
	MsgFreeLimit            = "You can create or be member of up to 5 free Groups"
	MsgOneAdmin             = "Free Groups can have only one administrator"
	MsgOwnSubscription      = "You cannot delete your own subscription"
	MsgConfirmFirst         = "Please confirm your email first"
	MsgMissing              = "missing"
)

// Limits of SPEC.md §9.
const (
	FreeGroups            = 5 // free Groups a user may create or be member of
	FreeGroupsUnconfirmed = 1 // … until the e-mail is confirmed
	maxNameLen            = 200
)

// Plans (SPEC.md §4 group_plan).
const (
	PlanFree = "free"
	PlanCorp = "corp"
)

// Membership statuses (SPEC.md §4).
const (
	StatusPending  = "pending"
	StatusAccepted = "accepted"
)

// Klasses this package owns.
const (
	KlassAccount    = "Account"
	KlassMembership = "Membership"
	KlassAdjustment = "Adjustment"
	KlassUserToken  = "UserToken"
)

// Users is what the package needs from identity (auth.Service).
type Users interface {
	UserByID(ctx context.Context, id string) (auth.User, bool, error)
	UserByEmail(ctx context.Context, email string) (auth.User, bool, error)
	AddRole(ctx context.Context, id, role string) error
	RemoveRole(ctx context.Context, id, role string) error
	SetPreferences(ctx context.Context, id string, locale *string, newsletter *bool) error
	// TokenEpoch is the epoch a new API token of the user carries.
	TokenEpoch(ctx context.Context, userID string) (int64, error)
}

// Options configures New.
type Options struct {
	Store store.Store
	// Docs is the write path the API uses: New registers the rules and
	// effects of this package's klasses on it.
	Docs  *docs.Service
	Users Users
	Mail  mail.Sender
	// Templates renders the invitations (nil: mail.NoTemplates).
	Templates mail.Renderer
	// Phones reads the Group's phone numbers and checks its country
	// setting (shared/phones.Metadata); nil: rules that refuse those
	// settings (phonerules.Refusing), for a deployable that takes none.
	Phones phonerules.Rules
	// BaseURL is where the SPA lives (invitation links).
	BaseURL string
	Logger  *slog.Logger
	// NewID makes document and Group ids (nil: ids.New); tests pin them.
	NewID func(prefix string) string
}

// Service implements Groups, memberships, adjustments and tokens.
type Service struct {
	st      store.Store
	docs    *docs.Service
	users   Users
	mail    mail.Sender
	tpl     mail.Renderer
	phones  phonerules.Rules
	baseURL string
	log     *slog.Logger
	newID   func(prefix string) string
}

// New builds the service and registers its rules on o.Docs.
func New(o Options) (*Service, error) {
	if o.Store == nil || o.Docs == nil || o.Users == nil || o.Mail == nil {
		return nil, errors.New("accounts: Store, Docs, Users and Mail are required")
	}
	tpl := o.Templates
	if tpl == nil {
		tpl = mail.NoTemplates
	}
	s := &Service{
		st: o.Store, docs: o.Docs, users: o.Users, mail: o.Mail, tpl: tpl, phones: o.Phones,
		baseURL: strings.TrimRight(o.BaseURL, "/"), log: o.Logger, newID: o.NewID,
	}
	if s.phones == nil {
		s.phones = phonerules.Refusing("the Groups were given no phone rules")
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.newID == nil {
		s.newID = ids.New
	}
	o.Docs.Register(KlassAccount, s.accountRule)
	o.Docs.Register(KlassMembership, s.membershipRule)
	o.Docs.RegisterEffect(KlassMembership, s.membershipEffect)
	o.Docs.Register(KlassAdjustment, s.adjustmentRule)
	o.Docs.RegisterEffect(KlassAdjustment, s.adjustmentEffect)
	o.Docs.Register(KlassUserToken, s.tokenRule)
	return s, nil
}

// systemKey marks the writes this package makes itself: the rules that
// guard client writes let them through and effects do not run again.
type systemKey struct{}

func asSystem(ctx context.Context) context.Context { return context.WithValue(ctx, systemKey{}, true) }

func isSystem(ctx context.Context) bool { v, _ := ctx.Value(systemKey{}).(bool); return v }

// accountRule: account records change only through /api/accounts.
func (s *Service) accountRule(ctx context.Context, w *docs.Write) error {
	if isSystem(ctx) {
		return nil
	}
	return fault.New(fault.Forbidden, fault.MsgPermissionDenied)
}

func isGroupDB(db string) bool { p, ok := ids.Parse(db); return ok && p == "acc" }
func isUserDB(db string) bool  { p, ok := ids.Parse(db); return ok && p == "usr" }

func missing() error { return fault.New(fault.NotFound, MsgMissing) }

func denied() error { return fault.New(fault.Forbidden, fault.MsgPermissionDenied) }

func invalid(field, msg string) error { return fault.Invalid(map[string][]string{field: {msg}}) }

// get reads a live document and decodes it; deleted and never-written
// documents (and missing dbs) give store.ErrNotFound.
func (s *Service) get(ctx context.Context, db, id string) (store.Doc, map[string]any, error) {
	d, err := s.st.Get(ctx, db, id)
	if errors.Is(err, store.ErrDeleted) || errors.Is(err, store.ErrDBNotFound) {
		err = store.ErrNotFound
	}
	if err != nil {
		return store.Doc{}, nil, err
	}
	body, err := docs.Decode(d.Body)
	if err != nil {
		return store.Doc{}, nil, fmt.Errorf("decode %s/%s: %w", db, id, err)
	}
	return d, body, nil
}

// save is a system write through the write path (stamps, revision check).
func (s *Service) save(ctx context.Context, p *access.Principal, db, id, rev string, body map[string]any) (store.Doc, error) {
	return s.docs.Save(asSystem(ctx), p, db, id, rev, maps.Clone(body))
}

// remove is a system delete.
func (s *Service) remove(ctx context.Context, p *access.Principal, db, id, rev string) error {
	_, err := s.docs.Delete(asSystem(ctx), p, db, id, rev)
	return err
}

// update applies change to the current document and saves it, retrying
// when someone else wrote in between.
func (s *Service) update(ctx context.Context, p *access.Principal, db, id string, change func(body map[string]any) error) (store.Doc, error) {
	for attempt := 0; ; attempt++ {
		d, body, err := s.get(ctx, db, id)
		if err != nil {
			return store.Doc{}, err
		}
		if err := change(body); err != nil {
			return store.Doc{}, err
		}
		saved, err := s.save(ctx, p, db, id, d.Rev, body)
		if errors.Is(err, store.ErrConflict) && attempt < 5 {
			continue
		}
		return saved, err
	}
}

// ensurePersonalDB creates usr-<id> when a failed registration left it
// missing, so mirrors always have somewhere to go.
func (s *Service) ensurePersonalDB(ctx context.Context, userID string) error {
	if _, err := s.st.DBInfo(ctx, userID); err == nil {
		return nil
	} else if !errors.Is(err, store.ErrDBNotFound) {
		return fmt.Errorf("personal db %s: %w", userID, err)
	}
	if err := access.CreateDB(ctx, s.st, userID, access.PersonalSecurity(userID)); err != nil && !errors.Is(err, store.ErrDBExists) {
		return fmt.Errorf("personal db %s: %w", userID, err)
	}
	return nil
}

// principalOf turns a stamp ({_id, label}) into the principal a system
// write is recorded as, for writes no request asked for (a registration
// mirroring an invitation is recorded as the inviter's).
func principalOf(stamp any) *access.Principal {
	m, _ := stamp.(map[string]any)
	id, _ := m["_id"].(string)
	label, _ := m["label"].(string)
	return &access.Principal{UserID: id, Name: id, Label: label, Via: access.ViaSession}
}

func str(v any) string { s, _ := v.(string); return s }

// stamp is the current time as documents store it.
func (s *Service) stamp() string { return s.docs.Now().UTC().Format(docs.TimeFormat) }

// stampFields are the fields docs.Save stamps; rules that rebuild a body
// from the stored one carry them over from the incoming write.
var stampFields = []string{"created_at", "created_by", "updated_at", "updated_by"}

// rebuild returns base with the stamps of incoming: for rules that accept
// only some fields of a client write and keep the rest as stored.
func rebuild(base, incoming map[string]any) map[string]any {
	out := maps.Clone(base)
	for _, f := range stampFields {
		if v, ok := incoming[f]; ok {
			out[f] = v
		}
	}
	return out
}

// undo is the rollback list of a multi-write operation. Rollback runs with
// a context that outlives the request's cancellation, newest write first.
type undo struct {
	steps []func(context.Context) error
}

func (u *undo) add(f func(context.Context) error) { u.steps = append(u.steps, f) }

func (u *undo) run(ctx context.Context, log *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	for i := len(u.steps) - 1; i >= 0; i-- {
		if err := u.steps[i](ctx); err != nil {
			log.ErrorContext(ctx, "rollback step failed", "err", err)
		}
	}
}
