package finance

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/httpjson"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/mango"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/store"
)

// The import (SPEC.md §3 "CSV import", issue 11 §2). The browser sends the
// bank's file as the body; options come as query parameters, over the
// wallet's saved profile, over what Detect proposes. The body is spooled
// to a temporary file (hashed on the way), then read row by row:
//
//   - check reads it once and answers the options, the headers, totals and
//     a preview of the first rows with the mapping rules applied and each
//     row's status (new, duplicate of a record already there, imported
//     before) — a problem on a line is part of the answer, for the screen's
//     live check;
//   - import reads it once to validate every row (any problem: 422 naming
//     the line, nothing written), then again to write. Each row's id is
//     derived from the Group, the wallet and the file's hash and line (an
//     OFX transaction's FITID instead), so importing the same file again
//     creates nothing and an import cut short is finished by sending the
//     file again: the import is resumable, never half-imported by design.

// KlassCSV is a wallet's import profile (SPEC.md §3 "CSV import").
const KlassCSV = "CSV"

// MaxImportBytes bounds an uploaded statement.
const MaxImportBytes = 10 << 20

// MsgTooLarge refuses a larger file.
var MsgTooLarge = fmt.Sprintf("The file is larger than %d MB; split it by period and import each part", MaxImportBytes>>20)

// previewRows is how many rows check shows.
const previewRows = 100

// importWorkers write rows concurrently: the embedded store folds
// concurrent writes into one commit and one fsync (bbolt's Batch), so 64
// writers in flight make ~160 commits of a 10,000-row file instead of
// 10,000 (7.4 s → 2.8 s with 8 writers → 64); DynamoDB takes them in
// parallel.
const importWorkers = 64

// Row statuses.
const (
	StatusNew       = "new"
	StatusDuplicate = "duplicate"
	StatusImported  = "imported"
)

// job is one request's statement: the spooled file and how to read it.
type job struct {
	db, wallet string
	currency   string
	precision  int
	opts       Options
	hash       string // the file's sha256, hex
	path       string
	headers    []string
	profile    bool
	keep       map[int]bool
}

func (j *job) close() { _ = os.Remove(j.path) }

// prepare spools the body, checks the wallet and settles the options.
func (m *Module) prepare(w http.ResponseWriter, r *http.Request) (*job, error) {
	ctx, db, q := r.Context(), r.PathValue("db"), r.URL.Query()
	wl, err := m.wallet(ctx, db, q.Get("wallet_id"))
	if err != nil {
		return nil, err
	}
	if wl == nil {
		return nil, invalid("wallet_id", "must exist")
	}
	j := &job{db: db, wallet: q.Get("wallet_id"), currency: str(wl["currency"]), precision: 2}
	if p, ok := wl["precision"].(json.Number); ok {
		n, _ := p.Int64()
		j.precision = int(n)
	} else if p, ok := wl["precision"].(float64); ok {
		j.precision = int(p)
	}
	f, err := os.CreateTemp("", "oficina-import-*")
	if err != nil {
		return nil, fmt.Errorf("finance: spool: %w", err)
	}
	j.path = f.Name()
	h := sha256.New()
	_, err = io.Copy(io.MultiWriter(f, h), http.MaxBytesReader(w, r.Body, MaxImportBytes))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		j.close()
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, fault.New(fault.TooLarge, MsgTooLarge)
		}
		return nil, fault.Wrap(fault.BadRequest, "could not read the file", err)
	}
	j.hash = hex.EncodeToString(h.Sum(nil))
	if err := m.settle(ctx, j, q); err != nil {
		j.close()
		return nil, err
	}
	return j, nil
}

// settle picks the options: detected, then the wallet's profile (unless
// detect=true), then the query's.
func (m *Module) settle(ctx context.Context, j *job, q url.Values) error {
	f, err := os.Open(j.path)
	if err != nil {
		return fmt.Errorf("finance: open spool: %w", err)
	}
	sample := make([]byte, sampleSize)
	n, _ := io.ReadFull(f, sample)
	_ = f.Close()
	if n == 0 {
		return refusal("file", MsgEmptyStatement)
	}
	o, err := Detect(sample[:n])
	if err != nil {
		return err
	}
	if o.Format == "csv" && q.Get("detect") != "true" {
		if p, ok, err := m.profile(ctx, j.db, j.wallet); err != nil {
			return err
		} else if ok {
			o, j.profile = p, true
		}
	}
	if err := overrideOptions(&o, q); err != nil {
		return err
	}
	j.opts = o
	if kept := q.Get("keep"); kept != "" {
		j.keep = map[int]bool{}
		for _, s := range strings.Split(kept, ",") {
			line, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || line < 1 {
				return invalid("keep", "must list line numbers")
			}
			j.keep[line] = true
		}
	}
	return nil
}

// overrideOptions applies the query's options.
func overrideOptions(o *Options, q url.Values) error {
	errs := map[string][]string{}
	oneOf := func(name string, dst *string, allowed ...string) {
		if v := q.Get(name); v != "" {
			for _, a := range allowed {
				if v == a {
					*dst = v
					return
				}
			}
			errs[name] = []string{"not in allowed list"}
		}
	}
	oneOf("encoding", &o.Encoding, EncUTF8, EncWin1252)
	oneOf("decimal", &o.Decimal, ",", ".")
	oneOf("most_items_are", &o.MostItems, MostIncome, MostOutgo)
	if v := q.Get("delimiter"); v != "" {
		if v == "tab" {
			v = "\t"
		}
		o.Delimiter = v
		if v != "," && v != ";" && v != "\t" && v != "|" {
			errs["delimiter"] = []string{"not in allowed list"}
		}
	}
	if v := q.Get("date_format"); v != "" {
		o.DateFormat = v
		if dateLayout(v) == "" {
			errs["date_format"] = []string{MsgDateFormat}
		}
	}
	if v := q.Get("first_line_is_header"); v != "" {
		o.Header = v == "true"
	}
	if v := q.Get("skip"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 100 {
			errs["skip"] = []string{"must be a number of lines from 0 to 100"}
		}
		o.Skip = n
	}
	for _, name := range []string{"date", "description", "value", "debit", "credit", "third_party", "categories"} {
		v := q.Get("col_" + name)
		if v == "" {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < -1 || n > 500 {
			errs["col_"+name] = []string{"must be a column number"}
			continue
		}
		*o.Columns.field(name) = n
	}
	if len(errs) > 0 {
		return fault.Invalid(errs)
	}
	return nil
}

// rowSource is a statement's rows.
type rowSource interface {
	Next() (Row, error)
}

// open starts reading the spooled file.
func (j *job) open() (rowSource, io.Closer, error) {
	f, err := os.Open(j.path)
	if err != nil {
		return nil, nil, fmt.Errorf("finance: open spool: %w", err)
	}
	if j.opts.Format == "ofx" {
		src, err := newOFXRows(f, j.precision)
		if err != nil {
			_ = f.Close()
			return nil, nil, err
		}
		if src.Currency != "" && !strings.EqualFold(src.Currency, j.currency) {
			_ = f.Close()
			return nil, nil, refusal("wallet_id", fmt.Sprintf("The statement is in %s and the wallet in %s", src.Currency, j.currency))
		}
		return src, f, nil
	}
	src, err := newCSVRows(f, j.opts, j.precision)
	if err != nil {
		_ = f.Close()
		return nil, nil, err
	}
	return &headerSource{src, j}, f, nil
}

// headerSource hands the CSV's header row to the job once it is read.
type headerSource struct {
	*csvRows
	j *job
}

func (h *headerSource) Next() (Row, error) {
	r, err := h.csvRows.Next()
	if h.j.headers == nil && h.started {
		h.j.headers = h.Headers
		if h.j.headers == nil {
			h.j.headers = []string{}
		}
	}
	return r, err
}

// CheckResult is check's answer.
type CheckResult struct {
	Options     Options      `json:"options"`
	FromProfile bool         `json:"from_profile"`
	Headers     []string     `json:"headers"`
	Currency    string       `json:"currency"`
	Precision   int          `json:"precision"`
	Rows        int          `json:"rows"`
	Incomes     int          `json:"incomes"`
	Outgos      int          `json:"outgos"`
	IncomeTotal int64        `json:"income_total"`
	OutgoTotal  int64        `json:"outgo_total"`
	New         int          `json:"new"`
	Duplicates  int          `json:"duplicates"`
	Imported    int          `json:"imported"`
	Blank       int          `json:"blank"`
	Preview     []PreviewRow `json:"preview"`
	// Problem is the first line that cannot be read with these options.
	Problem *Problem `json:"problem,omitempty"`
}

// Problem is a line the options cannot read, for the screen's live check.
type Problem struct {
	Reason string              `json:"reason"`
	Fields map[string][]string `json:"fields"`
}

// PreviewRow is a row as it will be created.
type PreviewRow struct {
	Row
	Status string   `json:"status"`
	Rules  []string `json:"rules"`
}

// checkImport answers POST /api/{db}/_finance/import/check?wallet_id=…
func (m *Module) checkImport(w http.ResponseWriter, r *http.Request) error {
	j, err := m.prepare(w, r)
	if err != nil {
		return err
	}
	defer j.close()
	ctx := r.Context()
	res := CheckResult{Options: j.opts, FromProfile: j.profile, Currency: j.currency, Precision: j.precision, Preview: []PreviewRow{}}
	rs, err := m.loadRules(ctx, m.deps.Store, j.db)
	if err != nil {
		return err
	}
	dd := m.newDeduper(j)
	err = j.each(func(row Row) error {
		raw := row.Description
		fired := rs.apply(&row)
		status, err := dd.status(ctx, row, raw)
		if err != nil {
			return err
		}
		res.Rows++
		switch status {
		case StatusNew:
			res.New++
		case StatusDuplicate:
			res.Duplicates++
		case StatusImported:
			res.Imported++
		}
		if row.Klass == KlassIncome {
			res.Incomes++
			res.IncomeTotal += row.Value
		} else {
			res.Outgos++
			res.OutgoTotal += row.Value
		}
		if len(res.Preview) < previewRows {
			if fired == nil {
				fired = []string{}
			}
			res.Preview = append(res.Preview, PreviewRow{Row: row, Status: status, Rules: fired})
		}
		return nil
	}, &res.Blank)
	if fe, ok := fault.As(err); ok && fe.Kind == fault.Unprocessable {
		res.Problem = &Problem{Reason: fe.Reason, Fields: fe.Fields}
		if res.Problem.Reason == "" {
			res.Problem.Reason = firstFieldMessage(fe.Fields)
		}
	} else if err != nil {
		return err
	}
	if res.Problem == nil && res.Rows == 0 {
		res.Problem = &Problem{Reason: MsgEmptyStatement, Fields: map[string][]string{"file": {MsgEmptyStatement}}}
	}
	res.Headers = j.headerNames()
	httpjson.Write(w, http.StatusOK, res)
	return nil
}

func firstFieldMessage(fields map[string][]string) string {
	for _, k := range []string{"file", "columns", "date_format", "value", "delimiter", "encoding"} {
		if len(fields[k]) > 0 {
			return fields[k][0]
		}
	}
	for _, v := range fields {
		if len(v) > 0 {
			return v[0]
		}
	}
	return ""
}

// headerNames are the header's cells, or "Column N" without a header (and
// at least as many names as the columns chosen).
func (j *job) headerNames() []string {
	out := append([]string{}, j.headers...)
	for i := len(out); i <= j.opts.Columns.max(); i++ {
		out = append(out, fmt.Sprintf("Column %d", i+1))
	}
	if j.opts.Format == "ofx" {
		return []string{}
	}
	return out
}

// each runs fn on every row; blank counts the rows without an amount.
func (j *job) each(fn func(Row) error, blank *int) error {
	src, c, err := j.open()
	if err != nil {
		return err
	}
	defer c.Close()
	for {
		row, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		cleanRow(&row)
		if err := fn(row); err != nil {
			return err
		}
	}
	if h, ok := src.(*headerSource); ok && blank != nil {
		*blank = h.Blank
	}
	return nil
}

// cleanRow makes a row's texts fit the money records' fields: control
// characters (a quoted field's line breaks) become spaces, lengths are
// bounded, and a row without a description takes the third party's name.
func cleanRow(r *Row) {
	r.Description, r.ThirdParty = oneLine(r.Description, 200), oneLine(r.ThirdParty, 200)
	if r.Description == "" {
		r.Description = r.ThirdParty
	}
	if r.Description == "" {
		r.Description = fmt.Sprintf("Line %d", r.Line)
	}
	for i, c := range r.Categories {
		r.Categories[i] = oneLine(c, 100)
	}
	if len(r.Categories) > 50 {
		r.Categories = r.Categories[:50]
	}
}

// oneLine keeps a text as the bank wrote it, spacing included ("PAGTO
// ELETRON  COBRANCA"), but for line breaks and other control characters,
// which become one space each (a CRLF one), and the ends, trimmed.
func oneLine(s string, max int) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.TrimSpace(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.IsSpace(r) && r != ' ' {
			return ' '
		}
		return r
	}, s))
	if rs := []rune(s); len(rs) > max {
		s = string(rs[:max])
	}
	return s
}

// ImportResult is import's answer.
type ImportResult struct {
	OK         bool `json:"ok"`
	Rows       int  `json:"rows"`
	Created    int  `json:"created"`
	Duplicates int  `json:"duplicates"`
	Imported   int  `json:"imported"`
	Blank      int  `json:"blank"`
}

// runImport answers POST /api/{db}/_finance/import?wallet_id=…[&keep=3,9]
func (m *Module) runImport(w http.ResponseWriter, r *http.Request) error {
	j, err := m.prepare(w, r)
	if err != nil {
		return err
	}
	defer j.close()
	ctx := r.Context()
	res := ImportResult{OK: true}
	if err := j.each(func(Row) error { res.Rows++; return nil }, &res.Blank); err != nil {
		return err
	}
	if res.Rows == 0 {
		return refusal("file", MsgEmptyStatement)
	}
	rs, err := m.loadRules(ctx, m.deps.Store, j.db)
	if err != nil {
		return err
	}
	if err := m.write(ctx, module.Principal(r), j, rs, &res); err != nil {
		return err
	}
	if j.opts.Format == "csv" {
		if err := m.saveProfile(ctx, module.Principal(r), j); err != nil {
			return err
		}
	}
	httpjson.Write(w, http.StatusOK, res)
	return nil
}

// write creates the new rows with importWorkers writers; rows in flight
// are bounded by the channel.
func (m *Module) write(ctx context.Context, p *access.Principal, j *job, rs rules, res *ImportResult) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	type item struct {
		row Row
		raw string
	}
	work := make(chan item, importWorkers*4)
	dd := m.newDeduper(j)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range importWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for it := range work {
				if ctx.Err() != nil {
					continue
				}
				outcome, err := m.writeRow(ctx, p, j, dd, it.row, it.raw)
				if err != nil {
					cancel(err)
					continue
				}
				mu.Lock()
				switch outcome {
				case StatusNew:
					res.Created++
				case StatusDuplicate:
					res.Duplicates++
				case StatusImported:
					res.Imported++
				}
				mu.Unlock()
			}
		}()
	}
	err := j.each(func(row Row) error {
		raw := row.Description
		rs.apply(&row)
		select {
		case work <- item{row, raw}:
			return nil
		case <-ctx.Done():
			return context.Cause(ctx)
		}
	}, nil)
	close(work)
	wg.Wait()
	if cause := context.Cause(ctx); cause != nil && err == nil {
		err = cause
	}
	return err
}

// writeRow creates one row unless it was imported before or duplicates a
// record the user did not ask to keep.
func (m *Module) writeRow(ctx context.Context, p *access.Principal, j *job, dd *deduper, row Row, raw string) (string, error) {
	status, err := dd.status(ctx, row, raw)
	if err != nil || status == StatusImported || status == StatusDuplicate && !j.keep[row.Line] {
		return status, err
	}
	body := map[string]any{
		"klass": row.Klass, "description": row.Description, "posted_at": row.PostedAt, "value": row.Value,
		"wallet_id": j.wallet, "imported": true, "confirmed": false, "import_file": j.hash[:32], "import_line": row.Line,
	}
	if row.ThirdParty != "" {
		body[map[string]string{KlassIncome: "paid_by", KlassOutgo: "paid_to"}[row.Klass]] = row.ThirdParty
	}
	if len(row.Categories) > 0 {
		body["categories"] = docs.List(row.Categories)
	}
	_, err = m.deps.Docs.Save(ctx, p, j.db, dd.id(row), "", body)
	if errors.Is(err, store.ErrConflict) {
		return StatusImported, nil // a concurrent import of the same file wrote it
	}
	if err != nil {
		return "", fmt.Errorf("finance: import line %d: %w", row.Line, err)
	}
	return StatusNew, nil
}

// deduper tells a row's status: imported before (its id exists, live or
// deleted — a deleted import stays deleted), a duplicate (a record of the
// wallet with the same date, klass, amount and description from another
// file or typed by hand), or new. Lookups by date are cached, boundedly.
type deduper struct {
	m     *Module
	j     *job
	mu    sync.Mutex
	dates map[string][]existing
	// oldKeys says, per klass, whether its index still held keys written
	// before it was keyed by posted_at when the import first looked.
	oldKeys map[string]bool
}

type existing struct {
	WalletID    string `json:"wallet_id"`
	Klass       string `json:"klass"`
	Value       int64  `json:"value"`
	Description string `json:"description"`
	ImportFile  string `json:"import_file"`
}

func (m *Module) newDeduper(j *job) *deduper {
	return &deduper{m: m, j: j, dates: map[string][]existing{}, oldKeys: map[string]bool{}}
}

// id is the row's deterministic id.
func (d *deduper) id(r Row) string {
	key := fmt.Sprintf("%s|%s|%s|%d", d.j.db, d.j.wallet, d.j.hash, r.Line)
	if r.FITID != "" {
		key = fmt.Sprintf("%s|%s|fitid|%s", d.j.db, d.j.wallet, r.FITID)
	}
	sum := sha256.Sum256([]byte(key))
	return ids.PrefixOf(r.Klass) + "-" + hex.EncodeToString(sum[:16])
}

func (d *deduper) status(ctx context.Context, r Row, raw string) (string, error) {
	id := d.id(r)
	_, suffix, _ := strings.Cut(id, "-")
	for _, k := range []string{KlassIncome, KlassOutgo} { // the same line, read as the other kind before
		_, err := d.m.deps.Store.Get(ctx, d.j.db, ids.PrefixOf(k)+"-"+suffix)
		if err == nil || errors.Is(err, store.ErrDeleted) {
			return StatusImported, nil
		}
		if !errors.Is(err, store.ErrNotFound) {
			return "", fmt.Errorf("finance: dedupe %s: %w", id, err)
		}
	}
	same, err := d.onDate(ctx, r.PostedAt)
	if err != nil {
		return "", err
	}
	for _, e := range same {
		if e.Klass == r.Klass && e.Value == r.Value && e.ImportFile != d.j.hash[:32] &&
			(sameText(e.Description, raw) || sameText(e.Description, r.Description)) {
			return StatusDuplicate, nil
		}
	}
	return StatusNew, nil
}

// sameText compares descriptions as a person reads them: case and runs of
// spaces aside (one typed by hand has single spaces where the bank's has
// two).
func sameText(a, b string) bool {
	return strings.EqualFold(strings.Join(strings.Fields(a), " "), strings.Join(strings.Fields(b), " "))
}

// onDate lists the wallet's incomes and expenses of a date: the klass
// index is keyed by posted_at (IndexBy), so one prefix read finds the
// date's records of every wallet. Records written before the klasses were
// keyed so keep their old key (wallet_id|posted_at|created_at) until the
// daily re-key moves them; while a klass's index holds any, they are read
// by that prefix too.
func (d *deduper) onDate(ctx context.Context, date string) ([]existing, error) {
	d.mu.Lock()
	got, ok := d.dates[date]
	d.mu.Unlock()
	if ok {
		return got, nil
	}
	var out []existing
	for _, k := range []string{KlassIncome, KlassOutgo} {
		prefixes := []string{mango.OrderKey(date, true)}
		old, err := d.holdsOldKeys(ctx, k)
		if err != nil {
			return nil, fmt.Errorf("finance: list %s on %s: %w", k, date, err)
		}
		if old {
			prefixes = append(prefixes, d.j.wallet+"|"+date+"|")
		}
		for _, prefix := range prefixes {
			q := store.ListQuery{Klass: k, Prefix: prefix, Limit: 500}
			for {
				page, err := d.m.deps.Store.List(ctx, d.j.db, q)
				if err != nil {
					return nil, fmt.Errorf("finance: list %s on %s: %w", k, date, err)
				}
				for _, doc := range page.Docs {
					var e existing
					if err := json.Unmarshal(doc.Body, &e); err == nil && e.WalletID == d.j.wallet {
						out = append(out, e)
					}
				}
				if page.Next == "" {
					break
				}
				q.After = page.Next
			}
		}
	}
	d.mu.Lock()
	if len(d.dates) >= 512 {
		clear(d.dates)
	}
	d.dates[date] = out
	d.mu.Unlock()
	return out, nil
}

// holdsOldKeys tells whether klass's index holds keys written before it
// was keyed by posted_at, read once an import.
func (d *deduper) holdsOldKeys(ctx context.Context, klass string) (bool, error) {
	d.mu.Lock()
	old, ok := d.oldKeys[klass]
	d.mu.Unlock()
	if ok {
		return old, nil
	}
	rekeyed, err := d.m.deps.Docs.OrderKeysOnly(ctx, d.j.db, klass)
	if err != nil {
		return false, err
	}
	d.mu.Lock()
	d.oldKeys[klass] = !rekeyed
	d.mu.Unlock()
	return !rekeyed, nil
}

// profileID is the wallet's import profile's id.
func profileID(db, wallet string) string {
	sum := sha256.Sum256([]byte(db + "|" + wallet))
	return ids.PrefixOf(KlassCSV) + "-" + hex.EncodeToString(sum[:16])
}

// profile reads the wallet's saved options.
func (m *Module) profile(ctx context.Context, db, wallet string) (Options, bool, error) {
	d, err := m.deps.Store.Get(ctx, db, profileID(db, wallet))
	if errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrDeleted) {
		return Options{}, false, nil
	}
	if err != nil {
		return Options{}, false, fmt.Errorf("finance: read import profile: %w", err)
	}
	var p Options
	if err := json.Unmarshal(d.Body, &p); err != nil {
		return Options{}, false, fmt.Errorf("finance: decode import profile: %w", err)
	}
	p.Format = "csv"
	return p, true, nil
}

// saveProfile keeps the options that read this file for the wallet's next.
func (m *Module) saveProfile(ctx context.Context, p *access.Principal, j *job) error {
	id := profileID(j.db, j.wallet)
	rev := ""
	if d, err := m.deps.Store.Get(ctx, j.db, id); err == nil {
		var was Options
		if json.Unmarshal(d.Body, &was) == nil {
			was.Format = j.opts.Format
			if was == j.opts {
				return nil // unchanged: a re-import writes nothing
			}
		}
		rev = d.Rev
	}
	raw, _ := json.Marshal(j.opts)
	body, err := docs.Decode(raw)
	if err != nil {
		return fmt.Errorf("finance: import profile: %w", err)
	}
	body["klass"], body["wallet"], body["headers"] = KlassCSV, j.wallet, docs.List(j.headers)
	body["ignore_line_one"] = j.opts.Skip > 0
	delete(body, "format")
	if _, err := m.deps.Docs.Save(ctx, p, j.db, id, rev, body); err != nil {
		return fmt.Errorf("finance: save import profile: %w", err)
	}
	return nil
}
