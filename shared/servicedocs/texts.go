package servicedocs

import (
	"fmt"
	"strings"
	"time"

	"golang.org/x/text/language"
)

// texts are the words the server itself prints (PDFs, the decision note on
// a ticket, calendar entries), in the two languages of the product.
type texts struct {
	locale                                            string
	customerCopy, shopCopy, ticket, date, customer    string
	equipment, problem, status, scan, estimate        string
	description, quantity, value, amount, total       string
	observation, validUntil, approveAt, contract      string
	contractItems, paymentKind, signature, estimation string
	maintenanceDue, ticketDue                         string
	technicianSignature, terms, defaultTerms          string
	labels, noOpenTicket                              string
	statuses                                          map[string]string
	decisionNote                                      map[string]string
}

var english = texts{
	locale:       "en",
	customerCopy: "Customer copy", shopCopy: "Shop copy (keep with the equipment)",
	ticket: "Service order", date: "Date", customer: "Customer", equipment: "Equipment",
	problem: "Problem reported", status: "Status", scan: "Scan to follow the service",
	estimate: "Estimate", description: "Description", quantity: "Qty", value: "Unit value", amount: "Amount",
	total: "Total", observation: "Observation", validUntil: "Valid until", approveAt: "Scan or open to approve:",
	contract: "Contract", contractItems: "Terms", paymentKind: "Payment", signature: "Customer signature",
	estimation: "Expected on", maintenanceDue: "Maintenance due", ticketDue: "Service order due",
	technicianSignature: "Technician signature", terms: "Terms",
	labels: "Equipment labels", noOpenTicket: "No open service order",
	defaultTerms: "Warranty: 90 days on the service done and the parts replaced, from the day the equipment is collected; " +
		"it does not cover misuse, liquids, falls or repairs by others. Pickup: equipment not collected within 90 days " +
		"of the notice that it is ready may be treated as abandoned, and storage may be charged.",
	statuses:     map[string]string{"open": "Open", "block": "Blocked", "doing": "In progress", "review": "In review", "done": "Done", "cancel": "Cancelled"},
	decisionNote: map[string]string{"approve": "Estimate #%s was approved by %s on the approval page.", "refuse": "Estimate #%s was refused by %s on the approval page."},
}

var portuguese = texts{
	locale:       "pt-BR",
	customerCopy: "Via do cliente", shopCopy: "Via da loja (acompanha o equipamento)",
	ticket: "Ordem de serviço", date: "Data", customer: "Cliente", equipment: "Equipamento",
	problem: "Problema relatado", status: "Situação", scan: "Acompanhe o serviço pelo código",
	estimate: "Orçamento", description: "Descrição", quantity: "Qtd", value: "Valor unitário", amount: "Valor",
	total: "Total", observation: "Observação", validUntil: "Válido até", approveAt: "Leia o código ou abra para aprovar:",
	contract: "Contrato", contractItems: "Cláusulas", paymentKind: "Pagamento", signature: "Assinatura do cliente",
	estimation: "Previsão", maintenanceDue: "Manutenção prevista", ticketDue: "Entrega prevista da OS",
	technicianSignature: "Assinatura do técnico", terms: "Condições",
	labels: "Etiquetas de equipamentos", noOpenTicket: "Sem ordem de serviço aberta",
	defaultTerms: "Garantia: 90 dias para o serviço executado e as peças substituídas, a contar da retirada do equipamento " +
		"(CDC, art. 26); não cobre mau uso, líquidos, quedas ou reparo por terceiros. Retirada: o equipamento não retirado " +
		"em até 90 dias após o aviso de conclusão poderá ser considerado abandonado, com cobrança de guarda.",
	statuses:     map[string]string{"open": "Aberto", "block": "Bloqueado", "doing": "Em andamento", "review": "Em revisão", "done": "Concluído", "cancel": "Cancelado"},
	decisionNote: map[string]string{"approve": "O orçamento nº %s foi aprovado por %s na página de aprovação.", "refuse": "O orçamento nº %s foi recusado por %s na página de aprovação."},
}

var locales = language.NewMatcher([]language.Tag{language.English, language.BrazilianPortuguese})

// textsFor picks the texts for a locale or an Accept-Language value;
// Portuguese of any region reads the Brazilian texts.
func textsFor(prefs ...string) texts {
	for _, p := range prefs {
		if p == "" {
			continue
		}
		tags, _, err := language.ParseAcceptLanguage(p)
		if err != nil || len(tags) == 0 {
			continue
		}
		_, i, conf := locales.Match(tags...)
		if conf == language.No {
			continue
		}
		if i == 1 {
			return portuguese
		}
		return english
	}
	return english
}

// money formats cents as SPEC.md §9 says: "US$ 1,234.50" in English and
// "R$ 1.234,50" in Portuguese (the currency follows the language).
func (t texts) money(cents int64) string {
	neg := cents < 0
	if neg {
		cents = -cents
	}
	whole, frac := cents/100, cents%100
	digits := fmt.Sprint(whole)
	sep, dec, symbol := ",", ".", "US$"
	if t.locale == "pt-BR" {
		sep, dec, symbol = ".", ",", "R$"
	}
	var b strings.Builder
	for i, r := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteString(sep)
		}
		b.WriteRune(r)
	}
	s := fmt.Sprintf("%s %s%s%02d", symbol, b.String(), dec, frac)
	if neg {
		s = "-" + s
	}
	return s
}

// day formats a date (YYYY-MM-DD or RFC 3339) for print: 2026-11-25 or 25/11/2026.
func (t texts) day(s string) string {
	if len(s) < 10 {
		return s
	}
	d, err := time.Parse(time.DateOnly, s[:10])
	if err != nil {
		return s
	}
	if t.locale == "pt-BR" {
		return d.Format("02/01/2006")
	}
	return d.Format("Jan 2, 2006")
}
