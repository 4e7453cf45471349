package live

import (
	"context"
	"errors"
	"fmt"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/store"
)

// Authenticator finds who a connection serves now, from the key of the
// session or token that opened it (implemented by shared/auth). nil, nil:
// the session or token has ended.
type Authenticator interface {
	SessionKeyPrincipal(ctx context.Context, key string) (*access.Principal, error)
	TokenKeyPrincipal(ctx context.Context, key string) (*access.Principal, error)
}

// Credential is what opened a connection: the session's or token's key
// (a hash; the secret itself is never kept).
type Credential struct {
	Via access.Via
	Key string
}

// credentialOf returns the credential of a principal the core authenticated.
func credentialOf(p *access.Principal) (Credential, bool) {
	switch {
	case p == nil:
	case p.Via == access.ViaSession && p.SessionKey != "":
		// The sign-in record is the user's: the key names both (auth.SessionKeyPrincipal).
		return Credential{Via: access.ViaSession, Key: p.Name + ":" + p.SessionKey}, true
	case p.Via == access.ViaToken && p.TokenKey != "":
		return Credential{Via: access.ViaToken, Key: p.TokenKey}, true
	}
	return Credential{}, false
}

// gate makes the access decisions of both runtimes.
type gate struct {
	st   store.Store
	auth Authenticator
}

// principal resolves c as it stands now; nil when it has ended.
func (g gate) principal(ctx context.Context, c Credential) (*access.Principal, error) {
	switch c.Via {
	case access.ViaSession:
		return g.auth.SessionKeyPrincipal(ctx, c.Key)
	case access.ViaToken:
		return g.auth.TokenKeyPrincipal(ctx, c.Key)
	}
	return nil, nil
}

// decide is the subscription decision for db: the same as GET
// /api/{db}/_changes (access.Check for reading, then the database must
// exist). It returns the db's update seq, or the refusal's reason; err is
// a failure to decide at all.
func (g gate) decide(ctx context.Context, p *access.Principal, db string) (seq uint64, refusal string, err error) {
	if refusal, err := g.allowed(ctx, p, db); refusal != "" || err != nil {
		return 0, refusal, err
	}
	info, err := g.st.DBInfo(ctx, db)
	if errors.Is(err, store.ErrDBNotFound) {
		return 0, "Database does not exist.", nil
	}
	if err != nil {
		return 0, "", err
	}
	return info.UpdateSeq, "", nil
}

// allowed is decide without the database's seq: the refusal's reason, or
// "" when p may read db. A subscription decided again needs no seq, and a
// database deleted since sends no more notices.
func (g gate) allowed(ctx context.Context, p *access.Principal, db string) (refusal string, err error) {
	switch {
	case !ids.ValidDBName(db):
		return fmt.Sprintf("invalid database name %q", truncate(db, 80)), nil
	case !liveDB(db):
		return MsgNotLiveDB, nil
	case p == nil:
		return MsgSessionEnded, nil
	case p.ConfirmExpired:
		return access.MsgConfirmExpired, nil
	}
	if err := access.Check(ctx, g.st, p, db, access.Read); err != nil {
		if fe, ok := fault.As(err); ok && fe.Kind != fault.Internal {
			return fe.Reason, nil
		}
		return "", err
	}
	return "", nil
}

// accessChanges lists whose access a batch may have changed, so the
// connections concerned are decided again before any notice of the batch
// goes out: users whose roles, tokens or memberships changed (their user
// record, or a membership or token in their own db) and Groups whose
// record or memberships changed. Removing a member ends with the user
// record losing the Group's role, so by that change the member is out.
func accessChanges(changes []store.Change) (users, dbs map[string]bool) {
	users, dbs = map[string]bool{}, map[string]bool{}
	for _, ch := range changes {
		klass := ch.New.Klass
		if klass == "" && ch.Old != nil {
			klass = ch.Old.Klass
		}
		prefix, _ := ids.Parse(ch.DB)
		switch {
		case ch.DB == ids.UsersDB:
			users[ch.New.ID] = true
		case ch.DB == ids.AccountsDB:
			dbs[ch.New.ID] = true
		case prefix == "usr" && (klass == "Membership" || klass == "UserToken"):
			users[ch.DB] = true
		case prefix == "acc" && klass == "Membership":
			dbs[ch.DB] = true
		}
	}
	return users, dbs
}
