package servicedocs_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/schema"
)

// TestEstimateCurrencyFollowsTheGroup (issue 22 item 15): the estimate PDF
// and the public estimate page say money in the Group's currency — its
// currency setting, else the real of a Brazilian Group — whatever the
// language; a currency setting that is not an ISO 4217 code is refused and
// changes nothing.
func TestEstimateCurrencyFollowsTheGroup(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		s := newShop(t, e) // country BR
		est := s.estimate(t, nil)
		token := e.Doc(s.db, est)["approval_token"].(string)
		pdf := func(locale string) string {
			return pdfText(t, getPDF(t, s.bia, "/api/"+s.db+"/_estimates/"+est+"/receipt.pdf?locale="+locale))
		}
		page := func() any {
			return e.Anonymous().Do("GET", "/api/_public/estimates/"+token, nil).Expect(t, http.StatusOK)["shop"].(map[string]any)["currency"]
		}
		for _, c := range []struct {
			setting          any
			currency, en, pt string
		}{
			{nil, "BRL", "R$ 1,234.50", "R$ 1.234,50"},
			{"usd", "USD", "US$ 1,234.50", "US$ 1.234,50"},
			{"EUR", "EUR", "€ 1,234.50", "€ 1.234,50"},
			{"CHF", "CHF", "CHF 1,234.50", "CHF 1.234,50"},
		} {
			if c.setting != nil {
				s.setting(t, "currency", c.setting)
			}
			if got := page(); got != c.currency {
				t.Errorf("setting %v: the public page says %v, want %s", c.setting, got, c.currency)
			}
			if en := pdf("en"); !strings.Contains(en, c.en) {
				t.Errorf("setting %v: English PDF lacks %q:\n%s", c.setting, c.en, en)
			}
			if pt := pdf("pt-BR"); !strings.Contains(pt, c.pt) {
				t.Errorf("setting %v: Portuguese PDF lacks %q:\n%s", c.setting, c.pt, pt)
			}
		}
		r := s.ana.Do("POST", "/api/"+s.db+"/_find", map[string]any{"selector": map[string]any{"klass": "Adjustment", "key": "currency"}}).Expect(t, http.StatusOK)
		adj := r["docs"].([]any)[0].(map[string]any)
		for _, bad := range []any{"ZZZ", "real", 986, "XXX"} {
			e.Unchanged(s.db, func() {
				adj["value"] = bad
				s.ana.Do("PUT", "/api/"+s.db+"/"+adj["_id"].(string), adj).ExpectFields(t, "value", schema.MsgNotCurrency)
			})
		}
	})
}
