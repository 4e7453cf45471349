package servicedocs

import (
	"strings"
	"testing"
	"time"
)

// TestLinkKeyOrder: the records of tokens issued later sort after those
// issued earlier (new links append to the records' key order), whatever
// their random part; an untimed token of before keeps its hash-only key.
func TestLinkKeyOrder(t *testing.T) {
	start := time.Date(2026, 11, 28, 16, 0, 0, 0, time.UTC)
	prev := ""
	for i := range 200 {
		token, err := newToken(start.Add(time.Duration(i) * time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		if !tokenRe.MatchString(token) || len(token) != 28 {
			t.Fatalf("token %q", token)
		}
		key := linkKey(kindStatus, token)
		if key <= prev {
			t.Fatalf("token %d's key %q sorts before the one issued a millisecond earlier, %q", i, key, prev)
		}
		prev = key
	}
	old := "q1w2e3r4t5y6u7i8o9p0a1s2d3f"
	if key := linkKey(kindStatus, old); !strings.HasPrefix(key, "status:") || strings.Count(key, ":") != 1 || len(key) != len("status:")+64 {
		t.Fatalf("untimed token's key %q", key)
	}
}
