package servicedocs

import (
	"strings"

	"golang.org/x/text/currency"
)

// groupCurrency is the currency a Group's estimates are in (issue 22 item
// 15): its currency setting when it is an ISO 4217 code, else the real of a
// Brazilian Group, else the dollar (SPEC.md §9's default). The SPA's
// groupCurrency (web/src/lib/money.ts) answers the same.
func groupCurrency(setting any, country string) string {
	if s, ok := setting.(string); ok {
		s = strings.ToUpper(strings.TrimSpace(s))
		if u, err := currency.ParseISO(s); err == nil && len(s) == 3 && u != currency.XXX && u != currency.XTS {
			return s
		}
	}
	if country == "BR" {
		return "BRL"
	}
	return "USD"
}

// currencySymbols are the signs SPEC.md §9 prints before an amount; any
// other currency is printed by its code.
var currencySymbols = map[string]string{"USD": "US$", "BRL": "R$", "EUR": "€", "GBP": "£"}
