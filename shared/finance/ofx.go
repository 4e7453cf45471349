package finance

import (
	"bytes"
	"fmt"
	"io"
	"math/big"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/aclindsa/ofxgo"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
)

// ofxRows reads the transactions of an OFX/QFX statement (bank or credit
// card; SGML 1.x and XML 2.x) with ofxgo. A statement is small (the import
// body is bounded), so it is parsed whole; each transaction keeps its FITID,
// which the import's ids are made of, so an overlapping statement imports
// each transaction once.
type ofxRows struct {
	rows     []Row
	Currency string
}

func newOFXRows(src io.Reader, precision int) (*ofxRows, error) {
	raw, err := io.ReadAll(src)
	if err != nil {
		return nil, fmt.Errorf("finance: read OFX: %w", err)
	}
	text, err := ofxUTF8(raw)
	if err != nil {
		return nil, err
	}
	resp, err := ofxgo.ParseResponse(bytes.NewReader(text))
	if err != nil {
		return nil, refusal("file", "The OFX statement could not be read: "+firstLine(err.Error()))
	}
	out := &ofxRows{}
	var tx []ofxgo.Transaction
	for _, msg := range append(append([]ofxgo.Message(nil), resp.Bank...), resp.CreditCard...) {
		switch st := msg.(type) {
		case *ofxgo.StatementResponse:
			out.Currency = st.CurDef.String()
			if st.BankTranList != nil {
				tx = append(tx, st.BankTranList.Transactions...)
			}
		case *ofxgo.CCStatementResponse:
			out.Currency = st.CurDef.String()
			if st.BankTranList != nil {
				tx = append(tx, st.BankTranList.Transactions...)
			}
		}
	}
	scale := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(precision)), nil))
	for i, t := range tx {
		line := i + 1
		fitid := strings.TrimSpace(string(t.FiTID))
		if fitid == "" {
			return nil, rowError(line, "file", "the transaction has no FITID")
		}
		minor := new(big.Rat).Mul(&t.TrnAmt.Rat, scale)
		if !minor.IsInt() {
			return nil, rowError(line, "value", fmt.Sprintf("%q has more decimals than the wallet's %d", t.TrnAmt.String(), precision))
		}
		n := minor.Num()
		if !n.IsInt64() || len(strings.TrimLeft(n.String(), "-")) > maxIntDigits+precision {
			return nil, rowError(line, "value", fmt.Sprintf("%q is not an amount", t.TrnAmt.String()))
		}
		value := n.Int64()
		if value == 0 {
			continue
		}
		r := Row{Line: line, Klass: KlassIncome, Value: value, PostedAt: t.DtPosted.Format("2006-01-02"), FITID: fitid}
		if value < 0 {
			r.Klass, r.Value = KlassOutgo, -value
		}
		r.Description = strings.TrimSpace(string(t.Name))
		if r.Description == "" {
			r.Description = strings.TrimSpace(string(t.Memo))
		}
		if t.Payee != nil {
			r.ThirdParty = strings.TrimSpace(string(t.Payee.Name))
		}
		out.rows = append(out.rows, r)
	}
	return out, nil
}

// Next returns the next transaction (io.EOF at the end).
func (o *ofxRows) Next() (Row, error) {
	if len(o.rows) == 0 {
		return Row{}, io.EOF
	}
	r := o.rows[0]
	o.rows = o.rows[1:]
	return r, nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// MsgOFXNotUTF8 refuses a statement whose header says UTF-8 but whose
// text is not.
const MsgOFXNotUTF8 = "The OFX statement says it is UTF-8 but it is not"

var (
	ofxEncoding = regexp.MustCompile(`(?i)\bENCODING:\s*([A-Z0-9-]+)`)
	ofxCharset  = regexp.MustCompile(`(?i)\bCHARSET:\s*([A-Z0-9_-]+)`)
	xmlEncoding = regexp.MustCompile(`(?i)<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9_.:-]+)["']`)
)

// ofxUTF8 returns a statement as UTF-8, the only text ofxgo's XML reader
// takes. OFX 1.x (SGML) declares its character set in the header lines
// before <OFX>: ENCODING:UTF-8, or ENCODING:USASCII with CHARSET:1252
// (Windows-1252: Banco do Brasil, most Brazilian banks) or
// CHARSET:ISO-8859-1; OFX 2.x in its XML declaration. A text that is
// valid UTF-8 already is kept as it is whatever the header says (single-
// byte accented text is practically never valid UTF-8, while banks that
// declare 1252 and send UTF-8 exist); otherwise it is decoded in the
// declared character set, or in Windows-1252 when none is declared (a
// superset of ISO-8859-1's printable characters). A file declaring UTF-8
// that is not is refused.
func ofxUTF8(raw []byte) ([]byte, error) {
	if utf8.Valid(raw) {
		return raw, nil
	}
	head := raw
	if i := bytes.IndexByte(raw, '<'); i >= 0 {
		head = raw[:i]
	}
	name := ""
	if m := xmlEncoding.FindSubmatch(raw[:min(len(raw), 1024)]); m != nil {
		name = string(m[1])
	} else if m := ofxEncoding.FindSubmatch(head); m != nil && isUTF8Name(string(m[1])) {
		name = string(m[1])
	} else if m := ofxCharset.FindSubmatch(head); m != nil {
		name = string(m[1])
	}
	if isUTF8Name(name) {
		return nil, refusal("file", MsgOFXNotUTF8)
	}
	enc := charsetNamed(name)
	if enc == nil {
		enc = charmap.Windows1252
	}
	out, err := enc.NewDecoder().Bytes(raw)
	if err != nil {
		return nil, refusal("file", "The OFX statement could not be read: "+err.Error())
	}
	return out, nil
}

// charsetNamed is the single-byte character set an OFX header or XML
// declaration names (nil for UTF-8, NONE or one we do not know).
func charsetNamed(name string) encoding.Encoding {
	switch strings.ToUpper(strings.ReplaceAll(name, "_", "-")) {
	case "1252", "WINDOWS-1252", "CP1252", "WIN-1252":
		return charmap.Windows1252
	case "ISO-8859-1", "8859-1", "ISO8859-1", "LATIN1", "LATIN-1":
		return charmap.ISO8859_1
	case "ISO-8859-15", "8859-15", "LATIN9":
		return charmap.ISO8859_15
	}
	return nil
}

func isUTF8Name(name string) bool {
	switch strings.ToUpper(name) {
	case "UTF-8", "UTF8", "UNICODE":
		return true
	}
	return false
}
