package capacity_test

import (
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/store/dynamo/ddblocal"
)

func TestMain(m *testing.M) { os.Exit(apptest.Main(m)) }

// units is what one action cost: the API request's reads and writes, and
// the change stream's after it.
type units struct {
	apiR, apiW, streamR, streamW float64
}

func (u units) write() float64 { return u.apiW + u.streamW }
func (u units) read() float64  { return u.apiR + u.streamR }

// meter runs act n times, draining the stream after each, and returns the
// average units of one.
func meter(t *testing.T, e *apptest.Env, n int, act func(i int)) units {
	t.Helper()
	var sum units
	for i := range n {
		e.Drain()
		e.Meter.Reset()
		act(i)
		r, w, _ := e.Meter.Totals()
		e.Meter.Reset()
		e.Drain()
		sr, sw, _ := e.Meter.Totals()
		sum.apiR += r
		sum.apiW += w
		sum.streamR += sr
		sum.streamW += sw
	}
	f := float64(n)
	return units{sum.apiR / f, sum.apiW / f, sum.streamR / f, sum.streamW / f}
}

// customer is a realistic 1 KB client document (a shop's customer with
// phones, an address and notes), as the SPA sends it.
func customer(i int) map[string]any {
	return map[string]any{
		"klass": "Customer", "name": fmt.Sprintf("Oficina Mecânica Irmãos Souza %d", i), "short_name": "Irmãos Souza",
		"email": "contato@irmaossouza.com.br", "site": "https://irmaossouza.com.br", "company_name": "Irmãos Souza Manutenção Ltda",
		"job_title": "Gerente de compras", "cnpj": "12.345.678/0001-90", "state_registration": "123.456.789.110",
		"notes": "Cliente desde 2019. Prefere atendimento pela manhã e retirada no balcão. Frota de 12 veículos leves " +
			"e 3 utilitários; revisões a cada 10.000 km. Pagamento por boleto com 28 dias. Contato secundário: Márcia, " +
			"do financeiro, ramal 214. Não autorizar serviços acima de R$ 2.000 sem aprovação por e-mail.",
		"phones": []any{
			map[string]any{"number": "+55 11 3456-7890", "description": "Recepção", "main": true},
			map[string]any{"number": "+55 11 98765-4321", "description": "Márcia (financeiro)", "main": false},
		},
		"addresses": []any{map[string]any{
			"description": "Matriz", "zip_code": "04567-000", "street": "Rua das Oficinas", "number": "1234",
			"neighborhood": "Vila Industrial", "complement": "Galpão 3", "city": "São Paulo", "state": "SP", "main": true,
		}},
	}
}

// TestCapacityPerAction meters, on DynamoDB Local with writes counted by
// AWS's rules, what the API request and the change stream after it cost
// for a 1 KB document's create, update, GET and delete and for opening the
// ticket board over 5,000 tickets, and fails when a figure passes its
// target.
func TestCapacityPerAction(t *testing.T) {
	e := apptest.New(t, apptest.Dynamo)
	e.Meter.Rules = &ddblocal.WriteRules{Images: ddblocal.NewClient(e.DynamoEndpoint)}
	c := e.SignUp("cost@example.com")
	db := e.Group(c, "Irmãos Souza")
	const n = 5

	type doc struct{ id, rev string }
	docs := make([]doc, n)
	create := meter(t, e, n, func(i int) {
		r := c.Do("POST", "/api/"+db, customer(i)).Expect(t, http.StatusCreated)
		docs[i] = doc{r["id"].(string), r["rev"].(string)}
	})
	update := meter(t, e, n, func(i int) {
		body := customer(i)
		body["job_title"] = "Diretora de compras e logística" // a real edit: the size changes too
		r := c.Do("PUT", "/api/"+db+"/"+docs[i].id+"?rev="+docs[i].rev, body).Expect(t, http.StatusCreated)
		docs[i].rev = r["rev"].(string)
	})
	get := meter(t, e, n, func(i int) {
		c.Do("GET", "/api/"+db+"/"+docs[i].id, nil).Expect(t, http.StatusOK)
	})
	del := meter(t, e, n, func(i int) {
		c.Do("DELETE", "/api/"+db+"/"+docs[i].id+"?rev="+docs[i].rev, nil).Expect(t, http.StatusOK)
	})
	board := meterBoard(t, e, c)
	screenAlone, screenBatched := meterTicketScreen(t, e, c, db)

	var b strings.Builder
	fmt.Fprintf(&b, "\n%-28s %8s %8s %8s %8s %8s %8s\n", "action", "API RCU", "API WCU", "str RCU", "str WCU", "RCU", "WCU")
	for _, r := range []struct {
		name string
		u    units
	}{{"create 1 KB document", create}, {"update 1 KB document", update}, {"GET 1 KB document", get},
		{"delete 1 KB document", del}, {"ticket board, 5,000 tickets", board},
		{"ticket screen, 7 reads alone", screenAlone}, {"ticket screen, one batch", screenBatched}} {
		fmt.Fprintf(&b, "%-28s %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f\n", r.name, r.u.apiR, r.u.apiW, r.u.streamR, r.u.streamW, r.u.read(), r.u.write())
	}
	t.Log(b.String())

	for _, c := range []struct {
		what string
		got  float64
		max  float64
	}{
		{"WCU per create, end to end", create.write(), 6},
		{"WCU per update, end to end", update.write(), 6},
		{"RCU per document GET", get.read(), 2},
		{"RCU to open the board over 5,000 tickets", board.read(), 40},
		// The batch signs in once for its seven reads.
		{"RCU of a ticket screen's reads in one batch", screenBatched.read(), screenAlone.read() - 1},
	} {
		if c.got > c.max {
			t.Errorf("%s: %.1f, target ≤ %.0f", c.what, c.got, c.max)
		}
	}
}

// meterTicketScreen meters the reads a ticket's screen makes (the ticket,
// its estimates, maintenances, checklist, files, comments and history),
// each asked alone and then all in one POST /api/_batch (web/src/lib/batch.ts).
func meterTicketScreen(t *testing.T, e *apptest.Env, c *apptest.Client, db string) (alone, batched units) {
	t.Helper()
	tik := c.Do("POST", "/api/"+db, map[string]any{"klass": "Ticket", "content": "Trocar a tela", "priority": "high", "status": "open"}).Expect(t, http.StatusCreated)["id"].(string)
	c.Do("POST", "/api/"+db, map[string]any{"klass": "Comment", "content": "Tela pedida", "item_id": tik, "item_type": "Ticket"}).Expect(t, http.StatusCreated)
	find := func(sel map[string]any, sorted bool) map[string]any {
		q := map[string]any{"selector": sel, "limit": 50}
		if sorted {
			q["sort"] = []any{map[string]any{"created_at": "desc"}}
		}
		return map[string]any{"method": "POST", "path": "/api/" + db + "/_find", "body": q}
	}
	reads := []map[string]any{
		{"method": "GET", "path": "/api/" + db + "/" + tik},
		find(map[string]any{"klass": "Estimate", "ticket_id": tik}, false),
		find(map[string]any{"klass": "Maintenance", "ticket_id": tik}, false),
		find(map[string]any{"klass": "TicketChecklist", "ticket": tik}, false),
		{"method": "GET", "path": "/api/" + db + "/_drive/records/" + tik},
		find(map[string]any{"klass": "Comment", "item_id": tik}, true),
		find(map[string]any{"klass": "DocumentChange", "item_id": tik}, true),
	}
	alone = meter(t, e, 3, func(int) {
		for _, q := range reads {
			c.Do(q["method"].(string), q["path"].(string), q["body"]).Expect(t, http.StatusOK)
		}
	})
	batched = meter(t, e, 3, func(int) {
		c.Do("POST", "/api/_batch", map[string]any{"requests": reads}).Expect(t, http.StatusOK)
	})
	return alone, batched
}

// meterBoard fills a Group with 5,000 tickets, 300 of them open (as
// BenchmarkBoard does), and meters one GET of the board.
func meterBoard(t *testing.T, e *apptest.Env, c *apptest.Client) units {
	t.Helper()
	const total, open = 5000, 300
	db := e.BigDesk(t, c, total, open)
	return meter(t, e, 1, func(int) {
		got := c.Do("GET", "/api/"+db+"/_tickets/board", nil).Expect(t, http.StatusOK)
		if n := len(got["tickets"].([]any)); n != open+30 {
			t.Fatalf("board: %d cards", n)
		}
	})
}
