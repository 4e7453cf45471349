// Package capacity prices a tenant from measured figures: what the
// product's requests cost on DynamoDB (metered on DynamoDB Local by AWS's
// rules, in this package's tests), what a tenant stores, and the other
// AWS services a request crosses. Its tests measure the capacity of each
// user action and of a scripted small-shop day; Month turns such a day
// into a month's bill, and Fixed lists what a deployment pays whatever
// its tenants.
package capacity

import (
	"fmt"
	"strings"
)

// PricesDate says when Prices were read: AWS's published on-demand list
// prices for us-east-1 (DynamoDB's after its November 2024 cut), before
// free tiers. Check them before quoting a figure.
const PricesDate = "July 2025, AWS us-east-1 on-demand list prices, free tiers left out"

// Prices are the unit prices, in US dollars.
var Prices = struct {
	ReadUnit, WriteUnit float64 // DynamoDB on-demand, per request unit
	TableGBMonth        float64 // DynamoDB Standard storage
	PITRGBMonth         float64 // DynamoDB point-in-time recovery
	LambdaGBSecond      float64 // Arm
	LambdaRequest       float64 //
	HTTPAPIRequest      float64 // API Gateway HTTP API, first 300 M a month
	CloudFrontRequest   float64 // HTTPS, US and Europe edges
	CloudFrontFunction  float64 // per invocation (the viewer-address function on /api)
	CloudFrontGB        float64 // data out, first 10 TB
	S3GBMonth           float64 // S3 Standard
	S3Put, S3Get        float64 // per request
	// S3 Glacier Instant Retrieval: the backups' file contents. Each
	// write, lock extension or retag is priced as one of its PUTs.
	S3ColdGBMonth, S3ColdPut float64
	// S3 Intelligent-Tiering: the drive's files of 128 KiB and more. Its
	// tiers' storage (frequent is Standard's price), its monitoring per
	// object a month, the lifecycle's transition into it per object.
	S3InfrequentGBMonth, S3ArchiveInstantGBMonth float64
	S3TieringMonitor, S3TieringTransition        float64
	LogsIngestGB, LogsGBMonth                    float64 // CloudWatch Logs
	SQSRequest                                   float64 // SQS standard queue, per request (the jobs queue)
	// API Gateway's WebSocket API (live updates): per message, either
	// way, in 32 KB units; per connection-minute.
	WebSocketMessage, WebSocketMinute float64
	Mail                              float64 // SES, per message
	Alarm                             float64 // CloudWatch standard alarm, a month
	Secret                            float64 // Secrets Manager, a month
}{
	ReadUnit: 0.125e-6, WriteUnit: 0.625e-6,
	TableGBMonth: 0.25, PITRGBMonth: 0.20,
	LambdaGBSecond: 0.0000133334, LambdaRequest: 0.20e-6,
	HTTPAPIRequest:    1.00e-6,
	CloudFrontRequest: 0.0100 / 10_000, CloudFrontFunction: 0.10e-6, CloudFrontGB: 0.085,
	S3GBMonth: 0.023, S3Put: 0.005 / 1000, S3Get: 0.0004 / 1000,
	S3ColdGBMonth: 0.004, S3ColdPut: 0.02 / 1000,
	S3InfrequentGBMonth: 0.0125, S3ArchiveInstantGBMonth: 0.004,
	S3TieringMonitor: 0.0025 / 1000, S3TieringTransition: 0.01 / 1000,
	LogsIngestGB: 0.50, LogsGBMonth: 0.03,
	WebSocketMessage: 1.00e-6, WebSocketMinute: 0.25e-6,
	SQSRequest: 0.40e-6,
	Mail:       0.10 / 1000,
	Alarm:      0.10,
	Secret:     0.40,
}

// Day is what one tenant does in a day: its API requests (and how many
// were writes), the capacity units they took, the API's and the change
// stream's (measured), and the mail it sends.
type Day struct {
	Requests, WriteRequests int
	Reads, Writes           float64
	Mails                   int
}

// Tenant is what a tenant keeps and moves: the table's bytes (measured),
// the rest given by the small shop's description.
type Tenant struct {
	TableBytes  int64 // DynamoDB items and index copies at the start of the month
	TableGrowth int64 // bytes a month more (the log rows of the month's writes)
	DriveBytes  int64 // the drive's files
	OldVersions float64
	// DownloadShare is the share of the drive downloaded a month.
	DownloadShare float64
	// DriveTiers, when set, is how the drive's bytes (old versions
	// included) spread over Intelligent-Tiering's tiers; DriveObjects the
	// objects it monitors, DriveNewObjects those it takes in a month.
	// Unset: all in S3 Standard.
	DriveTiers                    *Tiers
	DriveObjects, DriveNewObjects int
	// BackupBytes is what the retained backups hold in S3 Standard;
	// BackupPuts the objects they write there a month (archives, and
	// contents before they went cold).
	BackupBytes int64
	BackupPuts  int
	// BackupColdBytes is the file contents the backups keep in Glacier
	// Instant Retrieval; BackupColdRequests their writes, lock
	// extensions and retags a month.
	BackupColdBytes    int64
	BackupColdRequests int
	// ResponseBytes is the average answer on the wire (gzipped); LogBytes
	// what a function's invocation writes to CloudWatch Logs, as it bills
	// them (each event's bytes and 26 more); LogMonths how long logs are
	// kept.
	ResponseBytes, LogBytes int
	LogMonths               float64
	// APISeconds and StreamSeconds are the average invocations, at their
	// functions' memory (the stack's: 1 GB and 0.5 GB).
	APISeconds, APIMemoryGB       float64
	StreamSeconds, StreamMemoryGB float64
	// Jobs is a day of the tenant's scheduled jobs (measured); JobSeconds
	// a task's run in the worker, at JobMemoryGB (the stack's: 0.5 GB).
	Jobs                    Jobs
	JobSeconds, JobMemoryGB float64
	// Live is a day of live updates (measured); zero: none.
	Live Live
	// LiveSeconds is the live function's average invocation, at
	// LiveMemoryGB (the stack's: 0.25 GB).
	LiveSeconds, LiveMemoryGB float64
}

// Live is a tenant's day of live updates in the cloud: the live
// function's invocations ($connect, messages, $disconnect), the messages
// API Gateway carries each way (the client's subscriptions and
// keep-alives; the acknowledgements and notices posted to it), the
// connections' minutes, and the capacity units the live function and the
// stream's notices take.
type Live struct {
	Invocations                    int
	ClientMessages, ServerMessages int
	ConnectionMinutes              int
	Reads, Writes                  float64
	// KeepaliveReads and KeepaliveWrites are one keep-alive's capacity
	// units (its re-decision), for OpenTab.
	KeepaliveReads, KeepaliveWrites float64
}

// Jobs is a day of a tenant's scheduled jobs: the tasks the dispatcher
// queues for its Group (each job's firings a day) and their capacity units.
type Jobs struct {
	Tasks, Reads, Writes float64
	ByJob                []JobDay
}

// JobDay is one job's share of a day.
type JobDay struct {
	Name                 string
	Tasks, Reads, Writes float64
}

// jobsPerInvocation is the worker's batch from the jobs queue
// (infra-cdk/lib/schedules.ts JOBS_QUEUE.batchSize): a round's tasks for
// many Groups come ten to an invocation and to each queue request.
const jobsPerInvocation = 10

// jobs prices a month of the tenant's scheduled tasks: the worker's
// invocations (a tenth each), the queue's send, receive and delete (a
// tenth of a request each) and their capacity units.
func jobs(t Tenant) Line {
	p := Prices
	tasks := t.Jobs.Tasks * days
	calls := tasks / jobsPerInvocation
	queue := 3 * tasks / jobsPerInvocation
	reads, writes := t.Jobs.Reads*days, t.Jobs.Writes*days
	return Line{"scheduled jobs (worker, queue)",
		fmt.Sprintf("%.0f tasks: %.0f invocations × $0.20/M + %.0f × %.0f ms × %.1f GB × $%.7f/GB-s + %.0f queue requests × $%.2f/M + %.0f RRU + %.0f WRU",
			tasks, calls, tasks, t.JobSeconds*1000, t.JobMemoryGB, p.LambdaGBSecond, queue, p.SQSRequest*1e6, reads, writes),
		calls*p.LambdaRequest + tasks*t.JobSeconds*t.JobMemoryGB*p.LambdaGBSecond + queue*p.SQSRequest + reads*p.ReadUnit + writes*p.WriteUnit}
}

// OpenTab prices a month of one tab holding its connection h hours a day
// with nothing changing: the connection's minutes and a keep-alive every
// keepaliveMinutes (a message, an invocation of the live function, its
// re-decision's capacity units as t.Live measured them).
func OpenTab(t Tenant, h, keepaliveMinutes float64) float64 {
	p := Prices
	l := t.Live
	mins := h * 60 * days
	pings := mins / keepaliveMinutes
	return mins*p.WebSocketMinute + pings*(p.WebSocketMessage+t.LiveSeconds*t.LiveMemoryGB*p.LambdaGBSecond+p.LambdaRequest+
		l.KeepaliveReads*p.ReadUnit+l.KeepaliveWrites*p.WriteUnit)
}

// Tiers are shares of bytes (summing to 1) in Intelligent-Tiering's
// frequent, infrequent (30 days untouched) and archive instant (90 days)
// tiers.
type Tiers struct{ Frequent, Infrequent, ArchiveInstant float64 }

// Line is one item of a bill: what it is, its arithmetic, its cost.
type Line struct {
	Item, Arithmetic string
	Dollars          float64
}

const (
	days = 30
	gb   = 1e9
)

// Month prices 30 days of d for tenant t.
func Month(d Day, t Tenant) []Line {
	p := Prices
	req := float64(d.Requests * days)
	writeReq := float64(d.WriteRequests * days)
	reads, writes := d.Reads*days, d.Writes*days
	tableGB := float64(t.TableBytes+t.TableGrowth/2) / gb // the month's average
	driveGB := float64(t.DriveBytes) / gb
	keptGB := driveGB * (1 + t.OldVersions)
	downGB := driveGB * t.DownloadShare
	outGB := req*float64(t.ResponseBytes)/gb + downGB
	invocations := req + writeReq + float64(t.Live.Invocations*days)
	logGB := invocations * float64(t.LogBytes) / gb
	return []Line{
		{"DynamoDB reads", fmt.Sprintf("%.0f RRU × $%.3f/M", reads, p.ReadUnit*1e6), reads * p.ReadUnit},
		{"DynamoDB writes", fmt.Sprintf("%.0f WRU × $%.3f/M", writes, p.WriteUnit*1e6), writes * p.WriteUnit},
		{"DynamoDB storage and point-in-time recovery", fmt.Sprintf("%.1f MB × ($%.2f + $%.2f)/GB", tableGB*1000, p.TableGBMonth, p.PITRGBMonth),
			tableGB * (p.TableGBMonth + p.PITRGBMonth)},
		{"Lambda api", fmt.Sprintf("%.0f × (%.0f ms × %.1f GB × $%.7f/GB-s + $0.20/M)", req, t.APISeconds*1000, t.APIMemoryGB, p.LambdaGBSecond),
			req * (t.APISeconds*t.APIMemoryGB*p.LambdaGBSecond + p.LambdaRequest)},
		{"Lambda stream", fmt.Sprintf("%.0f × (%.0f ms × %.1f GB × $%.7f/GB-s + $0.20/M)", writeReq, t.StreamSeconds*1000, t.StreamMemoryGB, p.LambdaGBSecond),
			writeReq * (t.StreamSeconds*t.StreamMemoryGB*p.LambdaGBSecond + p.LambdaRequest)},
		{"HTTP API", fmt.Sprintf("%.0f × $%.2f/M", req, p.HTTPAPIRequest*1e6), req * p.HTTPAPIRequest},
		{"CloudFront requests and viewer function", fmt.Sprintf("%.0f × ($%.2f + $%.2f)/M", req, p.CloudFrontRequest*1e6, p.CloudFrontFunction*1e6),
			req * (p.CloudFrontRequest + p.CloudFrontFunction)},
		{"CloudFront data out", fmt.Sprintf("(%.0f × %d B + %.0f MB downloads) × $%.3f/GB", req, t.ResponseBytes, downGB*1000, p.CloudFrontGB), outGB * p.CloudFrontGB},
		drive(t, driveGB, keptGB, downGB),
		backups(t),
		{"CloudWatch Logs", fmt.Sprintf("%.0f invocations × %d B = %.1f MB × ($%.2f + %.0f months × $%.2f)/GB", invocations, t.LogBytes, logGB*1000, p.LogsIngestGB, t.LogMonths, p.LogsGBMonth),
			logGB * (p.LogsIngestGB + t.LogMonths*p.LogsGBMonth)},
		{"SES", fmt.Sprintf("%d mails × $%.2f/1,000", d.Mails*days, p.Mail*1000), float64(d.Mails*days) * p.Mail},
		jobs(t),
		live(t),
	}
}

// live prices a month of the tenant's live updates: the WebSocket API's
// messages and connection-minutes, the live function, and the capacity
// units of the connections' items and the notices.
func live(t Tenant) Line {
	p := Prices
	l := t.Live
	msgs := float64((l.ClientMessages + l.ServerMessages) * days)
	mins := float64(l.ConnectionMinutes * days)
	calls := float64(l.Invocations * days)
	reads, writes := l.Reads*days, l.Writes*days
	return Line{"live updates (WebSocket API)",
		fmt.Sprintf("%.0f messages × $%.2f/M + %.0f connection-minutes × $%.2f/M + %.0f invocations × (%.0f ms × %.2f GB × $%.7f/GB-s + $0.20/M) + %.0f RRU + %.0f WRU",
			msgs, p.WebSocketMessage*1e6, mins, p.WebSocketMinute*1e6, calls, t.LiveSeconds*1000, t.LiveMemoryGB, p.LambdaGBSecond, reads, writes),
		msgs*p.WebSocketMessage + mins*p.WebSocketMinute + calls*(t.LiveSeconds*t.LiveMemoryGB*p.LambdaGBSecond+p.LambdaRequest) +
			reads*p.ReadUnit + writes*p.WriteUnit}
}

// drive prices the drive's files: kept (old versions included) in S3
// Standard or spread over Intelligent-Tiering, and read (a download reads
// about 1 MB a request).
func drive(t Tenant, driveGB, keptGB, downGB float64) Line {
	p := Prices
	reads := downGB * 1000 * p.S3Get
	if t.DriveTiers == nil {
		return Line{"drive (S3), old versions included", fmt.Sprintf("%.0f MB × (1 + %.0f %%) × $%.3f/GB + %.0f MB read", driveGB*1000, t.OldVersions*100, p.S3GBMonth, downGB*1000),
			keptGB*p.S3GBMonth + reads}
	}
	tr := *t.DriveTiers
	perGB := tr.Frequent*p.S3GBMonth + tr.Infrequent*p.S3InfrequentGBMonth + tr.ArchiveInstant*p.S3ArchiveInstantGBMonth
	return Line{"drive (S3 Intelligent-Tiering), old versions included",
		fmt.Sprintf("%.0f MB × (%.0f %% × $%.3f + %.0f %% × $%.4f + %.0f %% × $%.3f)/GB + %d objects monitored × $%.4f/1,000 + %d moved in × $%.2f/1,000 + %.0f MB read",
			keptGB*1000, tr.Frequent*100, p.S3GBMonth, tr.Infrequent*100, p.S3InfrequentGBMonth, tr.ArchiveInstant*100, p.S3ArchiveInstantGBMonth,
			t.DriveObjects, p.S3TieringMonitor*1000, t.DriveNewObjects, p.S3TieringTransition*1000, downGB*1000),
		keptGB*perGB + float64(t.DriveObjects)*p.S3TieringMonitor + float64(t.DriveNewObjects)*p.S3TieringTransition + reads}
}

// backups prices what the retained backups keep and write.
func backups(t Tenant) Line {
	p := Prices
	warmGB, coldGB := float64(t.BackupBytes)/gb, float64(t.BackupColdBytes)/gb
	l := Line{Item: "backups (S3)",
		Arithmetic: fmt.Sprintf("%.1f MB kept × $%.3f/GB + %d objects written", warmGB*1000, p.S3GBMonth, t.BackupPuts),
		Dollars:    warmGB*p.S3GBMonth + float64(t.BackupPuts)*p.S3Put}
	if t.BackupColdBytes > 0 || t.BackupColdRequests > 0 {
		l.Arithmetic += fmt.Sprintf("; Glacier IR: %.1f MB kept × $%.3f/GB + %d requests × $%.2f/1,000", coldGB*1000, p.S3ColdGBMonth, t.BackupColdRequests, p.S3ColdPut*1000)
		l.Dollars += coldGB*p.S3ColdGBMonth + float64(t.BackupColdRequests)*p.S3ColdPut
	}
	return l
}

// Floor is d and t with everything the code decides taken out: no
// DynamoDB capacity or storage, no function time, no logs, no scheduled
// jobs, no backup requests, no capacity behind live updates. What Month
// still charges for them is what the stack's services cost per request,
// per byte kept or sent and per connected minute, however lean the code:
// the floor under any optimisation of it.
func Floor(d Day, t Tenant) (Day, Tenant) {
	d.Reads, d.Writes = 0, 0
	t.TableBytes, t.TableGrowth = 0, 0
	t.APISeconds, t.StreamSeconds, t.LiveSeconds = 0, 0, 0
	t.LogBytes = 0
	t.Jobs = Jobs{}
	t.BackupBytes, t.BackupPuts, t.BackupColdRequests = 0, 0, 0
	t.Live.Reads, t.Live.Writes = 0, 0
	return d, t
}

// Fixed is what a deployment pays whatever its tenants.
func Fixed(alarms, secrets int) []Line {
	p := Prices
	return []Line{
		{"CloudWatch alarms", fmt.Sprintf("%d × $%.2f", alarms, p.Alarm), float64(alarms) * p.Alarm},
		{"Secrets Manager", fmt.Sprintf("%d × $%.2f", secrets, p.Secret), float64(secrets) * p.Secret},
	}
}

// Total adds the lines.
func Total(lines []Line) float64 {
	t := 0.0
	for _, l := range lines {
		t += l.Dollars
	}
	return t
}

// Table formats lines as a Markdown table.
func Table(lines []Line) string {
	var b strings.Builder
	b.WriteString("| item | a month | us-east-1 |\n|---|---|---|\n")
	for _, l := range lines {
		fmt.Fprintf(&b, "| %s | %s | $%.4f |\n", l.Item, l.Arithmetic, l.Dollars)
	}
	fmt.Fprintf(&b, "| **total** | | **$%.4f** |\n", Total(lines))
	return b.String()
}
