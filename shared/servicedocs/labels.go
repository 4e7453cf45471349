package servicedocs

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/signintech/gopdf"

	"github.com/oficina/oficina/shared/fault"
)

// Equipment labels: one per equipment item, stuck on it at the counter —
// its identifier, the customer's name, and the number and status-page QR
// code of its open service order, so whoever picks it up from the shelf
// scans it to the ticket's page. Two sizes: a 62 mm label printer's tape
// (Brother QL-style DK-11209, 62 × 29 mm, one label per page) and an A4
// sheet of 3 × 8 labels (70 × 37 mm, the common Pimaco/Avery layout).

const (
	mm = 72 / 25.4

	maxLabels = 200

	// LabelSize62mm and LabelSizeA4 are the ?size= values.
	LabelSize62mm = "62mm"
	LabelSizeA4   = "a4"
)

var labelSizes = []string{LabelSize62mm, LabelSizeA4}

// labelData is what one label prints.
type labelData struct {
	identifier, maker, customer string
	ticketNumber                any
	statusURL                   string
}

// labels answers GET /api/{db}/_equipment/labels.pdf?ids=eqi-…,eqi-…&size=62mm|a4[&locale=]:
//
//	200 application/pdf
//	422 {"fields":{"ids":["can't be blank"|"is too long (maximum is 200 items)"],"size":["not in allowed list"]}}
//	404 when an id is not an equipment item of the Group
func (m *Module) labels(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	db := r.PathValue("db")
	q := r.URL.Query()
	size := q.Get("size")
	if size == "" {
		size = LabelSize62mm
	}
	var ids []string
	seen := map[string]bool{}
	for _, id := range strings.Split(q.Get("ids"), ",") {
		if id = strings.TrimSpace(id); id != "" && !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	errs := map[string][]string{}
	switch {
	case len(ids) == 0:
		errs["ids"] = []string{fault.CantBeBlank}
	case len(ids) > maxLabels:
		errs["ids"] = []string{fmt.Sprintf("is too long (maximum is %d items)", maxLabels)}
	}
	if size != LabelSize62mm && size != LabelSizeA4 {
		errs["size"] = []string{fault.NotInList}
	}
	if len(errs) > 0 {
		return fault.Invalid(errs)
	}
	items, err := m.labelData(ctx, db, ids)
	if err != nil {
		return err
	}
	sh, err := m.shopOf(ctx, db)
	if err != nil {
		return err
	}
	t := localeOf(r, sh.Locale)
	var s *sheet
	if size == LabelSizeA4 {
		s, err = a4Labels(t, items)
	} else {
		s, err = tapeLabels(t, items)
	}
	if err != nil {
		return err
	}
	return respondPDF(w, s, "labels.pdf")
}

// labelData reads the equipment items, their customers and the open
// service order of each (the newest one not done or cancelled).
func (m *Module) labelData(ctx context.Context, db string, ids []string) ([]labelData, error) {
	open := map[string]map[string]any{}
	tickets, err := m.listAll(ctx, db, KlassTicket, maxCalendared)
	if err != nil {
		return nil, err
	}
	for _, d := range tickets {
		var f struct {
			Equipment string `json:"equipment_id"`
			Status    string `json:"status"`
			Created   string `json:"created_at"`
		}
		if json.Unmarshal(d.Body, &f) != nil || f.Equipment == "" || f.Status == "done" || f.Status == "cancel" {
			continue
		}
		if cur := open[f.Equipment]; cur != nil && str(cur["created_at"]) > f.Created {
			continue
		}
		var body map[string]any
		if err := json.Unmarshal(d.Body, &body); err != nil {
			return nil, fmt.Errorf("servicedocs: decode %s/%s: %w", db, d.ID, err)
		}
		open[f.Equipment] = body
	}
	names := map[string]string{}
	out := make([]labelData, 0, len(ids))
	for _, id := range ids {
		_, e, err := m.getKlass(ctx, db, id, KlassEquipment)
		if err != nil {
			return nil, err
		}
		l := labelData{identifier: str(e["identifier"]), maker: strings.TrimSpace(str(e["maker"]) + " " + firstLine(str(e["description"])))}
		if c := str(e["customer_id"]); c != "" {
			name, ok := names[c]
			if !ok {
				_, cust, err := m.get(ctx, db, c)
				if err != nil {
					return nil, err
				}
				name = str(cust["name"])
				names[c] = name
			}
			l.customer = name
		}
		if tk := open[id]; tk != nil {
			l.ticketNumber = tk["number"]
			if tok := str(tk["status_token"]); tok != "" {
				l.statusURL = m.deps.BaseURL + "/s/" + tok
			}
		}
		out = append(out, l)
	}
	return out, nil
}

func firstLine(s string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(first)
}

// tapeLabels draws one 62 × 29 mm label per page.
func tapeLabels(t texts, items []labelData) (*sheet, error) {
	w, h := 62*mm, 29*mm
	s, err := newSheetSized(t, t.labels, gopdf.Rect{W: w, H: h})
	if err != nil {
		return nil, err
	}
	for i, l := range items {
		if i > 0 {
			s.pdf.AddPage()
		}
		s.label1(l, 0, 0, w, h)
	}
	return s, nil
}

// a4Labels draws the labels on A4 sheets of 3 × 8.
func a4Labels(t texts, items []labelData) (*sheet, error) {
	const cols, rows = 3, 8
	s, err := newSheet(t, t.labels)
	if err != nil {
		return nil, err
	}
	w, h := pageW/cols, pageH/rows
	for i, l := range items {
		if i > 0 && i%(cols*rows) == 0 {
			s.pdf.AddPage()
		}
		n := i % (cols * rows)
		s.label1(l, float64(n%cols)*w, float64(n/cols)*h, w, h)
	}
	return s, nil
}

// label1 draws one label in the box (x, y, w, h): the QR code of the open
// service order's status page on the left, the words on the right.
func (s *sheet) label1(l labelData, x, y, w, h float64) {
	pad := 3 * mm
	textX := x + pad
	if l.statusURL != "" {
		side := min(h-2*pad, w*0.42)
		s.qr(l.statusURL, x+pad, y+(h-side)/2, side)
		textX += side + 2*mm
	}
	width := x + w - pad - textX
	ty := y + pad
	s.font(true, 10)
	s.text(textX, ty, width, l.identifier)
	ty += 12
	if l.maker != "" {
		s.font(false, 7)
		s.text(textX, ty, width, l.maker)
		ty += 9
	}
	if l.customer != "" {
		s.font(false, 8)
		s.text(textX, ty, width, l.customer)
		ty += 10
	}
	if l.ticketNumber != nil {
		s.font(true, 8)
		s.text(textX, ty, width, fmt.Sprintf("%s nº %v", s.t.ticket, l.ticketNumber))
	} else {
		s.font(false, 7)
		s.text(textX, ty, width, s.t.noOpenTicket)
	}
}
