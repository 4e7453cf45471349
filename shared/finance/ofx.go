package finance

import (
	"fmt"
	"io"
	"math/big"
	"strings"

	"github.com/aclindsa/ofxgo"
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
	resp, err := ofxgo.ParseResponse(src)
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
