package highlight

import (
	"slices"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// sample touches what the kept lexers lex, and what some of them hand to
// another (HTML's styles and scripts, a Dockerfile's and a Makefile's
// shell lines, a Go raw string's template).
const sample = `#!/bin/bash
# check the battery
for f in *.log; do echo "$f" | grep -c 'ERR' >> out.txt; done
$ sudo systemctl restart cups
REM Windows
@echo off & set X=1
Get-Service -Name Spooler | Restart-Service
[HKEY_LOCAL_MACHINE\SOFTWARE\Oficina]
"Path"="C:\\Program Files\\x"
[section]
name = "value" ; note
key: [1, 2.5, true, null]
SELECT id, name FROM tickets WHERE status = 'open' AND n > 3; -- c
FROM alpine:3.20
RUN apk add --no-cache curl && echo ok
all: build
	go build -o bin/x ./cmd/x
<div class="a" id=b>x &amp; y</div><style>.a { color: #fff; }</style><script>let x = 1 + 2; console.log("y")</script>
package main

import "fmt"

func main() { s := ` + "`" + `{{ .Name }}` + "`" + `; fmt.Println("hi", 42, 0x1F, 3.14, s) }
class A extends B { public static void main(String[] a) { int x = 1; } }
def f(x: int) -> str: return f"{x}"  # py
fn main() { let v: Vec<u8> = vec![1]; println!("{:?}", v); }
--- a/x
+++ b/x
@@ -1 +1 @@
-old
+new
server { listen 80; location / { proxy_pass http://app; } }
`

func tokens(t *testing.T, l chroma.Lexer, text string) []chroma.Token {
	t.Helper()
	it, err := chroma.Coalesce(l).Tokenise(nil, text)
	if err != nil {
		t.Fatalf("%s: %v", l.Config().Name, err)
	}
	return it.Tokens()
}

// TestLexersMatchChroma: each kept lexer lexes as chroma's own does, and
// the names a shop types after ``` find the same lexer in both.
func TestLexersMatchChroma(t *testing.T) {
	reg := registry()
	if len(reg.Lexers) < 40 {
		t.Fatalf("%d lexers", len(reg.Lexers))
	}
	for _, ours := range reg.Lexers {
		name := ours.Config().Name
		if name == "Go Template" {
			name = "Go Text Template" // chroma renames it
		}
		theirs := lexers.Get(name)
		if theirs == nil {
			t.Errorf("%s: not in chroma", name)
			continue
		}
		if got, want := tokens(t, ours, sample), tokens(t, theirs, sample); !slices.Equal(got, want) {
			t.Errorf("%s: lexes the sample unlike chroma's own (%d tokens, %d)", name, len(got), len(want))
		}
	}
	for _, lang := range []string{
		"sh", "bash", "shell", "console", "bat", "cmd", "powershell", "ps1", "reg", "ini", "toml", "yaml", "yml", "json",
		"xml", "html", "css", "scss", "js", "javascript", "ts", "typescript", "jsx", "tsx", "py", "python", "php", "rb",
		"ruby", "rust", "go", "golang", "c", "cpp", "c++", "cs", "csharp", "java", "kotlin", "swift", "lua", "perl",
		"sql", "mysql", "postgresql", "tsql", "diff", "patch", "dockerfile", "docker", "makefile", "make", "nginx",
		"apache", "apacheconf", "csv", "text", "properties", "systemd", "vb.net", "dart", "graphql",
	} {
		ours, theirs := reg.Get(lang), lexers.Get(lang)
		switch {
		case theirs == nil:
			t.Errorf("%q: chroma has no lexer", lang)
		case ours == nil:
			t.Errorf("%q: no lexer, chroma's is %s", lang, theirs.Config().Name)
		case ours.Config().Name != theirs.Config().Name:
			t.Errorf("%q: %s, chroma's is %s", lang, ours.Config().Name, theirs.Config().Name)
		}
	}
}
