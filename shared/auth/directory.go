package auth

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/ids"
)

// This file is what other domain packages (accounts: memberships and
// invitations) need from identity: looking users up without a principal,
// the acc-<id> roles memberships maintain, preferences kept in sync with the
// user's personal db, and a hook when an e-mail becomes a user's.

// EmailHook is told that u now has the login e-mail u.Email: after
// registration and after a confirmation link. Hooks run synchronously and
// handle (log) their own failures: identity does not fail because of them.
type EmailHook func(ctx context.Context, u User)

// OnEmail adds h to the hooks Register and Confirm call. Call it while
// wiring, before serving.
func (s *Service) OnEmail(h EmailHook) {
	s.hooksMu.Lock()
	defer s.hooksMu.Unlock()
	s.emailHooks = append(s.emailHooks, h)
}

// ResetHook is told that u recovered the account through a password reset
// link: every session and API token has already ended (the credential's
// epochs moved); hooks tidy what describes them (token documents). Like
// EmailHook, hooks run synchronously and log their own failures.
type ResetHook func(ctx context.Context, u User)

// OnPasswordReset adds h to the hooks ResetPassword calls. Call it while
// wiring, before serving.
func (s *Service) OnPasswordReset(h ResetHook) {
	s.hooksMu.Lock()
	defer s.hooksMu.Unlock()
	s.resetHooks = append(s.resetHooks, h)
}

func (s *Service) passwordReset(ctx context.Context, u User) {
	s.hooksMu.RLock()
	hooks := slices.Clone(s.resetHooks)
	s.hooksMu.RUnlock()
	for _, h := range hooks {
		h(ctx, u)
	}
}

func (s *Service) emailKnown(ctx context.Context, u User) {
	s.hooksMu.RLock()
	hooks := slices.Clone(s.emailHooks)
	s.hooksMu.RUnlock()
	for _, h := range hooks {
		h(ctx, u)
	}
}

// UserByID returns user id; found is false when there is no such user.
func (s *Service) UserByID(ctx context.Context, id string) (User, bool, error) {
	u, err := s.loadUser(ctx, id)
	if errors.Is(err, errNoUser) {
		return User{}, false, nil
	}
	if err != nil {
		return User{}, false, err
	}
	return u, true, nil
}

// UserByEmail returns the user whose login e-mail is email (compared
// case-insensitively); found is false when nobody has it.
func (s *Service) UserByEmail(ctx context.Context, email string) (User, bool, error) {
	return s.userByEmail(ctx, normEmail(email))
}

// AddRole gives user id the Group role (acc-<id>); it shows in the
// principal from the user's next request on.
func (s *Service) AddRole(ctx context.Context, id, role string) error {
	if err := checkGroupRole(role); err != nil {
		return err
	}
	_, err := s.updateUser(ctx, id, func(u *User) error {
		if !slices.Contains(u.Roles, role) {
			u.Roles = append(u.Roles, role)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("add role %s to %s: %w", role, id, err)
	}
	return nil
}

// RemoveRole takes the Group role away; a user without it (or no user at
// all) is fine, so removal can be repeated.
func (s *Service) RemoveRole(ctx context.Context, id, role string) error {
	if err := checkGroupRole(role); err != nil {
		return err
	}
	_, err := s.updateUser(ctx, id, func(u *User) error {
		u.Roles = slices.DeleteFunc(u.Roles, func(r string) bool { return r == role })
		return nil
	})
	if err != nil && !errors.Is(err, errNoUser) {
		return fmt.Errorf("remove role %s from %s: %w", role, id, err)
	}
	return nil
}

// checkGroupRole keeps these helpers to Group roles: personal and server
// admin roles are never stored in the user document.
func checkGroupRole(role string) error {
	if p, ok := ids.Parse(role); !ok || p != "acc" {
		return fmt.Errorf("auth: %q is not a Group role", role)
	}
	return nil
}

// SetPreferences copies the preferences the user keeps as adjustments in
// their personal db (locale, newsletter) into the user document, where the
// session and the mails read them. Nil values are left alone.
func (s *Service) SetPreferences(ctx context.Context, id string, locale *string, newsletter *bool) error {
	var l string
	if locale != nil {
		var ok bool
		if l, ok = normLocale(*locale); !ok {
			return fault.Invalid(map[string][]string{"locale": {fault.NotInList}})
		}
	}
	_, err := s.updateUser(ctx, id, func(u *User) error {
		if locale != nil {
			u.Locale = l
		}
		if newsletter != nil {
			u.Newsletter = *newsletter
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("set preferences of %s: %w", id, err)
	}
	return nil
}

// NormEmail is how e-mails are stored and compared: trimmed, lowercased.
func NormEmail(s string) string { return normEmail(s) }

// ValidEmail reports whether the normalised addr is an address the product
// accepts (the same check registration applies).
func ValidEmail(addr string) bool { return validEmail(normEmail(addr)) }
