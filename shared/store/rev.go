package store

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
)

// NextRev computes the revision that follows prev for the given content, the
// way CouchDB does: the generation number grows by one and the hash is
// deterministic, so every backend computes the same revision for the same write.
func NextRev(prev string, deleted bool, body []byte) string {
	gen := RevGeneration(prev) + 1
	h := md5.New()
	h.Write([]byte(prev))
	if deleted {
		h.Write([]byte{1})
	} else {
		h.Write([]byte{0})
	}
	h.Write(body)
	return strconv.Itoa(gen) + "-" + hex.EncodeToString(h.Sum(nil))
}

// RevGeneration returns N of "N-hash", or 0 for "" or a malformed revision.
func RevGeneration(rev string) int {
	n, _, ok := strings.Cut(rev, "-")
	if !ok {
		return 0
	}
	gen, err := strconv.Atoi(n)
	if err != nil || gen < 0 {
		return 0
	}
	return gen
}

// ValidRev reports whether rev has the form "N-<32 hex>" with N >= 1.
func ValidRev(rev string) bool {
	n, h, ok := strings.Cut(rev, "-")
	if !ok || len(h) != 32 {
		return false
	}
	if gen, err := strconv.Atoi(n); err != nil || gen < 1 || fmt.Sprint(gen) != n {
		return false
	}
	_, err := hex.DecodeString(h)
	return err == nil && strings.ToLower(h) == h
}
