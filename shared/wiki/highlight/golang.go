package highlight

import (
	"strings"

	. "github.com/alecthomas/chroma/v2" //nolint:revive // the rules read as chroma's own
)

// goLexer is chroma v2.27.0's Go lexer (lexers/go.go, MIT licence), the
// one of its lexers written in Go rather than XML that the wiki keeps. Its
// raw strings are lexed as Go text templates, found in reg.
func goLexer(reg *LexerRegistry) Lexer {
	return MustNewLexer(
		&Config{
			Name:      "Go",
			Aliases:   []string{"go", "golang"},
			Filenames: []string{"*.go"},
			MimeTypes: []string{"text/x-gosrc"},
		},
		func() Rules { return goRules(reg.Get("go-template")) },
	).SetAnalyser(func(text string) float32 {
		if strings.Contains(text, "fmt.") && strings.Contains(text, "package ") {
			return 0.5
		}
		if strings.Contains(text, "package ") {
			return 0.1
		}
		return 0.0
	})
}

func goRules(textTemplate Lexer) Rules {
	rule := func(pattern string, typ Emitter) Rule { return Rule{Pattern: pattern, Type: typ} }
	return Rules{
		"root": {
			rule(`\n`, TextWhitespace),
			rule(`\s+`, TextWhitespace),
			rule(`//[^\s\n\r][^\n\r]*`, CommentPreproc),
			rule(`//[^\n\r]*`, CommentSingle),
			rule(`/(\\\n)?[*](.|\n)*?[*](\\\n)?/`, CommentMultiline),
			rule(`(import|package)\b`, KeywordNamespace),
			rule(`(var|func|struct|map|chan|type|interface|const)\b`, KeywordDeclaration),
			rule(Words(``, `\b`, `break`, `default`, `select`, `case`, `defer`, `go`, `else`, `goto`, `switch`, `fallthrough`, `if`, `range`, `continue`, `for`, `return`), Keyword),
			rule(`(true|false|iota|nil)\b`, KeywordConstant),
			rule(Words(``, `\b(\()`, `uint`, `uint8`, `uint16`, `uint32`, `uint64`, `int`, `int8`, `int16`, `int32`, `int64`, `float`, `float32`, `float64`, `complex64`, `complex128`, `byte`, `rune`, `string`, `bool`, `error`, `uintptr`, `print`, `println`, `panic`, `recover`, `close`, `complex`, `real`, `imag`, `len`, `cap`, `append`, `copy`, `delete`, `new`, `make`, `clear`, `min`, `max`), ByGroups(NameBuiltin, Punctuation)),
			rule(Words(``, `\b`, `uint`, `uint8`, `uint16`, `uint32`, `uint64`, `int`, `int8`, `int16`, `int32`, `int64`, `float`, `float32`, `float64`, `complex64`, `complex128`, `byte`, `rune`, `string`, `bool`, `error`, `uintptr`, `any`), KeywordType),
			rule(`\d+i`, LiteralNumber),
			rule(`\d+\.\d*([Ee][-+]\d+)?i`, LiteralNumber),
			rule(`\.\d+([Ee][-+]\d+)?i`, LiteralNumber),
			rule(`\d+[Ee][-+]\d+i`, LiteralNumber),
			rule(`\d+(\.\d+[eE][+\-]?\d+|\.\d*|[eE][+\-]?\d+)`, LiteralNumberFloat),
			rule(`\.\d+([eE][+\-]?\d+)?`, LiteralNumberFloat),
			rule(`0[0-7]+`, LiteralNumberOct),
			rule(`0[xX][0-9a-fA-F_]+`, LiteralNumberHex),
			rule(`0b[01_]+`, LiteralNumberBin),
			rule(`(0|[1-9][0-9_]*)`, LiteralNumberInteger),
			rule(`'(\\['"\\abfnrtv]|\\x[0-9a-fA-F]{2}|\\[0-7]{1,3}|\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{8}|[^\\])'`, LiteralStringChar),
			rule("(`)([^`]*)(`)", ByGroups(LiteralString, UsingLexer(TypeRemappingLexer(textTemplate, TypeMapping{{Other, LiteralString, nil}})), LiteralString)),
			rule(`"(\\\\|\\"|[^"])*"`, LiteralString),
			rule(`(<<=|>>=|<<|>>|<=|>=|&\^=|&\^|\+=|-=|\*=|/=|%=|&=|\|=|&&|\|\||<-|\+\+|--|==|!=|:=|\.\.\.|[+\-*/%&])`, Operator),
			rule(`([a-zA-Z_]\w*)(\s*)(\()`, ByGroups(NameFunction, UsingSelf("root"), Punctuation)),
			rule(`[|^<>=!()\[\]{}.,;:~]`, Punctuation),
			rule(`[^\W\d]\w*`, NameOther),
		},
	}
}
