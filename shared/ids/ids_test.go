package ids

import "testing"

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
