package reader_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/reader"
)

// BenchmarkRefreshRound times one refresh round over 1,000 feeds served by
// a loopback server, on the embedded store, through the job dispatcher:
// 60 % answer 200 with two new items each, 30 % 304, 10 % fail (500s and
// connections dropped). The feeds belong to 10 Groups and 100 of the URLs
// are followed by two Groups (fetched once, written to both). Target:
// ≤ 30 s on 2 cores.
//
//	go test -run '^$' -bench RefreshRound -benchtime 3x ./shared/reader/
func BenchmarkRefreshRound(b *testing.B) {
	e := apptest.New(b, apptest.Bolt, loopback)
	srv := newFeedServer(b)
	const feeds = 1000
	var gen atomic.Int64 // bumped every round: the 200s get two new items
	start := e.Clock.Now()
	for i := range feeds {
		path := fmt.Sprintf("/f/%d.xml", i)
		switch {
		case i%10 == 9: // fails
			srv.handle(path, func(w http.ResponseWriter, r *http.Request) {
				if i%20 == 9 {
					http.Error(w, "down", http.StatusInternalServerError)
					return
				}
				hj, ok := w.(http.Hijacker)
				if !ok {
					http.Error(w, "down", http.StatusBadGateway)
					return
				}
				conn, _, _ := hj.Hijack()
				conn.Close()
			})
		case i%10 >= 6: // unchanged after the first fetch
			srv.serve(path, "application/rss+xml", benchFeed(i, 0, start))
		default:
			srv.handle(path, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/rss+xml")
				fmt.Fprint(w, benchFeed(i, int(gen.Load()), start))
			})
		}
	}
	// 10 Groups of 100 feeds; the first 100 URLs are also in Group 0.
	for g := range 10 {
		owner := e.SignUp(fmt.Sprintf("owner%d@example.com", g))
		db := e.Group(owner, fmt.Sprintf("Group %d", g))
		var outlines []any
		for i := g * 100; i < (g+1)*100; i++ {
			outlines = append(outlines, map[string]any{"url": srv.url(fmt.Sprintf("/f/%d.xml", i)), "title": fmt.Sprint(i)})
		}
		if g == 1 {
			for i := range 100 {
				outlines = append(outlines, map[string]any{"url": srv.url(fmt.Sprintf("/f/%d.xml", i)), "title": fmt.Sprint(i)})
			}
		}
		owner.Do("POST", "/api/"+db+"/_reader/opml", map[string]any{"outlines": outlines}).Expect(b, http.StatusOK)
	}
	e.Drain()
	round(b, e) // the first fetch of everything
	e.Drain()
	var total time.Duration
	rounds := 0
	for b.Loop() {
		b.StopTimer()
		gen.Add(1)
		e.Clock.Advance(61 * time.Minute)
		b.StartTimer()
		t0 := time.Now()
		round(b, e)
		total += time.Since(t0)
		rounds++
		b.StopTimer()
		e.Drain() // the change stream's work, outside the round
		b.StartTimer()
	}
	per := total / time.Duration(max(rounds, 1))
	b.ReportMetric(per.Seconds(), "s/round")
	b.ReportMetric(float64(feeds)/per.Seconds(), "feeds/s")
}

// benchFeed is feed i at generation gen: ten items, plus two per generation.
func benchFeed(i, gen int, start time.Time) string {
	var its []item
	for k := range 10 + 2*gen {
		its = append(its, item{guid: fmt.Sprintf("%d-%d", i, k), title: fmt.Sprintf("Feed %d item %d", i, k), link: fmt.Sprintf("https://f%d.example/%d", i, k),
			content: fmt.Sprintf("<p>Item %d of feed %d, with a <a href=\"/x\">link</a> and some text to sanitise.</p>", k, i), posted: start.Add(-time.Duration(1000-k) * time.Minute)})
	}
	slices.Reverse(its)
	if len(its) > 50 {
		its = its[:50]
	}
	return rss(fmt.Sprintf("Feed %d", i), fmt.Sprintf("https://f%d.example/", i), its...)
}

// BenchmarkFeedListPage times the feed list page (the view the dashboard
// and reader_items#index call, through the API with a signed-in session)
// in a Group holding 100,000 items, for the common filters. Target: p50 ≤
// 10 ms.
//
//	go test -run '^$' -bench FeedListPage -benchtime 200x ./shared/reader/
func BenchmarkFeedListPage(b *testing.B) {
	e, c, db, label := feedListEnv(b)
	for _, q := range []string{
		"read=all&starred=all",
		"read=unread&starred=all",
		"read=unread&starred=all&page=5",
		"starred=starred",
		"read=all&label=" + label,
		"read=read&label=" + label + "&page=3",
		"read=unread&label=" + label, // every item of the label is read: none
		"read=all&starred=all&page=50",
	} {
		b.Run(q, func(b *testing.B) {
			var lat []time.Duration
			for b.Loop() {
				t0 := time.Now()
				r := c.Do("GET", "/api/"+db+"/_design/reader/_view/feed?"+q, nil)
				lat = append(lat, time.Since(t0))
				if r.Code != http.StatusOK {
					b.Fatalf("%d %s", r.Code, r.Body)
				}
			}
			slices.Sort(lat)
			pct := func(p float64) float64 { return float64(lat[int(float64(len(lat)-1)*p)].Microseconds()) / 1000 }
			b.ReportMetric(pct(0.50), "p50-ms")
			b.ReportMetric(pct(0.99), "p99-ms")
		})
	}
	_ = e
}

// feedListEnv builds a Group with 100,000 items written through the write
// path (as the fetcher writes them) and the counts drained: half read, one
// in fifty starred, one in ten with a label. The parent benchmark builds it
// once (a benchmark with sub-benchmarks runs once) for all filters.
func feedListEnv(b *testing.B) (*apptest.Env, *apptest.Client, string, string) {
	e := apptest.New(b, apptest.Bolt)
	c := e.SignUp("reader@example.com")
	db := e.Group(c, "Big reader")
	label := c.Do("POST", "/api/"+db, map[string]any{"klass": "ReaderLabel", "name": "Tenth"}).Expect(b, http.StatusCreated)["id"].(string)
	sub := c.Do("POST", "/api/"+db, map[string]any{"klass": "ReaderSubscription", "url": "https://big.example/feed"}).Expect(b, http.StatusCreated)["id"].(string)
	server := &access.Principal{UserID: "_reader", Name: "_reader", Label: "exoreader"}
	const n = 100_000
	start := e.Clock.Now()
	var wg sync.WaitGroup
	work := make(chan int)
	var failed atomic.Value
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				labels := []any{}
				if i%10 == 0 {
					labels = append(labels, label)
				}
				body := map[string]any{"klass": reader.KlassItem, "title": fmt.Sprintf("Item %d", i), "url": fmt.Sprintf("https://big.example/%d", i),
					"content":                fmt.Sprintf("<p>Item %d, a paragraph of text as feeds have them, with a <a href=\"https://big.example/\">link</a>.</p>", i),
					"reader_subscription_id": sub, "reader_subscription": map[string]any{"_id": sub, "title": "Big", "label": "Big"},
					"reader_label_ids": labels, "read": i%2 == 0, "starred": i%50 == 0,
					"posted_at": start.Add(-time.Duration(i) * time.Minute).Format(time.RFC3339)}
				if _, err := e.App.Docs.Save(context.Background(), server, db, ids.New("rit"), "", body); err != nil {
					failed.Store(err)
				}
			}
		}()
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
	if err, _ := failed.Load().(error); err != nil {
		b.Fatal(err)
	}
	e.Drain()
	if got := feedPage(b, c, db, "")["total_rows"]; got != float64(n) {
		b.Fatalf("%v items counted", got)
	}
	return e, c, db, label
}
