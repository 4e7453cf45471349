package finance

import (
	"strings"
	"testing"
)

// TestParseAmount: bank amounts in their usual shapes become exact minor
// units; anything else is refused, never rounded.
func TestParseAmount(t *testing.T) {
	cases := []struct {
		in, decimal string
		precision   int
		want        int64
		err         string
	}{
		{"1.234,56", ",", 2, 123456, ""},
		{"R$ -1.234,56", ",", 2, -123456, ""},
		{"-R$ 10,00", ",", 2, -1000, ""},
		{"12,50-", ",", 2, -1250, ""},
		{"1 234,5 D", ",", 2, -123450, ""},
		{"99,90 C", ",", 2, 9990, ""},
		{"(12.50)", ".", 2, -1250, ""},
		{"US$ 1,234.5", ".", 2, 123450, ""},
		{"+3", ".", 2, 300, ""},
		{"1.500", ".", 0, 0, "has more decimals than the wallet's 0"},
		{"1.000", ".", 0, 1, ""},
		{"0.125", ".", 3, 125, ""},
		{"12.345", ".", 2, 0, "has more decimals than the wallet's 2"},
		{"12.340", ".", 2, 1234, ""},
		{"twelve", ".", 2, 0, "not an amount"},
		{"1.2.3", ".", 2, 0, "not an amount"},
		{"", ".", 2, 0, "not an amount"},
		{"9999999999999", ".", 2, 0, "not an amount"},
		{"999999999999", ".", 2, 99999999999900, ""},
	}
	for _, c := range cases {
		got, err := parseAmount(c.in, c.decimal, c.precision)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: %d, %v; want error %q", c.in, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q: %d, %v; want %d", c.in, got, err, c.want)
		}
	}
}

// TestDetect: what detection proposes for files it has not seen before.
func TestDetect(t *testing.T) {
	cases := []struct {
		name, file string
		check      func(o Options) bool
	}{
		{"tab separated, no header, guessed columns", "2026-03-01\tCoffee\t-3.50\n2026-03-02\tRefund\t10.00\n",
			func(o Options) bool {
				return o.Delimiter == "\t" && !o.Header && o.Columns.Date == 0 && o.Columns.Description == 1 && o.Columns.Value == 2 && o.DateFormat == "YYYY-MM-DD"
			}},
		{"day over 12 settles DD/MM in a point-decimal file", "Date,Description,Amount\n03/04/2026,a,1.00\n25/04/2026,b,2.00\n",
			func(o Options) bool { return o.DateFormat == "DD/MM/YYYY" && o.Decimal == "." }},
		{"ambiguous dates read month first with decimal points", "Date,Description,Amount\n03/04/2026,a,1.00\n",
			func(o Options) bool { return o.DateFormat == "MM/DD/YYYY" }},
		{"a value column next to debit and credit is left out", "Data;Histórico;Valor débito;Valor crédito;Saldo\n01/03/2026;x;10,00;;5,00\n",
			func(o Options) bool {
				return o.Columns.Debit == 2 && o.Columns.Credit == 3 && o.Columns.Value == -1 && o.Decimal == ","
			}},
		{"an OFX header", "\ufeffOFXHEADER:100\nDATA:OFXSGML\n", func(o Options) bool { return o.Format == "ofx" }},
	}
	for _, c := range cases {
		o, err := Detect([]byte(c.file))
		if err != nil || !c.check(o) {
			t.Errorf("%s: %+v, %v", c.name, o, err)
		}
	}
}

func TestParseAmountRefusesWords(t *testing.T) {
	for _, s := range []string{"Pix 123", "Coffee 3", "abc"} {
		if _, err := parseAmount(s, ".", 2); err == nil {
			t.Errorf("%q read as an amount", s)
		}
	}
}
