package ids

import (
	"fmt"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	good := New("tik")
	tests := []struct {
		id     string
		klass  string
		wantOK bool
	}{
		{good, "Ticket", true},
		{"usr-0123456789abcdef0123456789abcdef", "User", true},
		{"usr-0123456789ABCDEF0123456789abcdef", "", false}, // uppercase hex
		{"usr-0123456789abcdef0123456789abcde", "", false},  // 31 digits
		{"zzz-0123456789abcdef0123456789abcdef", "", false}, // unknown prefix
		{"usr0123456789abcdef0123456789abcdef", "", false},  // no dash
		{"", "", false},
		{"../etc/passwd", "", false},
	}
	for _, tt := range tests {
		if _, ok := Parse(tt.id); ok != tt.wantOK {
			t.Errorf("Parse(%q) ok = %v, want %v", tt.id, ok, tt.wantOK)
		}
		if k := Klass(tt.id); k != tt.klass {
			t.Errorf("Klass(%q) = %q, want %q", tt.id, k, tt.klass)
		}
	}
}

func TestPrefixOf(t *testing.T) {
	if p := PrefixOf("Membership"); p != "mem" {
		t.Fatalf("PrefixOf(Membership) = %q", p)
	}
	if IsKlass("Nope") {
		t.Fatal("IsKlass(Nope) = true")
	}
}

func TestValidDBName(t *testing.T) {
	for db, want := range map[string]bool{
		"_users": true, "accounts": true, "prices": true,
		New("usr"): true, New("acc"): true, New("tik"): false,
		"_replicator": false, "acc-../x": false, "": false,
	} {
		if got := ValidDBName(db); got != want {
			t.Errorf("ValidDBName(%q) = %v, want %v", db, got, want)
		}
	}
}

// TestNewInTimeOrder: ids made a millisecond apart sort in the order they
// were made, whatever their random part; within one millisecond they are
// distinct; every one parses.
func TestNewInTimeOrder(t *testing.T) {
	at := time.Date(2026, 11, 29, 1, 2, 3, 0, time.UTC)
	prev := ""
	for i := range 1000 {
		id := newAt("tik", at.Add(time.Duration(i)*time.Millisecond))
		if _, ok := Parse(id); !ok {
			t.Fatalf("%q does not parse", id)
		}
		if id <= prev {
			t.Fatalf("%q made after %q sorts before it", id, prev)
		}
		prev = id
	}
	if got, want := newAt("tik", at)[4:16], fmt.Sprintf("%012x", at.UnixMilli()); got != want {
		t.Errorf("time digits %s, want %s", got, want)
	}
	seen := map[string]bool{}
	for range 10_000 {
		id := newAt("cus", at)
		if seen[id] {
			t.Fatalf("%q made twice in one millisecond", id)
		}
		seen[id] = true
	}
}
