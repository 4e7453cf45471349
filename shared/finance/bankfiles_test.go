package finance_test

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/finance"
)

// record is what a test expects of an imported row.
type record struct {
	Klass, Description string
	Value              int64
}

// importedRecords lists a wallet's imported records, sorted.
func (b *books) importedRecords(t *testing.T, wallet string) []record {
	t.Helper()
	var out []record
	for _, k := range []string{"Income", "Outgo"} {
		r := b.ana.Do("POST", "/api/"+b.db+"/_find", map[string]any{"selector": map[string]any{"klass": k, "wallet_id": wallet, "imported": true}, "limit": 1000}).Expect(t, http.StatusOK)
		for _, d := range r["docs"].([]any) {
			m := d.(map[string]any)
			out = append(out, record{m["klass"].(string), m["description"].(string), num(m["value"])})
		}
	}
	slices.SortFunc(out, func(a, b record) int { return cmpRecord(a, b) })
	return out
}

func cmpRecord(a, b record) int {
	if a.Description != b.Description {
		if a.Description < b.Description {
			return -1
		}
		return 1
	}
	return int(a.Value - b.Value)
}

func testdata(t *testing.T, name string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// TestImportBankFiles: files as real banks export them (testdata) import
// without touching a setting — Chase's checking CSV with its trailing comma
// on every data row, Banco do Brasil's CSV (its balance lines skipped) and
// its OFX 1.02 in CHARSET:1252, Bradesco's debit and credit columns under
// a title line, Inter's preamble, Nubank's point decimals with day-first
// dates — each description kept with the bank's spacing. Importing again
// creates nothing.
func TestImportBankFiles(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		b := newBooks(t, e)
		cases := []struct {
			file, currency string
			want           []record
		}{
			{"chase_checking.csv", "USD", []record{
				{"Income", "REMOTE ONLINE DEPOSIT #          1", 60000},
				{"Income", "SQUARE INC       DES:260313P2 ID:L2049 INDN:JOES PHONE REPAIR CO ID:9424300002 CCD", 127540},
				{"Income", "ZELLE PAYMENT FROM MARIA GARCIA WFCT0ABC1234", 35000},
				{"Outgo", "AMAZON MKTPLACE PMTS AMZN.COM/BILL WA        03/15", 2399},
				{"Outgo", "CHECK 1043", 40000},
				{"Outgo", "HOME DEPOT #6177 BROOKLYN NY                03/24", 8612},
				{"Outgo", "MONTHLY SERVICE FEE", 1500},
				{"Outgo", "ORIG CO NAME:CON ED OF NY       ORIG ID:1234567890 DESC DATE:260330 CO ENTRY DESCR:CECONY    SEC:PPD", 14237},
			}},
			{"bb_extrato.csv", "BRL", []record{
				{"Outgo", "Compra com Cartão", 21000},
				{"Outgo", "Pagto Eletron  Cobranca", 18745},
				{"Income", "Pix - Recebido", 35000},
				{"Outgo", "Tarifa Pacote de Serviços", 3990},
			}},
			{"bb_extrato.ofx", "BRL", []record{
				{"Outgo", "Pagto Eletron  Cobrança COPEL", 18745},
				{"Income", "Pix - Recebido 02/03 09:14 JOÃO DA CONCEIÇÃO", 35000},
				{"Outgo", "Tarifa Pacote de Serviços", 3990},
			}},
			{"bradesco_extrato.csv", "BRL", []record{
				{"Outgo", "COMPRA CARTAO DEB POSTO IPIRANGA", 21000},
				{"Outgo", "PAGTO ELETRON  COBRANCA COPEL", 18745},
				{"Income", "PIX RECEBIDO MARIA DA SILVA", 35000},
				{"Outgo", "TARIFA BANCARIA CESTA B.EXPRESSO4", 3990},
			}},
			{"inter_extrato.csv", "BRL", []record{
				{"Outgo", "Compra no debito", 21000},
				{"Outgo", "Pagamento efetuado", 3990},
				{"Outgo", "Pagamento efetuado", 18745},
				{"Income", "Pix recebido", 35000},
			}},
			{"nubank_extrato.csv", "BRL", []record{
				{"Outgo", "Compra no débito - POSTO IPIRANGA", 21000},
				{"Outgo", "Pagamento de boleto efetuado - COPEL DISTRIBUICAO S.A.", 18745},
				{"Outgo", "Pagamento de fatura", 3990},
				{"Income", "Transferência recebida pelo Pix - MARIA DA SILVA - •••.456.789-•• - BCO DO BRASIL S.A. (0001) Agência: 1234 Conta: 56789-0", 35000},
			}},
		}
		for _, c := range cases {
			t.Run(c.file, func(t *testing.T) {
				file := testdata(t, c.file)
				wallet := b.create(t, map[string]any{"klass": "Wallet", "name": c.file, "currency": c.currency})
				chk := b.check(t, wallet, file)
				if chk["problem"] != nil || num(chk["rows"]) != int64(len(c.want)) || num(chk["new"]) != int64(len(c.want)) {
					t.Fatalf("check %v", chk)
				}
				res := b.upload("import", wallet, file).Expect(t, http.StatusOK)
				if num(res["created"]) != int64(len(c.want)) {
					t.Fatalf("import %v", res)
				}
				slices.SortFunc(c.want, cmpRecord)
				if got := b.importedRecords(t, wallet); !slices.Equal(got, c.want) {
					t.Errorf("imported\n %+v\nwant\n %+v", got, c.want)
				}
				e.Unchanged(b.db, func() {
					if again := b.upload("import", wallet, file).Expect(t, http.StatusOK); num(again["created"]) != 0 {
						t.Fatalf("second import %v", again)
					}
				})
			})
		}

		// A record typed by hand with single spaces is still the bank's
		// line with two: flagged as a duplicate.
		wallet := b.create(t, map[string]any{"klass": "Wallet", "name": "Bradesco again", "currency": "BRL"})
		b.create(t, map[string]any{"klass": "Outgo", "description": "pagto eletron cobranca copel", "value": 18745, "posted_at": "2026-03-05", "wallet_id": wallet})
		if chk := b.check(t, wallet, testdata(t, "bradesco_extrato.csv")); num(chk["duplicates"]) != 1 || num(chk["new"]) != 3 {
			t.Fatalf("check against a typed record %v", chk)
		}

		// An OFX that says UTF-8 and is not is refused, naming why.
		lying := bytes.Replace(testdata(t, "bb_extrato.ofx"), []byte("ENCODING:USASCII"), []byte("ENCODING:UTF-8"), 1)
		e.Unchanged(b.db, func() {
			b.upload("import", b.brl2, lying).ExpectError(t, http.StatusUnprocessableEntity, finance.MsgOFXNotUTF8)
		})
		// The same statement re-encoded as ISO-8859-1 or UTF-8 (as its
		// header then says) reads the same.
		for _, variant := range [][]byte{
			bytes.Replace(testdata(t, "bb_extrato.ofx"), []byte("CHARSET:1252"), []byte("CHARSET:ISO-8859-1"), 1),
			utf8OFX(t, testdata(t, "bb_extrato.ofx")),
		} {
			w := b.create(t, map[string]any{"klass": "Wallet", "name": fmt.Sprintf("OFX %d", len(variant)), "currency": "BRL"})
			b.upload("import", w, variant).Expect(t, http.StatusOK)
			if got := b.importedRecords(t, w); len(got) != 3 || got[1].Description != "Pix - Recebido 02/03 09:14 JOÃO DA CONCEIÇÃO" {
				t.Errorf("variant read as %+v", got)
			}
		}
	})
}

// utf8OFX re-encodes a Windows-1252 OFX 1.x statement as UTF-8, saying so
// in its header.
func utf8OFX(t *testing.T, raw []byte) []byte {
	t.Helper()
	out := make([]rune, 0, len(raw))
	for _, c := range raw {
		out = append(out, rune(c)) // the file's accented letters are all in Latin-1's range
	}
	s := []byte(string(out))
	s = bytes.Replace(s, []byte("ENCODING:USASCII"), []byte("ENCODING:UTF-8"), 1)
	return bytes.Replace(s, []byte("CHARSET:1252"), []byte("CHARSET:NONE"), 1)
}
