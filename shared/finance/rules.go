package finance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"golang.org/x/text/currency"

	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/stream"
)

// Messages of refusals (the catalogue's where it has one, SPEC.md §8).
const (
	MsgSameWallet      = "must be another wallet than the source"
	MsgNeedsTransfer   = "has the source wallet's currency: create a transfer"
	MsgNeedsExchange   = "has another currency than the source wallet: create an exchange"
	MsgRecordImported  = "Record is imported"
	MsgRecordNotImport = "Record is not imported"
)

// MsgAlreadyConfirmed is "Expense is already confirmed" and its kin.
func MsgAlreadyConfirmed(klass string) string { return catalogueName[klass] + " is already confirmed" }

// MsgAlreadyUnconfirmed is "Expense is already unconfirmed" and its kin.
func MsgAlreadyUnconfirmed(klass string) string {
	return catalogueName[klass] + " is already unconfirmed"
}

// MsgDeleteConfirmed is "You cannot delete a confirmed Expense" and its kin.
func MsgDeleteConfirmed(klass string) string {
	return "You cannot delete a confirmed " + catalogueName[klass]
}

// moneyRule keeps a confirmed record from being deleted, checks the wallets
// a transfer or exchange joins, and copies the wallet's currency onto the
// record.
func (m *Module) moneyRule(ctx context.Context, w *docs.Write) error {
	if w.Deleting {
		if confirmed, _ := w.Old["confirmed"].(bool); confirmed {
			return fault.New(fault.Unprocessable, MsgDeleteConfirmed(w.Klass))
		}
		return nil
	}
	n := w.New
	switch w.Klass {
	case KlassIncome, KlassOutgo:
		wl, err := m.wallet(ctx, w.DB, str(n["wallet_id"]))
		if err != nil || wl == nil {
			return err // the schema refused a missing wallet already
		}
		n["currency"] = wl["currency"]
	case KlassTransfer, KlassExchange:
		src, dst := str(n["source_wallet_id"]), str(n["destination_wallet_id"])
		if src == dst {
			return invalid("destination_wallet_id", MsgSameWallet)
		}
		a, err := m.wallet(ctx, w.DB, src)
		if err != nil {
			return err
		}
		b, err := m.wallet(ctx, w.DB, dst)
		if err != nil || a == nil || b == nil {
			return err
		}
		same := str(a["currency"]) == str(b["currency"])
		if w.Klass == KlassTransfer && !same {
			return invalid("destination_wallet_id", MsgNeedsExchange)
		}
		if w.Klass == KlassExchange && same {
			return invalid("destination_wallet_id", MsgNeedsTransfer)
		}
		n["currency"] = a["currency"]
	}
	return nil
}

// stateEvents names confirming, unconfirming and importing in the timeline.
func stateEvents(old, new stream.Fields) []string {
	if old == nil {
		return nil
	}
	var out []string
	switch was, is := old.Bool("confirmed"), new.Bool("confirmed"); {
	case is && !was:
		out = append(out, stream.EventConfirm)
	case was && !is:
		out = append(out, stream.EventUnconfirm)
	}
	if new.Bool("imported") && !old.Bool("imported") {
		out = append(out, "import")
	}
	return out
}

// flag is the confirm, unconfirm, import and unimport update handlers: the
// record's state changes, or the catalogue's message says it is there
// already. Confirming an imported record also marks it reviewed (imported
// false), so a statement's rows reach the balance as they are confirmed.
func (m *Module) flag(fn string) func(ctx context.Context, c module.UpdateCall) (module.UpdateResult, error) {
	field, want := "confirmed", true
	switch fn {
	case "unconfirm":
		want = false
	case "import":
		field = "imported"
	case "unimport":
		field, want = "imported", false
	}
	return func(ctx context.Context, c module.UpdateCall) (module.UpdateResult, error) {
		d, err := m.deps.Store.Get(ctx, c.DB, c.DocID)
		if err != nil {
			if errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrDeleted) {
				return module.UpdateResult{}, fault.New(fault.NotFound, "missing")
			}
			return module.UpdateResult{}, fmt.Errorf("finance: read %s: %w", c.DocID, err)
		}
		body, err := docs.Decode(d.Body)
		if err != nil {
			return module.UpdateResult{}, err
		}
		klass := str(body["klass"])
		if _, ok := catalogueName[klass]; !ok {
			return module.UpdateResult{}, fault.New(fault.NotFound, "missing")
		}
		if is, _ := body[field].(bool); is == want {
			return module.UpdateResult{}, fault.New(fault.Unprocessable, already(fn, klass))
		}
		body[field] = want
		if fn == "confirm" {
			body["imported"] = false // confirming an imported record is reviewing it: it joins the balance
		}
		saved, err := m.deps.Docs.Save(ctx, c.Principal, c.DB, c.DocID, d.Rev, body)
		return module.UpdateResult{Doc: saved}, err
	}
}

func already(fn, klass string) string {
	switch fn {
	case "confirm":
		return MsgAlreadyConfirmed(klass)
	case "unconfirm":
		return MsgAlreadyUnconfirmed(klass)
	case "import":
		return MsgRecordImported
	}
	return MsgRecordNotImport
}

// WalletBalance is a wallet's figures, in its minor units.
type WalletBalance struct {
	Currency            string `json:"currency"`
	Balance             int64  `json:"balance"`
	PendingTransactions int64  `json:"pending_transactions"`
	BalanceAfterPending int64  `json:"balance_after_pending"`
	AvailableCredit     *int64 `json:"available_credit,omitempty"`
	Precision           int    `json:"precision"`
}

// balances computes every wallet's figures from the tallies and the wallets
// themselves (their opening balance, currency and card limit): one read of
// the counts and one of the wallets, however many records there are.
func (m *Module) balances(ctx context.Context, st store.Store, db string, counts stream.Counts) (map[string]WalletBalance, error) {
	moved, pending := counts.Tally(TallyBalance), counts.Tally(TallyPending)
	out := map[string]WalletBalance{}
	q := store.ListQuery{Klass: KlassWallet, Limit: 500}
	for {
		page, err := st.List(ctx, db, q)
		if err != nil {
			return nil, fmt.Errorf("finance: list wallets: %w", err)
		}
		for _, d := range page.Docs {
			var wl struct {
				Currency     string      `json:"currency"`
				StartBalance json.Number `json:"start_balance"`
				Card         bool        `json:"card"`
				CardLimit    json.Number `json:"card_limit"`
				Precision    *int        `json:"precision"`
			}
			if err := json.Unmarshal(d.Body, &wl); err != nil {
				return nil, fmt.Errorf("finance: decode wallet %s: %w", d.ID, err)
			}
			start, _ := wl.StartBalance.Int64()
			prec := 2
			if wl.Precision != nil {
				prec = *wl.Precision
			}
			b := WalletBalance{Currency: wl.Currency, Balance: start + moved[d.ID], PendingTransactions: pending[d.ID], Precision: prec}
			b.BalanceAfterPending = b.Balance + b.PendingTransactions
			if wl.Card {
				limit, _ := wl.CardLimit.Int64()
				credit := limit + b.BalanceAfterPending
				b.AvailableCredit = &credit
			}
			out[d.ID] = b
		}
		if page.Next == "" {
			return out, nil
		}
		q.After = page.Next
	}
}

func (m *Module) byWallet(ctx context.Context, c module.ViewCall, counts stream.Counts) ([]module.ViewRow, error) {
	all, err := m.balances(ctx, c.Store, c.DB, counts)
	if err != nil {
		return nil, err
	}
	rows := make([]module.ViewRow, 0, len(all))
	for id, b := range all {
		rows = append(rows, module.ViewRow{Key: id, Value: b})
	}
	return rows, nil
}

func (m *Module) byCurrency(ctx context.Context, c module.ViewCall, counts stream.Counts) ([]module.ViewRow, error) {
	all, err := m.balances(ctx, c.Store, c.DB, counts)
	if err != nil {
		return nil, err
	}
	sums := map[string]int64{}
	for _, b := range all {
		sums[b.Currency] += ToStandard(b.Balance, b.Precision, b.Currency)
	}
	return module.TallyRows(sums), nil
}

// ToStandard rescales minor units at a wallet's precision to the
// currency's ISO 4217 minor units (2 for BRL and USD, 0 for JPY), so wallets
// of one currency kept at different precisions add up; the SPA divides by
// the same digits. Rounding is half away from zero.
func ToStandard(units int64, precision int, code string) int64 {
	scale := 2
	if u, err := currency.ParseISO(code); err == nil {
		scale, _ = currency.Standard.Rounding(u)
	}
	for ; precision < scale; precision++ {
		units *= 10
	}
	for ; precision > scale; precision-- {
		if units < 0 {
			units = (units - 5) / 10
		} else {
			units = (units + 5) / 10
		}
	}
	return units
}
