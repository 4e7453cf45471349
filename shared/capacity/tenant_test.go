package capacity_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/capacity"
	"github.com/oficina/oficina/shared/store/dynamo/ddblocal"
)

// A small shop (issue 21): 2,000 records, 200 requests a day of which 40
// are writes, a 500 MB drive, daily backups.
const (
	shopRecords  = 2000
	shopDriveMB  = 500
	shopRequests = 200
	shopWrites   = 40
)

// seedShop fills a Group with the shop's 2,000 records: 1,200 tickets (100
// open), 300 customers (1 KB each), 300 pieces of equipment, 200 comments.
// The tickets come 50 at a time, later called between (a year's tickets:
// the clock moves on).
func seedShop(t testing.TB, c *apptest.Client, db string, later func()) (tickets, customers []string) {
	t.Helper()
	var docs []any
	for i := range 300 {
		docs = append(docs, customer(i))
	}
	for i := range 300 {
		docs = append(docs, map[string]any{"klass": "Equipment", "identifier": fmt.Sprintf("ABC-%04d", i), "maker": "Volkswagen",
			"description": "Gol 1.6 2015, prata; embreagem trocada em 2024.", "location": "Box 3"})
	}
	for i := range 1200 {
		status := "done"
		if i%12 == 0 {
			status = "open"
		}
		docs = append(docs, map[string]any{"klass": "Ticket", "status": status, "priority": []string{"low", "medium", "high"}[i%3],
			"content": fmt.Sprintf("Troca de embreagem %d\nCliente relata ruído ao engatar a primeira marcha; verificar cilindro auxiliar e platô.", i)})
	}
	ids := map[string][]string{}
	bulk := func(docs []any) {
		res := c.Do("POST", "/api/"+db+"/_bulk_docs", map[string]any{"docs": docs})
		var rows []struct {
			ID string `json:"id"`
			OK bool   `json:"ok"`
		}
		if res.Code != http.StatusCreated || json.Unmarshal(res.Body, &rows) != nil {
			t.Fatalf("seed: %d %.300s", res.Code, res.Body)
		}
		for _, r := range rows {
			if !r.OK {
				t.Fatalf("seed: %.300s", res.Body)
			}
			ids[r.ID[:3]] = append(ids[r.ID[:3]], r.ID)
		}
	}
	records := docs[:600]
	for start := 0; start < len(records); start += 500 {
		bulk(records[start:min(start+500, len(records))])
	}
	for start := len(records); start < len(docs); start += 50 {
		later()
		bulk(docs[start:min(start+50, len(docs))])
	}
	var comments []any
	for i := range 200 {
		comments = append(comments, map[string]any{"klass": "Comment", "item_id": ids["tik"][i], "content": fmt.Sprintf("Peça encomendada (pedido %d); chega na quinta.", i)})
	}
	bulk(comments)
	return ids["tik"], ids["cus"]
}

// shopDay is the day's 200 requests, 40 of them writes, as the SPA makes
// them: 8 starts (the session), 40 record screens (22 of them before an
// edit), 24 list pages, 10 boards, 10 timelines (the last 20 changes,
// with the limits banner's read), 10 history panels, 48 reads of the open-ticket counter
// (the SPA refetches it when a live notice tells of a ticket change; it
// polled it every 180 s before live updates); then 12 new tickets, 16
// ticket status changes, 6 customer edits and 6 comments.
func shopDay(t testing.TB, e *apptest.Env, c *apptest.Client, db string, tickets, customers []string, units map[string]float64) (requests, writes int) {
	t.Helper()
	do := func(method, path string, body any, want int) map[string]any {
		requests++
		r0, w0, _ := e.Meter.Totals()
		what := requestKind(method, path)
		if method != "GET" && !strings.HasSuffix(path, "/_find") {
			writes++
			defer func() {
				e.Drain() // the change stream's work follows each write
				r1, w1, _ := e.Meter.Totals()
				units[what+" RCU"] += r1 - r0
				units[what+" WCU"] += w1 - w0
			}()
		} else {
			defer func() {
				r1, _, _ := e.Meter.Totals()
				units[what+" RCU"] += r1 - r0
			}()
		}
		return c.Do(method, "/api/"+path, body).Expect(t, want)
	}
	get := func(path string) map[string]any { return do("GET", path, nil, http.StatusOK) }
	find := func(q map[string]any) { do("POST", db+"/_find", q, http.StatusOK) }
	// The dashboard's timeline (its last 20 changes, newest first) and the
	// limits banner's read, both in a page load's batch.
	timeline := func() {
		get(db + "/_changes?include_docs=true&descending=true&limit=20")
		get(db + "/_limits")
	}
	for i := range 8 {
		get("_session")
		timeline()
		// The index pages' default orders (web/src): tickets by number,
		// newest first; customers by name; equipment by identifier.
		for _, page := range []struct{ klass, field, dir string }{
			{"Ticket", "number", "desc"}, {"Customer", "name", "asc"}, {"Equipment", "identifier", "asc"},
		} {
			find(map[string]any{"selector": map[string]any{"klass": page.klass},
				"sort": []any{map[string]any{page.field: page.dir}}, "limit": 26})
		}
		for j := range 2 {
			get(db + "/" + tickets[(i*2+j)*7%len(tickets)])
		}
	}
	timeline()
	timeline()
	get(db + "/" + customers[100])
	get(db + "/" + customers[101])
	for range 10 {
		get(db + "/_tickets/board")
	}
	for i := range 10 {
		find(map[string]any{"selector": map[string]any{"klass": "DocumentChange", "item_id": tickets[i]},
			"sort": []any{map[string]any{"created_at": "desc"}}, "limit": 50})
	}
	for range 48 {
		get(db + "/_design/count-by-open-ticket-priority/_view/all?group_level=0")
	}
	for i := range 12 {
		do("POST", db, map[string]any{"klass": "Ticket", "status": "open", "priority": "medium",
			"content": fmt.Sprintf("Revisão %d\nTroca de óleo e filtros; verificar freios.", i)}, http.StatusCreated)
	}
	for i := range 16 {
		id := tickets[i*12]                        // an open one: open → doing
		rev := get(db + "/" + id)["_rev"].(string) // the edit screen
		do("PUT", db+"/"+id+"?rev="+rev, map[string]any{"klass": "Ticket", "status": "doing", "priority": "high",
			"content": fmt.Sprintf("Troca de embreagem %d\nEm andamento.", i*12)}, http.StatusCreated)
	}
	for i := range 6 {
		rev := get(db + "/" + customers[i])["_rev"].(string)
		body := customer(i)
		body["notes"] = body["notes"].(string) + " Atualizado."
		do("PUT", db+"/"+customers[i]+"?rev="+rev, body, http.StatusCreated)
	}
	for i := range 6 {
		do("POST", db, map[string]any{"klass": "Comment", "item_id": tickets[i], "content": "Cliente avisado por telefone."}, http.StatusCreated)
	}
	return requests, writes
}

// requestKind names a request for the day's breakdown.
func requestKind(method, path string) string {
	switch {
	case method == "POST" && strings.HasSuffix(path, "/_find"):
		return "list or history (_find)"
	case method != "GET":
		return "write " + method
	case strings.Contains(path, "_changes"), !strings.Contains(path, "/"):
		if path == "_session" {
			return "session"
		}
		return "timeline (_changes)"
	case strings.HasSuffix(path, "/_limits"):
		return "limits banner"
	case strings.Contains(path, "_tickets/board"):
		return "board"
	case strings.Contains(path, "_view"):
		return "open-ticket counter"
	}
	return "document GET"
}

// BenchmarkCostPerTenant prices a small shop's month from a scripted day
// metered on DynamoDB Local (AWS's rules for writes) and the table's bytes
// measured after seeding it, and prints the bill. It is a benchmark, run once by make bench, because its
// seeded shop and metered day take minutes on DynamoDB Local.
func BenchmarkCostPerTenant(b *testing.B) {
	e := apptest.New(b, apptest.Dynamo)
	c := e.SignUp("shop@example.com")
	db := e.Group(c, "Oficina do Zé")
	tickets, customers := seedShop(b, c, db, func() {
		e.Clock.Advance(15 * 24 * time.Hour)
		c.Do("POST", "/api/_session", map[string]any{"name": "shop@example.com", "password": apptest.Password}).Expect(b, http.StatusOK)
	})
	e.Drain()
	e.Meter.Rules = &ddblocal.WriteRules{Images: ddblocal.NewClient(e.DynamoEndpoint)}
	before := storedBytes(b, e)
	e.Meter.Reset()
	units := map[string]float64{}
	applied := len(e.Applied())
	requests, writes := shopDay(b, e, c, db, tickets, customers, units)
	reads, wcu, _ := e.Meter.Totals()
	after := storedBytes(b, e)
	liveDay := measureLiveDay(b, e, c, db, e.Applied()[applied:])
	// The shop's daily backups: a plan with them (corp), for its jobs.
	e.SetPlan(db, "corp")
	jobsDay := measureJobs(b, e, db)
	if requests != shopRequests || writes != shopWrites {
		b.Fatalf("the scripted day made %d requests, %d writes; want %d and %d", requests, writes, shopRequests, shopWrites)
	}
	day := capacity.Day{Requests: requests, WriteRequests: writes, Reads: reads, Writes: wcu, Mails: 1}
	driveBytes := int64(shopDriveMB) * 1e6
	shop := capacity.Tenant{
		TableBytes: before, TableGrowth: (after - before) * 30,
		DriveBytes: driveBytes, OldVersions: 0.2, DownloadShare: 0.1,
		ResponseBytes: 2000, LogMonths: 3,
		// The functions write nothing to their logs for a normal event
		// (functions/internal/coldstart's log-bytes-per-event: 0 B for the
		// api, stream and live), and the stack keeps Lambda's own START,
		// END and REPORT lines out (infra-cdk/lib/go-function.ts); errors
		// and the jobs' lines are not modelled.
		LogBytes:   0,
		APISeconds: 0.030, APIMemoryGB: 1, StreamSeconds: 0.100, StreamMemoryGB: 0.5,
		Live: liveDay, LiveSeconds: 0.020, LiveMemoryGB: 0.25,
		Jobs: jobsDay, JobSeconds: 0.050, JobMemoryGB: 0.5,
	}
	// Backups on a daily plan (corp): 14 kept, the records gzipped (about
	// a third of the table's bytes) in each archive.
	records := 14 * before / 3
	// As the backup module made them before 2026-11-28: each archive with
	// the drive's contents (a tar).
	copied := shop
	copied.BackupBytes, copied.BackupPuts = 14*driveBytes+records, 2*30
	// As 56826fb made them: each file version's contents stored once per
	// Group, locked and expired together 45 days after the write and
	// written again after 30 while backups name it, so the drive's
	// versions (old ones included) are held 1.5 times on average; with
	// file versions of about 1 MB, about 600 blobs are written a month.
	kept := float64(driveBytes) * (1 + shop.OldVersions)
	rewritten := shop
	rewritten.BackupBytes = int64(1.5*kept) + records
	rewritten.BackupPuts = 30 + int(kept/1e6)
	// As built (shared/backup/contents.go): each blob written once, in
	// Glacier Instant Retrieval, its lock extended in place every 90 days
	// (ContentLockDays: a retention and 90 days) and retagged once no
	// backup names it, then held by its lock up to 105 days (Glacier IR
	// bills 90 days at least). A month brings a tenth of the drive's
	// bytes as new versions (about 50 of 1 MB), each written once and
	// retagged once later.
	newVersions := float64(driveBytes) / 10
	built := shop
	// The drive as built (infra-cdk/lib/files.ts): files of 128 KiB and
	// more in Intelligent-Tiering, about 1 MB each, a tenth new a month
	// and a tenth downloaded: about a fifth of the bytes touched in the
	// last 30 days, a fifth 30 to 90 days ago, the rest (old versions
	// with them) longer ago.
	built.DriveTiers = &capacity.Tiers{Frequent: 0.2, Infrequent: 0.2, ArchiveInstant: 0.6}
	built.DriveObjects, built.DriveNewObjects = int(kept/1e6), int(newVersions/1e6)
	built.BackupBytes, built.BackupPuts = records, 30
	built.BackupColdBytes = int64(kept + newVersions*105/30)
	built.BackupColdRequests = 2*int(newVersions/1e6) + int(kept/1e6*30/90)

	var out strings.Builder
	kinds := slices.Sorted(maps.Keys(units))
	out.WriteString("\nThe day's capacity by request:\n")
	for _, k := range kinds {
		fmt.Fprintf(&out, "  %-40s %7.1f\n", k, units[k])
	}
	fmt.Fprintf(&out, "\nA small shop's day on DynamoDB Local: %d requests (%d writes), %.0f RCU and %.0f WCU (API and change stream); table %.1f MB, +%.0f KB a day\n",
		requests, writes, reads, wcu, float64(before)/1e6, float64(after-before)/1e3)
	fmt.Fprintf(&out, "Live updates, %d tabs open %d h (a connection every %d h, a keep-alive every %d min) on DynamoDB Local: %d live function invocations, %d messages from the clients and %d to them, %.1f RCU and %.1f WCU a day (the stream's notices of the day's %d changes included)\n",
		liveTabs, liveHours, liveConnHours, liveKeepaliveMins, liveDay.Invocations, liveDay.ClientMessages, liveDay.ServerMessages, liveDay.Reads, liveDay.Writes, len(e.Applied())-applied)
	fmt.Fprintf(&out, "Scheduled jobs for the shop's Group (corp: daily backups), a day (each job's steady task metered on DynamoDB Local, times its firings):\n")
	for _, j := range jobsDay.ByJob {
		fmt.Fprintf(&out, "  %-22s %5.2f tasks  %6.1f RCU  %6.1f WCU\n", j.Name, j.Tasks, j.Reads, j.Writes)
	}
	fmt.Fprintf(&out, "A keep-alive: %.1f RCU, %.1f WCU; a tab left open and hidden 16 h a day would cost $%.4f a month (the SPA closes a hidden tab's socket after 5 min)\n",
		liveDay.KeepaliveReads, liveDay.KeepaliveWrites, capacity.OpenTab(shop, 16, liveKeepaliveMins))
	fmt.Fprintf(&out, "Prices: %s\n\nAs built (each file version's contents stored once, in Glacier IR, its lock extended in place):\n\n%s", capacity.PricesDate, capacity.Table(capacity.Month(day, built)))
	standard := built
	standard.DriveTiers = nil
	// Lambda's own lines, as the stack logged them before 2026-11-29: START
	// (66 B), END (52 B) and REPORT (140 B) in text, three events of 26 B
	// more each as CloudWatch bills them.
	platformLines := built
	platformLines.LogBytes = 66 + 52 + 140 + 3*26
	for _, alt := range []struct {
		what, item string
		t          capacity.Tenant
	}{
		{"the drive all in S3 Standard (as the stack kept it at 222639f)", "drive", standard},
		{"Lambda's START, END and REPORT lines logged (as the stack did before 2026-11-29)", "CloudWatch Logs", platformLines},
		{"backups as 56826fb made them (contents rewritten every 30 days, S3 Standard)", "backups", rewritten},
		{"backups as made before 2026-11-28 (file contents in every daily archive)", "backups", copied},
	} {
		month := capacity.Month(day, alt.t)
		l := lineOf(month, alt.item)
		fmt.Fprintf(&out, "\nWith %s: %s, $%.4f; total $%.4f\n", alt.what, l.Arithmetic, l.Dollars, capacity.Total(month))
	}
	// The SPA's own day: web/e2e/requests.test.ts measures its requests per
	// action, and the script's actions at those rates come to 230-270 HTTP
	// requests (docs/operating.md, Costs). The request-priced lines follow
	// the requests; DynamoDB's capacity stays the script's.
	for _, spa := range []int{230, 270} {
		d := day
		d.Requests = spa
		fmt.Fprintf(&out, "\nWith the SPA's measured day, %d HTTP requests (the request-priced lines; the same capacity): total $%.4f\n", spa, capacity.Total(capacity.Month(d, built)))
	}
	// The floor: what the stack's services charge for this day and these
	// bytes with the code's own costs taken out (capacity.Floor).
	floorDay, floorShop := capacity.Floor(day, built)
	floor := capacity.Month(floorDay, floorShop)
	withoutLive := floorShop
	withoutLive.Live = capacity.Live{}
	fmt.Fprintf(&out, "\nThe floor: the same month with no DynamoDB, no function time, no jobs, no logs, no backup requests and no capacity behind live updates (what the services charge per request, byte and connected minute, however lean the code): $%.4f; without live updates $%.4f\n",
		capacity.Total(floor), capacity.Total(capacity.Month(floorDay, withoutLive)))
	for _, l := range floor {
		if l.Dollars > 0 {
			fmt.Fprintf(&out, "  %-45s $%.4f\n", l.Item, l.Dollars)
		}
	}
	fmt.Fprintf(&out, "\nFixed per deployment, whatever its tenants:\n\n%s", capacity.Table(capacity.Fixed(21, 3)))
	b.Log(out.String())

	// The target, $0.04 a month drive included, is not met as built
	// and lies under the floor printed above (docs/operating.md, Costs: the
	// request path, live updates, the drive and its backups); the DynamoDB
	// part and the backups are held here.
	if got := capacity.Total(capacity.Month(day, shop)[:3]); got > 0.02 {
		b.Errorf("a small shop's DynamoDB costs $%.4f a month, want ≤ $0.02", got)
	}
	month := capacity.Month(day, built)
	if l := lineOf(month, "drive"); l.Dollars > 0.008 {
		b.Errorf("a small shop's drive costs $%.4f a month, want ≤ $0.008 (Intelligent-Tiering)", l.Dollars)
	}
	if l := lineOf(month, "live updates"); l.Dollars > 0.019 {
		b.Errorf("a small shop's live updates cost $%.4f a month, want ≤ $0.019 (keep-alives unanswered, re-decided without the seq)", l.Dollars)
	}
	if l := lineOf(month, "backups"); l.Dollars > 0.012 {
		b.Errorf("a small shop's backups cost $%.4f a month, want ≤ $0.012 (each file version stored once, cold, its lock extended in place)", l.Dollars)
	}
}

// lineOf is the bill's line whose item starts with prefix.
func lineOf(month []capacity.Line, prefix string) capacity.Line {
	return month[slices.IndexFunc(month, func(l capacity.Line) bool { return strings.HasPrefix(l.Item, prefix) })]
}
