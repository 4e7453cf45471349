package links

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/oficina/oficina/shared/fault"
)

// Without a page fetcher (no reader wired), a title is not fetched: 404
// saying to enter one, after the URL itself was checked.
func TestFetchTitleWithoutFetcher(t *testing.T) {
	m := &Module{}
	for body, want := range map[string]fault.Kind{
		`{"url":"https://example.com/"}`: fault.NotFound,
		`{"url":"ftp://example.com/"}`:   fault.Unprocessable,
	} {
		r := httptest.NewRequest("POST", "/api/acc-x/_links/title", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		err := m.fetchTitle(httptest.NewRecorder(), r)
		fe, ok := fault.As(err)
		if !ok || fe.Kind != want {
			t.Errorf("%s: %v, want %d", body, err, want)
		}
		if want == fault.NotFound && fe.Reason != MsgTitleUnavailable {
			t.Errorf("reason %q", fe.Reason)
		}
	}
}
