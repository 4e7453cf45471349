package limits_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/limits"
	"github.com/oficina/oficina/shared/module"
)

// setUser changes a user's locale and newsletter choice as the profile does.
func setUser(t *testing.T, c *apptest.Client, locale string, newsletter bool) {
	t.Helper()
	u := c.Do("GET", "/api/_users/"+c.ID, nil).Expect(t, http.StatusOK)
	c.Do("PUT", "/api/_users/"+c.ID, map[string]any{"_rev": u["_rev"], "locale": locale, "newsletter": newsletter}).Expect(t, http.StatusCreated)
}

// TestWeeklySummary: the weekly job mails the last 30 days (tickets opened
// and closed, incomes and expenses, links into the app) to each member who
// subscribed (and whose topics, if any, include the ticket app), in their
// language, with a one-click List-Unsubscribe; a re-run mails nothing
// more; the unsubscribe link turns the newsletter off, so the next week
// skips that member only.
func TestWeeklySummary(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ana, bia, carl, dora := e.SignUp("ana@example.com"), e.SignUp("bia@example.com"), e.SignUp("carl@example.com"), e.SignUp("dora@example.com")
		db := e.Group(ana, "Oficina da Ana")
		for _, c := range []*apptest.Client{bia, carl, dora} {
			e.Join(ana, c, db, false)
		}
		setUser(t, ana, "en", true)
		setUser(t, bia, "pt-BR", true)
		setUser(t, carl, "en", false)
		setUser(t, dora, "en", true)
		dora.Do("POST", "/api/"+dora.ID, map[string]any{"klass": "Adjustment", "key": "newsletter-topics", "label": "newsletter-topics", "value": []any{"rss"}}).Expect(t, http.StatusCreated)
		bia.Do("POST", "/api/"+bia.ID, map[string]any{"klass": "Adjustment", "key": "newsletter-topics", "label": "newsletter-topics", "value": []any{"rss", "ticket_app"}}).Expect(t, http.StatusCreated)

		api := "/api/" + db
		ana.Do("POST", api, map[string]any{"klass": "Ticket", "content": "Tela quebrada"}).Expect(t, http.StatusCreated)
		ana.Do("POST", api, map[string]any{"klass": "Ticket", "content": "Não liga", "status": "done"}).Expect(t, http.StatusCreated)
		wallet := ana.Do("POST", api, map[string]any{"klass": "Wallet", "name": "Caixa", "currency": "BRL"}).Expect(t, http.StatusCreated)["id"].(string)
		ana.Do("POST", api, map[string]any{"klass": "Income", "description": "Conserto", "value": 150000, "wallet_id": wallet}).Expect(t, http.StatusCreated)
		ana.Do("POST", api, map[string]any{"klass": "Outgo", "description": "Peças", "value": 2550, "wallet_id": wallet}).Expect(t, http.StatusCreated)

		job, ok := e.App.Modules.JobNamed(limits.JobDigest)
		if !ok {
			t.Fatal("no digest job")
		}
		run := func() {
			t.Helper()
			if err := job.Run(context.Background(), module.JobEvent{Job: job.Name, Time: e.Clock.Now()}); err != nil {
				t.Fatal(err)
			}
		}
		run()
		run() // the same week again: nothing more
		en := e.MailsTo("ana@example.com", "the last 30 days")
		if len(en) != 1 {
			t.Fatalf("summaries to ana: %d", len(en))
		}
		m := en[0]
		for _, want := range []string{"Tickets: 2 opened, 1 closed", "Incomes: BRL 1,500.00", "Expenses: BRL 25.50",
			apptest.BaseURL + "/account/" + db + "/tickets", apptest.BaseURL + "/account/" + db + "/incomes", apptest.BaseURL + "/account/" + db + "/outgos"} {
			if !strings.Contains(m.Text, want) {
				t.Errorf("English summary lacks %q:\n%s", want, m.Text)
			}
		}
		if !strings.Contains(m.HTML, "<a href=\""+apptest.BaseURL+"/account/"+db+"/tickets\">Tickets</a>") {
			t.Errorf("HTML part: %s", m.HTML)
		}
		unsub := m.Header.Get("List-Unsubscribe")
		if !strings.HasPrefix(unsub, "<"+apptest.BaseURL+"/api/_mail/unsubscribe/") || m.Header.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" {
			t.Fatalf("unsubscribe headers: %q %q", unsub, m.Header.Get("List-Unsubscribe-Post"))
		}
		pt := e.MailsTo("bia@example.com", "os últimos 30 dias")
		if len(pt) != 1 || !strings.Contains(pt[0].Text, "Chamados: 2 abertos, 1 fechados") || !strings.Contains(pt[0].Text, "Receitas: BRL 1.500,00") || !strings.Contains(pt[0].Text, "Despesas: BRL 25,50") {
			t.Fatalf("pt-BR summary: %d %v", len(pt), pt)
		}
		for _, who := range []string{"carl@example.com", "dora@example.com"} {
			if n := len(e.MailsTo(who, "30 days")); n != 0 {
				t.Errorf("%s did not subscribe to the summary but got %d", who, n)
			}
		}

		// One click, no session: the newsletter is off.
		path := strings.TrimPrefix(strings.Trim(unsub, "<>"), apptest.BaseURL)
		e.Anonymous().Do("POST", path, nil).Expect(t, http.StatusOK)
		e.Anonymous().Do("POST", path, nil).Expect(t, http.StatusOK) // twice is fine
		e.Anonymous().Do("POST", "/api/_mail/unsubscribe/nope", nil).ExpectError(t, http.StatusNotFound, "unknown or has expired")
		if u := ana.Do("GET", "/api/_users/"+ana.ID, nil).Expect(t, http.StatusOK); u["newsletter"] != false {
			t.Fatalf("after unsubscribing: newsletter %v", u["newsletter"])
		}
		advance(t, e, 7*24*time.Hour, ana)
		run()
		if n := len(e.MailsTo("ana@example.com", "the last 30 days")); n != 1 {
			t.Errorf("ana unsubscribed but got %d summaries", n)
		}
		if n := len(e.MailsTo("bia@example.com", "os últimos 30 dias")); n != 2 {
			t.Errorf("bia's summaries after two weeks: %d", n)
		}
	})
}
