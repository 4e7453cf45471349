// Package config reads every setting of the product from command-line flags
// and OFICINA_* environment variables (flags win), validates them and
// reports all problems at once, so a misconfigured server fails at start
// with a clear message instead of at the first request.
package config

import (
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/mail"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Config is every setting. The settings table of docs/operating.md mirrors
// it (docs_test.go fails when a flag is missing there).
type Config struct {
	Addr    string // --addr, OFICINA_ADDR: listen address of the local server
	DataDir string // --data, OFICINA_DATA: embedded store, blobs and mail outbox
	WebDir  string // --web, OFICINA_WEB: the built SPA served at /
	BaseURL string // --base-url, OFICINA_BASE_URL: public URL used in emailed links
	// DavURL is the WebDAV address users connect their clients to, when it
	// is not <origin>/dav/ (in the cloud: the WebDAV function's own URL,
	// since CloudFront does not pass WebDAV's methods).
	DavURL string // --dav-url, OFICINA_DAV_URL
	// DavMaxPut is the largest file WebDAV takes in one PUT (--dav-max-put,
	// OFICINA_DAV_MAX_PUT, bytes; 0: the drive's limits only). The stack
	// sets what fits in a Lambda request; a larger PUT gets 413 naming it.
	DavMaxPut int64
	// DavRedirectAbove makes WebDAV answer a GET of a larger file with a
	// 302 to a presigned S3 GET (--dav-redirect-above,
	// OFICINA_DAV_REDIRECT_ABOVE, bytes; 0: never). The stack sets the
	// Function URL's response limit.
	DavRedirectAbove int64
	// BehindLambdaWebAdapter is set by functions/webdav when it runs on
	// Lambda (not a flag): the client address is then the request
	// context's sourceIp, which the adapter forwards (ratelimit.Edge).
	BehindLambdaWebAdapter bool
	// LiveEndpoint is the management endpoint of API Gateway's WebSocket
	// API (https://<id>.execute-api.<region>.amazonaws.com/<stage>): when
	// set, live updates run in the cloud's way (shared/live.Cloud): the
	// connections are in the table and notices are posted there.
	LiveEndpoint string // --live-endpoint, OFICINA_LIVE_ENDPOINT

	Store          string // --store, OFICINA_STORE: bolt | dynamo
	Table          string // --table, OFICINA_TABLE: DynamoDB table name
	DynamoEndpoint string // --dynamo-endpoint, OFICINA_DYNAMO_ENDPOINT: DynamoDB Local / LocalStack URL

	Mail                string // --mail, OFICINA_MAIL: outbox | ses
	MailFrom            string // --mail-from, OFICINA_MAIL_FROM
	SESConfigurationSet string // --ses-configuration-set, OFICINA_SES_CONFIGURATION_SET

	ServerAdmins []string // --server-admins, OFICINA_SERVER_ADMINS: comma-separated emails
	CookieSecure string   // --cookie-secure, OFICINA_COOKIE_SECURE: auto | true | false
	MaxBodyBytes int64    // --max-body-bytes, OFICINA_MAX_BODY_BYTES
	SessionTTL   time.Duration
	RememberTTL  time.Duration

	// OriginSecret (--origin-secret, OFICINA_ORIGIN_SECRET): the value
	// CloudFront sends in X-Oficina-Origin-Secret. When set, the API refuses
	// requests without it and takes the client address from the viewer
	// address CloudFront reports.
	OriginSecret string
	// HashConcurrency (--hash-concurrency, OFICINA_HASH_CONCURRENCY): how
	// many argon2 password hashes run at once (each takes 19 MiB).
	HashConcurrency int
	// LongpollMax (--longpoll-max, OFICINA_LONGPOLL_MAX) caps the wait of
	// _changes?feed=longpoll; on Lambda it must stay below the function's
	// timeout (and API Gateway's 30 s), or the client gets a 504.
	LongpollMax time.Duration
	// PageMaxRows (--page-max-rows, OFICINA_PAGE_MAX_ROWS) and PageMaxBytes
	// (--page-max-bytes, OFICINA_PAGE_MAX_BYTES) cap one _changes or
	// _all_docs answer; Lambda answers at most 6 MB.
	PageMaxRows  int
	PageMaxBytes int
	// GroupBudget (--group-budget, OFICINA_GROUP_BUDGET) is how many
	// requests one Group may make per minute to one process (a minute's
	// worth at once, then at that rate); beyond it 429 with Retry-After.
	// 0 = no budget. Per process: see shared/budget.
	GroupBudget int

	LogLevel  slog.Level // --log-level, OFICINA_LOG_LEVEL: debug | info | warn | error
	LogFormat string     // --log-format, OFICINA_LOG_FORMAT: text | json

	// Schedule runs the modules' scheduled jobs in-process (--schedule,
	// OFICINA_SCHEDULE: on | off). Only functions/local reads it: on AWS
	// EventBridge fires functions/schedule.
	Schedule bool
	// JobsQueueURL is the SQS queue the schedule function puts each
	// firing's tasks on for the worker function (--jobs-queue-url,
	// OFICINA_JOBS_QUEUE_URL); empty: the tasks run in-process.
	JobsQueueURL string

	// Fetching URLs users give the server (feeds, articles): networks let
	// through besides the public internet (--fetch-allow-nets,
	// OFICINA_FETCH_ALLOW_NETS: comma-separated CIDRs) and ports besides
	// 80 and 443 (--fetch-ports, OFICINA_FETCH_PORTS: comma-separated, or *).
	FetchAllowNets []netip.Prefix
	FetchPorts     []int
	FetchAnyPort   bool

	// SystemNotificationsURL is the feed of product announcements shown on
	// dashboards (--system-notifications-url, OFICINA_SYSTEM_NOTIFICATIONS_URL).
	SystemNotificationsURL string
	// ReaderRetention is how long read, unstarred feed items are kept
	// (--reader-retention, OFICINA_READER_RETENTION).
	ReaderRetention time.Duration

	// Blobs is where the drive keeps file contents (--blobs, OFICINA_BLOBS):
	// fs (files under <DataDir>/blobs), s3 (a versioned bucket) or none (the
	// drive keeps its records but accepts no content).
	Blobs string
	// Bucket is the drive's S3 bucket (--bucket, OFICINA_BUCKET), which must
	// have versioning enabled.
	Bucket string
	// S3Endpoint overrides the S3 endpoint (--s3-endpoint,
	// OFICINA_S3_ENDPOINT): an S3-compatible server, path-style addressing.
	S3Endpoint string
	// BackupBucket keeps the Groups' backups apart from the drive
	// (--backup-bucket, OFICINA_BACKUP_BUCKET): a versioned bucket with
	// Object Lock that only the backup-making role may write. Empty: the
	// backups share the drive's blob store, under backups/.
	BackupBucket string
	// WorkerFunction names the worker function (--worker-function,
	// OFICINA_WORKER_FUNCTION): the api, which holds no grant on the
	// backups bucket, invokes it to make a backup on request and to sign a
	// backup's download or a restore's read. Empty: this process reaches
	// the backups itself.
	WorkerFunction string
	// DriveFreeLimit is the drive limit of a free Group in bytes
	// (--drive-free-limit, OFICINA_DRIVE_FREE_LIMIT); paid plans have
	// SPEC §9's (1 GB for pro and corp).
	DriveFreeLimit int64
	// FreeRecords is the record limit of a free Group (--free-records,
	// OFICINA_FREE_RECORDS; SPEC §9: 1,000). Over it a Group gets a notice
	// and, 30 days later, becomes view-only; switching to free is refused
	// above it.
	FreeRecords int64

	// Stripe (shared/billing). Keys of test mode (Groups with livemode
	// false) and of live mode; on AWS they come from the Secrets Manager
	// secret StripeSecretsARN names, read at run time, never from the
	// template. StripeAPIURL points stripe-go elsewhere (stripe-mock in
	// tests); StripeTestCheckout enables the test-only route that completes
	// a checkout session without stripe.com (the e2e walk), never in the cloud.
	Stripe Stripe
}

// DefaultFreeRecords is SPEC §9's record limit of the free plan.
const DefaultFreeRecords = 1000

// Stripe is the billing module's settings (see Config.Stripe).
type Stripe struct {
	SecretKey          string // --stripe-secret-key, OFICINA_STRIPE_SECRET_KEY: sk_test_…
	PublishableKey     string // --stripe-publishable-key, OFICINA_STRIPE_PUBLISHABLE_KEY: pk_test_…
	WebhookSecret      string // --stripe-webhook-secret, OFICINA_STRIPE_WEBHOOK_SECRET: whsec_…
	LiveSecretKey      string // --stripe-live-secret-key, OFICINA_STRIPE_LIVE_SECRET_KEY: sk_live_…
	LivePublishableKey string // --stripe-live-publishable-key, OFICINA_STRIPE_LIVE_PUBLISHABLE_KEY
	LiveWebhookSecret  string // --stripe-live-webhook-secret, OFICINA_STRIPE_LIVE_WEBHOOK_SECRET
	SecretsARN         string // --stripe-secrets-arn, OFICINA_STRIPE_SECRETS_ARN: a Secrets Manager secret (name or ARN; JSON)
	APIURL             string // --stripe-api-url, OFICINA_STRIPE_API_URL: e.g. stripe-mock
	MeterEvent         string // --stripe-meter-event, OFICINA_STRIPE_METER_EVENT: the storage meter's event name
	TestCheckout       bool   // --stripe-test-checkout, OFICINA_STRIPE_TEST_CHECKOUT: on | off
	// PlanPrices (--plan-prices, OFICINA_PLAN_PRICES: "pro=600,corp=1800,server=90000")
	// are the cents seeded into the prices db: pro per 100 MB and corp per
	// 200 MB a month (SPEC §9 gives two readings; the default is the higher),
	// the dedicated server a fixed monthly amount. Free is always 0.
	PlanPrices map[string]int64
}

// Defaults differ per deployable: the local server uses the embedded store
// and the mail outbox, the Lambda functions DynamoDB and SES.
type Defaults struct {
	Store       string
	Mail        string
	LongpollMax string
	Blobs       string
	GroupBudget string
}

// Local are the defaults of functions/local: CouchDB's own long-poll cap,
// and no Group budget (one process serves its own machine's users).
var Local = Defaults{Store: "bolt", Mail: "outbox", LongpollMax: "60s", Blobs: "fs", GroupBudget: "0"}

// Lambda are the defaults of the Lambda functions: a long poll answers
// within 2 s (a waiting function is a billed function; the stack sets it
// explicitly too), and a Group gets 600 requests a minute per instance.
// A function has no writable data directory, so the drive stores nothing
// until the stack names its bucket (OFICINA_BLOBS=s3, OFICINA_BUCKET).
var Lambda = Defaults{Store: "dynamo", Mail: "ses", LongpollMax: "2s", Blobs: "none", GroupBudget: "600"}

// Load parses args (without the program name) over the environment.
func Load(args []string, getenv func(string) string, def Defaults) (Config, error) {
	fs := flag.NewFlagSet("oficina", flag.ContinueOnError)
	env := func(name, fallback string) string {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			return v
		}
		return fallback
	}
	var c Config
	var admins, level, maxBody, sessionTTL, rememberTTL, hashConcurrency, longpollMax, pageRows, pageBytes, groupBudget string
	var schedule, allowNets, ports, retention, driveFree, freeRecords, davMaxPut, davRedirect string
	var stripeTestCheckout, planPrices string
	fs.StringVar(&c.Addr, "addr", env("OFICINA_ADDR", "127.0.0.1:8080"), "listen address (OFICINA_ADDR)")
	fs.StringVar(&c.DataDir, "data", env("OFICINA_DATA", "./data"), "data directory (OFICINA_DATA)")
	fs.StringVar(&c.WebDir, "web", env("OFICINA_WEB", "./web/dist"), "built SPA directory served at / (OFICINA_WEB)")
	fs.StringVar(&c.BaseURL, "base-url", env("OFICINA_BASE_URL", ""), "public base URL for links in emails; default http://<addr> (OFICINA_BASE_URL)")
	fs.StringVar(&c.Store, "store", env("OFICINA_STORE", def.Store), "document store: bolt or dynamo (OFICINA_STORE)")
	fs.StringVar(&c.Table, "table", env("OFICINA_TABLE", "oficina"), "DynamoDB table name (OFICINA_TABLE)")
	fs.StringVar(&c.DynamoEndpoint, "dynamo-endpoint", env("OFICINA_DYNAMO_ENDPOINT", ""), "DynamoDB endpoint URL override, e.g. DynamoDB Local (OFICINA_DYNAMO_ENDPOINT)")
	fs.StringVar(&c.Mail, "mail", env("OFICINA_MAIL", def.Mail), "mail sender: outbox or ses (OFICINA_MAIL)")
	fs.StringVar(&c.MailFrom, "mail-from", env("OFICINA_MAIL_FROM", "Oficina <no-reply@oficina.localhost>"), "From address of outgoing mail (OFICINA_MAIL_FROM)")
	fs.StringVar(&c.SESConfigurationSet, "ses-configuration-set", env("OFICINA_SES_CONFIGURATION_SET", ""), "SES configuration set (OFICINA_SES_CONFIGURATION_SET)")
	fs.StringVar(&admins, "server-admins", env("OFICINA_SERVER_ADMINS", ""), "comma-separated emails of server admins (OFICINA_SERVER_ADMINS)")
	fs.StringVar(&c.CookieSecure, "cookie-secure", env("OFICINA_COOKIE_SECURE", "auto"), "Secure cookies: auto (not on localhost), true or false (OFICINA_COOKIE_SECURE)")
	fs.StringVar(&maxBody, "max-body-bytes", env("OFICINA_MAX_BODY_BYTES", "1048576"), "largest accepted request body (OFICINA_MAX_BODY_BYTES)")
	fs.StringVar(&sessionTTL, "session-ttl", env("OFICINA_SESSION_TTL", "24h"), "session lifetime (OFICINA_SESSION_TTL)")
	fs.StringVar(&rememberTTL, "remember-ttl", env("OFICINA_REMEMBER_TTL", "720h"), "session lifetime with remember me (OFICINA_REMEMBER_TTL)")
	fs.StringVar(&c.OriginSecret, "origin-secret", env("OFICINA_ORIGIN_SECRET", ""), "secret CloudFront sends in X-Oficina-Origin-Secret; when set, requests without it are refused (OFICINA_ORIGIN_SECRET)")
	fs.StringVar(&hashConcurrency, "hash-concurrency", env("OFICINA_HASH_CONCURRENCY", "2"), "argon2 password hashes computed at once (OFICINA_HASH_CONCURRENCY)")
	fs.StringVar(&longpollMax, "longpoll-max", env("OFICINA_LONGPOLL_MAX", def.LongpollMax), "longest wait of _changes?feed=longpoll (OFICINA_LONGPOLL_MAX)")
	fs.StringVar(&pageRows, "page-max-rows", env("OFICINA_PAGE_MAX_ROWS", "1000"), "most rows in one _changes or _all_docs answer (OFICINA_PAGE_MAX_ROWS)")
	fs.StringVar(&pageBytes, "page-max-bytes", env("OFICINA_PAGE_MAX_BYTES", "4194304"), "most bytes of rows in one _changes or _all_docs answer (OFICINA_PAGE_MAX_BYTES)")
	fs.StringVar(&groupBudget, "group-budget", env("OFICINA_GROUP_BUDGET", def.GroupBudget), "requests one Group may make per minute to one process, 0 = no budget (OFICINA_GROUP_BUDGET)")
	fs.StringVar(&level, "log-level", env("OFICINA_LOG_LEVEL", "info"), "debug, info, warn or error (OFICINA_LOG_LEVEL)")
	fs.StringVar(&c.LogFormat, "log-format", env("OFICINA_LOG_FORMAT", "text"), "text or json (OFICINA_LOG_FORMAT)")
	fs.StringVar(&schedule, "schedule", env("OFICINA_SCHEDULE", "on"), "run scheduled jobs in-process: on or off (OFICINA_SCHEDULE)")
	fs.StringVar(&allowNets, "fetch-allow-nets", env("OFICINA_FETCH_ALLOW_NETS", ""), "comma-separated networks (CIDR) fetches may reach besides the public internet, e.g. 127.0.0.0/8 for tests (OFICINA_FETCH_ALLOW_NETS)")
	fs.StringVar(&ports, "fetch-ports", env("OFICINA_FETCH_PORTS", "80,443"), "comma-separated ports fetches may use, or * (OFICINA_FETCH_PORTS)")
	fs.StringVar(&c.DavURL, "dav-url", env("OFICINA_DAV_URL", ""), "WebDAV address shown to users when it is not <origin>/dav/ (OFICINA_DAV_URL)")
	fs.StringVar(&davMaxPut, "dav-max-put", env("OFICINA_DAV_MAX_PUT", "0"), "largest file WebDAV takes in one PUT, in bytes; 0 = the drive's limits only (OFICINA_DAV_MAX_PUT)")
	fs.StringVar(&davRedirect, "dav-redirect-above", env("OFICINA_DAV_REDIRECT_ABOVE", "0"), "WebDAV answers a GET of a larger file with a 302 to a presigned S3 GET, in bytes; 0 = never (OFICINA_DAV_REDIRECT_ABOVE)")
	fs.StringVar(&c.LiveEndpoint, "live-endpoint", env("OFICINA_LIVE_ENDPOINT", ""), "management endpoint of the WebSocket API that carries live updates in the cloud (OFICINA_LIVE_ENDPOINT)")
	fs.StringVar(&c.SystemNotificationsURL, "system-notifications-url", env("OFICINA_SYSTEM_NOTIFICATIONS_URL", ""), "feed of product announcements shown on dashboards (OFICINA_SYSTEM_NOTIFICATIONS_URL)")
	fs.StringVar(&retention, "reader-retention", env("OFICINA_READER_RETENTION", "2160h"), "how long read, unstarred feed items are kept (OFICINA_READER_RETENTION)")
	blobsDefault := def.Blobs
	if blobsDefault == "" {
		blobsDefault = "fs"
	}
	fs.StringVar(&c.Blobs, "blobs", env("OFICINA_BLOBS", blobsDefault), "drive file storage: fs (under <data>/blobs), s3 or none (OFICINA_BLOBS)")
	fs.StringVar(&c.Bucket, "bucket", env("OFICINA_BUCKET", ""), "the drive's S3 bucket, versioning enabled (OFICINA_BUCKET)")
	fs.StringVar(&c.BackupBucket, "backup-bucket", env("OFICINA_BACKUP_BUCKET", ""), "S3 bucket of the Groups' backups, versioned with Object Lock; empty: the drive's store under backups/ (OFICINA_BACKUP_BUCKET)")
	fs.StringVar(&c.WorkerFunction, "worker-function", env("OFICINA_WORKER_FUNCTION", ""), "the worker Lambda function the api asks to make backups on request and to sign their reads; empty: this process reaches the backups itself (OFICINA_WORKER_FUNCTION)")
	fs.StringVar(&c.JobsQueueURL, "jobs-queue-url", env("OFICINA_JOBS_QUEUE_URL", ""), "SQS queue of the scheduled jobs' tasks; empty: they run in-process (OFICINA_JOBS_QUEUE_URL)")
	fs.StringVar(&c.S3Endpoint, "s3-endpoint", env("OFICINA_S3_ENDPOINT", ""), "S3 endpoint URL override, path-style, e.g. an S3-compatible server (OFICINA_S3_ENDPOINT)")
	fs.StringVar(&driveFree, "drive-free-limit", env("OFICINA_DRIVE_FREE_LIMIT", "100000000"), "drive limit of a free Group in bytes (OFICINA_DRIVE_FREE_LIMIT)")
	fs.StringVar(&freeRecords, "free-records", env("OFICINA_FREE_RECORDS", strconv.Itoa(DefaultFreeRecords)), "record limit of a free Group (OFICINA_FREE_RECORDS)")
	fs.StringVar(&c.Stripe.SecretKey, "stripe-secret-key", env("OFICINA_STRIPE_SECRET_KEY", ""), "Stripe secret key of test mode, sk_test_… (OFICINA_STRIPE_SECRET_KEY)")
	fs.StringVar(&c.Stripe.PublishableKey, "stripe-publishable-key", env("OFICINA_STRIPE_PUBLISHABLE_KEY", ""), "Stripe publishable key of test mode, pk_test_… (OFICINA_STRIPE_PUBLISHABLE_KEY)")
	fs.StringVar(&c.Stripe.WebhookSecret, "stripe-webhook-secret", env("OFICINA_STRIPE_WEBHOOK_SECRET", ""), "Stripe webhook endpoint secret of test mode, whsec_… (OFICINA_STRIPE_WEBHOOK_SECRET)")
	fs.StringVar(&c.Stripe.LiveSecretKey, "stripe-live-secret-key", env("OFICINA_STRIPE_LIVE_SECRET_KEY", ""), "Stripe secret key of live mode (OFICINA_STRIPE_LIVE_SECRET_KEY)")
	fs.StringVar(&c.Stripe.LivePublishableKey, "stripe-live-publishable-key", env("OFICINA_STRIPE_LIVE_PUBLISHABLE_KEY", ""), "Stripe publishable key of live mode (OFICINA_STRIPE_LIVE_PUBLISHABLE_KEY)")
	fs.StringVar(&c.Stripe.LiveWebhookSecret, "stripe-live-webhook-secret", env("OFICINA_STRIPE_LIVE_WEBHOOK_SECRET", ""), "Stripe webhook endpoint secret of live mode (OFICINA_STRIPE_LIVE_WEBHOOK_SECRET)")
	fs.StringVar(&c.Stripe.SecretsARN, "stripe-secrets-arn", env("OFICINA_STRIPE_SECRETS_ARN", ""), "name or ARN of the Secrets Manager secret holding the Stripe keys as JSON, read at run time (OFICINA_STRIPE_SECRETS_ARN)")
	fs.StringVar(&c.Stripe.APIURL, "stripe-api-url", env("OFICINA_STRIPE_API_URL", ""), "Stripe API base URL override, e.g. stripe-mock (OFICINA_STRIPE_API_URL)")
	fs.StringVar(&c.Stripe.MeterEvent, "stripe-meter-event", env("OFICINA_STRIPE_METER_EVENT", "oficina_storage_mb"), "event name of the Stripe meter the storage is reported to (OFICINA_STRIPE_METER_EVENT)")
	fs.StringVar(&stripeTestCheckout, "stripe-test-checkout", env("OFICINA_STRIPE_TEST_CHECKOUT", "off"), "on: a test-only route completes checkout sessions without stripe.com (e2e); never in the cloud (OFICINA_STRIPE_TEST_CHECKOUT)")
	fs.StringVar(&planPrices, "plan-prices", env("OFICINA_PLAN_PRICES", "pro=600,corp=1800,server=90000"), "cents of each paid plan seeded into the prices db: pro per 100 MB, corp per 200 MB a month, server fixed (OFICINA_PLAN_PRICES)")
	if err := fs.Parse(args); err != nil {
		return Config{}, err
	}
	if fs.NArg() > 0 {
		return Config{}, fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}

	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if _, _, err := net.SplitHostPort(c.Addr); err != nil {
		bad("addr %q: %v", c.Addr, err)
	}
	if c.BaseURL == "" {
		c.BaseURL = "http://" + c.Addr
	}
	if u, err := url.Parse(c.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		bad("base-url %q: must be an absolute http(s) URL", c.BaseURL)
	}
	c.BaseURL = strings.TrimRight(c.BaseURL, "/")
	if c.LiveEndpoint != "" {
		if u, err := url.Parse(c.LiveEndpoint); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("live-endpoint %q: must be an absolute http(s) URL", c.LiveEndpoint)
		} else if c.Store != "dynamo" {
			bad("live-endpoint needs --store=dynamo: the connections are kept in the table")
		}
		c.LiveEndpoint = strings.TrimRight(c.LiveEndpoint, "/")
	}
	if c.DavURL != "" {
		if u, err := url.Parse(c.DavURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("dav-url %q: must be an absolute http(s) URL", c.DavURL)
		}
		c.DavURL = strings.TrimRight(c.DavURL, "/") + "/"
	}
	switch c.Store {
	case "bolt":
		if c.DataDir == "" {
			bad("data: must not be empty with store=bolt")
		}
	case "dynamo":
		if c.Table == "" {
			bad("table: must not be empty with store=dynamo")
		}
	default:
		bad("store %q: must be bolt or dynamo", c.Store)
	}
	if c.DynamoEndpoint != "" {
		if u, err := url.Parse(c.DynamoEndpoint); err != nil || u.Host == "" {
			bad("dynamo-endpoint %q: must be an absolute URL", c.DynamoEndpoint)
		}
	}
	switch c.Mail {
	case "outbox", "ses":
	default:
		bad("mail %q: must be outbox or ses", c.Mail)
	}
	if _, err := mail.ParseAddress(c.MailFrom); err != nil {
		bad("mail-from %q: %v", c.MailFrom, err)
	}
	for _, a := range strings.Split(admins, ",") {
		if a = strings.ToLower(strings.TrimSpace(a)); a == "" {
			continue
		}
		if _, err := mail.ParseAddress(a); err != nil {
			bad("server-admins: %q is not an email address", a)
			continue
		}
		c.ServerAdmins = append(c.ServerAdmins, a)
	}
	switch c.CookieSecure {
	case "auto", "true", "false":
	default:
		bad("cookie-secure %q: must be auto, true or false", c.CookieSecure)
	}
	if n, err := strconv.ParseInt(maxBody, 10, 64); err != nil || n < 1024 || n > 64<<20 {
		bad("max-body-bytes %q: must be a whole number between 1024 and 67108864", maxBody)
	} else {
		c.MaxBodyBytes = n
	}
	for _, d := range []struct {
		name string
		raw  string
		dst  *time.Duration
	}{{"session-ttl", sessionTTL, &c.SessionTTL}, {"remember-ttl", rememberTTL, &c.RememberTTL}} {
		v, err := time.ParseDuration(d.raw)
		if err != nil || v < time.Minute {
			bad("%s %q: must be a duration of at least 1m, e.g. 24h", d.name, d.raw)
			continue
		}
		*d.dst = v
	}
	if c.OriginSecret != "" && !validHeaderToken(c.OriginSecret) {
		bad("origin-secret: must be 16 to 256 visible ASCII characters without spaces")
	}
	if n, err := strconv.Atoi(hashConcurrency); err != nil || n < 1 || n > 64 {
		bad("hash-concurrency %q: must be a whole number between 1 and 64", hashConcurrency)
	} else {
		c.HashConcurrency = n
	}
	if v, err := time.ParseDuration(longpollMax); err != nil || v < time.Second || v > 10*time.Minute {
		bad("longpoll-max %q: must be a duration between 1s and 10m, e.g. 20s", longpollMax)
	} else {
		c.LongpollMax = v
	}
	if n, err := strconv.Atoi(pageRows); err != nil || n < 1 || n > 100000 {
		bad("page-max-rows %q: must be a whole number between 1 and 100000", pageRows)
	} else {
		c.PageMaxRows = n
	}
	if n, err := strconv.Atoi(pageBytes); err != nil || n < 64<<10 || n > 64<<20 {
		bad("page-max-bytes %q: must be a whole number between 65536 and 67108864", pageBytes)
	} else {
		c.PageMaxBytes = n
	}
	if groupBudget == "" {
		groupBudget = "0"
	}
	if n, err := strconv.Atoi(groupBudget); err != nil || n < 0 || n > 1_000_000 {
		bad("group-budget %q: must be a whole number between 0 and 1000000", groupBudget)
	} else {
		c.GroupBudget = n
	}
	if err := c.LogLevel.UnmarshalText([]byte(level)); err != nil {
		bad("log-level %q: must be debug, info, warn or error", level)
	}
	switch c.LogFormat {
	case "text", "json":
	default:
		bad("log-format %q: must be text or json", c.LogFormat)
	}
	switch schedule {
	case "on":
		c.Schedule = true
	case "off":
	default:
		bad("schedule %q: must be on or off", schedule)
	}
	for _, n := range strings.Split(allowNets, ",") {
		if n = strings.TrimSpace(n); n == "" {
			continue
		}
		p, err := netip.ParsePrefix(n)
		if err != nil {
			bad("fetch-allow-nets: %q is not a network such as 127.0.0.0/8", n)
			continue
		}
		c.FetchAllowNets = append(c.FetchAllowNets, p.Masked())
	}
	for _, p := range strings.Split(ports, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		if p == "*" {
			c.FetchAnyPort = true
			continue
		}
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			bad("fetch-ports: %q is not a port (1-65535) or *", p)
			continue
		}
		c.FetchPorts = append(c.FetchPorts, n)
	}
	if c.SystemNotificationsURL != "" {
		if u, err := url.Parse(c.SystemNotificationsURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("system-notifications-url %q: must be an absolute http(s) URL", c.SystemNotificationsURL)
		}
	}
	if v, err := time.ParseDuration(retention); err != nil || v < time.Hour {
		bad("reader-retention %q: must be a duration of at least 1h, e.g. 2160h (90 days)", retention)
	} else {
		c.ReaderRetention = v
	}
	switch c.Blobs {
	case "fs":
		if c.DataDir == "" {
			bad("data: must not be empty with blobs=fs")
		}
	case "s3":
		if c.Bucket == "" {
			bad("bucket: must name the drive's bucket with blobs=s3")
		}
	case "none":
	default:
		bad("blobs %q: must be fs, s3 or none", c.Blobs)
	}
	if c.BackupBucket != "" && c.Blobs != "s3" {
		bad("backup-bucket: only with blobs=s3")
	}
	if c.JobsQueueURL != "" {
		if u, err := url.Parse(c.JobsQueueURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			bad("jobs-queue-url %q: must be an SQS queue URL", c.JobsQueueURL)
		}
	}
	if c.S3Endpoint != "" {
		if u, err := url.Parse(c.S3Endpoint); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("s3-endpoint %q: must be an absolute http(s) URL", c.S3Endpoint)
		}
	}
	for _, b := range []struct {
		name, raw string
		into      *int64
	}{{"dav-max-put", davMaxPut, &c.DavMaxPut}, {"dav-redirect-above", davRedirect, &c.DavRedirectAbove}} {
		if n, err := strconv.ParseInt(b.raw, 10, 64); err != nil || n < 0 {
			bad("%s %q: must be a whole number of bytes, 0 for none", b.name, b.raw)
		} else {
			*b.into = n
		}
	}
	if n, err := strconv.ParseInt(driveFree, 10, 64); err != nil || n < 0 || n > 1_000_000_000_000 {
		bad("drive-free-limit %q: must be a whole number of bytes between 0 and 1000000000000", driveFree)
	} else {
		c.DriveFreeLimit = n
	}
	if n, err := strconv.ParseInt(freeRecords, 10, 64); err != nil || n < 1 || n > 1_000_000_000 {
		bad("free-records %q: must be a whole number between 1 and 1000000000", freeRecords)
	} else {
		c.FreeRecords = n
	}
	checkStripe(&c.Stripe, stripeTestCheckout, bad)
	c.Stripe.PlanPrices = parsePlanPrices(planPrices, bad)
	if len(errs) > 0 {
		return Config{}, fmt.Errorf("invalid configuration:\n%w", errors.Join(errs...))
	}
	return c, nil
}

// validHeaderToken: a secret that travels as an HTTP header value as is.
func validHeaderToken(s string) bool {
	if len(s) < 16 || len(s) > 256 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}

// checkStripe validates the Stripe settings: each key has its prefix (a
// live key in the test slot is a costly mistake), the API URL is absolute.
func checkStripe(s *Stripe, testCheckout string, bad func(string, ...any)) {
	for _, k := range []struct{ name, value, prefix string }{
		{"stripe-secret-key", s.SecretKey, "sk_test_"},
		{"stripe-publishable-key", s.PublishableKey, "pk_test_"},
		{"stripe-webhook-secret", s.WebhookSecret, "whsec_"},
		{"stripe-live-secret-key", s.LiveSecretKey, "sk_live_"},
		{"stripe-live-publishable-key", s.LivePublishableKey, "pk_live_"},
		{"stripe-live-webhook-secret", s.LiveWebhookSecret, "whsec_"},
	} {
		if k.value != "" && !strings.HasPrefix(k.value, k.prefix) {
			bad("%s: must start with %s", k.name, k.prefix)
		}
	}
	if s.APIURL != "" {
		if u, err := url.Parse(s.APIURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("stripe-api-url %q: must be an absolute http(s) URL", s.APIURL)
		}
		s.APIURL = strings.TrimRight(s.APIURL, "/")
	}
	if s.MeterEvent == "" || len(s.MeterEvent) > 100 {
		bad("stripe-meter-event: must be a name of 1 to 100 characters")
	}
	switch testCheckout {
	case "on":
		s.TestCheckout = true
	case "off":
	default:
		bad("stripe-test-checkout %q: must be on or off", testCheckout)
	}
}

// parsePlanPrices reads "plan=cents,…" for the paid plans; each must be
// named once (pro, corp, server) with a whole, non-negative amount.
func parsePlanPrices(raw string, bad func(string, ...any)) map[string]int64 {
	out := map[string]int64{}
	for _, kv := range strings.Split(raw, ",") {
		if kv = strings.TrimSpace(kv); kv == "" {
			continue
		}
		plan, amount, ok := strings.Cut(kv, "=")
		n, err := strconv.ParseInt(strings.TrimSpace(amount), 10, 64)
		plan = strings.TrimSpace(plan)
		switch {
		case !ok || err != nil || n < 0 || n > 100_000_000:
			bad("plan-prices: %q is not plan=cents (a whole number of cents)", kv)
		case plan != "pro" && plan != "corp" && plan != "server":
			bad("plan-prices: %q is not a paid plan (pro, corp, server)", plan)
		case out[plan] != 0:
			bad("plan-prices: %s given twice", plan)
		default:
			out[plan] = n
		}
	}
	for _, p := range []string{"pro", "corp", "server"} {
		if _, ok := out[p]; !ok {
			bad("plan-prices: %s is missing", p)
		}
	}
	return out
}
