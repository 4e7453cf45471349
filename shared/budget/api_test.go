package budget_test

import (
	"net/http"
	"os"
	"strconv"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/config"
)

func TestMain(m *testing.M) { os.Exit(apptest.Main(m)) }

// TestGroupOverBudget: through the whole product on both stores, a Group
// that spends its requests of the minute is refused with 429 and
// Retry-After before anything is read; other Groups and a user's own db
// are not held back.
func TestGroupOverBudget(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		c := e.SignUp("ana@example.com")
		busy, quiet := e.Group(c, "Busy"), e.Group(c, "Quiet")
		const budget = 3
		refused := 0
		for i := 1; i <= budget+3 && refused == 0; i++ {
			r := c.Do("GET", "/api/"+busy+"/_all_docs?limit=1", nil)
			switch r.Code {
			case http.StatusOK:
				if i > budget+1 { // one may have refilled on a slow machine
					t.Fatalf("request %d of a budget of %d answered 200", i, budget)
				}
			case http.StatusTooManyRequests:
				if i <= budget {
					t.Fatalf("request %d refused within the budget of %d", i, budget)
				}
				r.ExpectError(t, http.StatusTooManyRequests, "Too many requests")
				if s, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || s < 1 || s > 60 {
					t.Fatalf("Retry-After %q", r.Header.Get("Retry-After"))
				}
				refused++
			default:
				t.Fatalf("request %d: %d %s", i, r.Code, r.Body)
			}
		}
		if refused == 0 {
			t.Fatal("the Group was never refused")
		}
		c.Do("GET", "/api/"+quiet+"/_all_docs?limit=1", nil).Expect(t, http.StatusOK)
		c.Do("GET", "/api/"+c.ID, nil).Expect(t, http.StatusOK)
	}, func(cfg *config.Config) { cfg.GroupBudget = 3 })
}
