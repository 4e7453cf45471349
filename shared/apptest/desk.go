package apptest

import (
	"fmt"
	"net/http"
	"testing"
)

// BigDesk makes a Group named "Big desk" holding total tickets of one
// customer, open of them open and spread evenly, the rest done: the shop
// the board's benchmark and the capacity meter load. It returns the db.
func (e *Env) BigDesk(tb testing.TB, c *Client, total, open int) string {
	tb.Helper()
	db := e.Group(c, "Big desk")
	cus := c.Do("POST", "/api/"+db, map[string]any{"klass": "Customer", "name": "Cida"}).Expect(tb, http.StatusCreated)["id"].(string)
	for start := 0; start < total; start += 500 {
		docs := make([]any, 0, 500)
		for i := start; i < min(start+500, total); i++ {
			status := "done"
			if i%(total/open) == 0 && i/(total/open) < open {
				status = "open"
			}
			docs = append(docs, map[string]any{"klass": "Ticket", "content": fmt.Sprintf("Ticket %d\nsome detail", i), "status": status,
				"priority": []string{"low", "medium", "high"}[i%3], "customer_id": cus})
		}
		c.Do("POST", "/api/"+db+"/_bulk_docs", map[string]any{"docs": docs}).Expect(tb, http.StatusCreated)
	}
	return db
}
