package specfields_test

import (
	"encoding/json"
	"net/http"
	"os"
	"slices"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/ids"
)

func TestMain(m *testing.M) { os.Exit(apptest.Main(m)) }

// TestSpecKlassRules: the klasses whose module is still to come refuse a
// blank form, wrong types, unknown enums and currencies, negative amounts
// and references outside the Group on every write route, writing nothing
// (issue 8, item 17); a well-formed record passes and is normalised.
func TestSpecKlassRules(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ana, zed := e.SignUp("ana@example.com"), e.SignUp("zed@example.com")
		db, other := e.Group(ana, "Oficina da Ana"), e.Group(zed, "Zed Reparos")
		create := func(c *apptest.Client, db string, body map[string]any) string {
			t.Helper()
			return c.Do("POST", "/api/"+db, body).Expect(t, http.StatusCreated)["id"].(string)
		}
		wallet := create(ana, db, map[string]any{"klass": "Wallet", "name": "Caixa", "currency": "brl"})
		if got := e.Doc(db, wallet); got["currency"] != "BRL" || got["active"] != true || got["precision"] != json.Number("2") && got["precision"] != float64(2) {
			t.Fatalf("wallet not normalised: %v", got)
		}
		otherWallet := create(zed, other, map[string]any{"klass": "Wallet", "name": "Zed", "currency": "USD"})
		customer := create(ana, db, map[string]any{"klass": "Customer", "name": "Cida"})

		routes := map[string]func(id string, b map[string]any) apptest.Response{
			"POST": func(_ string, b map[string]any) apptest.Response { return ana.Do("POST", "/api/"+db, b) },
			"PUT":  func(id string, b map[string]any) apptest.Response { return ana.Do("PUT", "/api/"+db+"/"+id, b) },
			"bulk": func(_ string, b map[string]any) apptest.Response {
				return ana.Do("POST", "/api/"+db+"/_bulk_docs", map[string]any{"docs": []any{b}})
			},
		}
		cases := []struct {
			name, prefix, field, msg string
			body                     map[string]any
		}{
			{"blank wallet", "wll", "name", "can't be blank", map[string]any{"klass": "Wallet", "currency": "USD"}},
			{"unknown currency", "wll", "currency", "is not a known currency code (ISO 4217, like USD or BRL)", map[string]any{"klass": "Wallet", "name": "W", "currency": "ABC"}},
			{"currency of the wrong type", "wll", "currency", "is invalid", map[string]any{"klass": "Wallet", "name": "W", "currency": 986}},
			{"blank expense", "out", "description", "can't be blank", map[string]any{"klass": "Outgo", "wallet_id": wallet, "value": 100}},
			{"negative expense", "out", "value", "must be greater than or equal to 0", map[string]any{"klass": "Outgo", "description": "Peças", "wallet_id": wallet, "value": -100}},
			{"fractional cents", "inc", "value", "must be an integer", map[string]any{"klass": "Income", "description": "Serviço", "wallet_id": wallet, "value": 10.5}},
			{"amount as text", "inc", "value", "is not a number", map[string]any{"klass": "Income", "description": "Serviço", "wallet_id": wallet, "value": "dez"}},
			{"another Group's wallet", "inc", "wallet_id", "must exist", map[string]any{"klass": "Income", "description": "Serviço", "wallet_id": otherWallet, "value": 1}},
			{"no wallet", "inc", "wallet_id", "can't be blank", map[string]any{"klass": "Income", "description": "Serviço", "value": 1}},
			{"unknown fee kind", "trn", "fee_kind", "not in allowed list", map[string]any{"klass": "Transfer", "description": "T", "source_wallet_id": wallet, "destination_wallet_id": wallet, "fee_kind": "both"}},
			{"unknown mapping target", "map", "target", "not in allowed list", map[string]any{"klass": "Mapping", "description": "M", "target": "wallet", "field_to_watch": "description", "kind_of_watch": "contains", "text_to_match": "x", "kind_of_change": "replace", "field_to_change": "description"}},
			{"blank handbook", "han", "title", "can't be blank", map[string]any{"klass": "Handbook", "content": "texto"}},
			{"handbook uri not a URL", "han", "uri", "is invalid", map[string]any{"klass": "Handbook", "title": "Manual", "uri": "javascript:alert(1)"}},
			{"contract without customer", "cnt", "customer_id", "can't be blank", map[string]any{"klass": "Contract", "description": "Mensal"}},
			{"estimate of an unknown customer", "est", "customer_id", "must exist", map[string]any{"klass": "Estimate", "description": "Orçamento", "customer_id": ids.New("cus")}},
			{"maintenance with a bad date", "mai", "date", "is invalid", map[string]any{"klass": "Maintenance", "date": "31/12/2026", "equipment_id": ids.New("eqi")}},
			{"negative warranty", "mai", "warranty", "must be greater than or equal to 0", map[string]any{"klass": "Maintenance", "date": "2026-12-31", "warranty": -1}},
		}
		for _, c := range cases {
			for name, send := range routes {
				t.Run(c.name+" via "+name, func(t *testing.T) {
					body := map[string]any{}
					for k, v := range c.body {
						body[k] = v
					}
					e.Unchanged(db, func() {
						r := send(ids.New(c.prefix), body)
						if name == "bulk" {
							var rows []struct {
								Error  string              `json:"error"`
								Fields map[string][]string `json:"fields"`
							}
							if r.Code != http.StatusCreated || json.Unmarshal(r.Body, &rows) != nil || len(rows) != 1 ||
								rows[0].Error != "unprocessable_entity" || !slices.Contains(rows[0].Fields[c.field], c.msg) {
								t.Fatalf("bulk answer %d %s, want %s: %q", r.Code, r.Body, c.field, c.msg)
							}
							return
						}
						r.ExpectFields(t, c.field, c.msg)
					})
				})
			}
		}
		// A complete record of each kind passes.
		create(ana, db, map[string]any{"klass": "Outgo", "description": "Peças", "wallet_id": wallet, "value": 1250, "categories": " peças de reposição , tela"})
		create(ana, db, map[string]any{"klass": "Contract", "description": "Mensal", "customer_id": customer})
		create(ana, db, map[string]any{"klass": "Handbook", "title": "Troca de tela", "content": "# Passos"})
	})
}
