package servicedocs

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/signintech/gopdf"
	"github.com/skip2/go-qrcode"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"

	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/module"
)

// A4 in points, and the page margin.
const (
	pageW, pageH = 595.28, 841.89
	margin       = 36.0
	qrSize       = 88.0
)

// sheet is one PDF being drawn: the Go fonts (TrueType, so accents and R$
// print in any language, unlike the core fonts' Latin-1) and a cursor.
type sheet struct {
	pdf *gopdf.GoPdf
	t   texts
	err error
}

func newSheet(t texts, title string) (*sheet, error) {
	return newSheetSized(t, title, *gopdf.PageSizeA4)
}

// newSheetSized starts a PDF whose pages are size (in points).
func newSheetSized(t texts, title string, size gopdf.Rect) (*sheet, error) {
	pdf := &gopdf.GoPdf{}
	pdf.Start(gopdf.Config{PageSize: size})
	pdf.SetInfo(gopdf.PdfInfo{Title: title, Creator: "Oficina"})
	if err := pdf.AddTTFFontData("go", goregular.TTF); err != nil {
		return nil, fmt.Errorf("servicedocs: font: %w", err)
	}
	if err := pdf.AddTTFFontData("go-bold", gobold.TTF); err != nil {
		return nil, fmt.Errorf("servicedocs: font: %w", err)
	}
	pdf.AddPage()
	return &sheet{pdf: pdf, t: t}, nil
}

func (s *sheet) font(bold bool, size float64) {
	family := "go"
	if bold {
		family = "go-bold"
	}
	if err := s.pdf.SetFont(family, "", size); err != nil && s.err == nil {
		s.err = err
	}
}

// text writes one line at (x, y), cut to width.
func (s *sheet) text(x, y, width float64, line string) {
	line = strings.Join(strings.Fields(line), " ")
	if width > 0 {
		if lines, err := s.pdf.SplitText(line, width); err == nil && len(lines) > 0 {
			line = lines[0]
		}
	}
	s.pdf.SetXY(x, y)
	if err := s.pdf.Cell(nil, line); err != nil && s.err == nil {
		s.err = err
	}
}

// para writes text wrapped to width from y, at most maxLines lines (0 = no
// limit), keeping its line breaks; it returns the y below it.
func (s *sheet) para(x, y, width, lead float64, text string, maxLines int) float64 {
	n := 0
	for _, raw := range strings.Split(strings.ReplaceAll(text, "\r", ""), "\n") {
		lines, err := s.pdf.SplitTextWithWordWrap(strings.Join(strings.Fields(raw), " "), width)
		if err != nil || len(lines) == 0 {
			lines = []string{""}
		}
		for _, l := range lines {
			if maxLines > 0 && n == maxLines {
				return y
			}
			s.text(x, y, 0, l)
			y += lead
			n++
		}
	}
	return y
}

// label writes "Label: value" on one line and returns the y below it.
func (s *sheet) label(x, y, width float64, label, value string) float64 {
	s.font(true, 9)
	s.text(x, y, 0, label+":")
	w, _ := s.pdf.MeasureTextWidth(label + ": ")
	s.font(false, 9)
	s.text(x+w, y, width-w, value)
	return y + 13
}

func (s *sheet) qr(url string, x, y, size float64) {
	code, err := qrcode.New(url, qrcode.Medium)
	if err != nil {
		if s.err == nil {
			s.err = err
		}
		return
	}
	code.DisableBorder = false
	if err := s.pdf.ImageFrom(code.Image(256), x, y, &gopdf.Rect{W: size, H: size}); err != nil && s.err == nil {
		s.err = err
	}
}

// header draws the shop's name and contacts at the top of a block and
// returns the y below it.
func (s *sheet) header(sh shop, y, width float64) float64 {
	s.font(true, 14)
	s.text(margin, y, width, sh.Name)
	y += 18
	s.font(false, 8)
	if p := sh.phonesLine(sh.Phones); p != "" {
		s.text(margin, y, width, p)
		y += 11
	}
	for i, a := range sh.Addresses {
		if i == 2 {
			break
		}
		s.text(margin, y, width, addressLine(a))
		y += 11
	}
	return y
}

func (s *sheet) bytes() ([]byte, error) {
	if s.err != nil {
		return nil, fmt.Errorf("servicedocs: pdf: %w", s.err)
	}
	var b bytes.Buffer
	if err := s.pdf.Write(&b); err != nil {
		return nil, fmt.Errorf("servicedocs: pdf: %w", err)
	}
	return b.Bytes(), nil
}

// phonesLine prints a phone list, numbers of the shop's country the
// national way.
func (sh shop) phonesLine(list []any) string {
	var out []string
	for _, p := range list {
		if m, ok := p.(map[string]any); ok && str(m["number"]) != "" {
			out = append(out, strings.TrimSpace(sh.phones.Display(str(m["number"]), sh.Country)+" "+paren(str(m["description"]))))
		}
	}
	return strings.Join(out, " · ")
}

func paren(s string) string {
	if s == "" {
		return ""
	}
	return "(" + s + ")"
}

func addressLine(a any) string {
	m, _ := a.(map[string]any)
	var parts []string
	street := strings.TrimSpace(str(m["street"]) + " " + str(m["number"]))
	for _, p := range []string{street, str(m["complement"]), str(m["neighborhood"]), str(m["city"]), str(m["state"]), str(m["zip_code"])} {
		if strings.TrimSpace(p) != "" {
			parts = append(parts, strings.TrimSpace(p))
		}
	}
	return strings.Join(parts, ", ")
}

// ---- the documents ----------------------------------------------------------

// receiptData is what a ticket's receipts print.
type receiptData struct {
	shop                        shop
	ticket, customer, equipment map[string]any
	contract                    map[string]any
	statusURL                   string
}

func (m *Module) receiptData(ctx context.Context, db string, t map[string]any) (receiptData, error) {
	d := receiptData{ticket: t, statusURL: m.deps.BaseURL + "/s/" + str(t["status_token"])}
	var err error
	if d.shop, err = m.shopOf(ctx, db); err != nil {
		return d, err
	}
	if _, d.customer, err = m.get(ctx, db, str(t["customer_id"])); err != nil {
		return d, err
	}
	if _, d.equipment, err = m.get(ctx, db, str(t["equipment_id"])); err != nil {
		return d, err
	}
	if _, d.contract, err = m.get(ctx, db, str(t["contract_id"])); err != nil {
		return d, err
	}
	return d, nil
}

// twoCopyReceipt draws the customer's and the shop's copy of a ticket on
// one A4 page, a cut line between them.
func twoCopyReceipt(t texts, d receiptData) (*sheet, error) {
	s, err := newSheet(t, fmt.Sprintf("%s %v", t.ticket, d.ticket["number"]))
	if err != nil {
		return nil, err
	}
	half := pageH / 2
	for i, copyName := range []string{t.customerCopy, t.shopCopy} {
		receiptCopy(s, d, float64(i)*half+margin*0.8, copyName)
	}
	s.pdf.SetLineWidth(0.5)
	s.pdf.SetLineType("dashed")
	s.pdf.SetStrokeColor(150, 150, 150)
	s.pdf.Line(margin/2, half, pageW-margin/2, half)
	return s, nil
}

func receiptCopy(s *sheet, d receiptData, top float64, copyName string) {
	t := s.t
	width := pageW - 2*margin - qrSize - 12
	y := s.header(d.shop, top, width)
	s.qr(d.statusURL, pageW-margin-qrSize, top-4, qrSize)
	s.font(false, 7)
	s.text(pageW-margin-qrSize, top+qrSize-2, qrSize, t.scan)

	y += 8
	s.font(true, 12)
	s.text(margin, y, width, fmt.Sprintf("%s nº %v", t.ticket, d.ticket["number"]))
	y += 15
	s.font(false, 8)
	s.text(margin, y, width, copyName)
	y += 16
	y = s.label(margin, y, width, t.date, t.day(str(d.ticket["created_at"])))
	y = s.label(margin, y, width, t.status, t.statuses[str(d.ticket["status"])])
	if est := str(d.ticket["estimation"]); est != "" {
		y = s.label(margin, y, width, t.estimation, t.day(est))
	}
	customer := str(d.customer["name"])
	if p := d.shop.phonesLine(jsonList(d.customer["phones"])); p != "" {
		customer += " · " + p
	}
	// Below the QR code, the lines take the whole width.
	y = s.label(margin, max(y, top+qrSize+8), pageW-2*margin, t.customer, customer)
	y = s.label(margin, y, pageW-2*margin, t.equipment, equipmentName(d.equipment))
	if obs := str(d.ticket["equipment_observation"]); obs != "" {
		s.font(false, 8)
		y = s.para(margin+12, y, pageW-2*margin-12, 10, obs, 2)
	}
	s.font(true, 9)
	s.text(margin, y, 0, t.problem+":")
	y += 12
	s.font(false, 9)
	y = s.para(margin, y, pageW-2*margin, 11.5, str(d.ticket["content"]), 6)
	if d.shop.ReceiptText != "" {
		y += 6
		s.font(false, 7)
		y = s.para(margin, y, pageW-2*margin, 9, d.shop.ReceiptText, 4)
	}
	// The shop's terms (warranty, pickup deadline), then the two signatures
	// at the foot of the copy, whatever the text above took.
	signY := top - margin*0.8 + pageH/2 - 30
	terms := strings.TrimSpace(d.shop.Terms)
	if terms == "" {
		terms = t.defaultTerms
	}
	y += 6
	if lines := int((signY - 24 - y) / 8.5); lines > 0 {
		s.font(true, 7)
		s.text(margin, y, 0, t.terms+":")
		s.font(false, 7)
		s.para(margin+42, y, pageW-2*margin-42, 8.5, terms, min(lines, 5))
	}
	s.pdf.SetLineWidth(0.5)
	s.pdf.SetLineType("solid")
	s.pdf.SetStrokeColor(0, 0, 0)
	colW := (pageW - 2*margin - 40) / 2
	for i, who := range []string{t.signature, t.technicianSignature} {
		x := margin + float64(i)*(colW+40)
		s.pdf.Line(x, signY, x+colW, signY)
		s.font(false, 7)
		s.text(x, signY+3, colW, who)
	}
	if name := str(d.customer["name"]); name != "" {
		s.text(margin+colW/2, signY+3, colW/2, name)
	}
}

// contractReceiptPage draws a ticket's contract on a page of its own.
func contractReceiptPage(s *sheet, d receiptData) {
	t := s.t
	width := pageW - 2*margin
	y := s.header(d.shop, margin, width)
	y += 10
	s.font(true, 13)
	s.text(margin, y, width, fmt.Sprintf("%s — %s nº %v", t.contract, t.ticket, d.ticket["number"]))
	y += 20
	y = s.label(margin, y, width, t.customer, str(d.customer["name"]))
	y = s.label(margin, y, width, t.equipment, equipmentName(d.equipment))
	if p := str(d.contract["payment_kind"]); p != "" {
		y = s.label(margin, y, width, t.paymentKind, p)
	}
	y += 4
	s.font(false, 9)
	y = s.para(margin, y, width, 11.5, str(d.contract["description"]), 20)
	y += 8
	s.font(true, 10)
	s.text(margin, y, 0, t.contractItems)
	y += 14
	for i, it := range jsonList(d.contract["items"]) {
		obj, _ := it.(map[string]any)
		n := fmt.Sprint(obj["number"])
		if obj["number"] == nil {
			n = fmt.Sprint(i + 1)
		}
		s.font(true, 9)
		s.text(margin, y, 0, n+".")
		s.font(false, 9)
		y = s.para(margin+18, y, width-18, 11.5, str(obj["content"]), 12)
		y += 3
		if y > pageH-120 {
			break
		}
	}
	y = max(y+40, pageH-110)
	s.pdf.SetLineType("solid")
	s.pdf.SetStrokeColor(0, 0, 0)
	s.pdf.Line(margin, y, margin+240, y)
	s.font(false, 8)
	s.text(margin, y+4, 0, t.signature)
}

// estimateSheet draws an estimate with its items, total and approval QR.
func estimateSheet(t texts, sh shop, e, customer map[string]any, approveURL string, withObservation bool) (*sheet, error) {
	t.currency = sh.Currency
	s, err := newSheet(t, fmt.Sprintf("%s %v", t.estimate, e["number"]))
	if err != nil {
		return nil, err
	}
	width := pageW - 2*margin
	y := s.header(sh, margin, width-qrSize-12)
	s.qr(approveURL, pageW-margin-qrSize, margin-4, qrSize)
	y = max(y, margin+qrSize) + 8
	s.font(true, 13)
	s.text(margin, y, width, fmt.Sprintf("%s nº %v", t.estimate, e["number"]))
	y += 20
	y = s.label(margin, y, width, t.date, t.day(str(e["created_at"])))
	y = s.label(margin, y, width, t.customer, str(customer["name"]))
	if v := str(e["valid_until"]); v != "" {
		y = s.label(margin, y, width, t.validUntil, t.day(v))
	}
	y += 4
	s.font(false, 9)
	y = s.para(margin, y, width, 11.5, str(e["description"]), 10)
	y += 8
	cols := []float64{margin, margin + 300, margin + 350, margin + 440}
	s.font(true, 9)
	for i, h := range []string{t.description, t.quantity, t.value, t.amount} {
		s.text(cols[i], y, 0, h)
	}
	y += 13
	s.pdf.SetLineWidth(0.5)
	s.pdf.Line(margin, y-2, pageW-margin, y-2)
	s.font(false, 9)
	for _, it := range jsonList(e["items"]) {
		obj, _ := it.(map[string]any)
		q, v := toInt(obj["quantity"]), toInt(obj["value"])
		s.text(cols[0], y, 290, str(obj["description"]))
		s.text(cols[1], y, 0, fmt.Sprint(q))
		s.text(cols[2], y, 0, t.money(v))
		s.text(cols[3], y, 0, t.money(q*v))
		y += 13
		if y > pageH-160 {
			break
		}
	}
	s.pdf.Line(margin, y, pageW-margin, y)
	y += 6
	s.font(true, 11)
	s.text(cols[2], y, 0, t.total)
	s.text(cols[3], y, 0, t.money(toInt(e["total"])))
	y += 22
	if obs := str(e["observation"]); withObservation && obs != "" {
		s.font(true, 9)
		s.text(margin, y, 0, t.observation+":")
		y += 12
		s.font(false, 9)
		y = s.para(margin, y, width, 11.5, obs, 8)
		y += 6
	}
	if sh.ReceiptText != "" {
		s.font(false, 7)
		y = s.para(margin, y, width, 9, sh.ReceiptText, 6)
		y += 6
	}
	s.font(false, 8)
	s.text(margin, y, 0, t.approveAt)
	s.text(margin, y+11, width, approveURL)
	return s, nil
}

// ---- the routes -------------------------------------------------------------

// localeOf picks the PDF's language: ?locale=, the user's, the browser's,
// the Group's.
func localeOf(r *http.Request, group string) texts {
	var user string
	if p := module.Principal(r); p != nil {
		user = p.Locale
	}
	return textsFor(r.URL.Query().Get("locale"), user, r.Header.Get("Accept-Language"), group)
}

// ticketSheet loads what a ticket's receipts print, in the request's language.
func (m *Module) ticketSheet(r *http.Request) (receiptData, texts, error) {
	ctx := r.Context()
	db := r.PathValue("db")
	_, t, err := m.getKlass(ctx, db, r.PathValue("id"), KlassTicket)
	if err != nil {
		return receiptData{}, texts{}, err
	}
	d, err := m.receiptData(ctx, db, t)
	if err != nil {
		return d, texts{}, err
	}
	return d, localeOf(r, d.shop.Locale), nil
}

// respondPDF finishes a sheet and answers it.
func respondPDF(w http.ResponseWriter, s *sheet, name string) error {
	pdf, err := s.bytes()
	if err != nil {
		return err
	}
	writePDF(w, name, pdf)
	return nil
}

// ticketReceipt answers GET /api/{db}/_tickets/{id}/receipt.pdf: the
// two-copy receipt, and the contract receipt after it when the Group's
// contract-receipt setting is "always" and the ticket has a contract.
func (m *Module) ticketReceipt(w http.ResponseWriter, r *http.Request) error {
	d, tr, err := m.ticketSheet(r)
	if err != nil {
		return err
	}
	s, err := twoCopyReceipt(tr, d)
	if err != nil {
		return err
	}
	always, err := m.setting(r.Context(), r.PathValue("db"), "contract-receipt")
	if err != nil {
		return err
	}
	if d.contract != nil && always == "always" {
		s.pdf.AddPage()
		contractReceiptPage(s, d)
	}
	return respondPDF(w, s, fmt.Sprintf("ticket-%v.pdf", d.ticket["number"]))
}

// contractReceipt answers GET /api/{db}/_tickets/{id}/contract-receipt.pdf
// (a ticket without a contract has none: 404).
func (m *Module) contractReceipt(w http.ResponseWriter, r *http.Request) error {
	d, tr, err := m.ticketSheet(r)
	if err != nil {
		return err
	}
	if d.contract == nil {
		return fault.New(fault.NotFound, "This ticket has no contract")
	}
	s, err := newSheet(tr, fmt.Sprintf("%s %v", tr.contract, d.ticket["number"]))
	if err != nil {
		return err
	}
	contractReceiptPage(s, d)
	return respondPDF(w, s, fmt.Sprintf("contract-%v.pdf", d.ticket["number"]))
}

// estimateReceipt answers GET /api/{db}/_estimates/{id}/receipt.pdf.
func (m *Module) estimateReceipt(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	db := r.PathValue("db")
	_, e, err := m.getKlass(ctx, db, r.PathValue("id"), KlassEstimate)
	if err != nil {
		return err
	}
	sh, err := m.shopOf(ctx, db)
	if err != nil {
		return err
	}
	_, customer, err := m.get(ctx, db, str(e["customer_id"]))
	if err != nil {
		return err
	}
	obs, err := m.setting(ctx, db, "estimate-observation")
	if err != nil {
		return err
	}
	s, err := estimateSheet(localeOf(r, sh.Locale), sh, e, customer, m.deps.BaseURL+"/e/"+str(e["approval_token"]), obs == "enabled")
	if err != nil {
		return err
	}
	return respondPDF(w, s, fmt.Sprintf("estimate-%v.pdf", e["number"]))
}
