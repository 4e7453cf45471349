package mango

import "strings"

// A klass index keyed by a field (a customer's name, a wallet's name)
// serves a query sorted by that field when the byte order of its keys is
// this package's sort order of the field's values, ties broken by _id (the
// stores append the id to the key). OrderKey makes such keys:
//
//	missing  "\x02"
//	null     "\x03"
//	string   "\x07" + the string, bytes 0x00–0x02 escaped as 0x02 and the
//	         byte plus one, then "\x01" (lower than any byte of a string, so
//	         "Ana" sorts before "Ana B" as Collate has it)
//
// Booleans, numbers, arrays, objects and strings too long for a DynamoDB
// sort key get unorderedKey: it sorts after every ordered key, and a
// reader that finds it in the index (IsOrderKey false) must not trust the
// index's order. Keys written before a klass was keyed this way (dates)
// are not order keys either, and sort after them too.
const (
	orderMissing = "\x02"
	orderNull    = "\x03"
	orderString  = "\x07"
	orderEnd     = "\x01"
	orderEscape  = 0x02
	unorderedKey = "~"
	// maxOrderKey leaves room for "#" and a document id under DynamoDB's
	// 1,024-byte limit on a sort key.
	maxOrderKey = 900
)

// OrderKey is the index key of a field's value v (present false: the
// document lacks the field).
func OrderKey(v any, present bool) string {
	if !present {
		return orderMissing
	}
	switch t := v.(type) {
	case nil:
		return orderNull
	case string:
		if len(t) > maxOrderKey-2 {
			return unorderedKey
		}
		var b strings.Builder
		b.Grow(len(t) + 2)
		b.WriteString(orderString)
		for i := 0; i < len(t); i++ {
			if c := t[i]; c <= orderEscape {
				b.WriteByte(orderEscape)
				b.WriteByte(c + 1)
				continue
			}
			b.WriteByte(t[i])
		}
		b.WriteString(orderEnd)
		if b.Len() > maxOrderKey {
			return unorderedKey
		}
		return b.String()
	}
	return unorderedKey
}

// IsOrderKey tells a key OrderKey made for a value it can order from any
// other key (unorderedKey, or a key of another shape written before).
func IsOrderKey(k string) bool { return k != "" && k[0] < 0x10 }
