package finance

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/unicode/norm"

	"github.com/oficina/oficina/shared/fault"
)

// A bank statement is read in two steps: Detect looks at the first 64 KB
// and proposes Options (encoding, delimiter, preamble, header, columns,
// decimal mark, date format); a statementReader then streams every row of
// the whole file with those Options, one Row at a time, so memory holds the
// rows in flight, never the file.

// Messages of the import (the catalogue's where it has one, SPEC.md §5, §8).
const (
	MsgDateFormat     = "The date column or format is wrong"
	MsgHeaders        = "At least 3 column headers must be matched"
	MsgBinary         = "This is not a CSV file or an OFX statement: it holds binary data"
	MsgNotUTF8        = "the text is not UTF-8; choose ISO-8859-1 (Windows-1252) as the encoding"
	MsgUnclosedQuote  = "a quoted field is not closed"
	MsgBareQuote      = `a quote (") appears inside a field that is not quoted`
	MsgEmptyStatement = "The file holds no rows to import"
)

// Columns are 0-based column indexes; -1 is "not in this file".
type Columns struct {
	Date        int `json:"date"`
	Description int `json:"description"`
	Value       int `json:"value"`
	Debit       int `json:"debit"`
	Credit      int `json:"credit"`
	ThirdParty  int `json:"third_party"`
	Categories  int `json:"categories"`
}

func noColumns() Columns { return Columns{-1, -1, -1, -1, -1, -1, -1} }

// matched counts the columns that are set.
func (c Columns) matched() int {
	n := 0
	for _, v := range []int{c.Date, c.Description, c.Value, c.Debit, c.Credit, c.ThirdParty, c.Categories} {
		if v >= 0 {
			n++
		}
	}
	return n
}

func (c Columns) max() int {
	return max(c.Date, c.Description, c.Value, c.Debit, c.Credit, c.ThirdParty, c.Categories)
}

// Options say how to read a statement; the import profile of a wallet keeps
// them (klass CSV) for the next month's file.
type Options struct {
	Format     string  `json:"format"`   // csv | ofx
	Encoding   string  `json:"encoding"` // utf-8 | windows-1252
	Delimiter  string  `json:"delimiter"`
	Decimal    string  `json:"decimal"` // "," or "."
	DateFormat string  `json:"date_format"`
	Header     bool    `json:"first_line_is_header"`
	Skip       int     `json:"skip"` // preamble lines before the header or the first row
	MostItems  string  `json:"most_items_are"`
	Columns    Columns `json:"columns"`
}

// Encodings and most_items_are values.
const (
	EncUTF8    = "utf-8"
	EncWin1252 = "windows-1252"
	MostIncome = "income"
	MostOutgo  = "outgo"
)

// DateFormats are the date formats a statement may use, as the picker shows
// them, with their Go layouts.
var DateFormats = []struct{ Name, Layout string }{
	{"YYYY-MM-DD", "2006-01-02"},
	{"DD/MM/YYYY", "02/01/2006"},
	{"MM/DD/YYYY", "01/02/2006"},
	{"DD.MM.YYYY", "02.01.2006"},
	{"DD-MM-YYYY", "02-01-2006"},
	{"MM-DD-YYYY", "01-02-2006"},
	{"YYYY/MM/DD", "2006/01/02"},
	{"DD/MM/YY", "02/01/06"},
	{"MM/DD/YY", "01/02/06"},
	{"YYYYMMDD", "20060102"},
}

func dateLayout(name string) string {
	for _, f := range DateFormats {
		if f.Name == name {
			return f.Layout
		}
	}
	return ""
}

// parseDate reads a date cell in layout; a time after the date ("2026-01-03
// 10:22", "2026-01-03T10:22:00Z") is ignored.
func parseDate(cell, layout string) (string, bool) {
	cell = strings.TrimSpace(cell)
	if i := strings.IndexAny(cell, " T"); i >= 8 {
		cell = cell[:i]
	}
	if len(cell) != len(layout) {
		return "", false
	}
	t, err := time.Parse(layout, cell)
	if err != nil {
		return "", false
	}
	return t.Format("2006-01-02"), true
}

// sampleSize is how much of a file Detect reads.
const sampleSize = 64 << 10

// Detect proposes how to read a statement from its first bytes. It fails
// only on content that is no statement at all (binary data); anything it
// cannot tell is left for the reader to report with its line.
func Detect(sample []byte) (Options, error) {
	o := Options{Format: "csv", Encoding: EncUTF8, MostItems: MostIncome, Columns: noColumns()}
	if isBinary(sample) {
		return o, fault.New(fault.Unprocessable, MsgBinary)
	}
	trimmed := bytes.TrimSpace(bytes.TrimPrefix(sample, bom))
	head := strings.ToUpper(string(trimmed[:min(len(trimmed), 1024)]))
	if strings.HasPrefix(head, "OFXHEADER") || strings.Contains(head, "<OFX>") {
		o.Format = "ofx"
		return o, nil
	}
	if !validUTF8Prefix(sample) {
		o.Encoding = EncWin1252
	}
	lines := sampleLines(sample, o.Encoding, len(sample) == sampleSize)
	o.Delimiter, o.Skip = detectDelimiter(lines)
	if o.Skip >= len(lines) {
		return o, nil
	}
	all := make([][]string, len(lines)) // nil where a line cannot be split
	for i, l := range lines {
		if cells, err := splitLine(l, o.Delimiter); err == nil {
			all[i] = cells
		}
	}
	var data [][]string
	if at, cols, ok := findHeader(all); ok {
		// The line naming a date, a description and an amount is the
		// header, whatever the lines above it look like.
		o.Skip, o.Header, o.Columns = at, true, cols
		data = compact(all[at+1:])
	} else {
		rows := compact(all[o.Skip:])
		if len(rows) == 0 {
			return o, nil
		}
		o.Header = looksLikeHeader(rows[0])
		data = rows
		if o.Header {
			o.Columns = matchHeaders(rows[0], rows[1:])
			data = rows[1:]
		}
	}
	if o.Columns.matched() < 3 {
		guessColumns(&o.Columns, data)
	}
	o.Decimal = detectDecimal(data, o.Columns, o.Delimiter)
	o.DateFormat = detectDateFormat(data, o.Columns.Date, o.Decimal == ",")
	return o, nil
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// isBinary: a NUL byte, or more than 1% control characters, is no text.
func isBinary(b []byte) bool {
	if bytes.IndexByte(b, 0) >= 0 {
		return true
	}
	ctl := 0
	for _, c := range b {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' {
			ctl++
		}
	}
	return ctl*100 > len(b)
}

// validUTF8Prefix allows a rune cut at the end of the sample.
func validUTF8Prefix(b []byte) bool {
	for i := 0; i < 3 && len(b) > 0 && !utf8.Valid(b); i++ {
		b = b[:len(b)-1]
	}
	return utf8.Valid(b)
}

// sampleLines decodes the sample's first lines (dropping a cut last line).
func sampleLines(sample []byte, enc string, cut bool) []string {
	text := string(bytes.TrimPrefix(sample, bom))
	if enc == EncWin1252 {
		d, _ := charmap.Windows1252.NewDecoder().Bytes(sample)
		text = string(d)
	}
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	if cut && len(lines) > 1 {
		lines = lines[:len(lines)-1]
	}
	out := lines[:0]
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
		if len(out) == 40 {
			break
		}
	}
	return out
}

// countOutsideQuotes counts the delimiter outside quoted parts of a line,
// but for one at its very end: some banks (Chase) end every data row with
// one, the header without.
func countOutsideQuotes(line string, d rune) int {
	n, quoted := 0, false
	for _, c := range line {
		switch {
		case c == '"':
			quoted = !quoted
		case c == d && !quoted:
			n++
		}
	}
	if n > 0 && strings.HasSuffix(strings.TrimRight(line, " \r"), string(d)) {
		n--
	}
	return n
}

// detectDelimiter picks the delimiter whose count is the same on most lines
// (a bank's preamble lines before the table have fewer) and the preamble:
// the lines before the first that has that count.
func detectDelimiter(lines []string) (string, int) {
	best, bestScore, bestMode := ",", -1, 0
	for _, d := range []rune{';', '\t', ','} {
		freq := map[int]int{}
		for _, l := range lines {
			if n := countOutsideQuotes(l, d); n > 0 {
				freq[n]++
			}
		}
		mode, score := 0, 0
		for n, f := range freq {
			if f > score || f == score && n > mode {
				mode, score = n, f
			}
		}
		if score > bestScore {
			best, bestScore, bestMode = string(d), score, mode
		}
	}
	skip := 0
	for skip < len(lines) && countOutsideQuotes(lines[skip], []rune(best)[0]) != bestMode {
		skip++
	}
	if skip == len(lines) {
		skip = 0
	}
	return best, skip
}

func splitLine(line, delim string) ([]string, error) {
	r := csv.NewReader(strings.NewReader(line))
	r.Comma = []rune(delim)[0]
	r.FieldsPerRecord = -1
	return r.Read()
}

// looksLikeHeader: no cell of the first row is a date or an amount.
func looksLikeHeader(cells []string) bool {
	for _, c := range cells {
		c = strings.TrimSpace(c)
		if c == "" {
			continue
		}
		if _, ok := anyDate(c); ok {
			return false
		}
		if _, err := parseAmount(c, ".", 4); err == nil {
			return false
		}
		if _, err := parseAmount(c, ",", 4); err == nil {
			return false
		}
	}
	return true
}

func anyDate(cell string) (string, bool) {
	for _, f := range DateFormats {
		if d, ok := parseDate(cell, f.Layout); ok {
			return d, true
		}
	}
	return "", false
}

// headerNames are the names banks give their columns, in English and
// Portuguese, as headerKey writes them (lower case, no accents or
// punctuation), best first: a column named exactly so beats one whose name
// only contains it, and an earlier name beats a later one — so Chase's
// "Description" is the description rather than its "Details" (DEBIT,
// CREDIT), and "Valor débito" is the debit, "Data lançamento" the date.
// Fields are matched in this order, each to a column not taken yet.
var headerNames = []struct {
	field string
	names []string
}{
	{"date", []string{"date", "data", "posting date", "transaction date", "data lancamento", "data movimento", "data mov", "dt",
		"posted", "posting", "booking date", "booking"}},
	{"debit", []string{"debit", "debito", "debitos", "saida", "saidas", "withdrawal", "withdrawals", "outflow", "debit amount"}},
	{"credit", []string{"credit", "credito", "creditos", "entrada", "entradas", "deposit", "deposits", "inflow", "credit amount"}},
	{"value", []string{"amount", "valor", "value", "montante", "quantia", "importe", "total"}},
	{"description", []string{"description", "historico", "descricao", "lancamento", "memo", "narrative", "details", "detalhes",
		"transaction", "transacao"}},
	{"third_party", []string{"payee", "favorecido", "beneficiario", "pagador", "counterparty", "merchant", "estabelecimento", "name", "nome"}},
	{"categories", []string{"category", "categories", "categoria", "categorias", "tags"}},
}

// notColumnWords mark a column no field is read from, whatever else its
// name says: a running balance, a transaction type ("Tipo lançamento",
// "Transaction type"), a document or check number.
var notColumnWords = []string{"saldo", "saldos", "balance", "tipo", "type", "check", "slip", "documento", "docto", "doc"}

// headerKey lower-cases a header, strips accents and punctuation.
func headerKey(s string) []string {
	var b strings.Builder
	for _, r := range norm.NFD.String(strings.ToLower(s)) {
		switch {
		case unicode.Is(unicode.Mn, r):
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		default:
			b.WriteByte(' ')
		}
	}
	return strings.Fields(b.String())
}

// nameRank is how well a header names a field: 2×(the name's place) for a
// header that is exactly the name, one more for one containing it, -1 for
// none.
func nameRank(words, names []string) int {
	if slices.ContainsFunc(words, func(w string) bool { return slices.Contains(notColumnWords, w) }) {
		return -1
	}
	joined := " " + strings.Join(words, " ") + " "
	for i, n := range names {
		switch {
		case strings.Join(words, " ") == n:
			return 2 * i
		case strings.Contains(joined, " "+n+" "):
			return 2*i + 1
		}
	}
	return -1
}

// fits tells whether the sample's cells of column i hold what field
// needs — numbers and free text are told apart by content: mostly dates
// for the date, mostly amounts for the value, debit and credit (empty
// cells allowed), mostly text for the others (a column of numbers or
// dates is no description). "Mostly", not "only": a bad cell on one line
// is that line's error, named by the reader, not a reason to lose the
// column. Without sample rows every column fits.
func fits(field string, rows [][]string, i int) bool {
	switch field {
	case "date":
		return mostly(rows, i, isDateCell)
	case "value", "debit", "credit":
		return mostly(rows, i, isAmountCell)
	}
	return !mostly(rows, i, func(c string) bool { return isAmountCell(c) || isDateCell(c) }) || !some(rows, i, func(string) bool { return true })
}

// mostly: at least half of the non-empty cells of column i satisfy ok
// (true when all are empty).
func mostly(rows [][]string, i int, ok func(string) bool) bool {
	yes, all := 0, 0
	for _, r := range rows {
		if i < len(r) && strings.TrimSpace(r[i]) != "" {
			all++
			if ok(r[i]) {
				yes++
			}
		}
	}
	return 2*yes >= all
}

// matchHeaders finds each field's column by the header's names (the best
// ranked column whose sample content fits the field), fields in
// headerNames' order, a column taken once.
func matchHeaders(cells []string, rows [][]string) Columns {
	c := noColumns()
	taken := map[int]bool{}
	for _, hn := range headerNames {
		best, bestRank := -1, -1
		for i, cell := range cells {
			if taken[i] {
				continue
			}
			r := nameRank(headerKey(cell), hn.names)
			if r < 0 || bestRank >= 0 && r >= bestRank || !fits(hn.field, rows, i) {
				continue
			}
			best, bestRank = i, r
		}
		if best >= 0 {
			*c.field(hn.field) = best
			taken[best] = true
		}
	}
	if c.Value >= 0 && (c.Debit >= 0 || c.Credit >= 0) {
		c.Value = -1 // separate columns win over a "total"-like value
	}
	return c
}

// headerSearch is how many of the first lines may hold the header.
const headerSearch = 30

// findHeader looks for the header among the first lines: the first line
// whose names give a date, an amount (one column, or debit or credit) and
// a description or payee. at is its index among the non-blank lines.
func findHeader(lines [][]string) (at int, c Columns, ok bool) {
	for i, cells := range lines[:min(len(lines), headerSearch)] {
		if cells == nil {
			continue
		}
		c := matchHeaders(cells, compact(lines[i+1:]))
		if c.Date >= 0 && (c.Value >= 0 || c.Debit >= 0 || c.Credit >= 0) && (c.Description >= 0 || c.ThirdParty >= 0) {
			return i, c, true
		}
	}
	return 0, Columns{}, false
}

// compact drops the lines that could not be split.
func compact(rows [][]string) [][]string {
	out := make([][]string, 0, len(rows))
	for _, r := range rows {
		if r != nil {
			out = append(out, r)
		}
	}
	return out
}

func isAmountCell(s string) bool {
	_, e1 := parseAmount(s, ".", 4)
	_, e2 := parseAmount(s, ",", 4)
	return e1 == nil || e2 == nil
}

func isNegativeAmount(s string) bool {
	n1, e1 := parseAmount(s, ".", 4)
	n2, e2 := parseAmount(s, ",", 4)
	return e1 == nil && n1 < 0 || e2 == nil && n2 < 0
}

func isDateCell(s string) bool { _, ok := anyDate(s); return ok }

// every: each non-empty cell of column i satisfies ok (true when all are
// empty).
func every(rows [][]string, i int, ok func(string) bool) bool {
	for _, r := range rows {
		if i < len(r) && strings.TrimSpace(r[i]) != "" && !ok(r[i]) {
			return false
		}
	}
	return true
}

// some: a non-empty cell of column i satisfies ok.
func some(rows [][]string, i int, ok func(string) bool) bool {
	for _, r := range rows {
		if i < len(r) && strings.TrimSpace(r[i]) != "" && ok(r[i]) {
			return true
		}
	}
	return false
}

func (c *Columns) field(name string) *int {
	switch name {
	case "date":
		return &c.Date
	case "description":
		return &c.Description
	case "value":
		return &c.Value
	case "debit":
		return &c.Debit
	case "credit":
		return &c.Credit
	case "third_party":
		return &c.ThirdParty
	}
	return &c.Categories
}

// guessColumns fills a header-less file's columns from their content:
// the first column of dates; the amount among the columns of amounts
// filled on most rows (a check number's column is mostly empty) — one with
// a negative amount first (a running balance seldom has one), then one
// with decimals (a document number has none), then the leftmost; the
// description is the longest free text.
func guessColumns(c *Columns, rows [][]string) {
	if len(rows) == 0 {
		return
	}
	width := len(rows[0])
	filled := func(i int) int {
		n := 0
		for _, r := range rows {
			if i < len(r) && strings.TrimSpace(r[i]) != "" {
				n++
			}
		}
		return n
	}
	for i := range width {
		if c.Date < 0 && filled(i) > 0 && every(rows, i, isDateCell) {
			c.Date = i
		}
	}
	if c.Value < 0 && c.Debit < 0 && c.Credit < 0 {
		best, bestScore := -1, -1
		for i := range width {
			if i == c.Date || i == c.Description || 2*filled(i) <= len(rows) || !every(rows, i, isAmountCell) {
				continue
			}
			score := 0
			if some(rows, i, isNegativeAmount) {
				score += 2
			}
			if some(rows, i, func(s string) bool { return strings.ContainsAny(strings.TrimSpace(s), ".,") }) {
				score++
			}
			if score > bestScore {
				best, bestScore = i, score
			}
		}
		c.Value = best
	}
	if c.Description >= 0 {
		return
	}
	longest := 0
	for i := range width {
		if i == c.Date || i == c.Value || i == c.Debit || i == c.Credit || i == c.ThirdParty || !fits("description", rows, i) {
			continue
		}
		n := 0
		for _, r := range rows {
			if i < len(r) {
				n += len(r[i])
			}
		}
		if n > longest {
			longest, c.Description = n, i
		}
	}
}

// detectDecimal votes on the amounts' decimal mark: the last separator
// followed by one, two or four digits is the decimal one; a file separated
// by semicolons leans to the comma (Brazil, most of Europe).
func detectDecimal(rows [][]string, c Columns, delim string) string {
	comma, point := 0, 0
	for _, r := range rows {
		for _, i := range []int{c.Value, c.Debit, c.Credit} {
			if i < 0 || i >= len(r) {
				continue
			}
			s := strings.TrimSpace(r[i])
			j := strings.LastIndexAny(s, ".,")
			if j < 0 {
				continue
			}
			digits := 0
			for _, ch := range s[j+1:] {
				if ch >= '0' && ch <= '9' {
					digits++
				}
			}
			if digits == 3 && !strings.ContainsAny(s[:j], ".,") {
				continue // "1,000" or "1.000": a thousands mark or three decimals, no vote
			}
			if s[j] == ',' {
				comma++
			} else {
				point++
			}
		}
	}
	if comma > point || comma == point && delim == ";" {
		return ","
	}
	return "."
}

// detectDateFormat picks the format most sample dates parse in (the first
// of equals; day-first goes first in files with decimal commas).
func detectDateFormat(rows [][]string, col int, dayFirst bool) string {
	if col < 0 {
		return ""
	}
	formats := append([]struct{ Name, Layout string }(nil), DateFormats...)
	if !dayFirst { // MM/DD before DD/MM
		for i := range formats {
			if strings.HasPrefix(formats[i].Name, "MM") && i > 0 && strings.HasPrefix(formats[i-1].Name, "DD") {
				formats[i-1], formats[i] = formats[i], formats[i-1]
			}
		}
	}
	best, bestN := "", 0
	for _, f := range formats {
		n := 0
		for _, r := range rows {
			if col < len(r) && strings.TrimSpace(r[col]) != "" {
				if _, good := parseDate(r[col], f.Layout); good {
					n++
				}
			}
		}
		if n > bestN { // the format most sample dates parse in; the reader names a line that does not
			best, bestN = f.Name, n
		}
	}
	return best
}

// maxIntDigits keeps amounts inside the schema's bound (10^14 minor units).
const maxIntDigits = 12

var errNotAmount = errors.New("not an amount")

// parseAmount reads a bank's amount exactly, in minor units at precision:
// "R$ -1.234,56", "(12.50)", "12,50-", "1 234,5 D" (a debit), "+3". More
// decimals than the precision are refused unless they are zeros.
func parseAmount(s, decimal string, precision int) (int64, error) {
	s = strings.TrimSpace(strings.ReplaceAll(s, "\u00a0", " "))
	if s == "" {
		return 0, errNotAmount
	}
	neg := false
	if up := strings.ToUpper(s); strings.HasSuffix(up, "D") || strings.HasSuffix(up, "C") {
		rest := strings.TrimSpace(s[:len(s)-1])
		if rest != "" && rest[len(rest)-1] >= '0' && rest[len(rest)-1] <= '9' {
			neg, s = strings.HasSuffix(up, "D"), rest
		}
	}
	if strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") {
		neg, s = true, s[1:len(s)-1]
	}
	s = stripCurrency(s)
	switch {
	case strings.HasPrefix(s, "-"):
		neg, s = !neg, s[1:]
	case strings.HasPrefix(s, "+"):
		s = s[1:]
	case strings.HasSuffix(s, "-"):
		neg, s = !neg, s[:len(s)-1]
	}
	s = stripCurrency(s)
	thousands := "."
	if decimal == "." {
		thousands = ","
	}
	s = strings.NewReplacer(thousands, "", " ", "", "'", "").Replace(s)
	whole, frac, _ := strings.Cut(s, decimal)
	if whole == "" && frac == "" || !digitsOnly(whole) || !digitsOnly(frac) || len(strings.TrimLeft(whole, "0")) > maxIntDigits {
		return 0, errNotAmount
	}
	if len(frac) > precision {
		if strings.Trim(frac[precision:], "0") != "" {
			return 0, fmt.Errorf("has more decimals than the wallet's %d", precision)
		}
		frac = frac[:precision]
	}
	frac += strings.Repeat("0", precision-len(frac))
	var n int64
	for _, ch := range whole + frac {
		n = n*10 + int64(ch-'0')
	}
	if neg {
		n = -n
	}
	return n, nil
}

// currencyPrefix is a currency sign or code in front of an amount, before
// or after its sign: "R$", "US$", "$", "€", "BRL ".
var currencyPrefix = regexp.MustCompile(`^(?:[A-Z]{0,3}\$|[A-Z]{3} |[€£¥])\s*`)

func stripCurrency(s string) string {
	return strings.TrimSpace(currencyPrefix.ReplaceAllString(strings.TrimSpace(s), ""))
}

func digitsOnly(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Row is one statement line as a money record to be.
type Row struct {
	Line        int      `json:"line"`
	Klass       string   `json:"klass"`
	PostedAt    string   `json:"posted_at"`
	Description string   `json:"description"`
	ThirdParty  string   `json:"third_party,omitempty"`
	Categories  []string `json:"categories,omitempty"`
	Value       int64    `json:"value"`
	FITID       string   `json:"-"`
}

// rowError names the line of a refusal.
func rowError(line int, field, msg string) error {
	return refusal(field, fmt.Sprintf("line %d: %s", line, msg))
}

// refusal is a 422 whose reason is the field's message, so a screen shows
// it whole wherever it looks.
func refusal(field, msg string) error {
	return &fault.Error{Kind: fault.Unprocessable, Reason: msg, Fields: map[string][]string{field: {msg}}}
}

// csvRows streams the rows of a CSV statement.
type csvRows struct {
	o         Options
	layout    string
	precision int
	r         *csv.Reader
	width     int // the header's (or first row's) number of fields
	started   bool
	// Headers are the header row's cells (names "Column N" without one).
	Headers []string
	// Blank counts rows without an amount (or with zero), which are skipped.
	Blank int
}

func newCSVRows(src io.Reader, o Options, precision int) (*csvRows, error) {
	in := bufio.NewReaderSize(src, 64<<10)
	if b, _ := in.Peek(3); bytes.Equal(b, bom) {
		_, _ = in.Discard(3)
	}
	var text io.Reader = in
	if o.Encoding == EncWin1252 {
		text = charmap.Windows1252.NewDecoder().Reader(in)
	}
	if len([]rune(o.Delimiter)) != 1 || !strings.ContainsRune(",;\t|", []rune(o.Delimiter)[0]) {
		return nil, fault.Invalid(map[string][]string{"delimiter": {"must be one of , ; tab |"}})
	}
	c := o.Columns
	if c.Date < 0 || c.Description < 0 && c.ThirdParty < 0 || c.Value < 0 && c.Debit < 0 && c.Credit < 0 {
		return nil, refusal("columns", MsgHeaders)
	}
	layout := dateLayout(o.DateFormat)
	if layout == "" {
		return nil, refusal("date_format", MsgDateFormat)
	}
	r := csv.NewReader(text)
	r.Comma = []rune(o.Delimiter)[0]
	r.FieldsPerRecord = -1
	r.ReuseRecord = true
	return &csvRows{o: o, layout: layout, precision: precision, r: r}, nil
}

// start skips the preamble and reads the header.
func (s *csvRows) start() error {
	s.started = true
	for range s.o.Skip {
		if _, err := s.read(); err != nil {
			return err
		}
	}
	if !s.o.Header {
		return nil
	}
	cells, err := s.read()
	if err != nil {
		return err
	}
	s.width = len(cells)
	s.Headers = append([]string(nil), cells...)
	return nil
}

func (s *csvRows) read() ([]string, error) {
	rec, err := s.r.Read()
	var pe *csv.ParseError
	switch {
	case errors.As(err, &pe):
		msg := pe.Err.Error()
		switch {
		case errors.Is(pe.Err, csv.ErrQuote):
			msg = MsgUnclosedQuote
		case errors.Is(pe.Err, csv.ErrBareQuote):
			msg = MsgBareQuote
		}
		return nil, rowError(pe.StartLine, "file", msg)
	case err != nil:
		return nil, err
	}
	return rec, nil
}

// Next returns the next row with an amount (io.EOF at the end).
func (s *csvRows) Next() (Row, error) {
	if !s.started {
		if err := s.start(); err != nil {
			if err == io.EOF {
				return Row{}, io.EOF
			}
			return Row{}, err
		}
	}
	for {
		cells, err := s.read()
		if err != nil {
			return Row{}, err
		}
		line, _ := s.r.FieldPos(0)
		if len(cells) == 1 && strings.TrimSpace(cells[0]) == "" {
			continue
		}
		if s.width == 0 {
			s.width = len(cells)
		}
		if len(cells) == s.width+1 && strings.TrimSpace(cells[s.width]) == "" {
			cells = cells[:s.width] // an empty field beyond the header's: a trailing delimiter (Chase)
		}
		if len(cells) != s.width {
			return Row{}, rowError(line, "file", fmt.Sprintf("%d fields where the file has %d", len(cells), s.width))
		}
		if s.o.Encoding == EncUTF8 {
			for _, c := range cells {
				if !utf8.ValidString(c) {
					return Row{}, rowError(line, "encoding", MsgNotUTF8)
				}
			}
		}
		if s.o.Columns.max() >= len(cells) {
			return Row{}, rowError(line, "columns", fmt.Sprintf("%d fields, fewer than the columns chosen", len(cells)))
		}
		row, ok, err := s.row(line, cells)
		if err != nil {
			return Row{}, err
		}
		if !ok {
			s.Blank++
			continue
		}
		return row, nil
	}
}

// row builds a Row from a line's cells; ok is false for a line without an
// amount (a bank's "balance of the day" lines).
func (s *csvRows) row(line int, cells []string) (Row, bool, error) {
	c := s.o.Columns
	cell := func(i int) string {
		if i < 0 {
			return ""
		}
		return strings.TrimSpace(cells[i])
	}
	amount := func(i int) (int64, bool, error) {
		v := cell(i)
		if v == "" {
			return 0, false, nil
		}
		n, err := parseAmount(v, s.o.Decimal, s.precision)
		if errors.Is(err, errNotAmount) {
			return 0, false, rowError(line, "value", fmt.Sprintf("%q is not an amount", v))
		}
		if err != nil {
			return 0, false, rowError(line, "value", fmt.Sprintf("%q %s", v, err))
		}
		return n, true, nil
	}
	var value int64
	if c.Value >= 0 {
		v, ok, err := amount(c.Value)
		if err != nil || !ok {
			return Row{}, false, err
		}
		value = v
		if s.o.MostItems == MostOutgo {
			value = -value
		}
	} else {
		d, _, err := amount(c.Debit)
		if err != nil {
			return Row{}, false, err
		}
		cr, _, err := amount(c.Credit)
		if err != nil {
			return Row{}, false, err
		}
		value = abs(cr) - abs(d)
	}
	if value == 0 || isBalanceLine(cell(c.Description)) {
		return Row{}, false, nil
	}
	date, ok := parseDate(cell(c.Date), s.layout)
	if !ok {
		return Row{}, false, rowError(line, "date_format", MsgDateFormat)
	}
	r := Row{Line: line, Klass: KlassIncome, PostedAt: date, Value: value, Description: cell(c.Description), ThirdParty: cell(c.ThirdParty)}
	if value < 0 {
		r.Klass, r.Value = KlassOutgo, -value
	}
	if cats := cell(c.Categories); cats != "" {
		r.Categories = splitTags(cats)
	}
	return r, true, nil
}

// isBalanceLine tells a bank's balance line from a transaction by its
// description: Banco do Brasil writes "Saldo Anterior", "Saldo do dia" and
// "S A L D O" in the amount column, as if they were money that moved.
func isBalanceLine(desc string) bool {
	key := strings.Join(headerKey(desc), " ")
	switch key {
	case "opening balance", "beginning balance", "closing balance", "ending balance", "balance forward":
		return true
	}
	return strings.HasPrefix(strings.ReplaceAll(key, " ", ""), "saldo")
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// splitTags is SPEC.md §5's categories: comma-separated, trimmed, spaces
// inside turned to dashes.
func splitTags(s string) []string {
	var out []string
	for _, t := range strings.Split(s, ",") {
		if t = strings.Join(strings.Fields(t), "-"); t != "" {
			out = append(out, t)
		}
	}
	return out
}
