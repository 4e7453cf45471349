package finance_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/encoding/charmap"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/finance"
	"github.com/oficina/oficina/shared/mango"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/store"
)

// Sample statements in the shapes banks export.
var (
	// A Brazilian bank: ";"-separated, ISO-8859-1, a preamble line, decimal
	// commas with thousands dots, DD/MM/YYYY with days over 12.
	brazilCSV = latin1("Extrato de conta corrente - Agência 1234\r\n" +
		"Data;Histórico;Valor;Saldo\r\n" +
		"02/03/2026;PIX RECEBIDO João;1.500,00;1.500,00\r\n" +
		"15/03/2026;COMPRA CARTÃO POSTO SHELL;-230,45;1.269,55\r\n" +
		"15/03/2026;SALDO DO DIA;;1.269,55\r\n" +
		"28/03/2026;TARIFA PACOTE SERVIÇOS;-39,90;1.229,65\r\n")
	// A US bank: ",", quoted fields with commas, separate debit and credit
	// columns, MM/DD/YYYY, a payee column.
	usCSV = []byte("Date,Description,Payee,Debit,Credit\n" +
		"03/14/2026,\"Parts, screws and glue\",ACME Supply,\"1,234.50\",\n" +
		"03/15/2026,Repair job #12,Cida Lima,,300.00\n" +
		"03/16/2026,\"=HYPERLINK(\"\"http://evil.example\"\")\",Evil,5.00,\n")
	ofxStatement = []byte(`OFXHEADER:100
DATA:OFXSGML
VERSION:102
SECURITY:NONE
ENCODING:USASCII
CHARSET:1252
COMPRESSION:NONE
OLDFILEUID:NONE
NEWFILEUID:NONE

<OFX>
<SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20260401120000<LANGUAGE>ENG</SONRS></SIGNONMSGSRSV1>
<BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS>
<STMTRS><CURDEF>USD<BANKACCTFROM><BANKID>121000248<ACCTID>123456<ACCTTYPE>CHECKING</BANKACCTFROM>
<BANKTRANLIST><DTSTART>20260301<DTEND>20260331
<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260305<TRNAMT>-42.10<FITID>FIT-001<NAME>HARDWARE STORE</STMTTRN>
<STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20260306<TRNAMT>850.00<FITID>FIT-002<NAME>CUSTOMER PAYMENT<MEMO>Invoice 77</STMTTRN>
</BANKTRANLIST>
<LEDGERBAL><BALAMT>807.90<DTASOF>20260331</LEDGERBAL>
</STMTRS></STMTTRNRS></BANKMSGSRSV1>
</OFX>
`)
)

func latin1(s string) []byte {
	b, err := charmap.ISO8859_1.NewEncoder().Bytes([]byte(s))
	if err != nil {
		panic(err)
	}
	return b
}

func (b *books) check(t *testing.T, wallet string, file []byte, opts ...string) map[string]any {
	t.Helper()
	return b.upload("check", wallet, file, opts...).Expect(t, http.StatusOK)
}

func (b *books) upload(what, wallet string, file []byte, opts ...string) apptest.Response {
	q := url.Values{"wallet_id": {wallet}}
	for i := 0; i+1 < len(opts); i += 2 {
		q.Set(opts[i], opts[i+1])
	}
	path := "/api/" + b.db + "/_finance/import"
	if what == "check" {
		path += "/check"
	}
	return b.ana.Do("POST", path+"?"+q.Encode(), file, "Content-Type", "text/csv")
}

// imported lists the wallet's records that came from imports, by description.
func (b *books) imported(t *testing.T, wallet string) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for _, k := range []string{"Income", "Outgo"} {
		r := b.ana.Do("POST", "/api/"+b.db+"/_find", map[string]any{"selector": map[string]any{"klass": k, "wallet_id": wallet, "imported": true}, "limit": 1000}).Expect(t, http.StatusOK)
		for _, d := range r["docs"].([]any) {
			m := d.(map[string]any)
			out[m["description"].(string)] = m
		}
	}
	return out
}

// TestImportShapes: each real-world shape is detected and imported as
// unconfirmed, imported records that stay out of the balance; importing the
// same file again creates nothing.
func TestImportShapes(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		b := newBooks(t, e)
		usdChecking := b.create(t, map[string]any{"klass": "Wallet", "name": "Checking", "currency": "USD"})
		cases := []struct {
			name    string
			wallet  string
			file    []byte
			options map[string]any
			rows    map[string][2]any // description → klass, value
		}{
			{"a Brazilian export", b.brl2, brazilCSV,
				map[string]any{"encoding": "windows-1252", "delimiter": ";", "decimal": ",", "date_format": "DD/MM/YYYY", "first_line_is_header": true, "skip": float64(1)},
				map[string][2]any{"PIX RECEBIDO João": {"Income", 150000}, "COMPRA CARTÃO POSTO SHELL": {"Outgo", 23045}, "TARIFA PACOTE SERVIÇOS": {"Outgo", 3990}}},
			{"a US export with debit and credit columns", b.usd, usCSV,
				map[string]any{"encoding": "utf-8", "delimiter": ",", "decimal": ".", "date_format": "MM/DD/YYYY", "first_line_is_header": true, "skip": float64(0)},
				map[string][2]any{"Parts, screws and glue": {"Outgo", 123450}, "Repair job #12": {"Income", 30000}, `=HYPERLINK("http://evil.example")`: {"Outgo", 500}}},
			{"an OFX statement", usdChecking, ofxStatement,
				map[string]any{"format": "ofx"},
				map[string][2]any{"HARDWARE STORE": {"Outgo", 4210}, "CUSTOMER PAYMENT": {"Income", 85000}}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				before := b.wallets(t)[c.wallet]
				chk := b.check(t, c.wallet, c.file)
				if chk["problem"] != nil || num(chk["rows"]) != int64(len(c.rows)) || num(chk["new"]) != int64(len(c.rows)) {
					t.Fatalf("check %v", chk)
				}
				opts := chk["options"].(map[string]any)
				for k, v := range c.options {
					if opts[k] != v {
						t.Errorf("detected %s = %v, want %v (%v)", k, opts[k], v, opts)
					}
				}
				res := b.upload("import", c.wallet, c.file).Expect(t, http.StatusOK)
				if num(res["created"]) != int64(len(c.rows)) {
					t.Fatalf("import %v", res)
				}
				got := b.imported(t, c.wallet)
				for desc, want := range c.rows {
					d := got[desc]
					if d == nil || d["klass"] != want[0] || num(d["value"]) != int64(want[1].(int)) || d["confirmed"] != false || d["imported"] != true {
						t.Errorf("%q: got %v, want %v", desc, d, want)
					}
				}
				e.Drain()
				after := b.wallets(t)[c.wallet]
				if fmt.Sprint(after["balance"], after["pending_transactions"]) != fmt.Sprint(before["balance"], before["pending_transactions"]) {
					t.Errorf("imported records moved the wallet: %v → %v", before, after)
				}
				e.Unchanged(b.db, func() {
					again := b.upload("import", c.wallet, c.file).Expect(t, http.StatusOK)
					if num(again["created"]) != 0 || num(again["imported"]) != int64(len(c.rows)) {
						t.Fatalf("second import %v", again)
					}
				})
				if chk := b.check(t, c.wallet, c.file); num(chk["imported"]) != int64(len(c.rows)) {
					t.Fatalf("check after import %v", chk)
				}
			})
		}
		// Confirming an imported record reviews it: it joins the balance.
		fee := b.imported(t, b.brl2)["TARIFA PACOTE SERVIÇOS"]
		before := num(b.wallets(t)[b.brl2]["balance"])
		b.flag("confirm", fee["_id"].(string)).Expect(t, http.StatusOK)
		if d := e.Doc(b.db, fee["_id"].(string)); d["imported"] != false || d["confirmed"] != true {
			t.Fatalf("confirmed import %v", d)
		}
		e.Drain()
		if after := num(b.wallets(t)[b.brl2]["balance"]); after != before-3990 {
			t.Fatalf("balance %d → %d after confirming an imported expense of 39,90", before, after)
		}
		// The Brazilian file's third party and the US file's payee.
		if d := b.imported(t, b.usd)["Repair job #12"]; d["paid_by"] != "Cida Lima" || d["import_line"] == nil {
			t.Errorf("payee not kept: %v", d)
		}
		// An OFX statement overlapping the first (same FITIDs) adds only the new one.
		overlap := bytes.Replace(ofxStatement, []byte("</BANKTRANLIST>"), []byte("<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260320<TRNAMT>-9.99<FITID>FIT-003<NAME>SOFTWARE</STMTTRN>\n</BANKTRANLIST>"), 1)
		if res := b.upload("import", usdChecking, overlap).Expect(t, http.StatusOK); num(res["created"]) != 1 || num(res["imported"]) != 2 {
			t.Fatalf("overlapping OFX %v", res)
		}
	})
}

// TestImportProfileAndDuplicates: the options that read a file are the
// wallet's profile for the next; a row like a record already in the wallet
// is flagged and skipped unless kept; mapping rules run on every row.
func TestImportProfileAndDuplicates(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		b := newBooks(t, e)
		b.create(t, map[string]any{"klass": "Mapping", "description": "Fuel", "target": "outgo", "field_to_watch": "description", "kind_of_watch": "contains",
			"text_to_match": "posto", "kind_of_change": "replace", "field_to_change": "categories", "text_to_change": "combustível, carro", "order": 1})
		b.create(t, map[string]any{"klass": "Mapping", "description": "Prefix", "target": "outgo", "field_to_watch": "description", "kind_of_watch": "starts_with",
			"text_to_match": "compra", "kind_of_change": "prepend", "field_to_change": "description", "text_to_change": "Card:", "order": 2})
		b.create(t, map[string]any{"klass": "Mapping", "description": "Off", "active": false, "target": "outgo", "field_to_watch": "description", "kind_of_watch": "contains",
			"text_to_match": "tarifa", "kind_of_change": "replace", "field_to_change": "description", "text_to_change": "NEVER"})
		// Typed by hand before the statement arrived.
		b.create(t, map[string]any{"klass": "Outgo", "description": "tarifa pacote serviços", "value": 3990, "posted_at": "2026-03-28", "wallet_id": b.brl2})

		chk := b.check(t, b.brl2, brazilCSV)
		if num(chk["duplicates"]) != 1 || num(chk["new"]) != 2 {
			t.Fatalf("check %v", chk)
		}
		var dupLine float64
		for _, p := range chk["preview"].([]any) {
			row := p.(map[string]any)
			switch row["status"] {
			case "duplicate":
				dupLine = row["line"].(float64)
			}
			if strings.Contains(row["description"].(string), "SHELL") {
				if row["description"] != "Card: COMPRA CARTÃO POSTO SHELL" || fmt.Sprint(row["categories"]) != "[combustível carro]" || len(row["rules"].([]any)) != 2 {
					t.Errorf("rules not applied in order: %v", row)
				}
			}
		}
		if dupLine != 6 {
			t.Fatalf("duplicate on line %v", dupLine)
		}
		res := b.upload("import", b.brl2, brazilCSV).Expect(t, http.StatusOK)
		if num(res["created"]) != 2 || num(res["duplicates"]) != 1 {
			t.Fatalf("import %v", res)
		}
		if d := b.imported(t, b.brl2)["Card: COMPRA CARTÃO POSTO SHELL"]; fmt.Sprint(d["categories"]) != "[combustível carro]" {
			t.Fatalf("mapped record %v", d)
		}
		// Kept on request, it is created after all.
		res = b.upload("import", b.brl2, brazilCSV, "keep", fmt.Sprint(dupLine)).Expect(t, http.StatusOK)
		if num(res["created"]) != 1 || num(res["imported"]) != 2 {
			t.Fatalf("keep %v", res)
		}
		// Next month's file, without a preamble line, reads with the profile
		// once the user sets skip=0 — the rest comes from the profile.
		next := latin1("Data;Histórico;Valor;Saldo\r\n03/04/2026;PIX RECEBIDO Maria;80,00;80,00\r\n")
		chk = b.check(t, b.brl2, next)
		if chk["from_profile"] != true || chk["problem"] == nil {
			t.Fatalf("profile not used: %v", chk)
		}
		chk = b.check(t, b.brl2, next, "skip", "0")
		if chk["problem"] != nil || num(chk["rows"]) != 1 {
			t.Fatalf("profile + skip=0: %v", chk)
		}
		if chk = b.check(t, b.brl2, next, "detect", "true"); chk["from_profile"] != false || chk["problem"] != nil {
			t.Fatalf("detect again: %v", chk)
		}
	})
}

// TestImportRefusals: bad files and options get a clear error naming the
// line, and nothing is written.
func TestImportRefusals(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		b := newBooks(t, e)
		header := "Date,Description,Amount\n"
		garbage := make([]byte, 4096)
		for i := range garbage {
			garbage[i] = byte(i * 7)
		}
		cases := []struct {
			name   string
			wallet string
			file   []byte
			opts   []string
			code   int
			reason string
		}{
			{"ragged rows", b.usd, []byte(header + "2026-03-01,Ok,1.00\n2026-03-02,Short\n"), nil, 422, "line 3: 2 fields where the file has 3"},
			{"an unclosed quote", b.usd, []byte(header + "2026-03-01,\"Never closed,1.00\n2026-03-02,x,2.00\n"), nil, 422, "line 2: " + finance.MsgUnclosedQuote},
			{"binary garbage", b.usd, garbage, nil, 422, finance.MsgBinary},
			{"a wrong date format", b.usd, []byte(header + "2026-03-01,Ok,1.00\n"), []string{"date_format", "DD/MM/YYYY"}, 422, "line 2: " + finance.MsgDateFormat},
			{"a date that is not one", b.usd, []byte(header + "2026-03-01,Ok,1.00\n2026-13-45,Bad,2.00\n"), nil, 422, "line 3: " + finance.MsgDateFormat},
			{"a non-numeric amount", b.usd, []byte(header + "2026-03-01,Ok,1.00\n2026-03-02,Bad,twelve\n"), nil, 422, `line 3: "twelve" is not an amount`},
			{"too many decimals", b.usd, []byte(header + "2026-03-01,Ok,1.005\n2026-03-02,Ok,1.25\n"), nil, 422, `line 2: "1.005" has more decimals than the wallet's 2`},
			{"too few headers matched", b.usd, []byte("Foo,Bar,Baz\nx,y,z\n"), nil, 422, finance.MsgHeaders},
			{"another Group's wallet", b.zedWallet, []byte(header + "2026-03-01,Ok,1.00\n"), nil, 422, ""},
			{"an empty file", b.usd, nil, nil, 422, finance.MsgEmptyStatement},
			{"an unknown delimiter", b.usd, []byte(header + "2026-03-01,Ok,1.00\n"), []string{"delimiter", "x"}, 422, ""},
			{"an OFX in another currency", b.brl, ofxStatement, nil, 422, "The statement is in USD and the wallet in BRL"},
			{"a 50 MB file", b.usd, bytes.Repeat([]byte("2026-03-01,Coffee,1.00\n"), 50<<20/23), nil, 413, "larger than 10 MB"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				e.Unchanged(b.db, func() {
					b.upload("import", c.wallet, c.file, c.opts...).ExpectError(t, c.code, c.reason)
				})
				if c.code == 422 && c.wallet != b.zedWallet && c.reason != finance.MsgBinary && c.reason != finance.MsgEmptyStatement && !strings.Contains(c.name, "delimiter") && !strings.Contains(c.name, "OFX") {
					// The live check reports the same problem with the options it used.
					chk := b.check(t, c.wallet, c.file, c.opts...)
					p, _ := chk["problem"].(map[string]any)
					if p == nil || !strings.Contains(p["reason"].(string), c.reason) {
						t.Fatalf("check problem %v, want %q", chk["problem"], c.reason)
					}
				}
			})
		}
		// Zed cannot import into Ana's Group, nor check against its wallets.
		e.Unchanged(b.db, func() {
			b.zed.Do("POST", "/api/"+b.db+"/_finance/import?wallet_id="+b.usd, []byte(header+"2026-03-01,Ok,1.00\n")).ExpectError(t, http.StatusForbidden, "")
		})
	})
}

// TestMappingPreview: a draft rule shows what it would change on the last
// imported records, writing nothing; a bad draft gets field errors.
func TestMappingPreview(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		b := newBooks(t, e)
		b.upload("import", b.brl2, brazilCSV).Expect(t, http.StatusOK)
		draft := map[string]any{"target": "outgo", "field_to_watch": "description", "kind_of_watch": "contains", "text_to_match": "shell",
			"kind_of_change": "append", "field_to_change": "description", "text_to_change": "(fuel)"}
		var r map[string]any
		e.Unchanged(b.db, func() {
			r = b.ana.Do("POST", "/api/"+b.db+"/_finance/mappings/preview", map[string]any{"mapping": draft}).Expect(t, http.StatusOK)
		})
		rows := r["rows"].([]any)
		matched := 0
		for _, x := range rows {
			row := x.(map[string]any)
			if row["matched"] == true {
				matched++
				if row["after"] != "COMPRA CARTÃO POSTO SHELL (fuel)" || row["before"] != "COMPRA CARTÃO POSTO SHELL" {
					t.Errorf("preview row %v", row)
				}
			}
		}
		if len(rows) != 2 || matched != 1 {
			t.Fatalf("preview %v", r)
		}
		draft["kind_of_watch"] = "sounds_like"
		b.ana.Do("POST", "/api/"+b.db+"/_finance/mappings/preview", map[string]any{"mapping": draft}).ExpectFields(t, "kind_of_watch", "not in allowed list")
		b.ana.Do("POST", "/api/"+b.db+"/_finance/mappings/preview", "{not json").ExpectError(t, http.StatusBadRequest, "")
	})
}

// TestImportDuplicatesAcrossKeys: money records are keyed by posted_at in
// their klass index (their list pages open newest first); the import's
// duplicate check reads a date's records with one prefix read and keeps
// the wallet's. A record written before the klasses were keyed so (its key
// wallet_id|posted_at|created_at, moved by the daily re-key) is still
// found; a record of another wallet on the same date is not a duplicate.
func TestImportDuplicatesAcrossKeys(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ctx := context.Background()
		b := newBooks(t, e)
		typed := b.create(t, map[string]any{"klass": "Outgo", "description": "tarifa pacote serviços", "value": 3990, "posted_at": "2026-03-28", "wallet_id": b.brl2})
		b.create(t, map[string]any{"klass": "Outgo", "description": "COMPRA CARTÃO POSTO SHELL", "value": 23045, "posted_at": "2026-03-15", "wallet_id": b.brl})
		e.Drain()
		d, err := e.Store.Get(ctx, b.db, typed)
		if err != nil {
			t.Fatal(err)
		}
		if !mango.IsOrderKey(d.SortKey) || d.SortKey != mango.OrderKey("2026-03-28", true) {
			t.Fatalf("an Outgo keyed %q, want its posted_at's order key", d.SortKey)
		}
		var body map[string]any
		if err := json.Unmarshal(d.Body, &body); err != nil {
			t.Fatal(err)
		}
		old := b.brl2 + "|2026-03-28|" + body["created_at"].(string)
		if err := e.Store.(store.Resorter).Resort(ctx, b.db, typed, d.Rev, old); err != nil {
			t.Fatal(err)
		}
		check := func(when string) {
			t.Helper()
			chk := b.check(t, b.brl2, brazilCSV)
			if num(chk["duplicates"]) != 1 || num(chk["new"]) != 2 {
				t.Fatalf("%s: check %v, want the typed fee as the one duplicate", when, chk)
			}
		}
		check("keyed as before")
		if err := e.App.RunJob(ctx, module.JobRekey, e.Clock.Now()); err != nil {
			t.Fatal(err)
		}
		if d, err := e.Store.Get(ctx, b.db, typed); err != nil || d.SortKey != mango.OrderKey("2026-03-28", true) {
			t.Fatalf("after the re-key: %q (%v)", d.SortKey, err)
		}
		check("re-keyed")

		// The list page reads the index newest first.
		for i := range 30 {
			b.create(t, map[string]any{"klass": "Outgo", "description": fmt.Sprint("compra ", i), "value": 100 + i, "posted_at": fmt.Sprintf("2026-%02d-%02d", 1+i%12, 1+i%28), "wallet_id": b.brl})
		}
		res := b.ana.Do("POST", "/api/"+b.db+"/_find", map[string]any{"selector": map[string]any{"klass": "Outgo"}, "sort": []any{map[string]any{"posted_at": "desc"}}, "limit": 10}).Expect(t, http.StatusOK)
		var dates []string
		for _, d := range res["docs"].([]any) {
			dates = append(dates, d.(map[string]any)["posted_at"].(string))
		}
		if len(dates) != 10 || dates[0] != "2026-12-24" || !slices.IsSortedFunc(dates, func(a, b string) int { return strings.Compare(b, a) }) {
			t.Fatalf("first page newest first: %v", dates)
		}
	})
}
