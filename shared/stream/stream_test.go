package stream_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/store/bolt"
	"github.com/oficina/oficina/shared/store/dynamo"
	"github.com/oficina/oficina/shared/store/dynamo/ddblocal"
	"github.com/oficina/oficina/shared/stream"
	"github.com/oficina/oficina/shared/stream/streamtest"
	"github.com/oficina/oficina/shared/ticket"
)

func TestMain(m *testing.M) { os.Exit(ddblocal.Main(m)) }

const db = "acc-4f1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e"

// backends opens a fresh store of each kind; the consumer must behave the
// same on both.
var backends = []struct {
	name string
	open func(t *testing.T) store.Store
}{
	{"bolt", openBolt},
	{"dynamo", openDynamo},
}

func openBolt(t *testing.T) store.Store {
	st, err := bolt.Open(filepath.Join(t.TempDir(), "oficina.db"), bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func openDynamo(t *testing.T) store.Store {
	_, client := ddblocal.Start(t)
	table := ddblocal.TableName(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := dynamo.CreateTable(ctx, client, table); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(table)})
	})
	return dynamo.New(client, table)
}

// newConsumer is the consumer with the ticket module's tallies and event
// types, which the workload's tickets exercise.
func newConsumer(st store.Store) *stream.Consumer {
	return stream.New(st, stream.Options{
		Tallies: ticket.Tallies(),
		Events:  map[string][]stream.EventRule{ticket.KlassTicket: {ticket.CloseOpenEvents}},
	})
}

func apply(t *testing.T, c *stream.Consumer, changes []store.Change) {
	t.Helper()
	if err := c.Apply(t.Context(), changes); err != nil {
		t.Fatalf("Apply(%d changes): %v", len(changes), err)
	}
}

// TestApplyTwice: a batch delivered again changes nothing — counters,
// contributions, history entries, the db's update_seq.
func TestApplyTwice(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			st := b.open(t)
			c := newConsumer(st) // before the writes: on DynamoDB it notes them
			w := streamtest.NewWriter(t, st, db)
			w.RandomMix(7, 120)

			apply(t, c, w.Changes)
			first := streamtest.Take(t, st, db, w.IDs())
			streamtest.CheckCounts(t, newConsumer(st), st, db)
			streamtest.CheckHistory(t, st, db, w.Changes)
			if first.Counts == "" || len(first.History) == 0 {
				t.Fatalf("nothing written: %+v", first)
			}

			apply(t, c, w.Changes)
			streamtest.Take(t, st, db, w.IDs()).Equal(t, "same batch again", first)
			// Any part of it again, in any order, changes nothing either.
			part := slices.Clone(w.Changes[10:60])
			rand.New(rand.NewPCG(1, 1)).Shuffle(len(part), func(i, j int) { part[i], part[j] = part[j], part[i] })
			apply(t, c, part)
			streamtest.Take(t, st, db, w.IDs()).Equal(t, "part of the batch again, shuffled", first)
		})
	}
}

// TestRandomMix: 1,000 seeded writes delivered in uneven batches, with a
// fifth of the changes delivered a second time out of order, end with
// counters equal to a recount and one history entry per change.
func TestRandomMix(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			st := b.open(t)
			c := newConsumer(st)
			w := streamtest.NewWriter(t, st, db)
			w.RandomMix(42, 1000)
			r := rand.New(rand.NewPCG(42, 43))
			start := time.Now()
			for i := 0; i < len(w.Changes); {
				n := 1 + r.IntN(250)
				batch := slices.Clone(w.Changes[i:min(i+n, len(w.Changes))])
				// Redeliver some earlier changes inside this batch.
				for range len(batch) / 5 {
					batch = append(batch, w.Changes[r.IntN(i+1)])
				}
				r.Shuffle(len(batch), func(i, j int) { batch[i], batch[j] = batch[j], batch[i] })
				apply(t, c, batch)
				i += n
			}
			t.Logf("%s: applied %d changes in %v", b.name, len(w.Changes), time.Since(start))
			got := streamtest.CheckCounts(t, newConsumer(st), st, db)
			streamtest.CheckHistory(t, st, db, w.Changes)
			if len(got.Klass) < 4 || len(got.Tally(ticket.TallyByPriority)) < 3 || len(got.Tally(ticket.TallyOpenByPriority)) < 3 {
				t.Fatalf("the workload should leave several klasses and priorities: %+v", got)
			}
		})
	}
}

// TestOutOfOrder: a newer change applied before an older one wins, for
// updates and for deletes.
func TestOutOfOrder(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			st := b.open(t)
			c := newConsumer(st)
			w := streamtest.NewWriter(t, st, db)
			const a, z = "tik-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "tik-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
			w.Put(a, map[string]any{"klass": "Ticket", "priority": "high", "status": "open"})
			w.Put(a, map[string]any{"klass": "Ticket", "priority": "low", "status": "done"})
			w.Put(z, map[string]any{"klass": "Ticket", "priority": "medium", "status": "open"})
			w.Delete(z)
			ch := w.Changes
			apply(t, c, []store.Change{ch[1]})
			apply(t, c, []store.Change{ch[0]})
			apply(t, c, []store.Change{ch[3], ch[2]})
			got := streamtest.CheckCounts(t, newConsumer(st), st, db)
			want := stream.Counts{
				Klass:   map[string]stream.KlassCount{"Ticket": {Records: 1, Bytes: got.Klass["Ticket"].Bytes}},
				Tallies: map[string]map[string]int64{ticket.TallyByPriority: {"low": 1}, ticket.TallyByStatus: {"done": 1}},
			}
			g, _ := json.Marshal(got)
			wt, _ := json.Marshal(want)
			if string(g) != string(wt) || got.Klass["Ticket"].Bytes == 0 {
				t.Fatalf("counts %s, want %s", g, wt)
			}
			streamtest.CheckHistory(t, st, db, w.Changes)
		})
	}
}

// TestSkipped: system databases and the stream's own documents write
// neither history nor counters; uncounted klasses get history only.
func TestSkipped(t *testing.T) {
	st := openBolt(t)
	c := newConsumer(st)
	users := streamtest.NewWriter(t, st, "_users")
	users.Put("usr-33333333333333333333333333333333", map[string]any{"klass": "User", "fullname": "Ana"})
	// The server's own bookkeeping databases (names starting with "_", such
	// as the reader's feed directory) are not Group data either.
	directory := streamtest.NewWriter(t, st, "_reader")
	directory.Put("acc-1/rsb-1", map[string]any{"klass": "Subscriber", "url": "https://x.example/feed"})
	w := streamtest.NewWriter(t, st, db)
	w.Put("adj-33333333333333333333333333333333", map[string]any{"klass": "Adjustment", "key": "name", "value": "x"})
	apply(t, c, append(append(users.Changes, directory.Changes...), w.Changes...))
	before := streamtest.Take(t, st, db, w.IDs())
	if before.Counts != "" || len(before.Contribs) != 0 || len(before.History) != 1 {
		t.Fatalf("adjustment: counts %q, %d contributions, %d history entries; want history only", before.Counts, len(before.Contribs), len(before.History))
	}
	for _, sys := range []string{"_users", "_reader"} {
		if s := streamtest.Take(t, st, sys, nil); len(s.History) != 0 || s.Counts != "" {
			t.Fatalf("%s got history or counters: %+v", sys, s)
		}
	}
	// The history entries' own changes are ignored.
	hist, err := st.Changes(t.Context(), db, store.ChangesQuery{})
	if err != nil {
		t.Fatal(err)
	}
	var own []store.Change
	for _, d := range hist {
		if d.Klass == stream.KlassDocumentChange {
			own = append(own, store.Change{DB: db, New: d})
		}
	}
	if len(own) != 1 {
		t.Fatalf("%d history changes in the feed, want 1", len(own))
	}
	apply(t, c, own)
	streamtest.Take(t, st, db, w.IDs()).Equal(t, "history changes applied", before)
}

// TestEvents checks the event types of history entries.
func TestEvents(t *testing.T) {
	doc := func(rev string, deleted bool, klass, body string) *store.Doc {
		return &store.Doc{ID: "x-1", Rev: rev, Seq: 9, Deleted: deleted, Klass: klass, Body: []byte(body)}
	}
	const by = `"updated_at":"2026-05-04T12:00:00.000Z","updated_by":{"_id":"usr-1","label":"Ana"}`
	tests := []struct {
		name     string
		old, new *store.Doc
		event    string
		events   []string
		changed  []string
	}{
		{"create", nil, doc("1-a", false, "Customer", `{"klass":"Customer","name":"Zé",`+by+`}`),
			"create", []string{"create"}, []string{"name"}},
		{"revive", doc("2-a", true, "Customer", `{}`), doc("3-a", false, "Customer", `{"klass":"Customer","name":"Zé",`+by+`}`),
			"create", []string{"create"}, []string{"name"}},
		{"comment", nil, doc("1-a", false, "Comment", `{"klass":"Comment","content":"hi",`+by+`}`),
			"create", []string{"create", "comment"}, []string{"content"}},
		{"import", nil, doc("1-a", false, "Income", `{"klass":"Income","imported":true,`+by+`}`),
			"create", []string{"create", "import"}, []string{"imported"}},
		{"update", doc("1-a", false, "Customer", `{"klass":"Customer","name":"A","updated_at":"x"}`), doc("2-a", false, "Customer", `{"klass":"Customer","name":"B",`+by+`}`),
			"update", []string{"update"}, []string{"name"}},
		{"removed field", doc("1-a", false, "Customer", `{"klass":"Customer","name":"A","site":"s"}`), doc("2-a", false, "Customer", `{"klass":"Customer","name":"A",`+by+`}`),
			"update", []string{"update"}, []string{"site"}},
		{"confirm", doc("1-a", false, "Outgo", `{"klass":"Outgo","confirmed":false}`), doc("2-a", false, "Outgo", `{"klass":"Outgo","confirmed":true,`+by+`}`),
			"update", []string{"update", "confirm"}, []string{"confirmed"}},
		{"unconfirm", doc("1-a", false, "Income", `{"klass":"Income","confirmed":true}`), doc("2-a", false, "Income", `{"klass":"Income",`+by+`}`),
			"update", []string{"update", "unconfirm"}, []string{"confirmed"}},
		{"close", doc("1-a", false, "Ticket", `{"klass":"Ticket","status":"doing"}`), doc("2-a", false, "Ticket", `{"klass":"Ticket","status":"done",`+by+`}`),
			"update", []string{"update", "status", "close"}, []string{"status"}},
		{"reopen", doc("1-a", false, "Ticket", `{"klass":"Ticket","status":"cancel"}`), doc("2-a", false, "Ticket", `{"klass":"Ticket","status":"open",`+by+`}`),
			"update", []string{"update", "status", "open"}, []string{"status"}},
		{"membership status", doc("1-a", false, "Membership", `{"klass":"Membership","status":"pending"}`), doc("2-a", false, "Membership", `{"klass":"Membership","status":"accepted",`+by+`}`),
			"update", []string{"update", "status"}, []string{"status"}},
		{"bookmark", doc("1-a", false, "Membership", `{"klass":"Membership","bookmark":false}`), doc("2-a", false, "Membership", `{"klass":"Membership","bookmark":true,`+by+`}`),
			"update", []string{"update", "bookmark"}, []string{"bookmark"}},
		{"billing email", doc("1-a", false, "Adjustment", `{"klass":"Adjustment","key":"billing-email","value":"a@x"}`), doc("2-a", false, "Adjustment", `{"klass":"Adjustment","key":"billing-email","value":"b@x",`+by+`}`),
			"update", []string{"update", "billing-email"}, []string{"value"}},
		{"destroy", doc("2-a", false, "Ticket", `{"klass":"Ticket","title":"T"}`), doc("3-a", true, "Ticket", `{"klass":"Ticket",`+by+`}`),
			"destroy", []string{"destroy"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := newConsumer(nil).HistoryDoc(store.Change{DB: db, Old: tc.old, New: *tc.new})
			if err != nil {
				t.Fatal(err)
			}
			var h stream.History
			if err := json.Unmarshal(d.Body, &h); err != nil {
				t.Fatal(err)
			}
			if h.Event != tc.event || !slices.Equal(h.Events, tc.events) || !slices.Equal(h.Changed, tc.changed) {
				t.Fatalf("event %q %v changed %v, want %q %v %v\n%s", h.Event, h.Events, h.Changed, tc.event, tc.events, tc.changed, d.Body)
			}
			if h.Whodunnit == nil || h.Whodunnit.Label != "Ana" || h.CreatedAt != "2026-05-04T12:00:00.000Z" || d.SortKey != h.CreatedAt {
				t.Fatalf("who/when missing: %s", d.Body)
			}
			if d.ID != stream.HistoryID(db, "x-1", tc.new.Rev, tc.new.Seq) || d.Klass != "DocumentChange" || h.ItemType != tc.new.Klass {
				t.Fatalf("doc %s klass %s item_type %s", d.ID, d.Klass, h.ItemType)
			}
		})
	}
	// The destroyed item keeps its label from the old revision.
	d, _ := newConsumer(nil).HistoryDoc(store.Change{DB: db, Old: tests[len(tests)-1].old, New: *tests[len(tests)-1].new})
	var h stream.History
	_ = json.Unmarshal(d.Body, &h)
	if h.Label != "T" {
		t.Fatalf("destroy label %q, want T", h.Label)
	}
}
