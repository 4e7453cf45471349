package httpapi

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/ids"
)

// TestLongpollAnswersBeforeDeadline: on Lambda the request's context ends
// with the invocation (25 s), well before a CouchDB-style 60 s wait. The
// long poll must answer — an empty result, last_seq = since — while the
// context is still live, or the client gets API Gateway's 504.
func TestLongpollAnswersBeforeDeadline(t *testing.T) {
	e := newDocEnv(t, Config{LongpollMax: time.Minute})
	since := e.updateSeq(e.aliceDB)
	ctx, cancel := context.WithTimeout(context.Background(), longpollReserve+time.Second)
	defer cancel()
	req := httptest.NewRequestWithContext(ctx, "GET", fmt.Sprintf("/api/%s/_changes?feed=longpoll&since=%d", e.aliceDB, since), nil)
	req.Header.Set("Authorization", "Bearer alice")
	rec := httptest.NewRecorder()
	e.srv.ServeHTTP(rec, req)
	if ctx.Err() != nil {
		t.Fatalf("the long poll answered only after its request's deadline")
	}
	r := resp{Code: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
	e.expect(r, 200, "")
	res := r.json(t)
	if len(res["results"].([]any)) != 0 || uint64(res["last_seq"].(float64)) != since || res["pending"].(float64) != 0 {
		t.Fatalf("timeout answer: %s", r.Body)
	}

	// Without a deadline the configured cap bounds the wait.
	e = newDocEnv(t, Config{LongpollMax: 50 * time.Millisecond})
	r = e.do("alice", "GET", fmt.Sprintf("/api/%s/_changes?feed=longpoll&since=%d&timeout=60000", e.aliceDB, e.updateSeq(e.aliceDB)), nil)
	e.expect(r, 200, "")
	if len(r.json(t)["results"].([]any)) != 0 {
		t.Fatalf("capped wait: %s", r.Body)
	}
}

// putDocs writes n documents with bodies of about size bytes into db and
// returns their ids in write order.
func putDocs(e *docEnv, db string, n, size int) []string {
	var out []string
	for range n {
		id := ids.New("cus")
		e.do("alice", "PUT", "/api/"+db+"/"+id, map[string]any{"pad": strings.Repeat("x", size)})
		out = append(out, id)
	}
	return out
}

// documentsOnly drops history entries (ver-…) from feed ids: they are rows
// of the feed too, noted with each write.
func documentsOnly(ids []string) []string {
	return slices.DeleteFunc(ids, func(id string) bool { return strings.HasPrefix(id, "ver-") })
}

// TestChangesPageCap: without a limit an answer holds at most PageMaxRows
// rows; last_seq and pending let a client page on with since=last_seq
// until pending is 0, and it sees every document once.
func TestChangesPageCap(t *testing.T) {
	e := newDocEnv(t, Config{PageMaxRows: 5})
	db := "/api/" + e.aliceDB
	want := putDocs(e, e.aliceDB, 12, 10)

	var got []string
	since := 0.0
	for pages := 0; ; pages++ {
		if pages > 10 {
			t.Fatal("paging did not end")
		}
		res := e.do("alice", "GET", fmt.Sprintf("%s/_changes?since=%d", db, int(since)), nil).json(t)
		rows := res["results"].([]any)
		if len(rows) > 5 {
			t.Fatalf("page of %d rows, cap 5", len(rows))
		}
		for _, r := range rows {
			got = append(got, r.(map[string]any)["id"].(string))
		}
		if len(rows) > 0 && res["last_seq"].(float64) != rows[len(rows)-1].(map[string]any)["seq"].(float64) {
			t.Fatalf("last_seq is not the last row's seq: %v", res)
		}
		since = res["last_seq"].(float64)
		if res["pending"].(float64) == 0 {
			break
		}
	}
	if got = documentsOnly(got); !slices.Equal(got, want) {
		t.Fatalf("paged through %v, want %v", got, want)
	}

	// An explicit limit below the cap is honoured; above it, capped.
	for _, tc := range []struct{ limit, rows int }{{3, 3}, {50, 5}} {
		res := e.do("alice", "GET", fmt.Sprintf("%s/_changes?limit=%d", db, tc.limit), nil).json(t)
		if n := len(res["results"].([]any)); n != tc.rows || res["pending"].(float64) == 0 {
			t.Fatalf("limit=%d: %d rows, pending %v; want %d rows and more pending", tc.limit, n, res["pending"], tc.rows)
		}
	}
}

// TestChangesByteCap: with include_docs a page stops once its rows pass
// PageMaxBytes (a single large row still goes out), and paging on reaches
// every document.
func TestChangesByteCap(t *testing.T) {
	e := newDocEnv(t, Config{PageMaxBytes: 3000})
	db := "/api/" + e.aliceDB
	want := putDocs(e, e.aliceDB, 6, 1000)
	big := putDocs(e, e.aliceDB, 1, 5000)
	want = append(want, big...)
	var got []string
	since := 0.0
	for pages := 0; ; pages++ {
		if pages > 10 {
			t.Fatal("paging did not end")
		}
		r := e.do("alice", "GET", fmt.Sprintf("%s/_changes?include_docs=true&since=%d", db, int(since)), nil)
		res := r.json(t)
		rows := res["results"].([]any)
		if len(rows) == 0 {
			t.Fatalf("empty page with pending rows: %s", r.Body)
		}
		if len(rows) > 1 && len(r.Body) > 3000+500 {
			t.Fatalf("page of %d rows is %d bytes, cap 3000", len(rows), len(r.Body))
		}
		for _, row := range rows {
			got = append(got, row.(map[string]any)["id"].(string))
		}
		since = res["last_seq"].(float64)
		if res["pending"].(float64) == 0 {
			break
		}
	}
	if got = documentsOnly(got); !slices.Equal(got, want) {
		t.Fatalf("paged through %v, want %v", got, want)
	}
}

// TestAllDocsPageCap: _all_docs answers at most PageMaxRows rows, marks a
// page the server cut with "truncated", and a client paging with startkey
// and skip=1 reaches every document; an explicit limit up to the cap is
// CouchDB's plain limit; too many keys are refused.
func TestAllDocsPageCap(t *testing.T) {
	e := newDocEnv(t, Config{PageMaxRows: 5})
	db := "/api/" + e.aliceDB
	want := putDocs(e, e.aliceDB, 12, 10)
	slices.Sort(want)

	var got []string
	next := ""
	for pages := 0; ; pages++ {
		if pages > 5 {
			t.Fatal("paging did not end")
		}
		target := db + "/_all_docs"
		if next != "" {
			k, _ := json.Marshal(next)
			target += "?skip=1&startkey=" + string(k)
		}
		res := e.do("alice", "GET", target, nil).json(t)
		rows := res["rows"].([]any)
		for _, r := range rows {
			got = append(got, r.(map[string]any)["id"].(string))
		}
		if res["truncated"] != true {
			if len(rows) > 5 {
				t.Fatalf("untruncated page of %d rows", len(rows))
			}
			break
		}
		if len(rows) != 5 {
			t.Fatalf("truncated page of %d rows, cap 5", len(rows))
		}
		next = got[len(got)-1]
	}
	if got = documentsOnly(got); !slices.Equal(got, want) {
		t.Fatalf("paged through %v, want %v", got, want)
	}
	res := e.do("alice", "GET", db+"/_all_docs?limit=3", nil).json(t)
	if len(res["rows"].([]any)) != 3 || res["truncated"] != nil {
		t.Fatalf("limit=3: %v", res)
	}
	res = e.do("alice", "GET", db+"/_all_docs?limit=12", nil).json(t)
	if len(res["rows"].([]any)) != 5 || res["truncated"] != true {
		t.Fatalf("limit above the cap: %v", res)
	}
	keys := map[string]any{"keys": want[:6]}
	e.expect(e.do("alice", "POST", db+"/_all_docs", keys), 400, "at most 5 keys")
}

// TestCompress: answers of 1 KiB or more are gzipped for clients that ask,
// small ones and clients that do not ask get plain JSON, and a long poll
// still answers through the wrapper.
func TestCompress(t *testing.T) {
	e := newDocEnv(t, Config{LongpollMax: 100 * time.Millisecond})
	h := Compress(e.srv)
	putDocs(e, e.aliceDB, 20, 200)
	get := func(target, accept string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", target, nil)
		req.Header.Set("Authorization", "Bearer alice")
		if accept != "" {
			req.Header.Set("Accept-Encoding", accept)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	big := "/api/" + e.aliceDB + "/_all_docs?include_docs=true"
	rec := get(big, "gzip, deflate, br")
	if rec.Code != 200 || rec.Header().Get("Content-Encoding") != "gzip" || !strings.Contains(rec.Header().Get("Vary"), "Accept-Encoding") {
		t.Fatalf("big answer: %d, headers %v", rec.Code, rec.Header())
	}
	zr, err := gzip.NewReader(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	var res map[string]any
	if err := json.Unmarshal(plain, &res); err != nil || len(res["rows"].([]any)) != 20 {
		t.Fatalf("gunzipped answer: %v %.200s", err, plain)
	}
	if rec.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("content type %q", rec.Header().Get("Content-Type"))
	}

	rec = get(big, "")
	if rec.Header().Get("Content-Encoding") != "" || !json.Valid(rec.Body.Bytes()) {
		t.Fatalf("no Accept-Encoding: %v", rec.Header())
	}
	rec = get("/api/"+e.aliceDB, "gzip")
	if rec.Header().Get("Content-Encoding") != "" || !json.Valid(rec.Body.Bytes()) {
		t.Fatalf("small answer compressed: %v", rec.Header())
	}
	rec = get(fmt.Sprintf("/api/%s/_changes?feed=longpoll&since=now", e.aliceDB), "gzip")
	if rec.Code != 200 || !bytes.Contains(rec.Body.Bytes(), []byte(`"results":[]`)) {
		t.Fatalf("long poll through Compress: %d %s", rec.Code, rec.Body)
	}
	var _ http.Handler = h
}
