package htmlsafe

import (
	"net/url"
	"strings"
	"testing"

	"github.com/oficina/oficina/shared/htmlsafe/xsstest"
)

var base, _ = url.Parse("https://blog.example/posts/2026/hello.html")

// TestXSSCorpus: every payload of the shared corpus comes out inert, with
// and without a base URL.
func TestXSSCorpus(t *testing.T) {
	payloads := xsstest.Payloads()
	if len(payloads) < 100 {
		t.Fatalf("the corpus has %d payloads", len(payloads))
	}
	for _, p := range payloads {
		for _, b := range []*url.URL{base, nil} {
			out := Sanitize(p, b)
			if err := xsstest.CheckInert(out); err != nil {
				t.Errorf("payload %q\n  gave %q\n  %v", p, out, err)
			}
		}
	}
}

// TestCheckInertCatches: the checker is not vacuous — it flags most raw
// payloads.
func TestCheckInertCatches(t *testing.T) {
	caught := 0
	payloads := xsstest.Payloads()
	for _, p := range payloads {
		if xsstest.CheckInert(p) != nil {
			caught++
		}
	}
	if caught < len(payloads)*9/10 {
		t.Fatalf("CheckInert flags only %d of %d raw payloads", caught, len(payloads))
	}
}

func TestSanitizeKeepsContent(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`<p>Hello <b>world</b> &amp; <em>friends</em></p>`, `<p>Hello <b>world</b> &amp; <em>friends</em></p>`},
		// Relative links resolve against the page; links open in a new tab without an opener or referrer.
		{`<a href="../2025/older.html">older</a>`, `<a href="https://blog.example/posts/2025/older.html" rel="nofollow noreferrer noopener" target="_blank">older</a>`},
		{`<img src="/img/a.png" alt="A">`, `<img src="https://blog.example/img/a.png" alt="A" loading="lazy"/>`},
		// Tracking parameters go, the rest of the query stays.
		{`<a href="https://shop.example/p?id=7&utm_source=feed&utm_medium=rss&fbclid=abc">p</a>`, `<a href="https://shop.example/p?id=7" rel="nofollow noreferrer noopener" target="_blank">p</a>`},
		// Tracking pixels go: by size, by known host.
		{`<p>a<img src="https://t.example/p.gif" width="1" height="1">b</p>`, `<p>ab</p>`},
		{`<p>a<img src="http://feeds.feedburner.com/~r/blog/~4/xyz">b</p>`, `<p>ab</p>`},
		{`<p>a<img src="https://pixel.wp.com/b.gif?host=x">b</p>`, `<p>ab</p>`},
		// Allowed players stay, sandboxed; others go.
		{`<iframe src="https://www.youtube.com/embed/abc" width="560" height="315" allowfullscreen></iframe>`, `<iframe src="https://www.youtube.com/embed/abc" width="560" height="315" allowfullscreen="" loading="lazy" sandbox="allow-scripts allow-same-origin allow-popups allow-presentation"></iframe>`},
		{`<p>x</p><iframe src="https://evil.example/"></iframe>`, `<p>x</p>`},
		// Styles and classes go, text stays.
		{`<div class="a" style="color:red" id="x">t</div>`, `<div>t</div>`},
		{`<table><tr><td colspan="2">c</td></tr></table>`, `<table><tbody><tr><td colspan="2">c</td></tr></tbody></table>`},
		{`<a href="mailto:ana@example.com">mail</a>`, `<a href="mailto:ana@example.com" rel="nofollow noreferrer">mail</a>`},
	} {
		if got := Sanitize(tc.in, base); got != tc.want {
			t.Errorf("Sanitize(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

func TestSanitizeWithoutBaseDropsRelative(t *testing.T) {
	got := Sanitize(`<a href="/x">x</a><img src="y.png">`, nil)
	if strings.Contains(got, "href") || strings.Contains(got, "src") {
		t.Fatalf("relative URLs survived without a base: %q", got)
	}
}

func TestText(t *testing.T) {
	for _, tc := range []struct {
		in   string
		max  int
		want string
	}{
		{`<p>Hello&nbsp;<b>world</b></p><p>again</p>`, 0, "Hello world again"},
		{`<script>alert(1)</script><style>p{}</style>visible`, 0, "visible"},
		{`a &lt;b&gt; &amp; c`, 0, "a <b> & c"},
		{`one two three four five six seven eight nine ten`, 20, "one two three four…"},
		{`<![CDATA[x]]>y`, 0, "y"},
		{`<p>with <a href="/x">a link</a>.</p><p>Next <b>bold</b>, <i>it</i>.</p>`, 0, "with a link. Next bold, it."},
	} {
		if got := Text(tc.in, tc.max); got != tc.want {
			t.Errorf("Text(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
	}
}

func TestSanitizeText(t *testing.T) {
	got := SanitizeText("line <one>\nline two\n\n\npara & two")
	if want := "<p>line &lt;one&gt;<br>line two</p><p>para &amp; two</p>"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestStripTracking(t *testing.T) {
	for in, want := range map[string]string{
		"https://a.example/x?utm_campaign=y":           "https://a.example/x",
		"https://a.example/x?q=1&UTM_Source=z&gclid=1": "https://a.example/x?q=1",
		"https://a.example/x?q=1":                      "https://a.example/x?q=1",
		"mailto:a@example.com?utm_source=x":            "mailto:a@example.com?utm_source=x",
		"not a url %%":                                 "not a url %%",
	} {
		if got := StripTracking(in); got != want {
			t.Errorf("StripTracking(%q) = %q, want %q", in, got, want)
		}
	}
}
