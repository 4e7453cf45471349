package accounts

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/auth"
	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/mail"
	"github.com/oficina/oficina/shared/store"
)

// A membership lives in its Group's db (mem-<id>) and is mirrored, with the
// same id, into the member's personal db, where the SPA lists the user's
// Groups (accepted) and invitations (pending). A pending membership has no
// user_id: it names an e-mail until that e-mail's user accepts it.

// memberDoc is one stored membership.
type memberDoc struct {
	id, rev string
	body    map[string]any
}

// memberships lists a Group's memberships.
func (s *Service) memberships(ctx context.Context, db string) ([]memberDoc, error) {
	var out []memberDoc
	q := store.ListQuery{Klass: KlassMembership, Limit: 500}
	for {
		page, err := s.st.List(ctx, db, q)
		if err != nil {
			return nil, fmt.Errorf("list memberships of %s: %w", db, err)
		}
		for _, d := range page.Docs {
			body, err := docs.Decode(d.Body)
			if err != nil {
				return nil, fmt.Errorf("decode %s/%s: %w", db, d.ID, err)
			}
			out = append(out, memberDoc{id: d.ID, rev: d.Rev, body: body})
		}
		if page.Next == "" {
			return out, nil
		}
		q.After = page.Next
	}
}

// memberUserID is the user a membership is for: its user_id, or for a
// pending one the user whose login e-mail it names ("" when nobody yet).
func (s *Service) memberUserID(ctx context.Context, body map[string]any) (string, error) {
	if uid := str(body["user_id"]); uid != "" {
		return uid, nil
	}
	u, ok, err := s.users.UserByEmail(ctx, str(body["email"]))
	if err != nil || !ok {
		return "", err
	}
	return u.ID, nil
}

func flag(body map[string]any, key string) bool { b, _ := body[key].(bool); return b }

// boolField reads an optional boolean of a client body.
func boolField(body map[string]any, key string, def bool, fields map[string][]string) bool {
	switch v := body[key].(type) {
	case nil:
		return def
	case bool:
		return v
	}
	fields[key] = []string{fault.IsInvalid}
	return def
}

// membershipRule guards client writes of memberships: only a Group's
// admins manage its memberships (inviting, changing, removing), nobody
// changes or removes their own, and the creator stays, as admin. Mirrors in
// personal dbs are the server's alone.
func (s *Service) membershipRule(ctx context.Context, w *docs.Write) error {
	if isSystem(ctx) {
		return nil
	}
	p := w.Principal
	if p == nil {
		return fault.New(fault.Unauthorized, auth.MsgNotLoggedIn)
	}
	if !isGroupDB(w.DB) {
		return denied()
	}
	// Members are told why they cannot leave this way before being told
	// they are not admins (the route already required access to the db).
	if w.Deleting && str(w.Old["user_id"]) == p.UserID {
		return fault.New(fault.Forbidden, MsgOwnSubscription)
	}
	if err := access.Check(ctx, s.st, p, w.DB, access.Admin); err != nil {
		return err
	}
	a, err := s.loadAccount(ctx, w.DB)
	if errors.Is(err, store.ErrNotFound) {
		return denied()
	}
	if err != nil {
		return err
	}
	switch {
	case w.Deleting:
		if uid := str(w.Old["user_id"]); uid != "" && uid == a.Creator {
			return denied()
		}
		return nil
	case w.Old == nil:
		return s.checkInvite(ctx, w, a)
	default:
		if str(w.Old["user_id"]) == p.UserID {
			return denied()
		}
		return s.checkMembershipChange(ctx, w, a)
	}
}

// checkInvite validates an invitation and rewrites it into a pending
// membership: the server sets everything but the e-mail and the flags.
func (s *Service) checkInvite(ctx context.Context, w *docs.Write, a account) error {
	p := w.Principal
	u, ok, err := s.users.UserByID(ctx, p.UserID)
	if err != nil {
		return err
	}
	if !ok || !u.Confirmed() {
		return fault.New(fault.Forbidden, fault.MsgConfirmEmailFirst)
	}
	fields := map[string][]string{}
	raw, isStr := w.New["email"].(string)
	addr := auth.NormEmail(raw)
	switch {
	case w.New["email"] != nil && !isStr:
		fields["email"] = []string{fault.IsInvalid}
	case addr == "":
		fields["email"] = []string{fault.CantBeBlank}
	case !auth.ValidEmail(addr):
		fields["email"] = []string{fault.IsInvalid}
	}
	editor := boolField(w.New, "editor", false, fields)
	reportView := boolField(w.New, "report_view", false, fields)
	if len(fields) > 0 {
		return fault.Invalid(fields)
	}
	plan, err := s.Plan(ctx, w.DB)
	if err != nil {
		return err
	}
	mems, err := s.memberships(ctx, w.DB)
	if err != nil {
		return err
	}
	for _, m := range mems {
		if auth.NormEmail(str(m.body["email"])) == addr {
			return invalid("email", fault.AlreadyTaken)
		}
		if plan == PlanFree && editor && flag(m.body, "editor") {
			return invalid("editor", MsgOneAdmin)
		}
	}
	body := map[string]any{
		"klass": KlassMembership, "email": addr, "editor": editor, "admin": editor, "report_view": reportView,
		"status": StatusPending, "bookmark": false, "db_name": w.DB, "name": a.Name,
		"created_by_id": p.UserID, "confirmed-plan": plan,
	}
	w.New = rebuild(body, w.New)
	// Indexed before the write so a registration in between finds it; an
	// entry whose membership never got written is dropped when read.
	return s.indexInvite(ctx, addr, inviteRef{DB: w.DB, ID: w.ID}, true)
}

// checkMembershipChange keeps a membership as stored but for its flags.
func (s *Service) checkMembershipChange(ctx context.Context, w *docs.Write, a account) error {
	fields := map[string][]string{}
	wasEditor := flag(w.Old, "editor")
	editor := boolField(w.New, "editor", wasEditor, fields)
	reportView := boolField(w.New, "report_view", flag(w.Old, "report_view"), fields)
	if len(fields) > 0 {
		return fault.Invalid(fields)
	}
	if uid := str(w.Old["user_id"]); uid != "" && uid == a.Creator && !editor {
		return denied() // the creator stays admin
	}
	if editor && !wasEditor {
		plan, err := s.Plan(ctx, w.DB)
		if err != nil {
			return err
		}
		if plan == PlanFree {
			mems, err := s.memberships(ctx, w.DB)
			if err != nil {
				return err
			}
			for _, m := range mems {
				if m.id != w.ID && flag(m.body, "editor") {
					return invalid("editor", MsgOneAdmin)
				}
			}
		}
	}
	body := rebuild(w.Old, w.New)
	body["editor"], body["admin"], body["report_view"] = editor, editor, reportView
	w.New = body
	return nil
}

// membershipEffect follows a client's membership write: the mirror, the
// admin list, the member's role and the invitation mail.
func (s *Service) membershipEffect(ctx context.Context, w *docs.Write, _ store.Doc) error {
	if isSystem(ctx) || !isGroupDB(w.DB) {
		return nil
	}
	switch {
	case w.Deleting:
		return s.afterRemove(ctx, w.Principal, w.DB, w.ID, w.Old)
	case w.Old == nil:
		return s.afterInvite(ctx, w.Principal, w.DB, w.ID, w.New)
	default:
		return s.afterChange(ctx, w.Principal, w.DB, w.ID, w.New)
	}
}

// invitee is the user a pending invitation to addr may be shown to: the
// one whose confirmed login address it is. An account that registered the
// address without confirming it sees nothing of the invitation (neither
// mirrored nor greeted by the name it chose); the mail still goes to the
// address, whose owner reads it.
func (s *Service) invitee(ctx context.Context, addr string) (auth.User, bool, error) {
	u, found, err := s.users.UserByEmail(ctx, addr)
	if err != nil || !found || !u.Confirmed() {
		return auth.User{}, false, err
	}
	return u, true, nil
}

// mirrorUserID is whose db a membership's mirror goes to: its member, or
// for a pending invitation its confirmed invitee ("" when none yet).
func (s *Service) mirrorUserID(ctx context.Context, body map[string]any) (string, error) {
	if uid := str(body["user_id"]); uid != "" {
		return uid, nil
	}
	u, ok, err := s.invitee(ctx, str(body["email"]))
	if err != nil || !ok {
		return "", err
	}
	return u.ID, nil
}

func (s *Service) afterInvite(ctx context.Context, p *access.Principal, db, id string, body map[string]any) error {
	addr := str(body["email"])
	u, found, err := s.invitee(ctx, addr)
	if err != nil {
		return err
	}
	locale, greeting := p.Locale, ""
	if found {
		locale, greeting = u.Locale, u.Fullname
		if err := s.ensurePersonalDB(ctx, u.ID); err != nil {
			return err
		}
		if err := s.putMirror(ctx, p, u.ID, id, body); err != nil {
			return fmt.Errorf("mirror invitation: %w", err)
		}
	}
	s.sendInvite(ctx, p, addr, locale, greeting, str(body["name"]), s.inviteLink(db, id))
	return nil
}

func (s *Service) afterChange(ctx context.Context, p *access.Principal, db, id string, body map[string]any) error {
	uid, err := s.mirrorUserID(ctx, body)
	if err != nil {
		return err
	}
	if uid != "" {
		if err := s.putMirror(ctx, p, uid, id, body); err != nil {
			return fmt.Errorf("mirror membership: %w", err)
		}
	}
	if str(body["status"]) == StatusAccepted && str(body["user_id"]) != "" {
		return s.setAdmin(ctx, p, db, str(body["user_id"]), flag(body, "editor"))
	}
	return nil
}

// afterRemove undoes everything a membership gave: the mirror, admin-ness,
// names in the _security and the role (so access ends on the member's
// next request). Every step runs even if one fails.
func (s *Service) afterRemove(ctx context.Context, p *access.Principal, db, id string, old map[string]any) error {
	var errs []error
	uid, err := s.memberUserID(ctx, old)
	errs = append(errs, err)
	if uid != "" {
		if d, _, err := s.get(ctx, uid, id); err == nil {
			errs = append(errs, s.remove(ctx, p, uid, id, d.Rev))
		} else if !errors.Is(err, store.ErrNotFound) {
			errs = append(errs, err)
		}
	}
	if member := str(old["user_id"]); member != "" {
		errs = append(errs, s.setAdmin(ctx, p, db, member, false))
		errs = append(errs, s.dropFromSecurity(ctx, db, member))
		errs = append(errs, s.users.RemoveRole(ctx, member, db))
		errs = append(errs, s.rememberFormerMember(ctx, db, member))
	}
	if addr := str(old["email"]); addr != "" {
		errs = append(errs, s.indexInvite(ctx, addr, inviteRef{DB: db, ID: id}, false))
	}
	return errors.Join(errs...)
}

// dropFromSecurity removes a former member's name from a Group's _security.
func (s *Service) dropFromSecurity(ctx context.Context, db, userID string) error {
	sec, err := access.LoadSecurity(ctx, s.st, db)
	if err != nil {
		return err
	}
	drop := func(l []string) []string {
		return slices.DeleteFunc(slices.Clone(l), func(n string) bool { return n == userID })
	}
	admins, members := drop(sec.Admins.Names), drop(sec.Members.Names)
	if len(admins) == len(sec.Admins.Names) && len(members) == len(sec.Members.Names) {
		return nil
	}
	sec.Admins.Names, sec.Members.Names = admins, members
	return access.SaveSecurity(ctx, s.st, db, sec)
}

// putMirror writes a membership's copy into userDB, keeping the bookmark
// the user set there.
func (s *Service) putMirror(ctx context.Context, p *access.Principal, userDB, id string, body map[string]any) error {
	mirror := maps.Clone(body)
	for _, f := range stampFields {
		delete(mirror, f)
	}
	for attempt := 0; ; attempt++ {
		d, cur, err := s.get(ctx, userDB, id)
		rev := ""
		switch {
		case err == nil:
			rev = d.Rev
			mirror["bookmark"] = flag(cur, "bookmark")
		case errors.Is(err, store.ErrNotFound):
		default:
			return err
		}
		_, err = s.save(ctx, p, userDB, id, rev, mirror)
		if errors.Is(err, store.ErrConflict) && attempt < 5 {
			continue
		}
		return err
	}
}

// Accept accepts the invitation id of Group db for p: only the user whose
// login e-mail it names, once that e-mail is confirmed; for anyone else the
// invitation does not exist. Accepting again finishes an acceptance that
// failed half-way (every step after the first repeats safely).
func (s *Service) Accept(ctx context.Context, p *access.Principal, db, id string) (store.Doc, error) {
	if p == nil {
		return store.Doc{}, fault.New(fault.Unauthorized, auth.MsgNotLoggedIn)
	}
	if p.Via == access.ViaToken {
		if len(p.TokenDBs) > 0 && !slices.Contains(p.TokenDBs, db) {
			return store.Doc{}, missing()
		}
		if p.TokenPerm != access.PermReadWrite {
			return store.Doc{}, denied()
		}
	}
	if !isGroupDB(db) {
		return store.Doc{}, missing()
	}
	d, body, err := s.get(ctx, db, id)
	if errors.Is(err, store.ErrNotFound) {
		return store.Doc{}, missing()
	}
	if err != nil {
		return store.Doc{}, err
	}
	accepted := str(body["status"]) == StatusAccepted
	if str(body["klass"]) != KlassMembership || auth.NormEmail(str(body["email"])) != auth.NormEmail(p.Email) ||
		(accepted && str(body["user_id"]) != p.UserID) {
		return store.Doc{}, missing()
	}
	u, ok, err := s.users.UserByID(ctx, p.UserID)
	if err != nil {
		return store.Doc{}, err
	}
	if !ok {
		return store.Doc{}, fault.New(fault.Unauthorized, auth.MsgNotLoggedIn)
	}
	if !u.Confirmed() {
		return store.Doc{}, fault.New(fault.Forbidden, MsgConfirmFirst)
	}
	unlock, err := s.lockUser(ctx, p.UserID)
	if err != nil {
		return store.Doc{}, err
	}
	defer unlock()
	if !accepted {
		plan, err := s.Plan(ctx, db)
		if err != nil {
			return store.Doc{}, err
		}
		if plan == PlanFree {
			// Read again under the lock: the roles may have just grown.
			if u, _, err = s.users.UserByID(ctx, p.UserID); err != nil {
				return store.Doc{}, err
			}
			if err := s.checkFreeLimit(ctx, u, db); err != nil {
				return store.Doc{}, err
			}
		}
		body["status"] = StatusAccepted
		body["user_id"] = p.UserID
		body["user"] = map[string]any{"_id": p.UserID, "label": p.Label}
		if d, err = s.save(ctx, p, db, id, d.Rev, body); err != nil {
			return store.Doc{}, err
		}
	}
	if err := s.ensurePersonalDB(ctx, p.UserID); err != nil {
		return store.Doc{}, err
	}
	if err := s.putMirror(ctx, p, p.UserID, id, body); err != nil {
		return store.Doc{}, fmt.Errorf("mirror accepted membership: %w", err)
	}
	if flag(body, "editor") {
		if err := s.setAdmin(ctx, p, db, p.UserID, true); err != nil {
			return store.Doc{}, err
		}
	}
	// The role comes last: from the next request on, the Group is open.
	if err := s.users.AddRole(ctx, p.UserID, db); err != nil {
		return store.Doc{}, err
	}
	if err := s.indexInvite(ctx, str(body["email"]), inviteRef{DB: db, ID: id}, false); err != nil {
		s.log.ErrorContext(ctx, "accept: drop invitation index", "err", err)
	}
	s.log.InfoContext(ctx, "invitation accepted", "account", db, "user", p.UserID)
	return d, nil
}

// Bookmark sets the bookmark of the membership mirror id in the caller's
// personal db.
func (s *Service) Bookmark(ctx context.Context, p *access.Principal, db, id string, on bool) (store.Doc, error) {
	if p == nil {
		return store.Doc{}, fault.New(fault.Unauthorized, auth.MsgNotLoggedIn)
	}
	if err := access.Check(ctx, s.st, p, db, access.Write); err != nil {
		return store.Doc{}, err
	}
	if !isUserDB(db) {
		return store.Doc{}, missing()
	}
	d, body, err := s.get(ctx, db, id)
	if errors.Is(err, store.ErrNotFound) || (err == nil && str(body["klass"]) != KlassMembership) {
		return store.Doc{}, missing()
	}
	if err != nil {
		return store.Doc{}, err
	}
	if b, ok := body["bookmark"].(bool); ok && b == on {
		return d, nil
	}
	body["bookmark"] = on
	return s.save(ctx, p, db, id, d.Rev, body)
}

// EmailKnown is auth's hook: u has just registered or confirmed u.Email,
// so, once it is confirmed, the invitations waiting for that address are
// mirrored into u's db (a registration alone proves nothing: whoever
// typed the address must not read the Groups that invited it).
func (s *Service) EmailKnown(ctx context.Context, u auth.User) {
	if !u.Confirmed() {
		return
	}
	refs, err := s.invites(ctx, u.Email)
	if err != nil {
		s.log.ErrorContext(ctx, "invitations for new address", "user", u.ID, "err", err)
		return
	}
	for _, ref := range refs {
		_, body, err := s.get(ctx, ref.DB, ref.ID)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			s.log.ErrorContext(ctx, "read invitation", "account", ref.DB, "err", err)
			continue
		}
		if err != nil || str(body["status"]) != StatusPending || auth.NormEmail(str(body["email"])) != u.Email {
			if err := s.indexInvite(ctx, u.Email, ref, false); err != nil {
				s.log.ErrorContext(ctx, "drop stale invitation", "err", err)
			}
			continue
		}
		err = s.ensurePersonalDB(ctx, u.ID)
		if err == nil {
			err = s.putMirror(ctx, principalOf(body["created_by"]), u.ID, ref.ID, body)
		}
		if err != nil {
			s.log.ErrorContext(ctx, "mirror invitation", "user", u.ID, "account", ref.DB, "err", err)
		}
	}
}

// The invitation index: per e-mail, the pending memberships naming it, so
// that a user who registers (or confirms a new address) later sees them.
const kindInvites = "invites"

type inviteRef struct {
	DB string `json:"db"`
	ID string `json:"id"`
}

func (s *Service) invites(ctx context.Context, email string) ([]inviteRef, error) {
	return readList[inviteRef](ctx, s.st, kindInvites, auth.NormEmail(email), "invitations of "+email)
}

// readList reads the JSON list a store record (kind, key) keeps; none when
// there is no record.
func readList[T any](ctx context.Context, st store.Store, kind, key, what string) ([]T, error) {
	rec, err := st.GetRecord(ctx, kind, key)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	var list []T
	if err := json.Unmarshal(rec.Value, &list); err != nil {
		return nil, fmt.Errorf("decode %s: %w", what, err)
	}
	return list, nil
}

// indexInvite adds or removes ref under email with a compare-and-set, so
// concurrent invitations to one address all stay.
func (s *Service) indexInvite(ctx context.Context, email string, ref inviteRef, add bool) error {
	return updateList(ctx, s.st, kindInvites, auth.NormEmail(email), "invitation index", func(refs []inviteRef) ([]inviteRef, bool) {
		if slices.Contains(refs, ref) == add {
			return refs, false
		}
		if add {
			return append(refs, ref), true
		}
		return slices.DeleteFunc(refs, func(r inviteRef) bool { return r == ref }), true
	})
}

// updateList changes the JSON list a store record (kind, key) keeps, with
// a compare-and-set that reads again when another writer came first.
// change returns the new list and whether to write it; an empty list
// deletes the record.
func updateList[T any](ctx context.Context, st store.Store, kind, key, what string, change func([]T) ([]T, bool)) error {
	for attempt := 0; attempt < 10; attempt++ {
		w := store.RecordWrite{Record: store.Record{Kind: kind, Key: key}}
		var list []T
		rec, err := st.GetRecord(ctx, kind, key)
		switch {
		case errors.Is(err, store.ErrNotFound):
			w.ExpectAbsent = true
		case err != nil:
			return fmt.Errorf("%s: %w", what, err)
		default:
			if err := json.Unmarshal(rec.Value, &list); err != nil {
				return fmt.Errorf("%s: %w", what, err)
			}
			w.Expect = rec.Value
		}
		list, write := change(list)
		if !write {
			return nil
		}
		if len(list) == 0 {
			w.Delete = true
		} else if w.Value, err = json.Marshal(list); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		err = st.Transact(ctx, []store.RecordWrite{w})
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		return nil
	}
	return fault.New(fault.Conflict, fault.MsgConflict)
}

const (
	kindInviteMail   = "invite-mail" // recipient → mails this hour
	inviteMailsPerHr = 5
)

// sendInvite mails the invitation, at most a few an hour to one address so
// inviting and removing in a loop cannot flood a mailbox. Failures are
// logged: the invitation stands and shows on the invitee's profile.
func (s *Service) sendInvite(ctx context.Context, p *access.Principal, to, locale, greeting, group, link string) {
	n, err := s.st.Incr(ctx, kindInviteMail, to, 1, time.Hour)
	if err != nil {
		s.log.ErrorContext(ctx, "invitation mail throttle", "err", err)
		return
	}
	if n > inviteMailsPerHr {
		s.log.WarnContext(ctx, "invitation mail throttled", "inviter", p.UserID)
		return
	}
	inviter := p.Label
	if inviter == "" {
		inviter = p.Email
	}
	m, err := s.tpl.Render("invite", locale, to, mail.TemplateData{
		Name: greeting, Email: to, Link: link,
		Vars: map[string]string{"inviter": inviter, "group": group},
	})
	if err == nil {
		err = s.mail.Send(ctx, m)
	}
	if err != nil {
		s.log.ErrorContext(ctx, "invitation mail", "inviter", p.UserID, "err", err)
	}
}
