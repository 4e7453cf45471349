package mango

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"hash/fnv"
)

// A bookmark is the position of the last row returned: its sort key and
// _id, plus a fingerprint of the sort so it cannot be replayed against a
// different order. Continuing from a position rather than an offset means
// documents inserted or deleted before it do not shift later pages (CouchDB
// does the same with startkey + startkey_docid).
//
// Encoding: base64url (no padding) of the JSON array
// [1, sortHash, id, [[k1], [], ...]] where [] is a missing key.

const bookmarkVersion = 1

// noBookmark is what CouchDB returns, and accepts back, for "no position".
const noBookmark = "nil"

type position struct {
	keys []any
	id   string
}

func sortHash(sort []SortField) uint32 {
	h := fnv.New32a()
	for _, s := range sort {
		if s.Desc {
			h.Write([]byte{'-'})
		} else {
			h.Write([]byte{'+'})
		}
		for _, seg := range s.path {
			h.Write([]byte(seg))
			h.Write([]byte{0})
		}
		h.Write([]byte{1})
	}
	return h.Sum32()
}

func encodeBookmark(hash uint32, keys []any, id string) (string, error) {
	ks := make([]any, len(keys))
	for i, k := range keys {
		if _, miss := k.(missingValue); miss {
			ks[i] = []any{}
		} else {
			ks[i] = []any{k}
		}
	}
	// Keys were decoded from JSON (infinities clamped), so this cannot fail.
	b, err := json.Marshal([]any{bookmarkVersion, hash, id, ks})
	return base64.RawURLEncoding.EncodeToString(b), err
}

func decodeBookmark(s string, hash uint32, nkeys int) (*position, error) {
	invalid := bad("invalid bookmark value")
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, invalid
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var parts []any
	if dec.Decode(&parts) != nil || dec.More() || len(parts) != 4 {
		return nil, invalid
	}
	ver, _ := integral(normValue(parts[0]))
	h, _ := integral(normValue(parts[1]))
	id, ok := parts[2].(string)
	ks, ok2 := parts[3].([]any)
	if ver != bookmarkVersion || h != int64(hash) || !ok || !ok2 || len(ks) != nkeys {
		return nil, invalid
	}
	pos := &position{id: id, keys: make([]any, nkeys)}
	for i, k := range ks {
		arr, ok := k.([]any)
		switch {
		case !ok || len(arr) > 1:
			return nil, invalid
		case len(arr) == 0:
			pos.keys[i] = missingValue{}
		default:
			pos.keys[i] = normValue(arr[0])
		}
	}
	return pos, nil
}
