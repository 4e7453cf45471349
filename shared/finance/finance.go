// Package finance is organize3 (SPEC.md §1): wallets in several currencies
// and the money records that move them — incomes, expenses (Outgo),
// transfers between wallets of one currency and exchanges between wallets
// of two. Money is integer minor units at the wallet's precision, never a
// float. Balances are tallies the change stream keeps exact (replays,
// reorderings, deletes and restores included), read in O(wallets), never
// by summing records.
package finance

import (
	"context"
	"errors"
	"fmt"

	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/schema"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/stream"
)

// Klasses of the finance module.
const (
	KlassWallet   = "Wallet"
	KlassIncome   = "Income"
	KlassOutgo    = "Outgo"
	KlassTransfer = "Transfer"
	KlassExchange = "Exchange"
)

// MoneyKlasses are the records that move wallets.
var MoneyKlasses = []string{KlassIncome, KlassOutgo, KlassTransfer, KlassExchange}

// Tallies the change stream keeps, by wallet id: what confirmed records
// moved (the balance beyond the opening one) and what unconfirmed ones
// would move (pending). Imported records count in neither until reviewed.
const (
	TallyBalance = "finance.balance"
	TallyPending = "finance.pending"
)

// Names of the klasses in the catalogue's messages (SPEC.md §8).
var catalogueName = map[string]string{KlassIncome: "Revenue", KlassOutgo: "Expense", KlassTransfer: "Transfer", KlassExchange: "Exchange"}

var (
	zero     = schema.Int64(0)
	maxMoney = schema.Int64(1_000_000_000_000_00) // a trillion in minor units, inside float64's exact range
	feeKinds = []string{"source", "destination"}
)

func money(name string) schema.Field {
	return schema.Field{Name: name, Type: schema.Money, Min: zero, MaxValue: maxMoney}
}

// moneyRecord is what incomes, expenses, transfers and exchanges share.
func moneyRecord(extra ...schema.Field) []schema.Field {
	return append([]schema.Field{
		{Name: "description", Type: schema.String, Required: true},
		{Name: "posted_at", Type: schema.Date},
		{Name: "confirmed", Type: schema.Bool, Default: false},
		{Name: "imported", Type: schema.Bool, Default: false},
		{Name: "categories", Type: schema.Tags},
		// Where an imported record came from (the file's hash and line).
		{Name: "import_file", Type: schema.String, Max: 64},
		{Name: "import_line", Type: schema.Int, Min: zero},
		// The wallet's currency, kept by the server for the views.
		{Name: "currency", Type: schema.String, ReadOnly: true},
	}, extra...)
}

var schemas = []schema.Klass{
	{Name: KlassWallet, Fields: []schema.Field{
		{Name: "name", Type: schema.String, Required: true, Max: 100},
		{Name: "label", Type: schema.String, Max: 100},
		{Name: "active", Type: schema.Bool, Default: true},
		{Name: "card", Type: schema.Bool, Default: false},
		{Name: "currency", Type: schema.Currency, Required: true},
		{Name: "precision", Type: schema.Int, Min: zero, MaxValue: schema.Int64(4), Default: 2},
		{Name: "start_balance", Type: schema.Money, Default: 0}, // may be negative: an account opened overdrawn
		money("card_limit"),
	}},
	{Name: KlassIncome, Fields: moneyRecord(
		money("value"),
		schema.Field{Name: "paid_by", Type: schema.String},
		schema.Field{Name: "wallet_id", Type: schema.Ref, Ref: KlassWallet, Required: true},
	)},
	{Name: KlassOutgo, Fields: moneyRecord(
		money("value"),
		schema.Field{Name: "paid_to", Type: schema.String},
		schema.Field{Name: "wallet_id", Type: schema.Ref, Ref: KlassWallet, Required: true},
	)},
	{Name: KlassTransfer, Fields: moneyRecord(
		money("value"),
		money("fee"),
		schema.Field{Name: "fee_kind", Type: schema.Enum, Enum: feeKinds, Default: "source"},
		schema.Field{Name: "source_wallet_id", Type: schema.Ref, Ref: KlassWallet, Required: true},
		schema.Field{Name: "destination_wallet_id", Type: schema.Ref, Ref: KlassWallet, Required: true},
	)},
	{Name: KlassExchange, Fields: moneyRecord(
		money("value_in"),
		money("value_out"),
		money("fee"),
		schema.Field{Name: "fee_kind", Type: schema.Enum, Enum: feeKinds, Default: "source"},
		schema.Field{Name: "paid_to", Type: schema.String},
		schema.Field{Name: "source_wallet_id", Type: schema.Ref, Ref: KlassWallet, Required: true},
		schema.Field{Name: "destination_wallet_id", Type: schema.Ref, Ref: KlassWallet, Required: true},
	)},
	mappingSchema,
	{Name: KlassCSV, Fields: []schema.Field{
		{Name: "wallet", Type: schema.Ref, Ref: KlassWallet, Required: true},
		{Name: "encoding", Type: schema.Enum, Enum: []string{EncUTF8, EncWin1252}},
		{Name: "decimal", Type: schema.Enum, Enum: []string{",", "."}},
		{Name: "date_format", Type: schema.String, Max: 20},
		{Name: "most_items_are", Type: schema.Enum, Enum: []string{MostIncome, MostOutgo}},
		{Name: "first_line_is_header", Type: schema.Bool},
		{Name: "ignore_line_one", Type: schema.Bool},
		{Name: "skip", Type: schema.Int, Min: zero, MaxValue: schema.Int64(100)},
		{Name: "columns", Type: schema.Object},
		{Name: "headers", Type: schema.List},
	}},
}

// Module is finance on the module seam.
type Module struct {
	deps module.Deps
}

// New builds the module.
func New(d module.Deps) *Module { return &Module{deps: d} }

// Name implements module.Module.
func (m *Module) Name() string { return "finance" }

// Register implements module.Module.
//
//	PUT /api/{db}/_design/money/_update/{confirm|unconfirm|import|unimport}/{id}  → 200 {ok,id,rev}
//	GET /api/{db}/_design/wallet-balances/_view/by-currency?group_level=1          → rows {key: currency, value: minor units}
//	GET /api/{db}/_design/wallet-balances/_view/by-wallet?group_level=1            → rows {key: wallet id, value: {balance,…}}
//	POST /api/{db}/_finance/import/check?wallet_id=…&<options>  (body: the file)    → 200 CheckResult
//	POST /api/{db}/_finance/import?wallet_id=…&<options>[&keep=lines] (the file)    → 200 ImportResult
//	POST /api/{db}/_finance/mappings/preview {mapping, limit}                       → 200 {rows:[{…,matched,before,after}]}
func (m *Module) Register(r *module.Registry) error {
	m.RegisterWrites(r)
	r.Route(module.Route{Pattern: "POST /api/{db}/_finance/import/check", Access: module.AccessRead, MaxBody: MaxImportBytes, Handle: m.checkImport})
	r.Route(module.Route{Pattern: "POST /api/{db}/_finance/import", Access: module.AccessWrite, MaxBody: MaxImportBytes, Handle: m.runImport})
	r.Route(module.Route{Pattern: "POST /api/{db}/_finance/mappings/preview", Access: module.AccessRead, Handle: m.previewMapping})
	for _, fn := range []string{"confirm", "unconfirm", "import", "unimport"} {
		r.Update(module.Update{DDoc: "money", Fn: fn, WithID: true, Klass: KlassIncome, Handle: m.flag(fn)})
	}
	r.View(module.CountsView("wallet-balances", "by-currency", m.byCurrency))
	r.View(module.CountsView("wallet-balances", "by-wallet", m.byWallet))
	return nil
}

// RegisterWrites implements module.WritePath: the schemas and rules of the
// money klasses, their timeline events and the balance tallies.
func (m *Module) RegisterWrites(r *module.Registry) {
	r.Schema(schemas...)
	r.Labels(labels...)
	r.NotRecords(KlassCSV)
	r.IndexBy(KlassWallet, "name") // its index page and pickers sort by it
	for _, k := range MoneyKlasses {
		// Their index pages open newest first by date; the import finds a
		// date's records with one prefix read (deduper.onDate).
		r.IndexBy(k, "posted_at")
		r.Rule(k, m.moneyRule)
		r.Events(k, stateEvents)
	}
	r.Tally(stream.Tally{Name: TallyBalance, Klasses: MoneyKlasses, Of: func(f stream.Fields) map[string]int64 {
		if !f.Bool("confirmed") || f.Bool("imported") {
			return nil
		}
		return Moves(f)
	}})
	r.Tally(stream.Tally{Name: TallyPending, Klasses: MoneyKlasses, Of: func(f stream.Fields) map[string]int64 {
		if f.Bool("confirmed") || f.Bool("imported") {
			return nil
		}
		return Moves(f)
	}})
}

// Moves is what a money record does to each wallet it names, in minor
// units: an income adds its value, an expense takes it; a transfer takes
// value (and the fee when the source pays it) from the source and gives
// value (less the fee when the destination pays it) to the destination; an
// exchange takes value_out from the source and gives value_in to the
// destination, the fee on the side fee_kind names.
func Moves(f stream.Fields) map[string]int64 {
	out := map[string]int64{}
	fee := f.Int("fee")
	onSource := f.Str("fee_kind") != "destination"
	switch f.Str("klass") {
	case KlassIncome:
		out[f.Str("wallet_id")] += f.Int("value")
	case KlassOutgo:
		out[f.Str("wallet_id")] -= f.Int("value")
	case KlassTransfer, KlassExchange:
		give, take := f.Int("value"), f.Int("value")
		if f.Str("klass") == KlassExchange {
			give, take = f.Int("value_in"), f.Int("value_out")
		}
		if onSource {
			take += fee
		} else {
			give -= fee
		}
		out[f.Str("source_wallet_id")] -= take
		out[f.Str("destination_wallet_id")] += give
	}
	delete(out, "")
	return out
}

func str(v any) string { s, _ := v.(string); return s }

func invalid(field, msg string) error { return fault.Invalid(map[string][]string{field: {msg}}) }

// wallet reads a live wallet of db (nil when there is none).
func (m *Module) wallet(ctx context.Context, db, id string) (map[string]any, error) {
	d, err := m.deps.Store.Get(ctx, db, id)
	if errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrDeleted) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("finance: read wallet %s/%s: %w", db, id, err)
	}
	body, err := docs.Decode(d.Body)
	if err != nil || str(body["klass"]) != KlassWallet {
		return nil, err
	}
	return body, nil
}
