package app_test

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/auth"
	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/ratelimit"
	"github.com/oficina/oficina/shared/store/bolt"
)

// BenchmarkWritePath takes the write of a new Ticket (150 bytes and a
// customer reference) apart, on each store, in the user's own database and
// in a Group's (where the plan limits guard counts records):
//
//	save      docs.Service.Save as every write route calls it
//	<stage>   each guard and rule of the klass alone (docs.Service.Stages):
//	          limits.guard, schema.Klass.Rule (types and references),
//	          ticket.ticketRule, servicedocs.ticketRule, servicedocs.tokenRule…
//	stream    the change stream's work for the write (history entry, counters)
//	http      PUT through the API, with the session lookup
//
// and, per request rather than per write, the session lookup (auth) and one
// rate-limit count (ratelimit: anonymous routes only, never a signed-in
// write). Besides ns/op it reports what cannot drift unseen with the
// machine's load: commits/op on the embedded store (durable transactions,
// each with its fsyncs: a save must stay at 1) and pages/op (the pages
// those commits wrote, one write call each) and calls/op, RCU/op and
// WCU/op on DynamoDB Local. A module that adds a read or a commit to every
// write shows up here as its own stage.
//
//	go test -run '^$' -bench WritePath -benchtime 200x ./shared/app/
func BenchmarkWritePath(b *testing.B) {
	for _, backend := range apptest.Backends {
		b.Run(string(backend), func(b *testing.B) {
			ctx := context.Background()
			e := apptest.New(b, backend)
			c := e.SignUp("writer@example.com")
			group := e.Group(c, "Bench repairs")
			sess, err := e.App.Auth.Login(ctx, auth.LoginInput{Name: c.Email, Password: apptest.Password})
			if err != nil {
				b.Fatal(err)
			}
			p, err := e.App.Auth.SessionPrincipal(ctx, sess.Secret)
			if err != nil || p == nil {
				b.Fatalf("session: %v", err)
			}
			for _, place := range []struct{ name, db string }{{"own", c.ID}, {"group", group}} {
				cus := c.Do("POST", "/api/"+place.db, map[string]any{"klass": "Customer", "name": "Cida"}).Expect(b, http.StatusCreated)["id"].(string)
				ticket := func() map[string]any {
					return map[string]any{"klass": "Ticket", "priority": "medium", "customer_id": cus,
						"content": "Printer jams after ten pages; the customer needs it by Friday."}
				}
				e.Drain()
				save := func() error {
					_, err := e.App.Docs.Save(ctx, p, place.db, ids.New("tik"), "", ticket())
					return err
				}
				b.Run(place.name+"/save", func(b *testing.B) { measureWrites(b, e, nil, save) })
				e.Drain()
				for _, st := range e.App.Docs.Stages("Ticket") {
					b.Run(place.name+"/"+st.Name, func(b *testing.B) {
						var w *docs.Write
						measureWrites(b, e, func() error { w = stampedWrite(e.App.Docs, p, place.db, ticket()); return nil },
							func() error { return st.Check(ctx, w) })
					})
				}
				b.Run(place.name+"/stream", func(b *testing.B) {
					measureWrites(b, e, save, func() error { e.Drain(); return nil })
				})
				b.Run(place.name+"/http", func(b *testing.B) {
					measureWrites(b, e, nil, func() error {
						c.Do("PUT", "/api/"+place.db+"/"+ids.New("tik"), ticket()).Expect(b, http.StatusCreated)
						return nil
					})
				})
				e.Drain()
			}
			b.Run("auth", func(b *testing.B) {
				measureWrites(b, e, nil, func() error {
					if p, err := e.App.Auth.SessionPrincipal(ctx, sess.Secret); err != nil || p == nil {
						return fmt.Errorf("session: %v %v", p, err)
					}
					return nil
				})
			})
			b.Run("ratelimit", func(b *testing.B) {
				lim := ratelimit.New(e.Store, ratelimit.Edge{}, nil)
				bench := ratelimit.Limit{Name: "bench", Max: 1 << 30, Per: time.Hour}
				measureWrites(b, e, nil, func() error { return lim.Allow(ctx, bench, "192.0.2.1") })
			})
		})
	}
}

// measureWrites runs step in b's loop, each time after prepare (untimed;
// nil for none), and reports what the steps cost the store.
func measureWrites(b *testing.B, e *apptest.Env, prepare, step func() error) {
	m := &writeMeter{e: e}
	for b.Loop() {
		if prepare != nil {
			b.StopTimer()
			if err := prepare(); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		m.start()
		if err := step(); err != nil {
			b.Fatal(err)
		}
		m.stop()
	}
	m.report(b)
}

// stampedWrite is the write docs.Service.Save hands its guards and rules
// for a new document of body: server stamps set, no old body.
func stampedWrite(s *docs.Service, p *access.Principal, db string, body map[string]any) *docs.Write {
	now := s.Now().UTC().Format(docs.TimeFormat)
	by := map[string]any{"_id": p.UserID, "label": p.Label}
	n := maps.Clone(body)
	n["created_at"], n["updated_at"], n["created_by"], n["updated_by"] = now, now, by, by
	klass, _ := n["klass"].(string)
	return &docs.Write{DB: db, ID: ids.New(ids.PrefixOf(klass)), Klass: klass, Principal: p, New: n, Scratch: map[string]any{}}
}

// writeMeter adds up what the timed parts of a benchmark cost the store:
// commits on bolt, calls and capacity on DynamoDB Local.
type writeMeter struct {
	e             *apptest.Env
	ops           int
	commits       int64
	pages         int64
	calls         int
	read, write   float64
	c0, p0        int64
	calls0        int
	read0, write0 float64
}

func (m *writeMeter) now() (commits, pages int64, calls int, read, write float64) {
	if st, ok := m.e.Store.(*bolt.Store); ok {
		cs := st.CommitStats()
		commits, pages = cs.Commits, cs.PageWrites
	}
	if m.e.Meter != nil {
		read, write, calls = m.e.Meter.Totals()
	}
	return commits, pages, calls, read, write
}

func (m *writeMeter) start() { m.c0, m.p0, m.calls0, m.read0, m.write0 = m.now() }

func (m *writeMeter) stop() {
	c, pages, calls, read, write := m.now()
	m.ops++
	m.commits += c - m.c0
	m.pages += pages - m.p0
	m.calls += calls - m.calls0
	m.read += read - m.read0
	m.write += write - m.write0
}

func (m *writeMeter) report(b *testing.B) {
	if m.ops == 0 {
		return
	}
	n := float64(m.ops)
	if m.e.Meter != nil {
		b.ReportMetric(float64(m.calls)/n, "calls/op")
		b.ReportMetric(m.read/n, "RCU/op")
		b.ReportMetric(m.write/n, "WCU/op")
		return
	}
	b.ReportMetric(float64(m.commits)/n, "commits/op")
	b.ReportMetric(float64(m.pages)/n, "pages/op")
}
