package httpapi

import (
	"context"
	"crypto/md5"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/store"
)

// userCount is how many user documents exist.
func (e *userEnv) userCount() int {
	e.t.Helper()
	docs, err := e.st.AllDocs(context.Background(), ids.UsersDB, store.AllDocsQuery{})
	if err != nil {
		e.t.Fatal(err)
	}
	return len(docs)
}

func TestRegisterValidation(t *testing.T) {
	e := newUserEnv(t)
	e.register("taken@example.com", "password1", "en")
	existing := e.register("other@example.com", "password1", "en")
	baseUsers, baseMails := e.userCount(), len(e.mails())

	body := func(kv ...any) map[string]any {
		m := map[string]any{"_id": ids.New("usr"), "fullname": "Ana", "unconfirmed_email": "ana@example.com", "password": "password1", "locale": "en"}
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i+1] == nil {
				delete(m, kv[i].(string))
			} else {
				m[kv[i].(string)] = kv[i+1]
			}
		}
		return m
	}
	cases := []struct {
		name   string
		body   any
		ctype  string
		code   int
		reason string
		field  string // field with an error, and its message
		msg    string
	}{
		{"blank email", body("unconfirmed_email", "  "), "", 422, "", "email", "can't be blank"},
		{"missing email", body("unconfirmed_email", nil), "", 422, "", "email", "can't be blank"},
		{"invalid email", body("unconfirmed_email", "ana-at-example.com"), "", 422, "", "email", "is invalid"},
		{"duplicate email, other case", body("unconfirmed_email", "Taken@Example.COM"), "", 409, "Email has already been taken", "email", "has already been taken"},
		{"duplicate email via email field", body("unconfirmed_email", nil, "email", "taken@example.com"), "", 409, "", "email", "has already been taken"},
		{"bad id", body("_id", "usr-123"), "", 400, "invalid user id", "", ""},
		{"id of another klass", body("_id", ids.New("acc")), "", 400, "invalid user id", "", ""},
		{"duplicate id", body("_id", existing, "unconfirmed_email", "new@example.com"), "", 409, "Document update conflict.", "", ""},
		{"mismatched passwords", body("password_confirmation", "password2"), "", 422, "", "password_confirmation", "doesn't match"},
		{"short password", body("password", "short", "password_confirmation", "short"), "", 422, "", "password", "is too short (minimum is 8 characters)"},
		{"unknown locale", body("locale", "fr"), "", 422, "", "locale", "not in allowed list"},
		{"email not a string", body("unconfirmed_email", 42), "", 400, `field "unconfirmed_email" must be a string`, "", ""},
		{"password not a string", body("password", []int{1}), "", 400, "", "", ""},
		{"malformed JSON", `{"unconfirmed_email": "a@b.co",`, "", 400, "", "", ""},
		{"JSON array", `[]`, "", 400, "", "", ""},
		{"form encoded", "unconfirmed_email=a%40b.co", "application/x-www-form-urlencoded", 415, "", "", ""},
		{"no content type", `{}`, "-", 415, "", "", ""},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := e.browser()
			b.ip = "198.51.100." + strconv.Itoa(i+1) // registrations are rate-limited per address
			var hdr []string
			switch c.ctype {
			case "":
			case "-":
				hdr = []string{"Content-Type", ""}
			default:
				hdr = []string{"Content-Type", c.ctype}
			}
			m := expect(t, b.do("POST", "/api/_users", c.body, hdr...), c.code, c.reason)
			if c.field != "" {
				if got := fieldErr(t, m, c.field); len(got) != 1 || got[0] != c.msg {
					t.Errorf("fields %v, want %s: %s", m["fields"], c.field, c.msg)
				}
			}
			if n := e.userCount(); n != baseUsers {
				t.Errorf("a failed registration wrote a user: %d users", n)
			}
			if n := len(e.mails()); n != baseMails {
				t.Errorf("a failed registration sent mail")
			}
		})
	}
	// The e-mails those failures tried are still free.
	e.register("ana@example.com", "password1", "en")
	e.register("new@example.com", "", "") // password and locale are optional
}

func TestRegisterCreatesUserPersonalDBAndMail(t *testing.T) {
	e := newUserEnv(t)
	ctx := context.Background()
	cases := []struct {
		email, locale, subject, greeting string
	}{
		{"ana@example.com", "en", "Confirm your e-mail — Oficina", "Welcome to Oficina"},
		{"joao@example.com", "pt-BR", "Confirme seu e-mail — Oficina", "Boas-vindas à Oficina"},
	}
	for _, c := range cases {
		t.Run(c.locale, func(t *testing.T) {
			id := ids.New("usr")
			r := e.browser().do("POST", "/api/_users", map[string]any{"_id": id, "fullname": "  Ana Souza ", "unconfirmed_email": c.email, "password": "password1", "password_confirmation": "password1", "locale": c.locale})
			m := expect(t, r, http.StatusCreated, "")
			if m["ok"] != true || m["id"] != id || !store.ValidRev(m["rev"].(string)) {
				t.Errorf("body %v", m)
			}
			sec, err := access.LoadSecurity(ctx, e.st, id)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := e.st.DBInfo(ctx, id); err != nil {
				t.Fatalf("personal db: %v", err)
			}
			if len(sec.Members.Roles) != 1 || sec.Members.Roles[0] != id || len(sec.Admins.Roles) != 1 {
				t.Errorf("personal security %+v", sec)
			}
			ms := e.mails()
			last := ms[len(ms)-1]
			if last.to != c.email || last.subject != c.subject || !strings.Contains(last.text, c.greeting) || !strings.Contains(last.html, "<html lang=\""+c.locale+"\"") {
				t.Errorf("mail %+v", last)
			}
			if strings.HasSuffix(last.file, ".eml") && !strings.Contains(last.file, "-confirm-") {
				t.Errorf("file name %s", last.file)
			}
			e.lastLink(c.email, "confirm")
		})
	}
}

func TestGetUser(t *testing.T) {
	e := newUserEnv(t, "boss@example.com")
	ana := e.register("ana@example.com", "password1", "pt-BR")
	bob := e.register("bob@example.com", "password1", "en")
	b := e.browser()
	expect(t, b.do("GET", "/api/_users/"+ana, nil), http.StatusUnauthorized, "")
	expect(t, b.login("ana@example.com", "password1"), http.StatusOK, "")

	m := expect(t, b.do("GET", "/api/_users/"+ana, nil), http.StatusOK, "")
	want := map[string]any{"_id": ana, "klass": "User", "fullname": "Ana Souza", "label": "Ana Souza", "short_name": "Ana",
		"email": "ana@example.com", "unconfirmed_email": nil, "confirmed_at": nil, "locale": "pt-BR", "newsletter": false,
		"gravatar_hash": fmt.Sprintf("%x", md5.Sum([]byte("ana@example.com")))}
	for k, v := range want {
		if got, ok := m[k]; !ok || got != v {
			t.Errorf("%s = %v, want %v", k, got, v)
		}
	}
	for _, k := range []string{"_rev", "created_at", "updated_at", "confirmation_sent_at", "roles", "created_by"} {
		if _, ok := m[k]; !ok {
			t.Errorf("no %s", k)
		}
	}

	m = expect(t, b.do("GET", "/api/_users/"+ana+"?fields=fullname,email", nil), http.StatusOK, "")
	if len(m) != 4 || m["fullname"] != "Ana Souza" || m["_id"] != ana || m["_rev"] == nil {
		t.Errorf("fields projection %v", m)
	}
	expect(t, b.do("GET", "/api/_users/"+bob, nil), http.StatusNotFound, "missing")
	expect(t, b.do("GET", "/api/_users/"+ids.New("usr"), nil), http.StatusNotFound, "missing")

	// A confirmed server admin may read anyone.
	e.register("boss@example.com", "password1", "en")
	expect(t, e.browser().do("PUT", "/api/_users/_confirmation", map[string]any{"token": e.lastLink("boss@example.com", "confirm")}), http.StatusOK, "")
	admin := e.browser()
	expect(t, admin.login("boss@example.com", "password1"), http.StatusOK, "")
	expect(t, admin.do("GET", "/api/_users/"+bob, nil), http.StatusOK, "")
	// ...but not edit them.
	expect(t, admin.do("PUT", "/api/_users/"+bob, map[string]any{"fullname": "X", "current_password": "password1"}), http.StatusForbidden, "")
}

// signedIn registers and logs in a user, returning its id and browser.
func (e *userEnv) signedIn(email string) (string, *browser) {
	e.t.Helper()
	id := e.register(email, "password1", "en")
	b := e.browser()
	expect(e.t, b.login(email, "password1"), http.StatusOK, "")
	return id, b
}

func (b *browser) rev(id string) string {
	b.e.t.Helper()
	m := expect(b.e.t, b.do("GET", "/api/_users/"+id, nil), http.StatusOK, "")
	return m["_rev"].(string)
}

func TestProfileEdit(t *testing.T) {
	e := newUserEnv(t)
	id, b := e.signedIn("ana@example.com")
	e.register("taken@example.com", "password1", "en")
	rev := b.rev(id)
	url := "/api/_users/" + id + "?rev="

	cases := []struct {
		name  string
		rev   string
		body  map[string]any
		code  int
		field string
		msg   string
	}{
		{"missing current password", rev, map[string]any{"fullname": "Ana Maria"}, 422, "current_password", "can't be blank"},
		{"wrong current password", rev, map[string]any{"fullname": "Ana Maria", "current_password": "nope"}, 422, "current_password", "is invalid"},
		{"invalid new email", rev, map[string]any{"unconfirmed_email": "nope", "current_password": "password1"}, 422, "unconfirmed_email", "is invalid"},
		{"email taken", rev, map[string]any{"unconfirmed_email": "TAKEN@example.com", "current_password": "password1"}, 409, "unconfirmed_email", "has already been taken"},
		{"stale rev", "1-00000000000000000000000000000000", map[string]any{"fullname": "Ana Maria", "current_password": "password1"}, 409, "", ""},
		{"no rev", "", map[string]any{"fullname": "Ana Maria", "current_password": "password1"}, 409, "", ""},
		{"bad locale", rev, map[string]any{"locale": "xx"}, 422, "locale", "not in allowed list"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := expect(t, b.do("PUT", url+c.rev, c.body), c.code, "")
			if c.field != "" {
				if got := fieldErr(t, m, c.field); len(got) != 1 || got[0] != c.msg {
					t.Errorf("fields %v", m["fields"])
				}
			}
			if b.rev(id) != rev {
				t.Error("a failed edit wrote the user")
			}
		})
	}

	mailsBefore := len(e.mails())
	m := expect(t, b.do("PUT", url+rev, map[string]any{"fullname": "Ana Maria", "unconfirmed_email": "Ana.New@Example.com", "current_password": "password1", "return_url": "/user/profile"}), http.StatusCreated, "")
	if m["ok"] != true || m["id"] != id || m["rev"] == rev {
		t.Errorf("body %v", m)
	}
	u := expect(t, b.do("GET", "/api/_users/"+id, nil), http.StatusOK, "")
	if u["email"] != "ana@example.com" || u["unconfirmed_email"] != "ana.new@example.com" || u["fullname"] != "Ana Maria" || u["label"] != "Ana Maria" {
		t.Errorf("after edit %v", u)
	}
	if ms := e.mails(); len(ms) != mailsBefore+1 || ms[len(ms)-1].to != "ana.new@example.com" || ms[len(ms)-1].subject != "Confirm your new e-mail — Oficina" {
		t.Fatalf("confirmation mail to the new address: %+v", ms[len(ms)-1])
	}
	// The login address is still the old one until confirmation.
	expect(t, e.browser().login("ana.new@example.com", "password1"), http.StatusUnauthorized, "")
	expect(t, e.browser().login("ana@example.com", "password1"), http.StatusOK, "")

	// rev via If-Match and _rev in the body work too; locale needs no password.
	rev = u["_rev"].(string)
	expect(t, b.do("PUT", "/api/_users/"+id, map[string]any{"locale": "pt-BR"}, "If-Match", `"`+rev+`"`), http.StatusCreated, "")
	m = expect(t, b.do("GET", "/api/_session", nil), http.StatusOK, "")
	if m["userCtx"].(map[string]any)["locale"] != "pt-BR" {
		t.Error("locale change not seen by the next request")
	}
	rev = b.rev(id)
	// A client sending the whole document back (email unchanged) keeps the pending address.
	whole := expect(t, b.do("GET", "/api/_users/"+id, nil), http.StatusOK, "")
	whole["newsletter"] = true
	expect(t, b.do("PUT", "/api/_users/"+id, whole), http.StatusCreated, "")
	u = expect(t, b.do("GET", "/api/_users/"+id, nil), http.StatusOK, "")
	if u["unconfirmed_email"] != "ana.new@example.com" || u["newsletter"] != true || u["email"] != "ana@example.com" {
		t.Errorf("whole-document PUT: %v", u)
	}

	// Following the link, signed in, makes the new address the login address.
	tok := e.lastLink("ana.new@example.com", "confirm")
	u = expect(t, b.do("PUT", "/api/_users/_confirmation", map[string]any{"token": tok}), http.StatusOK, "")
	if u["email"] != "ana.new@example.com" || u["unconfirmed_email"] != nil || u["confirmed_at"] == nil {
		t.Errorf("after confirmation %v", u)
	}
	expect(t, e.browser().login("ana@example.com", "password1"), http.StatusUnauthorized, "")
	expect(t, e.browser().login("ana.new@example.com", "password1"), http.StatusOK, "")
	// The old address is free again.
	e.register("ana@example.com", "password1", "en")
	// Editing someone else: 404, as if they did not exist.
	other := e.register("bob@example.com", "password1", "en")
	expect(t, b.do("PUT", "/api/_users/"+other+"?rev="+rev, map[string]any{"fullname": "x"}), http.StatusNotFound, "")
	// Body _id must match the URL.
	expect(t, b.do("PUT", "/api/_users/"+id, map[string]any{"_id": other}), http.StatusBadRequest, "")
}

func TestPasswordChangeEndsOtherSessions(t *testing.T) {
	e := newUserEnv(t)
	id, b := e.signedIn("ana@example.com")
	phone := e.browser()
	expect(t, phone.login("ana@example.com", "password1", "remember", true), http.StatusOK, "")
	rev := b.rev(id)
	url := "/api/_users/" + id + "?rev=" + rev

	m := expect(t, b.do("PUT", url, map[string]any{"password": "password2", "password_confirmation": "password3", "current_password": "password1"}), http.StatusUnprocessableEntity, "")
	if got := fieldErr(t, m, "password_confirmation"); len(got) != 1 || got[0] != "doesn't match" {
		t.Errorf("fields %v", m["fields"])
	}
	m = expect(t, b.do("PUT", url, map[string]any{"password": "password2", "password_confirmation": "password2"}), http.StatusUnprocessableEntity, "")
	if got := fieldErr(t, m, "current_password"); len(got) != 1 || got[0] != "can't be blank" {
		t.Errorf("fields %v", m["fields"])
	}
	expect(t, b.do("PUT", url, map[string]any{"password": "password2", "current_password": "wrong-one"}), http.StatusUnprocessableEntity, "")

	oldCookie := *b.jar[SessionCookie]
	r := b.do("PUT", url, map[string]any{"password": "password2", "password_confirmation": "password2", "current_password": "password1", "return_url": "/user/profile"})
	expect(t, r, http.StatusCreated, "")
	if r.cookies[SessionCookie] == nil || r.cookies[SessionCookie].Value == oldCookie.Value || r.cookies[XSRFCookie] == nil {
		t.Fatal("password change did not issue a new session")
	}
	expect(t, b.do("GET", "/api/_session", nil), http.StatusOK, "")               // the caller stays signed in
	expect(t, phone.do("GET", "/api/_session", nil), http.StatusUnauthorized, "") // every other session ended
	replay := e.browser()
	replay.jar[SessionCookie] = &oldCookie
	expect(t, replay.do("GET", "/api/_session", nil), http.StatusUnauthorized, "") // and the caller's old one
	expect(t, e.browser().login("ana@example.com", "password1"), http.StatusUnauthorized, "")
	expect(t, e.browser().login("ana@example.com", "password2"), http.StatusOK, "")
}

func TestConfirmationTokens(t *testing.T) {
	e := newUserEnv(t)
	id, b := e.signedIn("ana@example.com")
	tok := e.lastLink("ana@example.com", "confirm")
	confirm := func(token string) hres {
		return e.browser().do("PUT", "/api/_users/_confirmation", map[string]any{"token": token})
	}
	used := "Token already used or expired, please request a new one"

	expect(t, confirm("not-a-token"), http.StatusNotFound, used)
	expect(t, confirm(""), http.StatusNotFound, used)
	u := expect(t, confirm(tok), http.StatusOK, "")
	if u["_id"] != id || u["confirmed_at"] == nil || u["email"] != "ana@example.com" {
		t.Errorf("confirmed user %v", u)
	}
	expect(t, confirm(tok), http.StatusNotFound, used) // single use

	// Nothing left to confirm: asking again sends nothing, and still says 202.
	n := len(e.mails())
	expect(t, e.browser().do("POST", "/api/_users/_confirmation", map[string]any{"email": "ana@example.com"}), http.StatusAccepted, "")
	expect(t, e.browser().do("POST", "/api/_users/_confirmation", map[string]any{"email": "nobody@example.com"}), http.StatusAccepted, "")
	if len(e.mails()) != n {
		t.Error("mail sent with nothing to confirm")
	}
	expect(t, e.browser().do("POST", "/api/_users/_confirmation", map[string]any{"email": ""}), http.StatusUnprocessableEntity, "")

	// Expiry: a link older than 24 h is refused.
	e.register("bob@example.com", "password1", "pt-BR")
	expect(t, e.browser().do("POST", "/api/_users/_confirmation", map[string]any{"email": "BOB@example.com"}), http.StatusAccepted, "")
	ms := e.mails()
	if last := ms[len(ms)-1]; last.to != "bob@example.com" || last.subject != "Confirme seu e-mail — Oficina" {
		t.Fatalf("resent mail %+v", last)
	}
	late := e.lastLink("bob@example.com", "confirm")
	e.clock.Advance(24*time.Hour + time.Minute)
	expect(t, confirm(late), http.StatusNotFound, used)

	// A pending new address can be resent by that address too.
	expect(t, b.login("ana@example.com", "password1"), http.StatusOK, "") // a day has passed
	rev := b.rev(id)
	expect(t, b.do("PUT", "/api/_users/"+id+"?rev="+rev, map[string]any{"unconfirmed_email": "ana2@example.com", "current_password": "password1"}), http.StatusCreated, "")
	n = len(e.mails())
	expect(t, e.browser().do("POST", "/api/_users/_confirmation", map[string]any{"email": "ana2@example.com"}), http.StatusAccepted, "")
	if ms := e.mails(); len(ms) != n+1 || ms[n].to != "ana2@example.com" {
		t.Error("pending address not resent")
	}
}

func TestPasswordReset(t *testing.T) {
	e := newUserEnv(t)
	id, b := e.signedIn("ana@example.com")
	used := "Token already used or expired, please request a new one"
	reset := func(body map[string]any) hres { return e.browser().do("PUT", "/api/_users/_password", body) }

	n := len(e.mails())
	expect(t, e.browser().do("POST", "/api/_users/_password", map[string]any{"email": "nobody@example.com"}), http.StatusAccepted, "")
	if len(e.mails()) != n {
		t.Error("reset mail sent to an unknown address")
	}
	expect(t, e.browser().do("POST", "/api/_users/_password", map[string]any{"email": "Ana@Example.com"}), http.StatusAccepted, "")
	ms := e.mails()
	if last := ms[len(ms)-1]; last.subject != "Reset your password — Oficina" || !strings.Contains(last.file, "-reset-") {
		t.Fatalf("reset mail %+v", last)
	}
	tok := e.lastLink("ana@example.com", "password")

	// Field errors come first and do not use the token up.
	m := expect(t, reset(map[string]any{"token": tok, "password": "newpassword", "password_confirmation": "other"}), http.StatusUnprocessableEntity, "")
	if got := fieldErr(t, m, "password_confirmation"); len(got) != 1 || got[0] != "doesn't match" {
		t.Errorf("fields %v", m["fields"])
	}
	expect(t, reset(map[string]any{"token": tok, "password": ""}), http.StatusUnprocessableEntity, "")
	expect(t, reset(map[string]any{"token": "bogus", "password": "newpassword"}), http.StatusNotFound, used)

	m = expect(t, reset(map[string]any{"token": tok, "password": "newpassword", "password_confirmation": "newpassword"}), http.StatusOK, "")
	if m["ok"] != true || m["id"] != id {
		t.Errorf("reset body %v", m)
	}
	expect(t, reset(map[string]any{"token": tok, "password": "another1"}), http.StatusNotFound, used) // single use
	expect(t, b.do("GET", "/api/_session", nil), http.StatusUnauthorized, "")                         // sessions ended
	nb := e.browser()
	expect(t, nb.login("ana@example.com", "password1"), http.StatusUnauthorized, "")
	expect(t, nb.login("ana@example.com", "newpassword"), http.StatusOK, "")
	u := expect(t, nb.do("GET", "/api/_users/"+id, nil), http.StatusOK, "")
	if u["confirmed_at"] == nil {
		t.Error("reset did not confirm the e-mail")
	}

	// Expired links are refused.
	expect(t, e.browser().do("POST", "/api/_users/_password", map[string]any{"email": "ana@example.com"}), http.StatusAccepted, "")
	late := e.lastLink("ana@example.com", "password")
	e.clock.Advance(24*time.Hour + time.Minute)
	expect(t, reset(map[string]any{"token": late, "password": "newpassword2"}), http.StatusNotFound, used)
}

func TestResetUnlocksTheAccount(t *testing.T) {
	e := newUserEnv(t)
	e.register("ana@example.com", "password1", "en")
	b := e.browser()
	for range 5 {
		b.login("ana@example.com", "wrong")
	}
	expect(t, b.login("ana@example.com", "password1"), http.StatusTooManyRequests, "")
	expect(t, e.browser().do("POST", "/api/_users/_password", map[string]any{"email": "ana@example.com"}), http.StatusAccepted, "")
	expect(t, b.do("PUT", "/api/_users/_password", map[string]any{"token": e.lastLink("ana@example.com", "password"), "password": "password9"}), http.StatusOK, "")
	expect(t, b.login("ana@example.com", "password9"), http.StatusOK, "")
}

func TestUsersDBIsClosedToTheDocumentAPI(t *testing.T) {
	e := newUserEnv(t)
	id, b := e.signedIn("ana@example.com")
	for _, target := range []string{"/api/_users", "/api/_users/_all_docs?include_docs=true", "/api/_users/_changes?include_docs=true"} {
		r := b.do("GET", target, nil)
		if r.code != http.StatusForbidden {
			t.Errorf("GET %s: %d %s", target, r.code, r.body)
		}
	}
	if r := b.do("DELETE", "/api/_users/"+id+"?rev="+b.rev(id), nil); r.code != http.StatusForbidden {
		t.Errorf("DELETE own user doc: %d", r.code)
	}
	ctx := context.Background()
	if _, err := e.st.Get(ctx, ids.UsersDB, id); errors.Is(err, store.ErrDeleted) {
		t.Error("user deleted through the document API")
	}
}
