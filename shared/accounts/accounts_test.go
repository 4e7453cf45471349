package accounts

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/auth"
	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/mail"
	"github.com/oficina/oficina/shared/phonerules"
	"github.com/oficina/oficina/shared/phones"
	"github.com/oficina/oficina/shared/schema"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/store/bolt"
	"github.com/oficina/oficina/shared/store/dynamo"
	"github.com/oficina/oficina/shared/store/dynamo/ddblocal"
)

// One DynamoDB Local serves the test binary (the lifecycle runs on both stores).
func TestMain(m *testing.M) { os.Exit(ddblocal.Main(m)) }

// env is the service on a real store with the real auth service.
type env struct {
	t    *testing.T
	st   store.Store
	docs *docs.Service
	auth *auth.Service
	svc  *Service
	mail *mailbox
}

func openBolt(t *testing.T) store.Store {
	t.Helper()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "accounts.db"), bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func openDynamo(t *testing.T) store.Store {
	t.Helper()
	_, client := ddblocal.Start(t)
	table := ddblocal.TableName(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := dynamo.CreateTable(ctx, client, table); err != nil {
		t.Fatalf("CreateTable: %v", err)
	}
	return dynamo.New(client, table)
}

func newEnv(t *testing.T, newID func(string) string) *env {
	t.Helper()
	return newEnvOn(t, openBolt(t), newID)
}

func newEnvOn(t *testing.T, st store.Store, newID func(string) string) *env {
	t.Helper()
	return newEnvWith(t, st, newID, phones.Metadata{})
}

// newEnvWith builds the service with the given phone rules (nil: none given).
func newEnvWith(t *testing.T, st store.Store, newID func(string) string, rules phonerules.Rules) *env {
	t.Helper()
	quiet := slog.New(slog.DiscardHandler)
	sender := &mailbox{}
	tpl, err := mail.LoadTemplates()
	if err != nil {
		t.Fatal(err)
	}
	a := auth.New(st, sender, auth.Config{Templates: tpl, Argon2: auth.Argon2Params{MemoryKiB: 64, Time: 1, Threads: 1}, Logger: quiet})
	if err := a.EnsureSystemDBs(context.Background()); err != nil {
		t.Fatal(err)
	}
	d := docs.New(st, nil)
	svc, err := New(Options{Store: st, Docs: d, Users: a, Mail: sender, Templates: tpl, Phones: rules, Logger: quiet, NewID: newID})
	if err != nil {
		t.Fatal(err)
	}
	a.OnEmail(svc.EmailKnown)
	a.OnPasswordReset(svc.PasswordReset)
	return &env{t: t, st: st, docs: d, auth: a, svc: svc, mail: sender}
}

// mailbox records what is sent; it stands in for the mail port only.
type mailbox struct {
	mu   sync.Mutex
	msgs []mail.Message
}

func (m *mailbox) Send(_ context.Context, msg mail.Message) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.msgs = append(m.msgs, msg)
	return nil
}

// last returns the newest message to addr.
func (m *mailbox) last(t *testing.T, addr string) mail.Message {
	t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := len(m.msgs) - 1; i >= 0; i-- {
		if m.msgs[i].To == addr {
			return m.msgs[i]
		}
	}
	t.Fatalf("no mail to %s", addr)
	return mail.Message{}
}

var confirmLinkRE = regexp.MustCompile(`/user/confirm/([A-Za-z0-9_-]{43})`)

// lastLink returns the token of the newest confirmation mail to addr.
func (m *mailbox) lastLink(t *testing.T, addr string) string {
	t.Helper()
	msg := m.last(t, addr)
	match := confirmLinkRE.FindStringSubmatch(msg.Text)
	if match == nil {
		t.Fatalf("no confirmation link in the last mail to %s:\n%s", addr, msg.Text)
	}
	return match[1]
}

// user registers email and returns the principal of a fresh session, read
// again on every call like the API does.
func (e *env) user(email string) func() *access.Principal {
	e.t.Helper()
	ctx := context.Background()
	if _, err := e.auth.Register(ctx, auth.Registration{Email: email, Password: "password1"}); err != nil {
		e.t.Fatal(err)
	}
	sess, err := e.auth.Login(ctx, auth.LoginInput{Name: email, Password: "password1"})
	if err != nil {
		e.t.Fatal(err)
	}
	return func() *access.Principal {
		p, err := e.auth.SessionPrincipal(ctx, sess.Secret)
		if err != nil || p == nil {
			e.t.Fatalf("session: %v", err)
		}
		return p
	}
}

func wantFault(t *testing.T, err error, kind fault.Kind, reason string) {
	t.Helper()
	fe, ok := fault.As(err)
	if !ok || fe.Kind != kind || (reason != "" && fe.Reason != reason) {
		t.Fatalf("err = %v, want kind %d %q", err, kind, reason)
	}
}

// TestCreateGroupRollsBack fails Group creation at the account record (a
// record with the new id is already there) and checks that every earlier
// write is undone and nothing grants access.
func TestCreateGroupRollsBack(t *testing.T) {
	accID := ids.New("acc")
	e := newEnv(t, func(prefix string) string {
		if prefix == "acc" {
			return accID
		}
		return ids.New(prefix)
	})
	ctx := context.Background()
	ana := e.user("ana@example.com")
	if _, err := e.st.Put(ctx, ids.AccountsDB, store.Doc{ID: accID, Klass: "Account", Body: []byte(`{"klass":"Account","name":"squatter"}`)}); err != nil {
		t.Fatal(err)
	}
	_, err := e.svc.CreateGroup(ctx, ana(), NewGroup{Name: "Doomed"})
	if !errors.Is(err, store.ErrConflict) {
		t.Fatalf("err = %v", err)
	}
	for _, kl := range []string{KlassAdjustment, KlassMembership} {
		page, err := e.st.List(ctx, accID, store.ListQuery{Klass: kl})
		if err != nil || len(page.Docs) != 0 {
			t.Errorf("%s left: %d %v", kl, len(page.Docs), err)
		}
	}
	if page, _ := e.st.List(ctx, ana().UserID, store.ListQuery{Klass: KlassMembership}); len(page.Docs) != 0 {
		t.Error("mirror written")
	}
	if ana().HasRole(accID) {
		t.Error("role given")
	}
	if err := access.Check(ctx, e.st, ana(), accID, access.Read); err == nil {
		t.Error("the db is open")
	}
	// The failure left the user's single unconfirmed free Group available.
	accID = ids.New("acc")
	if _, err := e.svc.CreateGroup(ctx, ana(), NewGroup{Name: "Works"}); err != nil {
		t.Fatal(err)
	}
	if !ana().HasRole(accID) {
		t.Error("no role after success")
	}
}

// TestConcurrentCreationsKeepTheLimit: an unconfirmed user racing several
// creations still ends up with one free Group.
func TestConcurrentCreationsKeepTheLimit(t *testing.T) {
	e := newEnv(t, nil)
	ana := e.user("ana@example.com")
	p := ana()
	var wg sync.WaitGroup
	errs := make([]error, 6)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = e.svc.CreateGroup(context.Background(), p, NewGroup{Name: "Race"})
		}()
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		if err == nil {
			ok++
		} else {
			wantFault(t, err, fault.Forbidden, MsgFreeLimitUnconfirmed)
		}
	}
	if ok != 1 || len(ana().Roles) != 2 {
		t.Errorf("%d creations succeeded, roles %v", ok, ana().Roles)
	}
}

func TestFreeGroupCounting(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	ana := e.user("ana@example.com")
	u, _, _ := e.auth.UserByID(ctx, ana().UserID)
	var groups []string
	d, err := e.svc.CreateGroup(ctx, ana(), NewGroup{Name: "One"})
	if err != nil {
		t.Fatal(err)
	}
	groups = append(groups, d.ID)
	if plan, err := e.svc.Plan(ctx, d.ID); err != nil || plan != PlanFree {
		t.Fatalf("plan %q %v", plan, err)
	}
	if plan, err := e.svc.Plan(ctx, ids.New("acc")); err != nil || plan != "" {
		t.Fatalf("unknown Group plan %q %v", plan, err)
	}
	u, _, _ = e.auth.UserByID(ctx, u.ID)
	if n, err := e.svc.freeGroups(ctx, u, ""); err != nil || n != 1 {
		t.Errorf("free groups %d %v", n, err)
	}
	if n, _ := e.svc.freeGroups(ctx, u, groups[0]); n != 0 {
		t.Errorf("except: %d", n)
	}
	_, err = e.svc.CreateGroup(ctx, ana(), NewGroup{Name: "Two"})
	wantFault(t, err, fault.Forbidden, MsgFreeLimitUnconfirmed)
}

func TestCheckValue(t *testing.T) {
	cases := []struct {
		key   string
		in    any
		want  any
		field string // "" = valid
		msg   string
	}{
		{"name", " Oficina ", "Oficina", "", ""},
		{"name", "", nil, "value", "can't be blank"},
		{"name", nil, nil, "value", "can't be blank"},
		{"name", "a\nb", nil, "value", "is invalid"},
		{"billing-email", "A@B.co", "a@b.co", "", ""},
		{"billing-email", "", nil, "value", "is invalid"},
		{"billing_email", "x", nil, "value", "is invalid"},
		{"locale", "pt-BR", "pt-BR", "", ""},
		{"locale", "en", "en", "", ""},
		{"locale", "pt", nil, "value", "not in allowed list"},
		{"locale", "EN", nil, "value", "not in allowed list"},
		{"country", " br ", "BR", "", ""},
		{"country", "PT", "PT", "", ""},
		{"country", "XX", nil, "value", "not in allowed list"},
		{"country", "BRA", nil, "value", "not in allowed list"},
		{"country", 55, nil, "value", "not in allowed list"},
		{"checklist", "enabled", "enabled", "", ""},
		{"maintenance", true, nil, "value", "not in allowed list"},
		{"contract-receipt", "on-demand", "on-demand", "", ""},
		{"currency", " eur ", "EUR", "", ""},
		{"currency", "BRL", "BRL", "", ""},
		{"currency", "ZZZ", nil, "value", schema.MsgNotCurrency},
		{"currency", "XXX", nil, "value", schema.MsgNotCurrency},
		{"currency", 986, nil, "value", schema.MsgNotCurrency},
		{"contract-receipt", "never", nil, "value", "not in allowed list"},
		{"newsletter", "true", true, "", ""},
		{"newsletter", 1, nil, "value", "is invalid"},
		{"newsletter-topics", []any{"api"}, []any{"api"}, "", ""},
		{"newsletter-topics", []any{1}, nil, "value", "is invalid"},
		{"phones", nil, []any{}, "", ""},
		{"phones", []any{map[string]any{"main": nil, "number": nil}}, []any{map[string]any{"main": false, "number": ""}}, "", ""},
		{"addresses", []any{map[string]any{"zip_code": 1001000.0, "state": "SP", "marktodelete": false}}, []any{map[string]any{"zip_code": "1.001e+06", "state": "SP"}}, "", ""},
		{"addresses", []any{map[string]any{"country": "BR"}}, nil, "value", "is invalid"},
		{"reader_mark_as_read_on_opening", false, false, "", ""},
		{"something-new", map[string]any{"any": "json"}, map[string]any{"any": "json"}, "", ""},
	}
	for _, c := range cases {
		got, err := checkValue(phones.Metadata{}, c.key, c.in)
		if c.field == "" {
			if err != nil || !reflect.DeepEqual(got, c.want) {
				t.Errorf("%s %v: got %#v, %v; want %#v", c.key, c.in, got, err, c.want)
			}
			continue
		}
		fe, ok := fault.As(err)
		if !ok || fe.Kind != fault.Unprocessable || len(fe.Fields[c.field]) != 1 || fe.Fields[c.field][0] != c.msg {
			t.Errorf("%s %v: err %v, want %s: %s", c.key, c.in, err, c.field, c.msg)
		}
	}
}

func TestAdjustmentIDIsStable(t *testing.T) {
	db := ids.New("acc")
	a, b := adjustmentID(db, "confirmed-plan"), adjustmentID(db, "name")
	if a == b || a != adjustmentID(db, "confirmed-plan") || ids.Klass(a) != KlassAdjustment {
		t.Errorf("%s %s", a, b)
	}
}

func TestNewNeedsItsPorts(t *testing.T) {
	if _, err := New(Options{}); err == nil {
		t.Error("New without ports succeeded")
	}
}
