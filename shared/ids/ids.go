// Package ids knows the spec's document id format, "<prefix>-<32 hex>", and
// the prefix → klass table (SPEC.md section 3).
package ids

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"time"
)

// klassByPrefix is the spec's prefix table.
var klassByPrefix = map[string]string{
	"acc": "Account", "adr": "Address", "adj": "Adjustment", "cmt": "Comment",
	"cni": "ContractItem", "cnt": "Contract", "crs": "Crystal", "ctg": "Category",
	"cus": "Customer", "eqi": "Equipment", "est": "Estimate", "exc": "Exchange",
	"fle": "CloudFile", "han": "Handbook", "inc": "Income", "mai": "Maintenance",
	"map": "Mapping", "mem": "Membership", "out": "Outgo", "pho": "Phone",
	"ppr": "PlanPrice", "rit": "ReaderItem", "rlb": "ReaderLabel", "rsb": "ReaderSubscription",
	"tch": "TicketChecklist", "tik": "Ticket", "trn": "Transfer", "tok": "UserToken",
	"usr": "User", "ver": "DocumentChange", "wbl": "WalletBalance", "wll": "Wallet",
	// Counter documents are written by the change stream (SPEC.md §3 Counter).
	"cnr": "Counter",
	// A wallet's CSV import profile (SPEC.md §3 "CSV import"; the table names
	// no prefix for it).
	"csv": "CSV",
	// The links app's bookmarks (SPEC.md §1 "A links/bookmarks app"; the
	// table names no prefix for them).
	"bkm": "Bookmark",
}

// New returns a fresh id with prefix: "<prefix>-" and 32 hex digits, the
// creation time in Unix milliseconds (12 digits) then 80 random bits.
// Ids made one after another sort one after another, so the stores add a
// burst of new documents at the end of their key order: the embedded
// store fills its pages instead of splitting them at random places (a
// commit touches fewer pages, the file holds fewer half-empty ones). The
// time says no more than the document's created_at does.
func New(prefix string) string { return newAt(prefix, time.Now()) }

func newAt(prefix string, t time.Time) string {
	var b [16]byte
	ms := uint64(t.UnixMilli())
	for i := range 6 {
		b[i] = byte(ms >> (40 - 8*i))
	}
	if _, err := rand.Read(b[6:]); err != nil {
		panic("ids: crypto/rand failed: " + err.Error()) // never happens on supported platforms
	}
	return prefix + "-" + hex.EncodeToString(b[:])
}

// Parse splits a well-formed id into its prefix and reports whether the
// prefix is known and the rest is exactly 32 lowercase hex digits.
func Parse(id string) (prefix string, ok bool) {
	prefix, rest, found := strings.Cut(id, "-")
	if !found || len(rest) != 32 || !isLowerHex(rest) {
		return "", false
	}
	if _, known := klassByPrefix[prefix]; !known {
		return "", false
	}
	return prefix, true
}

// Klass returns the klass of a well-formed id, or "" if it is not one.
func Klass(id string) string {
	p, ok := Parse(id)
	if !ok {
		return ""
	}
	return klassByPrefix[p]
}

// PrefixOf returns the id prefix of klass, or "" for an unknown klass.
func PrefixOf(klass string) string {
	for p, k := range klassByPrefix {
		if k == klass {
			return p
		}
	}
	return ""
}

// IsKlass reports whether name is a klass of the table.
func IsKlass(name string) bool { return PrefixOf(name) != "" }

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// System database names (DESIGN.md §3).
const (
	UsersDB    = "_users"
	AccountsDB = "accounts"
	PricesDB   = "prices"
)

// ValidDBName reports whether db is one of the database names the product
// uses: the system dbs, a user's personal "usr-<id>" or a Group's "acc-<id>".
func ValidDBName(db string) bool {
	switch db {
	case UsersDB, AccountsDB, PricesDB:
		return true
	}
	p, ok := Parse(db)
	return ok && (p == "usr" || p == "acc")
}
