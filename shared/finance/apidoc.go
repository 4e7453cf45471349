package finance

import "github.com/oficina/oficina/shared/module"

// APIDocs implements module.Documented.
func (m *Module) APIDocs() module.Docs {
	wallet := module.ExampleID("wll")
	statement := module.File{Type: "application/octet-stream", About: "the bank statement: OFX, or CSV in any of the supported layouts (at most 10 MB)", Name: "statement.ofx"}
	importQuery := []module.Param{
		{Name: "wallet_id", About: "the wallet the records go to", Example: wallet, Required: true},
		{Name: "detect", About: "true: detect the CSV layout again instead of the wallet's saved profile"},
		{Name: "encoding", About: "utf-8 or windows-1252"},
		{Name: "delimiter", About: ", ; | or tab"},
		{Name: "decimal", About: ", or ."},
		{Name: "date_format", About: "e.g. dd/mm/yyyy"},
		{Name: "first_line_is_header", About: "true or false"},
		{Name: "skip", About: "preamble lines before the header (0–100)"},
		{Name: "most_items_are", About: "income or outgo: the sign of a single value column"},
		{Name: "col_date", About: "a column number (also col_description, col_value, col_debit, col_credit, col_third_party, col_categories; -1: none)"},
	}
	row := Row{Line: 2, Klass: KlassOutgo, PostedAt: "2026-05-02", Description: "Posto Shell", Value: 25000}
	flagDoc := func(summary string) module.Doc {
		return module.Doc{Summary: summary, Answer: module.UpdateAnswer(module.ExampleID("inc"), nil)}
	}
	counts := []module.Param{{Name: "group_level", About: "1: a row per key (0: the total)", Example: "1"}}
	return module.Docs{
		"POST /api/{db}/_finance/import/check": {
			Summary: "Reads a statement without writing: the options it was read with, totals, new and duplicate rows, a preview",
			Notes:   "The first line the options cannot read comes back in problem, for the screen's live check.",
			Query:   importQuery, Body: statement,
			Answer: CheckResult{Options: Options{Format: "csv", Encoding: EncUTF8, Delimiter: ";", Decimal: ",", DateFormat: "dd/mm/yyyy", Header: true, MostItems: MostOutgo, Columns: Columns{0, 1, 2, -1, -1, -1, -1}},
				Headers: []string{"Data", "Histórico", "Valor"}, Currency: "BRL", Precision: 2, Rows: 31, Incomes: 3, Outgos: 28,
				IncomeTotal: 540000, OutgoTotal: 312050, New: 30, Duplicates: 1, Preview: []PreviewRow{{Row: row, Status: "new", Rules: []string{}}}},
		},
		"POST /api/{db}/_finance/import": {
			Summary: "Imports a statement into a wallet: each row a record through the write path, duplicates (same bank id or same line) skipped",
			Query:   append(importQuery, module.Param{Name: "keep", About: "line numbers to import although they look like duplicates (3,9)"}),
			Body:    statement,
			Answer:  ImportResult{OK: true, Rows: 31, Created: 30, Duplicates: 1},
		},
		"POST /api/{db}/_finance/mappings/preview": {
			Summary: "Runs a draft mapping rule on the last imported records, newest first; nothing is written",
			Body: mappingPreviewRequest{Limit: 20, Mapping: Mapping{Target: "outgo", FieldToWatch: "description", KindOfWatch: "contains", TextToMatch: "posto",
				KindOfChange: "replace", FieldToChnge: "categories", TextToChange: "fuel"}},
			Answer: map[string]any{"rows": []previewRow{{ID: "bank-0042", Klass: KlassOutgo, PostedAt: "2026-05-02", Description: "Posto Shell", Categories: []string{"fuel"}, Matched: true, After: "fuel"}}},
		},
		"PUT /api/{db}/_design/money/_update/confirm/{docid}":   flagDoc("Confirms a money record (an income, outgo, transfer or exchange): it counts in the balance"),
		"PUT /api/{db}/_design/money/_update/unconfirm/{docid}": flagDoc("Unconfirms a money record: it is pending again"),
		"PUT /api/{db}/_design/money/_update/import/{docid}":    flagDoc("Marks a money record as imported (to be reviewed)"),
		"PUT /api/{db}/_design/money/_update/unimport/{docid}":  flagDoc("Marks an imported money record as reviewed"),
		"GET /api/{db}/_design/wallet-balances/_view/by-currency": {
			Summary: "The confirmed balance per currency, in the currency's minor units (kept by the change stream)",
			Query:   counts,
			Answer:  map[string]any{"rows": []module.ViewRow{{Key: "BRL", Value: 1523050}}},
		},
		"GET /api/{db}/_design/wallet-balances/_view/by-wallet": {
			Summary: "Each wallet's balance, pending transactions and available credit, in the wallet's precision",
			Query:   counts,
			Answer: map[string]any{"rows": []module.ViewRow{{Key: wallet, Value: WalletBalance{Currency: "BRL", Balance: 1523050, PendingTransactions: -25000,
				BalanceAfterPending: 1498050, Precision: 2}}}},
		},
	}
}
