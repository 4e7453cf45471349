package wiki

import (
	"strings"
	"testing"
)

func TestEvict(t *testing.T) {
	c := newPageCache(nil, 3, 100)
	for i, db := range []string{"a", "b", "c", "d"} {
		c.dbs[db] = &dbPages{used: uint64(i), bytes: 30}
	}
	c.evict("a") // too many Groups and 120 bytes: b goes (a is kept though oldest)
	if _, ok := c.dbs["b"]; ok || len(c.dbs) != 3 {
		t.Fatalf("kept %v", c.dbs)
	}
	c.dbs["d"].bytes = 80
	c.evict("d")
	if len(c.dbs) != 1 || c.dbs["d"] == nil {
		t.Fatalf("kept %v", c.dbs)
	}
}

func TestHighlightAndFold(t *testing.T) {
	for _, tc := range []struct{ text, q, want string }{
		{"Manutenção <b>preventiva</b>", "manutencao preventiva", "<mark>Manutenção</mark> &lt;b&gt;<mark>preventiva</mark>&lt;/b&gt;"},
		{"ÉÉ é", "e", "<mark>ÉÉ</mark> <mark>é</mark>"},
		{"straße", "STRASSE", "straße"},
		{"a\n\nb  c", "b", "a <mark>b</mark> c"},
	} {
		if got := highlight(tc.text, queryTerms(tc.q), 0); got != tc.want {
			t.Errorf("highlight(%q, %q) = %q, want %q", tc.text, tc.q, got, tc.want)
		}
	}
	long := "começo " + strings.Repeat("palavra ", 100) + "meio alvo fim " + strings.Repeat("resto ", 100)
	if got := highlight(long, []string{"alvo"}, 30); !strings.HasPrefix(got, "…") || !strings.HasSuffix(got, "…") || !strings.Contains(got, "<mark>alvo</mark>") || len([]rune(got)) > 60 {
		t.Fatalf("snippet %q", got)
	}
	if normTitle("  Bomba   D’água ") != "bomba d’água" || normTitle("A\u0301") != "á" {
		t.Fatal(normTitle("A\u0301"))
	}
}

func TestSafeName(t *testing.T) {
	for in, want := range map[string]string{"../../etc/passwd": "_.._etc_passwd", "": "page", "...": "page", "a/b\\c:d": "a_b_c_d", "Relatório 2026": "Relatório 2026", "CON": "CON"} {
		if got := safeName(in); got != want {
			t.Errorf("safeName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestHandbookOf(t *testing.T) {
	l := linker{db: "acc-00000000000000000000000000000001", baseHost: "app.example"}
	id := "han-0123456789abcdef0123456789abcdef"
	for dest, want := range map[string]string{
		"handbooks/" + id: id, "./handbooks/" + id: id, "../handbooks/" + id: id,
		"/account/" + l.db + "/handbooks/" + id: id, "https://app.example/account/" + l.db + "/handbooks/" + id + "#x": id,
		"https://evil.example/account/" + l.db + "/handbooks/" + id: "", "/account/acc-00000000000000000000000000000002/handbooks/" + id: "",
		"//app.example/account/" + l.db + "/handbooks/" + id: "", "javascript:handbooks/" + id: "", "handbooks/han-XYZ": "", "ftp://app.example/account/" + l.db + "/handbooks/" + id: "",
	} {
		if got := l.handbookOf(dest); got != want {
			t.Errorf("handbookOf(%q) = %q, want %q", dest, got, want)
		}
	}
}
