package finance_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/finance"
	"github.com/oficina/oficina/shared/stream"
)

func TestMain(m *testing.M) { os.Exit(apptest.Main(m)) }

type books struct {
	e               *apptest.Env
	ana, zed        *apptest.Client
	db, other       string
	usd, brl, brl2  string
	card, zedWallet string
}

func newBooks(t *testing.T, e *apptest.Env) *books {
	b := &books{e: e}
	b.ana, b.zed = e.SignUp("ana@example.com"), e.SignUp("zed@example.com")
	b.db, b.other = e.Group(b.ana, "Oficina da Ana"), e.Group(b.zed, "Zed")
	b.usd = b.create(t, map[string]any{"klass": "Wallet", "name": "Dólares", "currency": "usd", "start_balance": 100000})
	b.brl = b.create(t, map[string]any{"klass": "Wallet", "name": "Caixa", "currency": "BRL", "start_balance": 50000})
	b.brl2 = b.create(t, map[string]any{"klass": "Wallet", "name": "Banco", "currency": "BRL"})
	b.card = b.create(t, map[string]any{"klass": "Wallet", "name": "Cartão", "currency": "BRL", "card": true, "card_limit": 200000})
	b.zedWallet = b.zed.Do("POST", "/api/"+b.other, map[string]any{"klass": "Wallet", "name": "Zed", "currency": "BRL"}).Expect(t, http.StatusCreated)["id"].(string)
	return b
}

func (b *books) create(t *testing.T, body map[string]any) string {
	t.Helper()
	return b.ana.Do("POST", "/api/"+b.db, body).Expect(t, http.StatusCreated)["id"].(string)
}

func (b *books) flag(fn, id string) apptest.Response {
	return b.ana.Do("PUT", "/api/"+b.db+"/_design/money/_update/"+fn+"/"+id, map[string]any{})
}

// wallets reads the by-wallet view: wallet id → its figures.
func (b *books) wallets(t *testing.T) map[string]map[string]any {
	t.Helper()
	r := b.ana.Do("GET", "/api/"+b.db+"/_design/wallet-balances/_view/by-wallet?group_level=1", nil).Expect(t, http.StatusOK)
	out := map[string]map[string]any{}
	for _, row := range r["rows"].([]any) {
		m := row.(map[string]any)
		out[m["key"].(string)] = m["value"].(map[string]any)
	}
	return out
}

func num(v any) int64 { f, _ := v.(float64); return int64(f) }

// TestMoneyRules: transfers join wallets of one currency, exchanges of two,
// never a wallet with itself; a confirmed record cannot be deleted; the
// record carries its wallet's currency. Refusals write nothing.
func TestMoneyRules(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		b := newBooks(t, e)
		cases := []struct {
			name, field, msg string
			body             map[string]any
		}{
			{"a transfer across currencies", "destination_wallet_id", finance.MsgNeedsExchange,
				map[string]any{"klass": "Transfer", "description": "T", "value": 100, "source_wallet_id": b.usd, "destination_wallet_id": b.brl}},
			{"an exchange within one currency", "destination_wallet_id", finance.MsgNeedsTransfer,
				map[string]any{"klass": "Exchange", "description": "X", "value_in": 100, "value_out": 20, "source_wallet_id": b.brl, "destination_wallet_id": b.brl2}},
			{"a transfer to the same wallet", "destination_wallet_id", finance.MsgSameWallet,
				map[string]any{"klass": "Transfer", "description": "T", "value": 100, "source_wallet_id": b.brl, "destination_wallet_id": b.brl}},
			{"another Group's wallet", "destination_wallet_id", "must exist",
				map[string]any{"klass": "Transfer", "description": "T", "value": 100, "source_wallet_id": b.brl, "destination_wallet_id": b.zedWallet}},
			{"an unknown currency", "currency", "is not a known currency code (ISO 4217, like USD or BRL)",
				map[string]any{"klass": "Wallet", "name": "W", "currency": "XYZ"}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				e.Unchanged(b.db, func() {
					b.ana.Do("POST", "/api/"+b.db, c.body).ExpectFields(t, c.field, c.msg)
					b.ana.Do("POST", "/api/"+b.db+"/_bulk_docs", map[string]any{"docs": []any{c.body}}).ExpectBulkField(t, c.field, c.msg)
				})
			})
		}
		out := b.create(t, map[string]any{"klass": "Outgo", "description": "Peças", "value": 1250, "wallet_id": b.usd, "currency": "EUR", "categories": " peças de reposição , tela"})
		d := e.Doc(b.db, out)
		if d["currency"] != "USD" || fmt.Sprint(d["categories"]) != "[peças-de-reposição tela]" || d["confirmed"] != false || d["imported"] != false {
			t.Fatalf("expense %v", d)
		}
		b.flag("confirm", out).Expect(t, http.StatusOK)
		e.Unchanged(b.db, func() {
			b.ana.Do("DELETE", "/api/"+b.db+"/"+out+"?rev="+e.Doc(b.db, out)["_rev"].(string), nil).
				ExpectError(t, http.StatusUnprocessableEntity, "You cannot delete a confirmed Expense")
		})
		b.flag("unconfirm", out).Expect(t, http.StatusOK)
		b.ana.Do("DELETE", "/api/"+b.db+"/"+out+"?rev="+e.Doc(b.db, out)["_rev"].(string), nil).Expect(t, http.StatusOK)
	})
}

// TestFlags: confirm, unconfirm, import and unimport change the state once;
// a second call gets the catalogue's message and writes nothing.
func TestFlags(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		b := newBooks(t, e)
		inc := b.create(t, map[string]any{"klass": "Income", "description": "Serviço", "value": 5000, "wallet_id": b.brl})
		steps := []struct{ fn, again string }{
			{"confirm", "Revenue is already confirmed"},
			{"unconfirm", "Revenue is already unconfirmed"},
			{"import", finance.MsgRecordImported},
			{"unimport", finance.MsgRecordNotImport},
		}
		for _, s := range steps {
			b.flag(s.fn, inc).Expect(t, http.StatusOK)
			e.Unchanged(b.db, func() { b.flag(s.fn, inc).ExpectError(t, http.StatusUnprocessableEntity, s.again) })
		}
		e.Unchanged(b.db, func() {
			b.flag("confirm", b.usd).ExpectError(t, http.StatusNotFound, "")
			b.zed.Do("PUT", "/api/"+b.db+"/_design/money/_update/confirm/"+inc, map[string]any{}).ExpectError(t, http.StatusForbidden, "")
		})
		e.Drain()
		h := b.ana.Do("POST", "/api/"+b.db+"/_find", map[string]any{"selector": map[string]any{"klass": "DocumentChange", "item_id": inc}}).Expect(t, http.StatusOK)
		var events []string
		for _, d := range h["docs"].([]any) {
			for _, ev := range d.(map[string]any)["events"].([]any) {
				events = append(events, ev.(string))
			}
		}
		for _, want := range []string{"confirm", "unconfirm", "import"} {
			if !slices.Contains(events, want) {
				t.Fatalf("history events %v lack %s", events, want)
			}
		}
	})
}

// TestBalances: confirmed records move the balance, unconfirmed ones are
// pending, imported ones count in neither; fees land on the side their kind
// names; cards show their available credit; the by-currency view sums the
// wallets of each currency.
func TestBalances(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		b := newBooks(t, e)
		confirmed := func(body map[string]any) string {
			id := b.create(t, body)
			b.flag("confirm", id).Expect(t, http.StatusOK)
			return id
		}
		confirmed(map[string]any{"klass": "Income", "description": "Serviço", "value": 30000, "wallet_id": b.brl})
		confirmed(map[string]any{"klass": "Outgo", "description": "Peças", "value": 12000, "wallet_id": b.brl})
		b.create(t, map[string]any{"klass": "Outgo", "description": "Aluguel", "value": 5000, "wallet_id": b.brl}) // pending
		imported := b.create(t, map[string]any{"klass": "Income", "description": "Extrato", "value": 99999, "wallet_id": b.brl, "imported": true, "confirmed": true})
		confirmed(map[string]any{"klass": "Transfer", "description": "Depósito", "value": 10000, "fee": 300, "fee_kind": "source", "source_wallet_id": b.brl, "destination_wallet_id": b.brl2})
		confirmed(map[string]any{"klass": "Exchange", "description": "Câmbio", "value_out": 20000, "value_in": 3700, "fee": 100, "fee_kind": "destination", "source_wallet_id": b.brl, "destination_wallet_id": b.usd})
		confirmed(map[string]any{"klass": "Outgo", "description": "Compra no cartão", "value": 45000, "wallet_id": b.card})
		e.Drain()
		w := b.wallets(t)
		want := map[string][3]int64{ // balance, pending, after pending
			b.brl:  {50000 + 30000 - 12000 - 10300 - 20000, -5000, 50000 + 30000 - 12000 - 10300 - 20000 - 5000},
			b.brl2: {10000, 0, 10000},
			b.usd:  {100000 + 3700 - 100, 0, 100000 + 3600},
			b.card: {-45000, 0, -45000},
		}
		for id, f := range want {
			got := w[id]
			if num(got["balance"]) != f[0] || num(got["pending_transactions"]) != f[1] || num(got["balance_after_pending"]) != f[2] {
				t.Fatalf("wallet %s: %v, want %v", id, got, f)
			}
		}
		if num(w[b.card]["available_credit"]) != 200000-45000 || w[b.brl]["available_credit"] != nil {
			t.Fatalf("credit: card %v, cash %v", w[b.card], w[b.brl])
		}
		// Reviewing the imported record brings it in.
		b.flag("unimport", imported).Expect(t, http.StatusOK)
		e.Drain()
		if got := num(b.wallets(t)[b.brl]["balance"]); got != want[b.brl][0]+99999 {
			t.Fatalf("after review %d", got)
		}
		r := b.ana.Do("GET", "/api/"+b.db+"/_design/wallet-balances/_view/by-currency?group_level=1&reduce=true", nil).Expect(t, http.StatusOK)
		byCur := map[string]int64{}
		for _, row := range r["rows"].([]any) {
			m := row.(map[string]any)
			byCur[m["key"].(string)] = num(m["value"])
		}
		brl := want[b.brl][0] + 99999 + want[b.brl2][0] + want[b.card][0]
		if byCur["BRL"] != brl || byCur["USD"] != want[b.usd][0] {
			t.Fatalf("by currency %v, want BRL %d USD %d", byCur, brl, want[b.usd][0])
		}
		// Another Group sees none of it.
		b.zed.Do("GET", "/api/"+b.db+"/_design/wallet-balances/_view/by-currency?group_level=1", nil).ExpectError(t, http.StatusForbidden, "")
	})
}

// TestBalancesUnderReplay: after 1,000 random operations (create, edit,
// confirm, unconfirm, import, unimport, delete), every balance equals a
// recount from the live records, and replaying the stream shuffled changes
// nothing.
func TestBalancesUnderReplay(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		b := newBooks(t, e)
		r := rand.New(rand.NewPCG(21, 22))
		brlWallets := []string{b.brl, b.brl2, b.card}
		var live []string
		newRecord := func() map[string]any {
			v := int64(1 + r.IntN(50000))
			switch r.IntN(4) {
			case 0:
				return map[string]any{"klass": "Income", "description": "I", "value": v, "wallet_id": brlWallets[r.IntN(3)]}
			case 1:
				return map[string]any{"klass": "Outgo", "description": "O", "value": v, "wallet_id": brlWallets[r.IntN(3)]}
			case 2:
				i := r.IntN(3)
				return map[string]any{"klass": "Transfer", "description": "T", "value": v, "fee": r.IntN(100), "fee_kind": []string{"source", "destination"}[r.IntN(2)],
					"source_wallet_id": brlWallets[i], "destination_wallet_id": brlWallets[(i+1)%3]}
			default:
				return map[string]any{"klass": "Exchange", "description": "X", "value_out": v, "value_in": v / 5, "fee": r.IntN(100), "fee_kind": []string{"source", "destination"}[r.IntN(2)],
					"source_wallet_id": brlWallets[r.IntN(3)], "destination_wallet_id": b.usd}
			}
		}
		n := 1000
		if testing.Short() {
			n = 200
		}
		for range n {
			switch op := r.IntN(10); {
			case len(live) < 5 || op < 3:
				live = append(live, b.create(t, newRecord()))
			case op < 6:
				fn := []string{"confirm", "unconfirm", "import", "unimport"}[r.IntN(4)]
				b.flag(fn, live[r.IntN(len(live))]) // may be refused: already in that state
			case op < 8:
				id := live[r.IntN(len(live))]
				d := b.e.Doc(b.db, id)
				if d["klass"] == "Income" || d["klass"] == "Outgo" {
					d["value"] = 1 + r.IntN(50000)
				}
				b.ana.Do("PUT", "/api/"+b.db+"/"+id, d) // a confirmed record may be edited too
			default:
				j := r.IntN(len(live))
				d := b.e.Doc(b.db, live[j])
				if d["confirmed"] == true {
					continue
				}
				b.ana.Do("DELETE", "/api/"+b.db+"/"+live[j]+"?rev="+d["_rev"].(string), nil).Expect(t, http.StatusOK)
				live = slices.Delete(live, j, j+1)
			}
		}
		before := e.CheckCounts(b.db)
		e.Replay(7)
		after := e.CheckCounts(b.db)
		if fmt.Sprint(before) != fmt.Sprint(after) {
			t.Fatalf("a replay moved the counts:\n%v\n%v", before, after)
		}
		// Recount from the live records.
		balance, pending := map[string]int64{}, map[string]int64{}
		for _, id := range live {
			d := b.e.Doc(b.db, id)
			f := stream.Fields{}
			for k, v := range d {
				f[k], _ = json.Marshal(v)
			}
			if d["imported"] == true {
				continue
			}
			into := pending
			if d["confirmed"] == true {
				into = balance
			}
			for w, v := range finance.Moves(f) {
				into[w] += v
			}
		}
		start := map[string]int64{b.usd: 100000, b.brl: 50000}
		w := b.wallets(t)
		for _, id := range []string{b.usd, b.brl, b.brl2, b.card} {
			if got, want := num(w[id]["balance"]), start[id]+balance[id]; got != want {
				t.Fatalf("wallet %s balance %d, recount %d", id, got, want)
			}
			if got, want := num(w[id]["pending_transactions"]), pending[id]; got != want {
				t.Fatalf("wallet %s pending %d, recount %d", id, got, want)
			}
		}
	})
}

func TestToStandard(t *testing.T) {
	// Internal rescaling is exercised through the view; the cases pin it.
	for _, c := range []struct {
		units     int64
		precision int
		code      string
		want      int64
	}{
		{12345, 2, "BRL", 12345},
		{12345, 3, "USD", 1235},
		{-12345, 3, "USD", -1235},
		{12, 0, "BRL", 1200},
		{1234, 2, "JPY", 12},
	} {
		if got := finance.ToStandard(c.units, c.precision, c.code); got != c.want {
			t.Errorf("ToStandard(%d, %d, %s) = %d, want %d", c.units, c.precision, c.code, got, c.want)
		}
	}
}
