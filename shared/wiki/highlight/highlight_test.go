package highlight

import (
	"strings"
	"testing"
)

func TestStyles(t *testing.T) {
	var c Chroma
	light, dark := c.CSS("github"), c.CSS("github-dark")
	if !strings.Contains(light, ".wk-kd") || !strings.Contains(dark, ".wk-kd") || light == dark {
		t.Fatalf("github and github-dark:\n%s\n%s", light, dark)
	}
	for _, name := range []string{"", "monokai", "GITHUB", "../github"} {
		if got := c.CSS(name); got != light {
			t.Errorf("style %q: not github's stylesheet", name)
		}
	}
	html, ok := c.Code("go", "func main() {}")
	if !ok || !strings.Contains(html, `class="wk-kd"`) || strings.Contains(html, "style=") {
		t.Fatalf("Code: %v %s", ok, html)
	}
	if _, ok := c.Code("no-such-language", "x"); ok {
		t.Fatal("an unknown language was highlighted")
	}
}
