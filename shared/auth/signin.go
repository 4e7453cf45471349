package auth

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/oficina/oficina/shared/store"
)

// A signed-in request reads one record: the user's sign-in record, which
// holds the user's sessions and a copy of the user document. (It used to
// read the session, the user document and the credential record: three
// reads, each a read capacity unit on DynamoDB.) The session cookie names
// the user, so the record is found without a lookup.
//
// The copy is never more permissive than the user document, so an access
// decision made from it never grants what one made from the document
// would refuse:
//
//  1. every write of the user document (saveUser) first sets the copy to
//     the meet of the copy and the new document (only the roles both have,
//     confirmed only if both agree on a confirmed address) and marks it
//     pending;
//  2. then writes the document;
//  3. then sets the copy to the new document, only if the record is still
//     exactly as step 1 left it — any later write of the document has
//     passed its own step 1, which changed it.
//
// A write that fails between the steps leaves the copy stricter than the
// document (a member may miss a Group they just gained), never looser. A
// sign-in repairs such a copy from the document, unless a write is pending
// (less than pendingFor old): then the copy stays as it is.
//
// Ending sessions (logout, password change, password reset) removes them
// from the record before anything else is written, so they end at once.

// kindSignin is the record kind: key user id → signin.
const kindSignin = "signin"

const (
	// maxSessions bounds the sessions a user keeps; a new sign-in beyond it
	// ends the oldest.
	maxSessions = 30
	// pendingFor is how long a pending copy is left alone: longer than any
	// store write can take (the stores give up on a write after a minute),
	// so after it the document is final and a sign-in may copy it.
	pendingFor = 2 * time.Minute
	// signinAttempts bounds the retries of a record change losing races.
	signinAttempts = 20
)

// signin is the stored sign-in record.
type signin struct {
	User     User            `json:"user"`
	Pending  time.Time       `json:"pending,omitzero"` // a user document write is under way
	Sessions []signinSession `json:"sessions,omitempty"`
}

// signinSession is one session: the hash of its secret and when it ends.
type signinSession struct {
	Hash     string    `json:"h"`
	Expires  time.Time `json:"x"`
	Remember bool      `json:"r,omitempty"`
}

// sessionHash is how a session secret is stored: 144 bits of its SHA-256
// (the secret itself has 256 random bits).
func sessionHash(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return base64.RawURLEncoding.EncodeToString(sum[:18])
}

// cookieValue is the AuthSession cookie of a session: "<user id>:<secret>".
func cookieValue(userID, secret string) string { return userID + ":" + secret }

// parseCookie splits an AuthSession cookie; ok is false for anything else
// (including cookies of the earlier format, which no longer sign in).
func parseCookie(v string) (userID, secret string, ok bool) {
	userID, secret, ok = strings.Cut(v, ":")
	return userID, secret, ok && isUserID(userID) && secret != ""
}

// loadSignin reads the user's record; raw is nil when there is none.
func (s *Service) loadSignin(ctx context.Context, userID string) (si signin, raw []byte, err error) {
	rec, err := s.store.GetRecord(ctx, kindSignin, userID)
	if errors.Is(err, store.ErrNotFound) {
		return signin{}, nil, nil
	}
	if err != nil {
		return signin{}, nil, fmt.Errorf("load sign-in of %s: %w", userID, err)
	}
	if err := json.Unmarshal(rec.Value, &si); err != nil {
		return signin{}, nil, fmt.Errorf("decode sign-in of %s: %w", userID, err)
	}
	raw = rec.Value
	if raw == nil {
		raw = []byte{}
	}
	return si, raw, nil
}

// errUnchanged tells changeSignin there is nothing to write.
var errUnchanged = errors.New("unchanged")

// changeSignin applies change to the user's record (found reports whether
// it existed) and writes it if nothing wrote it meanwhile, retrying until
// it does. It returns the bytes written. change returns errUnchanged to
// write nothing.
func (s *Service) changeSignin(ctx context.Context, userID string, change func(si *signin, found bool) error) ([]byte, error) {
	for range signinAttempts {
		si, prev, err := s.loadSignin(ctx, userID)
		if err != nil {
			return nil, err
		}
		if err := change(&si, prev != nil); errors.Is(err, errUnchanged) {
			return prev, nil
		} else if err != nil {
			return nil, err
		}
		now := s.now()
		si.Sessions = slices.DeleteFunc(si.Sessions, func(x signinSession) bool { return !now.Before(x.Expires) })
		if n := len(si.Sessions); n > maxSessions {
			si.Sessions = si.Sessions[n-maxSessions:] // the oldest end
		}
		next, err := json.Marshal(si)
		if err != nil {
			return nil, fmt.Errorf("encode sign-in of %s: %w", userID, err)
		}
		if prev != nil && bytes.Equal(prev, next) {
			return next, nil
		}
		err = s.store.Transact(ctx, []store.RecordWrite{store.SwapWrite(kindSignin, userID, next, prev)})
		if err == nil {
			return next, nil
		}
		if !errors.Is(err, store.ErrConflict) {
			return nil, fmt.Errorf("save sign-in of %s: %w", userID, err)
		}
	}
	return nil, fmt.Errorf("save sign-in of %s: %w", userID, store.ErrConflict)
}

// meet is a user no more permissive than a or b: b's fields, with the
// roles both have, and the address confirmed only when both confirm the
// same one (a confirmed address matches _security names and server-admin
// addresses).
func meet(a, b User) User {
	m := b
	m.Roles = []string{}
	for _, r := range b.Roles {
		if slices.Contains(a.Roles, r) {
			m.Roles = append(m.Roles, r)
		}
	}
	if !a.Confirmed() || !b.Confirmed() || normEmail(a.Email) != normEmail(b.Email) {
		m.ConfirmedAt = nil
	}
	return m
}

// copyBeforeWrite is step 1 of a user document write: the copy becomes the
// meet of itself and next, marked pending. It returns the bytes written,
// which step 3 expects.
func (s *Service) copyBeforeWrite(ctx context.Context, next User) ([]byte, error) {
	return s.changeSignin(ctx, next.ID, func(si *signin, found bool) error {
		if found {
			si.User = meet(si.User, next)
		} else {
			si.User = meet(next, next)
		}
		si.Pending = s.now()
		return nil
	})
}

// copyAfterWrite is step 3: the copy becomes saved, if the record is still
// as step 1 wrote it. Otherwise another write has started since, and it or
// a later sign-in sets the copy.
func (s *Service) copyAfterWrite(ctx context.Context, saved User, step1 []byte) {
	var si signin
	if err := json.Unmarshal(step1, &si); err != nil {
		s.log.ErrorContext(ctx, "sign-in copy", "user", saved.ID, "err", err)
		return
	}
	si.User, si.Pending = saved, time.Time{}
	next, err := json.Marshal(si)
	if err == nil {
		err = s.store.Transact(ctx, []store.RecordWrite{store.SwapWrite(kindSignin, saved.ID, next, step1)})
	}
	if err != nil && !errors.Is(err, store.ErrConflict) {
		s.log.ErrorContext(ctx, "sign-in copy: left stricter than the user document", "user", saved.ID, "err", err)
	}
}

// addSession opens a session for u (read from its document at sign-in)
// and, unless a user document write is pending, makes the copy u.
func (s *Service) addSession(ctx context.Context, u User, hash string, expires time.Time, remember bool) error {
	_, err := s.changeSignin(ctx, u.ID, func(si *signin, found bool) error {
		if !found || si.Pending.IsZero() || s.now().Sub(si.Pending) > pendingFor {
			si.User, si.Pending = u, time.Time{}
		}
		si.Sessions = append(si.Sessions, signinSession{Hash: hash, Expires: expires, Remember: remember})
		return nil
	})
	return err
}

// endSessions removes the sessions keep rejects (all of them when keep is
// nil) and returns the ones removed.
func (s *Service) endSessions(ctx context.Context, userID string, keep func(signinSession) bool) ([]signinSession, error) {
	var ended []signinSession
	_, err := s.changeSignin(ctx, userID, func(si *signin, found bool) error {
		ended = ended[:0]
		if !found {
			return errUnchanged
		}
		var kept []signinSession
		for _, x := range si.Sessions {
			if keep != nil && keep(x) {
				kept = append(kept, x)
			} else {
				ended = append(ended, x)
			}
		}
		si.Sessions = kept
		return nil
	})
	return ended, err
}
