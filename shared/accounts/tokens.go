package accounts

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/auth"
	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/store"
)

// API user tokens (SPEC.md §6, DESIGN.md §6). The secret exists only in the
// create answer; the store keeps its hash as an auth.TokenRecord, which is
// what authenticates, and the UserToken document in the user's db
// describes it (description, permissions, dbs, active, created_at). A
// "token-ref" record links the document to the hash so revoking finds it.

const kindTokenRef = "token-ref" // tok-<id> → HashToken(secret)

// TokenInput is the body of POST /{usr db}/_design/token/_update/create.
type TokenInput struct {
	Description string   `json:"description"`
	Permissions string   `json:"permissions"` // read | read-write
	DBs         []string `json:"dbs,omitempty"`
}

const maxTokenDBs = 100

// tokenOwner checks that p may manage the tokens of personal db db: the
// signed-in owner with a session. A token cannot mint or manage tokens, so
// a leaked one cannot make itself permanent.
func (s *Service) tokenOwner(ctx context.Context, p *access.Principal, db string) error {
	if p == nil {
		return fault.New(fault.Unauthorized, auth.MsgNotLoggedIn)
	}
	if p.Via == access.ViaToken {
		return denied()
	}
	if err := access.Check(ctx, s.st, p, db, access.Write); err != nil {
		return err
	}
	if !isUserDB(db) || db != p.UserID {
		return denied()
	}
	return nil
}

// CreateToken makes a token for p and returns its document and the secret.
// Only a confirmed address may have tokens: a token outlives sessions, and
// whoever registered someone else's address must not keep one after the
// owner recovers the account (a reset also moves the token epoch).
func (s *Service) CreateToken(ctx context.Context, p *access.Principal, db string, in TokenInput) (store.Doc, string, error) {
	if err := s.tokenOwner(ctx, p, db); err != nil {
		return store.Doc{}, "", err
	}
	u, ok, err := s.users.UserByID(ctx, p.UserID)
	if err != nil {
		return store.Doc{}, "", err
	}
	if !ok || !u.Confirmed() {
		return store.Doc{}, "", fault.New(fault.Forbidden, fault.MsgConfirmEmailFirst)
	}
	epoch, err := s.users.TokenEpoch(ctx, p.UserID)
	if err != nil {
		return store.Doc{}, "", err
	}
	fields := map[string][]string{}
	switch in.Permissions {
	case access.PermRead, access.PermReadWrite:
	case "":
		fields["permissions"] = []string{fault.CantBeBlank}
	default:
		fields["permissions"] = []string{fault.NotInList}
	}
	desc := strings.TrimSpace(in.Description)
	if len([]rune(desc)) > maxNameLen {
		fields["description"] = []string{fmt.Sprintf("is too long (maximum is %d characters)", maxNameLen)}
	}
	dbs := []string{}
	for _, d := range in.DBs {
		if slices.Contains(dbs, d) {
			continue
		}
		// Only Groups the user can use now; the token never reaches further
		// than its user anyway.
		if !isGroupDB(d) || len(dbs) >= maxTokenDBs || access.Check(ctx, s.st, p, d, access.Read) != nil {
			fields["dbs"] = []string{fault.IsInvalid}
			break
		}
		dbs = append(dbs, d)
	}
	if len(fields) > 0 {
		return store.Doc{}, "", fault.Invalid(fields)
	}
	secret, err := auth.NewAPIToken()
	if err != nil {
		return store.Doc{}, "", err
	}
	id := s.newID("tok")
	d, err := s.save(ctx, p, db, id, "", map[string]any{
		"klass": KlassUserToken, "description": desc, "permissions": in.Permissions, "dbs": dbs,
		"active": true, "user_id": p.UserID,
	})
	if err != nil {
		return store.Doc{}, "", err
	}
	// The document comes first: a record without it would be a working
	// token its user cannot see or revoke.
	hash := auth.HashToken(secret)
	rec, err := json.Marshal(auth.TokenRecord{TokenID: id, UserID: p.UserID, Permissions: in.Permissions, DBs: dbs, Active: true, Epoch: epoch})
	if err == nil {
		err = s.st.Transact(ctx, []store.RecordWrite{
			{Record: store.Record{Kind: auth.TokenRecordKind, Key: hash, Value: rec}, ExpectAbsent: true},
			{Record: store.Record{Kind: kindTokenRef, Key: id, Value: []byte(hash)}, ExpectAbsent: true},
		})
	}
	if err != nil {
		var rb undo
		rb.add(func(ctx context.Context) error { return s.remove(ctx, p, db, id, d.Rev) })
		rb.run(ctx, s.log)
		return store.Doc{}, "", fmt.Errorf("store token: %w", err)
	}
	s.log.InfoContext(ctx, "api token created", "user", p.UserID, "token", id, "permissions", in.Permissions)
	return d, secret, nil
}

// RevokeToken ends token id at once and marks its document inactive.
func (s *Service) RevokeToken(ctx context.Context, p *access.Principal, db, id string) (store.Doc, error) {
	if err := s.tokenOwner(ctx, p, db); err != nil {
		return store.Doc{}, err
	}
	d, body, err := s.get(ctx, db, id)
	if errors.Is(err, store.ErrNotFound) || (err == nil && str(body["klass"]) != KlassUserToken) {
		return store.Doc{}, missing()
	}
	if err != nil {
		return store.Doc{}, err
	}
	// The credential goes first: whatever happens next, the token is dead.
	if err := s.killToken(ctx, id); err != nil {
		return store.Doc{}, err
	}
	if !flag(body, "active") {
		return d, nil
	}
	body["active"] = false
	body["revoked_at"] = s.stamp()
	return s.save(ctx, p, db, id, d.Rev, body)
}

// killToken deletes the credential behind token document id (if any).
func (s *Service) killToken(ctx context.Context, id string) error {
	ref, err := s.st.GetRecord(ctx, kindTokenRef, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("token ref %s: %w", id, err)
	}
	if err := s.st.Transact(ctx, []store.RecordWrite{
		{Record: store.Record{Kind: auth.TokenRecordKind, Key: string(ref.Value)}, Delete: true},
		{Record: store.Record{Kind: kindTokenRef, Key: id}, Delete: true},
	}); err != nil {
		return fmt.Errorf("revoke token %s: %w", id, err)
	}
	return nil
}

// tokenRule guards client writes of UserToken documents: tokens are made by
// the create handler only; their owner (with a session) may change the
// description, deactivate or delete them, and either ends the credential
// before the document changes.
func (s *Service) tokenRule(ctx context.Context, w *docs.Write) error {
	if isSystem(ctx) {
		return nil
	}
	if err := s.tokenOwner(ctx, w.Principal, w.DB); err != nil {
		return err
	}
	switch {
	case w.Deleting:
		return s.killToken(ctx, w.ID)
	case w.Old == nil:
		return denied()
	}
	body := rebuild(w.Old, w.New)
	if d, ok := w.New["description"].(string); ok {
		if len([]rune(d)) > maxNameLen {
			return invalid("description", fmt.Sprintf("is too long (maximum is %d characters)", maxNameLen))
		}
		body["description"] = strings.TrimSpace(d)
	}
	switch active := w.New["active"].(type) {
	case nil:
	case bool:
		if active && !flag(w.Old, "active") {
			return invalid("active", fault.IsInvalid) // a revoked token stays revoked
		}
		if !active && flag(w.Old, "active") {
			if err := s.killToken(ctx, w.ID); err != nil {
				return err
			}
			body["active"] = false
			body["revoked_at"] = s.stamp()
		}
	default:
		return invalid("active", fault.IsInvalid)
	}
	w.New = body
	return nil
}

// PasswordReset is the auth.ResetHook of this package: u recovered the
// account through the mailbox, which already ended every token (the token
// epoch moved); their documents are marked revoked and their records
// deleted, so the token list tells the truth. Failures are logged.
func (s *Service) PasswordReset(ctx context.Context, u auth.User) {
	p := &access.Principal{UserID: u.ID, Email: u.Email, Name: u.ID, Label: u.Label, Roles: []string{u.ID}, Via: access.ViaSession}
	q := store.ListQuery{Klass: KlassUserToken, Limit: 100}
	for {
		page, err := s.st.List(ctx, u.ID, q)
		if err != nil {
			if !errors.Is(err, store.ErrDBNotFound) {
				s.log.ErrorContext(ctx, "password reset: list tokens", "user", u.ID, "err", err)
			}
			return
		}
		for _, d := range page.Docs {
			body, err := docs.Decode(d.Body)
			if err != nil || !flag(body, "active") {
				continue
			}
			if err := s.killToken(ctx, d.ID); err != nil {
				s.log.ErrorContext(ctx, "password reset: revoke token", "user", u.ID, "token", d.ID, "err", err)
				continue
			}
			if _, err := s.update(ctx, p, u.ID, d.ID, func(body map[string]any) error {
				body["active"] = false
				body["revoked_at"] = s.stamp()
				return nil
			}); err != nil {
				s.log.ErrorContext(ctx, "password reset: mark token revoked", "user", u.ID, "token", d.ID, "err", err)
			}
		}
		if page.Next == "" {
			return
		}
		q.After = page.Next
	}
}
