package app_test

import (
	"net/http"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
)

// TestAPIAnswersAreNotSniffed: every API answer — the core's documents,
// sessions and errors, a module's own routes — says
// X-Content-Type-Options: nosniff, as the SPA and the downloads do, so a
// browser never reads a JSON answer as HTML or script.
func TestAPIAnswersAreNotSniffed(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ana := e.SignUp("ana@example.com")
		db := e.Group(ana, "Oficina da Ana")
		cus := ana.Do("POST", "/api/"+db, map[string]any{"klass": "Customer", "name": "Bia"}).Expect(t, http.StatusCreated)["id"].(string)
		anon := e.Anonymous()
		for _, c := range []struct {
			who          *apptest.Client
			method, path string
			body         any
			code         int
		}{
			{anon, "GET", "/api/", nil, http.StatusOK},
			{anon, "GET", "/api/_session", nil, http.StatusUnauthorized},
			{anon, "GET", "/api/" + db, nil, http.StatusUnauthorized},
			{anon, "POST", "/api/_session", map[string]any{"name": "ana@example.com", "password": "wrong"}, http.StatusUnauthorized},
			{ana, "GET", "/api/" + db, nil, http.StatusOK},
			{ana, "GET", "/api/" + db + "/" + cus, nil, http.StatusOK},
			{ana, "HEAD", "/api/" + db + "/" + cus, nil, http.StatusOK},
			{ana, "GET", "/api/" + db + "/cus-00000000000000000000000000000000", nil, http.StatusNotFound},
			{ana, "POST", "/api/" + db + "/_find", map[string]any{"selector": map[string]any{"klass": "Customer"}}, http.StatusOK},
			{ana, "POST", "/api/" + db, map[string]any{"klass": "Customer"}, http.StatusUnprocessableEntity},
			{ana, "GET", "/api/" + db + "/_changes", nil, http.StatusOK},
			{ana, "GET", "/api/" + db + "/_limits", nil, http.StatusOK},
			{ana, "GET", "/api/" + db + "/_backups", nil, http.StatusOK},
			{ana, "GET", "/api/" + db + "//x", nil, http.StatusBadRequest},
		} {
			res := c.who.Do(c.method, c.path, c.body)
			if res.Code != c.code {
				t.Errorf("%s %s: %d, want %d: %s", c.method, c.path, res.Code, c.code, res.Body)
			}
			if got := res.Header.Get("X-Content-Type-Options"); got != "nosniff" {
				t.Errorf("%s %s (%d): X-Content-Type-Options %q", c.method, c.path, res.Code, got)
			}
		}
	})
}
