package ticket_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/ids"
)

// TestPhonesE164 (issue 22 item 2): phones are read in the Group's country
// and stored in E.164 — customers' on every write route, the Group's own
// list (one JSON adjustment, SPEC.md §3) likewise — and a number that is
// not a phone number is refused under its item, writing nothing.
func TestPhonesE164(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		s := newShop(t, e) // a Brazilian shop (country BR)
		if d := e.Doc(s.db, s.customer); d["phones"].([]any)[0].(map[string]any)["number"] != "+5511988887777" {
			t.Fatalf("fixture customer: %v", d["phones"])
		}
		phone := func(n string) []any { return []any{map[string]any{"number": n, "main": true}} }
		routes := map[string]func(b map[string]any) apptest.Response{
			"POST": func(b map[string]any) apptest.Response { return s.bia.Do("POST", "/api/"+s.db, b) },
			"PUT":  func(b map[string]any) apptest.Response { return s.bia.Do("PUT", "/api/"+s.db+"/"+ids.New("cus"), b) },
			"bulk": func(b map[string]any) apptest.Response {
				return s.bia.Do("POST", "/api/"+s.db+"/_bulk_docs", map[string]any{"docs": []any{b}})
			},
		}
		for name, send := range routes {
			t.Run(name, func(t *testing.T) {
				r := send(map[string]any{"klass": "Customer", "name": "Ana " + name, "phones": []any{
					map[string]any{"number": "(11) 98765-4321", "main": true},
					map[string]any{"number": "+1 650 253 0000", "description": "US office"},
				}})
				if r.Code != http.StatusCreated {
					t.Fatalf("%d %s", r.Code, r.Body)
				}
				id := ""
				if name == "bulk" {
					var rows []map[string]any
					if err := json.Unmarshal(r.Body, &rows); err != nil || len(rows) != 1 {
						t.Fatalf("bulk answer %s", r.Body)
					}
					id = rows[0]["id"].(string)
				} else {
					id = r.JSON(t)["id"].(string)
				}
				got := e.Doc(s.db, id)["phones"].([]any)
				if got[0].(map[string]any)["number"] != "+5511987654321" || got[1].(map[string]any)["number"] != "+16502530000" {
					t.Fatalf("stored %v", got)
				}
				for _, bad := range []string{"555", "(11) 9876", "ligar depois"} {
					e.Unchanged(s.db, func() {
						r := send(map[string]any{"klass": "Customer", "name": "Bad", "phones": phone(bad)})
						if name == "bulk" {
							r.ExpectBulkField(t, "phones[0].number", "is not a valid phone number")
							return
						}
						r.ExpectFields(t, "phones[0].number", "is not a valid phone number")
					})
				}
			})
		}
		// An edit keeps E.164; a number typed again in national form is read again.
		s.put(s.bia, s.customer, map[string]any{"phones": phone("11 3333-4444")}).Expect(t, http.StatusCreated)
		if n := e.Doc(s.db, s.customer)["phones"].([]any)[0].(map[string]any)["number"]; n != "+551133334444" {
			t.Fatalf("edited: %v", n)
		}

		// The Group's own phones: the same reading, refused under the item.
		adj := s.ana.Do("POST", "/api/"+s.db, map[string]any{"klass": "Adjustment", "key": "phones", "label": "phones", "value": []any{
			map[string]any{"number": "(11) 3333-4444", "description": "Balcão", "main": true},
			map[string]any{"number": "", "description": "a blank line stays blank"},
		}}).Expect(t, http.StatusCreated)["id"].(string)
		if v := e.Doc(s.db, adj)["value"].([]any); v[0].(map[string]any)["number"] != "+551133334444" || v[1].(map[string]any)["number"] != "" {
			t.Fatalf("group phones: %v", v)
		}
		e.Unchanged(s.db, func() {
			cur := e.Doc(s.db, adj)
			cur["value"] = []any{map[string]any{"number": "+55 11 3333-4444"}, map[string]any{"number": "0800"}}
			s.ana.Do("PUT", "/api/"+s.db+"/"+adj, cur).ExpectFields(t, "value[1].number", "is not a valid phone number")
		})

		// The country is a Group setting: a code the numbering plans know.
		e.Unchanged(s.db, func() {
			cur := s.ana.Do("POST", "/api/"+s.db+"/_find", map[string]any{"selector": map[string]any{"klass": "Adjustment", "key": "country"}}).Expect(t, http.StatusOK)["docs"].([]any)[0].(map[string]any)
			cur["value"] = "Brasil"
			s.ana.Do("PUT", "/api/"+s.db+"/"+cur["_id"].(string), cur).ExpectFields(t, "value", "not in allowed list")
		})
		// In a US shop the same Brazilian mobile typed without +55 is not a number.
		e.Unchanged(s.other, func() {
			s.zed.Do("POST", "/api/"+s.other, map[string]any{"klass": "Customer", "name": "X", "phones": phone("(11) 98765-4321")}).
				ExpectFields(t, "phones[0].number", "is not a valid phone number")
		})
		us := s.createIn(t, s.zed, s.other, map[string]any{"klass": "Customer", "name": "Y", "phones": phone("(650) 253-0000")})
		if n := e.Doc(s.other, us)["phones"].([]any)[0].(map[string]any)["number"]; n != "+16502530000" {
			t.Fatalf("US number: %v", n)
		}
	})
}

// TestGroupCountryDefault: a new Group's country follows its creator's
// language (pt-BR → BR, en → US); admins change it.
func TestGroupCountryDefault(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		country := func(c *apptest.Client, db string) any {
			docs := c.Do("POST", "/api/"+db+"/_find", map[string]any{"selector": map[string]any{"klass": "Adjustment", "key": "country"}}).Expect(t, http.StatusOK)["docs"].([]any)
			if len(docs) != 1 {
				t.Fatalf("country adjustments: %v", docs)
			}
			return docs[0].(map[string]any)["value"]
		}
		en := e.SignUp("en@example.com")
		if got := country(en, e.Group(en, "English shop")); got != "US" {
			t.Fatalf("en: %v", got)
		}
		pt := e.SignUp("pt@example.com")
		pt.Do("POST", "/api/"+pt.ID, map[string]any{"klass": "Adjustment", "key": "locale", "label": "locale", "value": "pt-BR"}).Expect(t, http.StatusCreated)
		db := e.Group(pt, "Oficina brasileira")
		if got := country(pt, db); got != "BR" {
			t.Fatalf("pt-BR: %v", got)
		}
		pt.Do("POST", "/api/"+db, map[string]any{"klass": "Customer", "name": "Z", "phones": []any{map[string]any{"number": "(11) 98765-4321"}}}).Expect(t, http.StatusCreated)
	})
}
