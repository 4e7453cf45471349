package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/mail"
	"github.com/oficina/oficina/shared/store"
)

// linkToken is the stored form of a confirmation or reset link token
// (key: hash of the token). Email is the address the link was sent to: the
// link only works while that address is still the one in question.
type linkToken struct {
	UserID  string    `json:"user_id"`
	Email   string    `json:"email"`
	Expires time.Time `json:"expires"`
}

// SPA routes the links open (SPEC.md §2 confirm#show, password#show).
const (
	confirmPath = "/user/confirm/"
	resetPath   = "/user/password/"
)

// newLinkToken stores a single-use token of kind for userID and addr.
func (s *Service) newLinkToken(ctx context.Context, kind, userID, addr string) (string, error) {
	token, err := randomSecret()
	if err != nil {
		return "", err
	}
	lt := linkToken{UserID: userID, Email: addr, Expires: s.now().Add(s.cfg.LinkTTL)}
	b, err := json.Marshal(lt)
	if err != nil {
		return "", fmt.Errorf("encode %s token: %w", kind, err)
	}
	if err := s.store.PutRecord(ctx, store.Record{Kind: kind, Key: hashSecret(token), Value: b, ExpiresAt: lt.Expires}, false); err != nil {
		return "", fmt.Errorf("save %s token: %w", kind, err)
	}
	return token, nil
}

// takeLinkToken consumes a token: whatever happens next it cannot be used
// again. Unknown, used and expired tokens all read the same.
func (s *Service) takeLinkToken(ctx context.Context, kind, token string) (linkToken, error) {
	return s.readLinkToken(ctx, kind, token, true)
}

// peekLinkToken reads a token without using it up.
func (s *Service) peekLinkToken(ctx context.Context, kind, token string) (linkToken, error) {
	return s.readLinkToken(ctx, kind, token, false)
}

func (s *Service) readLinkToken(ctx context.Context, kind, token string, take bool) (linkToken, error) {
	gone := fault.New(fault.NotFound, fault.MsgTokenUsedOrExpired)
	if token == "" || len(token) > maxSecretLen {
		return linkToken{}, gone
	}
	var rec store.Record
	var err error
	if take {
		rec, err = s.store.TakeRecord(ctx, kind, hashSecret(token))
	} else {
		rec, err = s.store.GetRecord(ctx, kind, hashSecret(token))
	}
	if errors.Is(err, store.ErrNotFound) {
		return linkToken{}, gone
	}
	if err != nil {
		return linkToken{}, fmt.Errorf("read %s token: %w", kind, err)
	}
	var lt linkToken
	if err := json.Unmarshal(rec.Value, &lt); err != nil {
		return linkToken{}, fmt.Errorf("decode %s token: %w", kind, err)
	}
	if !s.now().Before(lt.Expires) {
		return linkToken{}, gone
	}
	return lt, nil
}

// mailAllowed caps mails of tag to addr per hour, so the public "send me
// a link" endpoints cannot be used to flood someone's mailbox.
func (s *Service) mailAllowed(ctx context.Context, tag, addr string) (bool, error) {
	key := tag + ":" + addr
	rec, err := s.store.GetRecord(ctx, kindMailThrottle, key)
	if err == nil && !rec.ExpiresAt.IsZero() && !s.now().Before(rec.ExpiresAt) {
		if err := s.store.DeleteRecord(ctx, kindMailThrottle, key); err != nil {
			return false, fmt.Errorf("mail throttle: %w", err)
		}
	} else if err != nil && !errors.Is(err, store.ErrNotFound) {
		return false, fmt.Errorf("mail throttle: %w", err)
	}
	n, err := s.store.Incr(ctx, kindMailThrottle, key, 1, time.Hour)
	if err != nil {
		return false, fmt.Errorf("mail throttle: %w", err)
	}
	return n <= int64(s.cfg.Throttle.MailsPerHour), nil
}

// sendConfirmation mails u a link confirming addr (a new address when change).
func (s *Service) sendConfirmation(ctx context.Context, u User, addr string, change bool) error {
	return s.sendLink(ctx, kindConfirm, "confirm", confirmPath, u, addr, change)
}

func (s *Service) sendLink(ctx context.Context, kind, tmpl, path string, u User, addr string, change bool) error {
	ok, err := s.mailAllowed(ctx, kind, addr)
	if err != nil {
		return err
	}
	if !ok {
		s.log.WarnContext(ctx, "mail throttled", "kind", kind, "user", u.ID)
		return nil
	}
	token, err := s.newLinkToken(ctx, kind, u.ID, addr)
	if err != nil {
		return err
	}
	m, err := s.tpl.Render(tmpl, u.Locale, addr, mail.TemplateData{
		Name: u.greeting(), Email: addr, Link: s.cfg.BaseURL + path + token,
		ValidHours: int(s.cfg.LinkTTL / time.Hour), Change: change,
	})
	if err != nil {
		return err
	}
	if err := s.mail.Send(ctx, m); err != nil {
		return fmt.Errorf("send %s mail: %w", kind, err)
	}
	return nil
}

// checkRequestEmail validates the {email} of the public link requests.
func checkRequestEmail(email string) (string, error) {
	addr := normEmail(email)
	switch {
	case addr == "":
		return "", fault.Invalid(map[string][]string{"email": {fault.CantBeBlank}})
	case !validEmail(addr):
		return "", fault.Invalid(map[string][]string{"email": {fault.IsInvalid}})
	}
	return addr, nil
}

// RequestConfirmation (re)sends a confirmation link. It says nothing about
// whether the address is known: the caller always answers 202. It mails only
// a user with something to confirm: a pending new address first (confirming
// it also confirms the account), else an unconfirmed login address.
// confirmation_sent_at is not moved, so resending does not extend the
// 30-day confirmation deadline.
func (s *Service) RequestConfirmation(ctx context.Context, email string) error {
	addr, err := checkRequestEmail(email)
	if err != nil {
		return err
	}
	u, ok, err := s.userByEmail(ctx, addr)
	if err != nil {
		return err
	}
	if !ok {
		if u, ok, err = s.userByPendingEmail(ctx, addr); err != nil || !ok {
			return err
		}
	}
	switch {
	case u.Pending() != "":
		err = s.sendConfirmation(ctx, u, u.Pending(), true)
	case !u.Confirmed():
		err = s.sendConfirmation(ctx, u, u.Email, false)
	}
	if err != nil {
		s.log.ErrorContext(ctx, "confirmation mail", "user", u.ID, "err", err)
	}
	return nil
}

// Confirm follows a confirmation link: it confirms the login address, or
// makes a pending new address the login address (claiming it, so it must
// still be free) and marks the user confirmed.
//
// A new address is confirmed only for p, the signed-in user (by session)
// who asked for the change: otherwise whoever registered someone else's
// address could park their own address and confirm it later without
// signing in, after the owner had recovered the account. Such a refusal
// does not use the link up.
func (s *Service) Confirm(ctx context.Context, p *access.Principal, token string) (User, error) {
	gone := fault.New(fault.NotFound, fault.MsgTokenUsedOrExpired)
	peek, err := s.peekLinkToken(ctx, kindConfirm, token)
	if err != nil {
		return User{}, err
	}
	if cur, err := s.loadUser(ctx, peek.UserID); err == nil && peek.Email != cur.Email && peek.Email == cur.Pending() {
		if p == nil {
			return User{}, fault.New(fault.Unauthorized, MsgNotLoggedIn)
		}
		if p.UserID != peek.UserID || p.Via != access.ViaSession {
			return User{}, fault.New(fault.Forbidden, MsgConfirmAsRequester)
		}
	}
	lt, err := s.takeLinkToken(ctx, kindConfirm, token)
	if err != nil {
		return User{}, err
	}
	u, err := s.loadUser(ctx, lt.UserID)
	if errors.Is(err, errNoUser) {
		return User{}, gone
	}
	if err != nil {
		return User{}, err
	}
	if lt.Email != u.Email && (p == nil || p.UserID != u.ID || p.Via != access.ViaSession) {
		// The user changed between the look and the take: only the
		// requester may confirm a new address.
		return User{}, gone
	}
	switch lt.Email {
	case u.Email:
		if u.Confirmed() {
			return u, nil
		}
		saved, err := s.updateUser(ctx, u.ID, func(u *User) error {
			if u.Email != lt.Email {
				return gone
			}
			if !u.Confirmed() {
				now := fmtTime(s.now())
				u.ConfirmedAt, u.UpdatedAt = &now, now
			}
			return nil
		})
		if err == nil {
			s.emailKnown(ctx, saved)
		}
		return saved, err
	case u.Pending():
		if err := s.claimEmail(ctx, lt.Email, u.ID); err != nil {
			return User{}, err
		}
		var old string
		saved, err := s.updateUser(ctx, u.ID, func(u *User) error {
			if u.Pending() != lt.Email {
				return gone
			}
			now := fmtTime(s.now())
			old = u.Email
			u.Email, u.UnconfirmedEmail = lt.Email, nil
			u.ConfirmedAt, u.UpdatedAt = &now, now
			return nil
		})
		if err != nil {
			s.releaseEmail(ctx, lt.Email, u.ID)
			return User{}, err
		}
		s.releaseEmail(ctx, old, u.ID)
		s.dropPendingEmail(ctx, lt.Email, u.ID)
		s.emailKnown(ctx, saved) // invitations sent to the new address show up
		s.log.InfoContext(ctx, "email changed", "user", u.ID)
		return saved, nil
	}
	return User{}, gone
}

// RequestPasswordReset mails a reset link to a known login address; like
// RequestConfirmation it never tells whether the address is known.
func (s *Service) RequestPasswordReset(ctx context.Context, email string) error {
	addr, err := checkRequestEmail(email)
	if err != nil {
		return err
	}
	u, ok, err := s.userByEmail(ctx, addr)
	if err != nil || !ok {
		return err
	}
	if err := s.sendLink(ctx, kindReset, "reset", resetPath, u, u.Email, false); err != nil {
		s.log.ErrorContext(ctx, "reset mail", "user", u.ID, "err", err)
	}
	return nil
}

// PasswordReset is the body of the reset call.
type PasswordReset struct {
	Token                string
	Password             string
	PasswordConfirmation *string
}

// ResetPassword sets a new password from a reset link. The link proves the
// user reads the login mailbox, so the mailbox's owner takes the account
// back whoever registered it: the e-mail is confirmed, every session ends,
// every API token is revoked, a pending change of address is dropped, and
// the login throttle of the account is cleared. The password is checked
// before the token is consumed, so a typo does not burn the link.
func (s *Service) ResetPassword(ctx context.Context, in PasswordReset) (User, error) {
	fields := map[string][]string{}
	if in.Password == "" {
		fields["password"] = []string{fault.CantBeBlank}
	}
	s.checkNewPassword(fields, in.Password, in.PasswordConfirmation)
	if len(fields) > 0 {
		return User{}, fault.Invalid(fields)
	}
	lt, err := s.takeLinkToken(ctx, kindReset, in.Token)
	if err != nil {
		return User{}, err
	}
	gone := fault.New(fault.NotFound, fault.MsgTokenUsedOrExpired)
	u, err := s.loadUser(ctx, lt.UserID)
	if errors.Is(err, errNoUser) || (err == nil && u.Email != lt.Email) {
		return User{}, gone
	}
	if err != nil {
		return User{}, err
	}
	hash, err := s.hash(ctx, in.Password)
	if err != nil {
		return User{}, err
	}
	cred, err := s.loadCredential(ctx, u.ID)
	if err != nil {
		return User{}, err
	}
	now := fmtTime(s.now())
	// Every session ends first; then one write changes the password and
	// ends every API token.
	if _, err := s.endSessions(ctx, u.ID, nil); err != nil {
		return User{}, err
	}
	cred.PasswordHash, cred.PasswordChangedAt = hash, now
	cred.SessionEpoch++
	cred.TokenEpoch++
	if err := s.saveCredential(ctx, u.ID, cred); err != nil {
		return User{}, err
	}
	var dropped string
	saved, err := s.updateUser(ctx, u.ID, func(u *User) error {
		if !u.Confirmed() && u.Email == lt.Email {
			u.ConfirmedAt = &now
		}
		dropped, u.UnconfirmedEmail = u.Pending(), nil
		u.UpdatedAt = now
		return nil
	})
	if err != nil {
		return User{}, err
	}
	if dropped != "" {
		s.dropPendingEmail(ctx, dropped, u.ID)
	}
	if err := s.unlock(ctx, u.Email); err != nil {
		s.log.ErrorContext(ctx, "reset: unlock", "user", u.ID, "err", err)
	}
	s.passwordReset(ctx, saved)
	s.log.InfoContext(ctx, "password reset: sessions ended, tokens revoked, pending address dropped", "user", u.ID)
	return saved, nil
}
