package blob_test

import (
	"errors"
	"mime"
	"strings"
	"testing"

	"github.com/oficina/oficina/shared/blob"
)

func TestValidateKey(t *testing.T) {
	long := strings.Repeat("k", blob.MaxKeyBytes)
	tests := []struct {
		key string
		ok  bool
		why string // in the error, so the refusal is clear
	}{
		{"acc-1/files/abc", true, ""},
		{"ação/relatório.pdf", true, ""},
		{"a..b/..c/d..", true, ""},
		{long, true, ""},
		{long + "k", false, "longer than 1024 bytes"},
		{"", false, "empty"},
		{"/abs", false, `starts with "/"`},
		{"a/../b", false, `".." segment`},
		{"..", false, `".." segment`},
		{"a/.", false, `"." segment`},
		{"a//b", false, "empty segment"},
		{"a/", false, "empty segment"},
		{"a\x00b", false, "control character"},
		{"a\tb", false, "control character"},
		{"a\u0085b", false, "control character"},
		{"\xc3\x28", false, "not valid UTF-8"},
	}
	for _, tc := range tests {
		err := blob.ValidateKey(tc.key)
		if tc.ok {
			if err != nil {
				t.Errorf("ValidateKey(%.30q) = %v, want nil", tc.key, err)
			}
			continue
		}
		if !errors.Is(err, blob.ErrInvalidKey) || !strings.Contains(err.Error(), tc.why) {
			t.Errorf("ValidateKey(%.30q) = %v, want ErrInvalidKey saying %q", tc.key, err, tc.why)
		}
	}
}

func TestContentDisposition(t *testing.T) {
	tests := []struct {
		name     string
		fallback string // what filename="…" holds for old clients
	}{
		{"report.pdf", "report.pdf"},
		{"relatório de ação.pdf", "relat_rio de a__o.pdf"},
		{`say "hi" \ bye.txt`, "say _hi_ _ bye.txt"},
		{"日本語.txt", "___.txt"},
		{"new\r\nline.txt", "new__line.txt"},
		{"100% & co; x=1.csv", "100% & co; x=1.csv"},
	}
	for _, tc := range tests {
		cd := blob.ContentDisposition("attachment", tc.name)
		if strings.ContainsAny(cd, "\r\n") {
			t.Fatalf("ContentDisposition(%q) = %q: a line break reached the header", tc.name, cd)
		}
		if !strings.Contains(cd, `filename="`+tc.fallback+`"`) {
			t.Errorf("ContentDisposition(%q) = %q, want fallback %q", tc.name, cd, tc.fallback)
		}
		disp, params, err := mime.ParseMediaType(cd)
		if err != nil || disp != "attachment" || params["filename"] != tc.name {
			t.Errorf("ContentDisposition(%q) = %q, parsed as %q %q (%v)", tc.name, cd, disp, params["filename"], err)
		}
	}
	if got := blob.ContentDisposition("inline", ""); got != "inline" {
		t.Errorf("ContentDisposition(inline, no name) = %q", got)
	}
}
