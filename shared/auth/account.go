package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/store"
)

// Registration is the body of POST /_users (SPEC.md §7).
type Registration struct {
	ID       string // "usr-<32 hex>", generated when empty
	Fullname string
	Email    string
	Password string
	// PasswordConfirmation must equal Password when given.
	PasswordConfirmation *string
	Locale               string
}

// Register creates a user, its e-mail claim and personal database, and
// mails the confirmation link. A request that fails writes nothing.
func (s *Service) Register(ctx context.Context, in Registration) (User, error) {
	id := in.ID
	if id == "" {
		id = ids.New("usr")
	} else if !isUserID(id) {
		return User{}, fault.New(fault.BadRequest, MsgInvalidUserID)
	}
	fields := map[string][]string{}
	addr := normEmail(in.Email)
	switch {
	case addr == "":
		fields["email"] = []string{fault.CantBeBlank}
	case !validEmail(addr):
		fields["email"] = []string{fault.IsInvalid}
	}
	s.checkNewPassword(fields, in.Password, in.PasswordConfirmation)
	locale, ok := normLocale(in.Locale)
	if !ok {
		fields["locale"] = []string{fault.NotInList}
	}
	fullname := strings.TrimSpace(in.Fullname)
	if len([]rune(fullname)) > maxFullname {
		fields["fullname"] = []string{fmt.Sprintf("is too long (maximum is %d characters)", maxFullname)}
	}
	if len(fields) > 0 {
		return User{}, fault.Invalid(fields)
	}
	if err := s.EnsureSystemDBs(ctx); err != nil {
		return User{}, err
	}
	if _, err := s.store.Get(ctx, ids.UsersDB, id); err == nil || errors.Is(err, store.ErrDeleted) {
		return User{}, fault.New(fault.Conflict, fault.MsgConflict)
	} else if !errors.Is(err, store.ErrNotFound) {
		return User{}, fmt.Errorf("register: %w", err)
	}
	var hash string
	if in.Password != "" {
		var err error
		if hash, err = s.hash(ctx, in.Password); err != nil {
			return User{}, err
		}
	}

	if err := s.claimEmail(ctx, addr, id); err != nil {
		return User{}, err
	}
	now := fmtTime(s.now())
	u := User{
		ID: id, Fullname: fullname, Email: addr, Locale: locale,
		ConfirmationSentAt: &now, CreatedAt: now, UpdatedAt: now, Roles: []string{},
	}
	u.derive()
	u.CreatedBy = Stamp{ID: id, Label: u.Label}
	u.UpdatedBy = u.CreatedBy
	saved, err := s.saveUser(ctx, u)
	if err != nil {
		s.releaseEmail(ctx, addr, id)
		if errors.Is(err, store.ErrConflict) {
			return User{}, fault.New(fault.Conflict, fault.MsgConflict)
		}
		return User{}, err
	}
	// The credential follows the document: were it written first, a racing
	// registration with the same id could have its cleanup delete the
	// credential of the user that won.
	if hash != "" {
		if err := s.saveCredential(ctx, id, credential{PasswordHash: hash, PasswordChangedAt: now}); err != nil {
			if _, derr := s.store.Delete(ctx, ids.UsersDB, id, saved.Rev); derr != nil {
				s.log.ErrorContext(ctx, "register: cannot undo user after credential failure", "user", id, "err", derr)
			}
			s.releaseEmail(ctx, addr, id)
			return User{}, err
		}
	}
	if err := s.ensurePersonalDB(ctx, id); err != nil {
		// The user exists; login retries the personal db, so do not fail.
		s.log.ErrorContext(ctx, "register: personal db", "user", id, "err", err)
	}
	if err := s.sendConfirmation(ctx, saved, addr, false); err != nil {
		s.log.ErrorContext(ctx, "register: confirmation mail", "user", id, "err", err)
	}
	s.emailKnown(ctx, saved) // invitations waiting for this address show up
	s.log.InfoContext(ctx, "user registered", "user", id)
	return saved, nil
}

// emailClaim makes an e-mail unique across users.
type emailClaim struct {
	UserID string    `json:"user_id"`
	At     time.Time `json:"at"`
}

// staleClaimAge is how old a claim must be before a claim whose user never
// got written (a crash between the two writes) may be taken over.
const staleClaimAge = 5 * time.Minute

// claimEmail reserves addr for userID; 409 when another user has it.
func (s *Service) claimEmail(ctx context.Context, addr, userID string) error {
	b, err := json.Marshal(emailClaim{UserID: userID, At: s.now()})
	if err != nil {
		return fmt.Errorf("claim email: %w", err)
	}
	rec := store.Record{Kind: kindEmail, Key: addr, Value: b}
	for attempt := 0; attempt < 2; attempt++ {
		err := s.store.PutRecord(ctx, rec, true)
		if err == nil {
			return nil
		}
		if !errors.Is(err, store.ErrExists) {
			return fmt.Errorf("claim email: %w", err)
		}
		c, ok, err := s.readClaim(ctx, addr)
		if err != nil {
			return err
		}
		if !ok {
			continue // released in between
		}
		if c.UserID == userID {
			return nil
		}
		if s.now().Sub(c.At) < staleClaimAge {
			break
		}
		owner, err := s.loadUser(ctx, c.UserID)
		if err != nil && !errors.Is(err, errNoUser) {
			return err
		}
		if err == nil && owner.Email == addr {
			break
		}
		if err := s.store.DeleteRecord(ctx, kindEmail, addr); err != nil {
			return fmt.Errorf("claim email: %w", err)
		}
	}
	return &fault.Error{Kind: fault.Conflict, Reason: MsgEmailTaken, Fields: map[string][]string{"email": {fault.AlreadyTaken}}}
}

func (s *Service) readClaim(ctx context.Context, addr string) (emailClaim, bool, error) {
	rec, err := s.store.GetRecord(ctx, kindEmail, addr)
	if errors.Is(err, store.ErrNotFound) {
		return emailClaim{}, false, nil
	}
	if err != nil {
		return emailClaim{}, false, fmt.Errorf("read email claim: %w", err)
	}
	var c emailClaim
	if err := json.Unmarshal(rec.Value, &c); err != nil {
		return emailClaim{}, false, fmt.Errorf("decode email claim: %w", err)
	}
	return c, true, nil
}

// releaseEmail drops userID's claim on addr (someone else's is left alone).
// Failures are logged: a leftover claim is recovered by claimEmail later.
func (s *Service) releaseEmail(ctx context.Context, addr, userID string) {
	c, ok, err := s.readClaim(ctx, addr)
	if err == nil && ok && c.UserID == userID {
		err = s.store.DeleteRecord(ctx, kindEmail, addr)
	}
	if err != nil {
		s.log.ErrorContext(ctx, "release email claim", "user", userID, "err", err)
	}
}

// userByEmail finds the user whose login e-mail is addr.
func (s *Service) userByEmail(ctx context.Context, addr string) (User, bool, error) {
	c, ok, err := s.readClaim(ctx, addr)
	if err != nil || !ok {
		return User{}, false, err
	}
	u, err := s.loadUser(ctx, c.UserID)
	if errors.Is(err, errNoUser) {
		return User{}, false, nil
	}
	if err != nil {
		return User{}, false, err
	}
	return u, u.Email == addr, nil
}

// userByPendingEmail finds the user waiting to confirm addr as a new e-mail.
func (s *Service) userByPendingEmail(ctx context.Context, addr string) (User, bool, error) {
	rec, err := s.store.GetRecord(ctx, kindPendingEmail, addr)
	if errors.Is(err, store.ErrNotFound) {
		return User{}, false, nil
	}
	if err != nil {
		return User{}, false, fmt.Errorf("pending email: %w", err)
	}
	u, err := s.loadUser(ctx, string(rec.Value))
	if errors.Is(err, errNoUser) {
		return User{}, false, nil
	}
	if err != nil {
		return User{}, false, err
	}
	return u, u.Pending() == addr, nil
}

// User returns user id as the principal may see it: self or a server admin.
// Anyone else gets 404 so that user ids cannot be probed.
func (s *Service) User(ctx context.Context, p *access.Principal, id string) (User, error) {
	if p == nil {
		return User{}, fault.New(fault.Unauthorized, MsgNotLoggedIn)
	}
	if p.UserID != id && !p.IsServerAdmin() {
		return User{}, notFound()
	}
	u, err := s.loadUser(ctx, id)
	if errors.Is(err, errNoUser) {
		return User{}, notFound()
	}
	return u, err
}

// UserUpdate is the body of PUT /_users/{id} (SPEC.md §7): a profile edit,
// a password change, or both. Nil fields are left as they are.
type UserUpdate struct {
	ID  string
	Rev string // the revision the client read; required
	// Fullname, UnconfirmedEmail (or Email, for clients that send the whole
	// document), Locale and Newsletter edit the profile.
	Fullname         *string
	UnconfirmedEmail *string
	Email            *string
	Locale           *string
	Newsletter       *bool
	// Password (with PasswordConfirmation, checked when given) changes the password.
	Password             *string
	PasswordConfirmation *string
	// CurrentPassword is required to change the name, e-mail or password.
	CurrentPassword string
}

// UpdateResult is the saved user and, after a password change, the new
// session that replaces the caller's (every other session has ended).
type UpdateResult struct {
	User    User
	Session *Session
}

// UpdateUser edits the caller's own user. A new e-mail waits in
// unconfirmed_email until its link is followed; a new password ends every
// session and opens a new one for the caller.
func (s *Service) UpdateUser(ctx context.Context, p *access.Principal, in UserUpdate) (UpdateResult, error) {
	if p == nil {
		return UpdateResult{}, fault.New(fault.Unauthorized, MsgNotLoggedIn)
	}
	if p.UserID != in.ID {
		if p.IsServerAdmin() {
			return UpdateResult{}, fault.New(fault.Forbidden, fault.MsgPermissionDenied)
		}
		return UpdateResult{}, notFound()
	}
	if p.Via != access.ViaSession {
		// A leaked API token must not be enough to take the account over.
		return UpdateResult{}, fault.New(fault.Forbidden, fault.MsgPermissionDenied)
	}
	u, err := s.loadUser(ctx, in.ID)
	if errors.Is(err, errNoUser) {
		return UpdateResult{}, notFound()
	}
	if err != nil {
		return UpdateResult{}, err
	}
	if in.Rev != u.Rev {
		return UpdateResult{}, fault.New(fault.Conflict, fault.MsgConflict)
	}

	fields := map[string][]string{}
	sensitive := false // a change that needs the current password

	if in.Fullname != nil {
		fn := strings.TrimSpace(*in.Fullname)
		if len([]rune(fn)) > maxFullname {
			fields["fullname"] = []string{fmt.Sprintf("is too long (maximum is %d characters)", maxFullname)}
		} else if fn != u.Fullname {
			u.Fullname, sensitive = fn, true
		}
	}

	// The new e-mail: unconfirmed_email wins over email.
	emailField, target := "unconfirmed_email", in.UnconfirmedEmail
	if target == nil && in.Email != nil {
		emailField, target = "email", in.Email
	}
	oldPending, newPending := u.Pending(), u.Pending()
	if target != nil {
		addr := normEmail(*target)
		switch {
		case emailField == "email" && addr == "":
			fields["email"] = []string{fault.CantBeBlank}
		case emailField == "email" && addr == u.Email:
			// the whole document sent back: no change of address
		case addr == "" || addr == u.Email:
			newPending = "" // unconfirmed_email cleared: cancels a pending change
		case !validEmail(addr):
			fields[emailField] = []string{fault.IsInvalid}
		default:
			newPending = addr
		}
		if newPending != oldPending && newPending != "" {
			sensitive = true
		}
	}

	changePassword := (in.Password != nil && *in.Password != "") || (in.PasswordConfirmation != nil && *in.PasswordConfirmation != "")
	var newPassword string
	if changePassword {
		sensitive = true
		if in.Password != nil {
			newPassword = *in.Password
		}
		if newPassword == "" {
			fields["password"] = []string{fault.CantBeBlank}
		}
		s.checkNewPassword(fields, newPassword, in.PasswordConfirmation)
	}

	if in.Locale != nil {
		if l, ok := normLocale(*in.Locale); ok {
			u.Locale = l
		} else {
			fields["locale"] = []string{fault.NotInList}
		}
	}
	if in.Newsletter != nil {
		u.Newsletter = *in.Newsletter
	}
	if sensitive && in.CurrentPassword == "" {
		fields["current_password"] = []string{fault.CantBeBlank}
	}
	if len(fields) > 0 {
		return UpdateResult{}, fault.Invalid(fields)
	}

	cred, err := s.loadCredential(ctx, u.ID)
	if err != nil {
		return UpdateResult{}, err
	}
	if in.CurrentPassword != "" {
		if err := s.checkCurrentPassword(ctx, u, cred, in.CurrentPassword); err != nil {
			return UpdateResult{}, err
		}
	}
	if newPending != oldPending && newPending != "" {
		if c, ok, err := s.readClaim(ctx, newPending); err != nil {
			return UpdateResult{}, err
		} else if ok && c.UserID != u.ID {
			return UpdateResult{}, &fault.Error{Kind: fault.Conflict, Reason: MsgEmailTaken, Fields: map[string][]string{emailField: {fault.AlreadyTaken}}}
		}
	}
	var newHash string
	if changePassword {
		if newHash, err = s.hash(ctx, newPassword); err != nil {
			return UpdateResult{}, err
		}
	}

	now := fmtTime(s.now())
	if newPending != oldPending {
		if newPending == "" {
			u.UnconfirmedEmail = nil
		} else {
			u.UnconfirmedEmail = &newPending
			u.ConfirmationSentAt = &now
		}
	}
	u.UpdatedAt = now
	u.derive()
	u.UpdatedBy = Stamp{ID: u.ID, Label: u.Label}
	saved, err := s.saveUser(ctx, u)
	if errors.Is(err, store.ErrConflict) {
		return UpdateResult{}, fault.New(fault.Conflict, fault.MsgConflict)
	}
	if err != nil {
		return UpdateResult{}, err
	}
	res := UpdateResult{User: saved}

	if newPending != oldPending {
		if oldPending != "" {
			s.dropPendingEmail(ctx, oldPending, u.ID)
		}
		if newPending != "" {
			if err := s.store.PutRecord(ctx, store.Record{Kind: kindPendingEmail, Key: newPending, Value: []byte(u.ID)}, false); err != nil {
				s.log.ErrorContext(ctx, "update user: pending email index", "user", u.ID, "err", err)
			}
			if err := s.sendConfirmation(ctx, saved, newPending, true); err != nil {
				s.log.ErrorContext(ctx, "update user: confirmation mail", "user", u.ID, "err", err)
			}
		}
	}
	if changePassword {
		// Every session ends first, so no session outlives the old password.
		ended, err := s.endSessions(ctx, u.ID, nil)
		if err != nil {
			return UpdateResult{}, err
		}
		remember := false
		for _, x := range ended {
			if x.Hash == p.SessionKey {
				remember = x.Remember
			}
		}
		cred.PasswordHash = newHash
		cred.SessionEpoch++
		cred.PasswordChangedAt = now
		if err := s.saveCredential(ctx, u.ID, cred); err != nil {
			return UpdateResult{}, err
		}
		sess, err := s.newSession(ctx, saved, remember)
		if err != nil {
			return UpdateResult{}, err
		}
		sess.Roles = s.principal(saved, access.ViaSession).Roles
		res.Session = &sess
		s.log.InfoContext(ctx, "password changed, other sessions ended", "user", u.ID)
	}
	return res, nil
}

// checkCurrentPassword verifies the password of a signed-in user, counting
// failures against the same account lock as logins, so a stolen session
// cannot be used to guess the password.
func (s *Service) checkCurrentPassword(ctx context.Context, u User, cred credential, password string) error {
	key := "email:" + normEmail(u.Email)
	if err := s.checkLock(ctx, key, MsgAccountLocked); err != nil {
		return err
	}
	ok := false
	if cred.PasswordHash != "" {
		var err error
		if ok, err = s.verify(ctx, password, cred.PasswordHash); err != nil {
			return fmt.Errorf("check password of %s: %w", u.ID, err)
		}
	}
	if ok {
		return nil
	}
	n, err := s.countFailure(ctx, key, s.cfg.Throttle.AccountWindow)
	if err != nil {
		return err
	}
	if n >= int64(s.cfg.Throttle.AccountFailures) {
		if err := s.lock(ctx, key, s.cfg.Throttle.AccountLock); err != nil {
			return err
		}
		return &fault.Error{Kind: fault.TooManyRequests, Reason: MsgAccountLocked, RetryAfter: seconds(s.cfg.Throttle.AccountLock)}
	}
	return fault.Invalid(map[string][]string{"current_password": {fault.IsInvalid}})
}

// dropPendingEmail removes the pending-address index entry if it is userID's.
func (s *Service) dropPendingEmail(ctx context.Context, addr, userID string) {
	rec, err := s.store.GetRecord(ctx, kindPendingEmail, addr)
	if err == nil && string(rec.Value) == userID {
		err = s.store.DeleteRecord(ctx, kindPendingEmail, addr)
	}
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.log.ErrorContext(ctx, "drop pending email", "user", userID, "err", err)
	}
}
