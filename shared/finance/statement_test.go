package finance

import (
	"os"
	"path/filepath"
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

// TestDetectBankFiles: real banks' layouts (testdata) are detected by
// their header's names, whatever sits above the header, with the columns
// whose content fits: Chase's "Description" and "Amount" rather than its
// "Details" and "Check or Slip #"; Brazilian banks' "Lançamento",
// "Histórico", "Descrição", "Valor", "Crédito (R$)", "Débito (R$)", never a
// "Saldo" or a document number.
func TestDetectBankFiles(t *testing.T) {
	cols := func(date, desc, value, debit, credit int) Columns {
		return Columns{Date: date, Description: desc, Value: value, Debit: debit, Credit: credit, ThirdParty: -1, Categories: -1}
	}
	cases := []struct {
		file string
		want Options
	}{
		{"chase_checking.csv", Options{Encoding: EncUTF8, Delimiter: ",", Decimal: ".", DateFormat: "MM/DD/YYYY", Header: true, Skip: 0, Columns: cols(1, 2, 3, -1, -1)}},
		{"bb_extrato.csv", Options{Encoding: EncWin1252, Delimiter: ",", Decimal: ",", DateFormat: "DD/MM/YYYY", Header: true, Skip: 0, Columns: cols(0, 1, 4, -1, -1)}},
		{"bradesco_extrato.csv", Options{Encoding: EncWin1252, Delimiter: ";", Decimal: ",", DateFormat: "DD/MM/YYYY", Header: true, Skip: 1, Columns: cols(0, 1, -1, 4, 3)}},
		{"inter_extrato.csv", Options{Encoding: EncUTF8, Delimiter: ";", Decimal: ",", DateFormat: "DD/MM/YYYY", Header: true, Skip: 4, Columns: cols(0, 1, 3, -1, -1)}},
		{"nubank_extrato.csv", Options{Encoding: EncUTF8, Delimiter: ",", Decimal: ".", DateFormat: "DD/MM/YYYY", Header: true, Skip: 0, Columns: cols(0, 3, 1, -1, -1)}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("testdata", c.file))
			if err != nil {
				t.Fatal(err)
			}
			got, err := Detect(raw)
			if err != nil {
				t.Fatal(err)
			}
			c.want.Format, c.want.MostItems = "csv", MostIncome
			if got != c.want {
				t.Errorf("detected\n %+v\nwant\n %+v", got, c.want)
			}
		})
	}
}

// TestDetectWithoutHeader: without a header the columns are told apart by
// their content: the amount is the column with signed decimals, not a
// running balance, a mostly empty check number or a document number; the
// description is the longest free text.
func TestDetectWithoutHeader(t *testing.T) {
	file := "DEBIT,03/30/2026,\"CON ED OF NY   PPD\",-142.37,ACH_DEBIT,3125.18,,\n" +
		"CREDIT,03/27/2026,\"ZELLE PAYMENT FROM MARIA GARCIA\",350.00,QUICKPAY_CREDIT,3267.55,,\n" +
		"CHECK,03/20/2026,\"CHECK 1043\",-400.00,CHECK_PAID,3003.67,1043,\n" +
		"DEBIT,03/16/2026,\"AMAZON MKTPLACE PMTS\",-23.99,DEBIT_CARD,3403.67,,\n"
	o, err := Detect([]byte(file))
	if err != nil || o.Header || o.Columns != (Columns{Date: 1, Description: 2, Value: 3, Debit: -1, Credit: -1, ThirdParty: -1, Categories: -1}) {
		t.Fatalf("%+v %v", o, err)
	}
	br := "02/03/2026;1234567;PIX RECEBIDO MARIA DA SILVA;350,00;1.600,00\n05/03/2026;7654321;PAGTO ELETRON  COBRANCA;-187,45;1.412,55\n"
	if o, err := Detect([]byte(br)); err != nil || o.Columns.Value != 3 || o.Columns.Description != 2 || o.Columns.Date != 0 {
		t.Fatalf("%+v %v", o, err)
	}
}
