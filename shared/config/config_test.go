package config

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestLoadDefaults(t *testing.T) {
	c, err := Load(nil, envOf(nil), Local)
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != "127.0.0.1:8080" || c.DataDir != "./data" || c.Store != "bolt" || c.Mail != "outbox" {
		t.Fatalf("defaults: %+v", c)
	}
	if c.BaseURL != "http://127.0.0.1:8080" || c.MaxBodyBytes != 1<<20 || c.SessionTTL != 24*time.Hour {
		t.Fatalf("derived defaults: %+v", c)
	}
	if c.LongpollMax != time.Minute || c.PageMaxRows != 1000 || c.PageMaxBytes != 4<<20 {
		t.Fatalf("page and long-poll defaults: %+v", c)
	}
}

// TestLambdaLongpollDefault: on Lambda a long poll must end before the api
// function's 25 s timeout and API Gateway's 30 s, or the client gets a 504.
func TestLambdaLongpollDefault(t *testing.T) {
	c, err := Load(nil, envOf(nil), Lambda)
	if err != nil {
		t.Fatal(err)
	}
	// And within 2 s: a waiting function is a 1 GB function billed to wait
	// (the live channel tells the SPA of changes).
	if c.LongpollMax <= 0 || c.LongpollMax > 2*time.Second {
		t.Fatalf("Lambda long-poll cap %v, want at most 2 s", c.LongpollMax)
	}
	// Each Group gets a request budget per instance on Lambda; none locally.
	if c.GroupBudget != 600 {
		t.Fatalf("Lambda Group budget %d, want 600 a minute", c.GroupBudget)
	}
	if l, err := Load(nil, envOf(nil), Local); err != nil || l.GroupBudget != 0 {
		t.Fatalf("local Group budget %d (%v), want none", l.GroupBudget, err)
	}
	c, err = Load(nil, envOf(map[string]string{
		"OFICINA_LONGPOLL_MAX": "12s", "OFICINA_PAGE_MAX_ROWS": "250", "OFICINA_PAGE_MAX_BYTES": "1048576",
	}), Lambda)
	if err != nil {
		t.Fatal(err)
	}
	if c.LongpollMax != 12*time.Second || c.PageMaxRows != 250 || c.PageMaxBytes != 1<<20 {
		t.Fatalf("from the environment: %+v", c)
	}
}

func TestLoadEnvAndFlags(t *testing.T) {
	env := envOf(map[string]string{
		"OFICINA_ADDR": "127.0.0.1:9000", "OFICINA_DATA": "/tmp/x",
		"OFICINA_SERVER_ADMINS": " Root@Example.com, ops@example.com ,",
		"OFICINA_DAV_URL":       "https://abc.lambda-url.us-east-1.on.aws/dav",
	})
	c, err := Load([]string{"--addr", "127.0.0.1:9100"}, env, Local)
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != "127.0.0.1:9100" {
		t.Errorf("flag must win over env: %q", c.Addr)
	}
	if c.DataDir != "/tmp/x" {
		t.Errorf("env data: %q", c.DataDir)
	}
	if strings.Join(c.ServerAdmins, ",") != "root@example.com,ops@example.com" {
		t.Errorf("admins: %q", c.ServerAdmins)
	}
	if c.DavURL != "https://abc.lambda-url.us-east-1.on.aws/dav/" {
		t.Errorf("dav url keeps one trailing slash: %q", c.DavURL)
	}
}

func TestLoadRejects(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"bad store", []string{"--store", "mongo"}, `store "mongo"`},
		{"bad mail", []string{"--mail", "smtp"}, `mail "smtp"`},
		{"bad addr", []string{"--addr", "nope"}, `addr "nope"`},
		{"bad admin", []string{"--server-admins", "not-an-email"}, `"not-an-email" is not an email`},
		{"bad cookie", []string{"--cookie-secure", "maybe"}, `cookie-secure "maybe"`},
		{"bad body limit", []string{"--max-body-bytes", "12"}, "max-body-bytes"},
		{"bad ttl", []string{"--session-ttl", "5s"}, "session-ttl"},
		{"bad level", []string{"--log-level", "loud"}, "log-level"},
		{"bad long poll", []string{"--longpoll-max", "500ms"}, "longpoll-max"},
		{"bad page rows", []string{"--page-max-rows", "0"}, "page-max-rows"},
		{"bad page bytes", []string{"--page-max-bytes", "1k"}, "page-max-bytes"},
		{"bad base url", []string{"--base-url", "ftp://x"}, "base-url"},
		{"relative dav url", []string{"--dav-url", "/dav/"}, "dav-url"},
		{"extra args", []string{"serve"}, "unexpected arguments"},
		{"bad schedule", []string{"--schedule", "maybe"}, `schedule "maybe"`},
		{"bad net", []string{"--fetch-allow-nets", "127.0.0.1"}, `"127.0.0.1" is not a network`},
		{"bad port", []string{"--fetch-ports", "80,http"}, `"http" is not a port`},
		{"port zero", []string{"--fetch-ports", "0"}, `"0" is not a port`},
		{"bad notifications url", []string{"--system-notifications-url", "file:///etc/passwd"}, "system-notifications-url"},
		{"short retention", []string{"--reader-retention", "10m"}, "reader-retention"},
		{"short origin secret", []string{"--origin-secret", "abc"}, "origin-secret"},
		{"origin secret with spaces", []string{"--origin-secret", "a secret with spaces in it"}, "origin-secret"},
		{"bad hash concurrency", []string{"--hash-concurrency", "0"}, "hash-concurrency"},
		{"bad blobs", []string{"--blobs", "ftp"}, `blobs "ftp"`},
		{"s3 without bucket", []string{"--blobs", "s3"}, "bucket: must name"},
		{"bad s3 endpoint", []string{"--s3-endpoint", "localhost:9000"}, "s3-endpoint"},
		{"bad drive limit", []string{"--drive-free-limit", "100MB"}, "drive-free-limit"},
		{"negative drive limit", []string{"--drive-free-limit", "-1"}, "drive-free-limit"},
		{"no free records", []string{"--free-records", "0"}, "free-records"},
		{"bad free records", []string{"--free-records", "1k"}, "free-records"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(tt.args, envOf(nil), Local)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tt.want)
			}
		})
	}
}

func TestLoadReaderAndSchedule(t *testing.T) {
	c, err := Load(nil, envOf(nil), Local)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Schedule || len(c.FetchAllowNets) != 0 || c.FetchAnyPort || fmt.Sprint(c.FetchPorts) != "[80 443]" || c.ReaderRetention != 90*24*time.Hour || c.SystemNotificationsURL != "" {
		t.Fatalf("defaults: %+v", c)
	}
	c, err = Load([]string{"--schedule", "off", "--fetch-ports", "*"}, envOf(map[string]string{
		"OFICINA_FETCH_ALLOW_NETS": "127.0.0.0/8, ::1/128", "OFICINA_SYSTEM_NOTIFICATIONS_URL": "https://news.oficina.example/feed.xml",
		"OFICINA_READER_RETENTION": "720h",
	}), Local)
	if err != nil {
		t.Fatal(err)
	}
	if c.Schedule || !c.FetchAnyPort || fmt.Sprint(c.FetchAllowNets) != "[127.0.0.0/8 ::1/128]" || c.ReaderRetention != 720*time.Hour || c.SystemNotificationsURL == "" {
		t.Fatalf("set: %+v", c)
	}
}

func TestLoadReportsEveryProblem(t *testing.T) {
	_, err := Load([]string{"--store", "x", "--mail", "y"}, envOf(nil), Local)
	if err == nil || !strings.Contains(err.Error(), `store "x"`) || !strings.Contains(err.Error(), `mail "y"`) {
		t.Fatalf("want both problems, got %v", err)
	}
}

func TestHardeningSettings(t *testing.T) {
	c, err := Load(nil, envOf(nil), Local)
	if err != nil {
		t.Fatal(err)
	}
	if c.OriginSecret != "" || c.HashConcurrency != 2 {
		t.Fatalf("defaults: origin secret %q, hash concurrency %d", c.OriginSecret, c.HashConcurrency)
	}
	env := envOf(map[string]string{"OFICINA_ORIGIN_SECRET": "0123456789abcdefGHIJ", "OFICINA_HASH_CONCURRENCY": "3"})
	if c, err = Load([]string{"--hash-concurrency", "4"}, env, Lambda); err != nil {
		t.Fatal(err)
	}
	if c.OriginSecret != "0123456789abcdefGHIJ" || c.HashConcurrency != 4 {
		t.Fatalf("origin secret %q, hash concurrency %d", c.OriginSecret, c.HashConcurrency)
	}
}

func TestBlobSettings(t *testing.T) {
	c, err := Load(nil, envOf(nil), Local)
	if err != nil {
		t.Fatal(err)
	}
	if c.Blobs != "fs" || c.Bucket != "" || c.S3Endpoint != "" || c.DriveFreeLimit != 100_000_000 {
		t.Fatalf("local defaults: blobs %q, bucket %q, endpoint %q, free limit %d", c.Blobs, c.Bucket, c.S3Endpoint, c.DriveFreeLimit)
	}
	// A Lambda function has no writable data directory: no blob store
	// until the stack names a bucket.
	if c, err = Load(nil, envOf(nil), Lambda); err != nil || c.Blobs != "none" {
		t.Fatalf("Lambda default: %q, %v", c.Blobs, err)
	}
	env := envOf(map[string]string{"OFICINA_BLOBS": "s3", "OFICINA_BUCKET": "oficina-drive", "OFICINA_S3_ENDPOINT": "http://127.0.0.1:7070", "OFICINA_DRIVE_FREE_LIMIT": "5000000"})
	if c, err = Load(nil, env, Lambda); err != nil {
		t.Fatal(err)
	}
	if c.Blobs != "s3" || c.Bucket != "oficina-drive" || c.S3Endpoint != "http://127.0.0.1:7070" || c.DriveFreeLimit != 5_000_000 {
		t.Fatalf("from the environment: %+v", c)
	}
	if c, err = Load([]string{"--blobs", "fs", "--drive-free-limit", "0"}, env, Local); err != nil || c.Blobs != "fs" || c.DriveFreeLimit != 0 {
		t.Fatalf("flags win: %q %d %v", c.Blobs, c.DriveFreeLimit, err)
	}
	if c.FreeRecords != 1000 {
		t.Fatalf("the free plan's record limit is SPEC §9's 1,000 by default, got %d", c.FreeRecords)
	}
	if c, err = Load(nil, envOf(map[string]string{"OFICINA_FREE_RECORDS": "50"}), Local); err != nil || c.FreeRecords != 50 {
		t.Fatalf("free records from the environment: %d %v", c.FreeRecords, err)
	}
}

// TestStripeSettings: the billing keys load from flags and environment,
// each checked for its prefix (a live key in the test slot is refused).
func TestStripeSettings(t *testing.T) {
	c, err := Load([]string{"--stripe-test-checkout", "on"}, envOf(map[string]string{
		"OFICINA_STRIPE_SECRET_KEY": "sk_test_123", "OFICINA_STRIPE_PUBLISHABLE_KEY": "pk_test_123",
		"OFICINA_STRIPE_WEBHOOK_SECRET": "whsec_abc", "OFICINA_STRIPE_API_URL": "http://127.0.0.1:12111/",
	}), Local)
	if err != nil {
		t.Fatal(err)
	}
	s := c.Stripe
	if s.SecretKey != "sk_test_123" || s.PublishableKey != "pk_test_123" || s.WebhookSecret != "whsec_abc" ||
		s.APIURL != "http://127.0.0.1:12111" || !s.TestCheckout || s.MeterEvent != "oficina_storage_mb" ||
		s.PlanPrices["pro"] != 600 || s.PlanPrices["corp"] != 1800 || s.PlanPrices["server"] != 90000 {
		t.Fatalf("stripe settings: %+v", s)
	}
	if d, _ := Load(nil, envOf(nil), Lambda); d.Stripe.TestCheckout || d.Stripe.SecretKey != "" {
		t.Fatalf("stripe defaults: %+v", d.Stripe)
	}
	_, err = Load([]string{"--stripe-secret-key", "sk_live_oops", "--stripe-live-publishable-key", "pk_test_x",
		"--stripe-api-url", "stripe-mock", "--stripe-test-checkout", "yes"}, envOf(nil), Local)
	for _, want := range []string{"stripe-secret-key: must start with sk_test_", "stripe-live-publishable-key: must start with pk_live_",
		"stripe-api-url", "stripe-test-checkout"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("want %q in %v", want, err)
		}
	}
}

// TestPlanPrices: the paid plans' amounts are configuration (the lower
// reading of SPEC §9 is one flag away); malformed lists are refused.
func TestPlanPrices(t *testing.T) {
	c, err := Load([]string{"--plan-prices", "pro=300, corp=900,server=90000"}, envOf(nil), Local)
	if err != nil || c.Stripe.PlanPrices["pro"] != 300 || c.Stripe.PlanPrices["corp"] != 900 {
		t.Fatalf("%v %v", c.Stripe.PlanPrices, err)
	}
	for _, bad := range []string{"pro=300,corp=900", "pro=x,corp=1,server=1", "free=0,pro=1,corp=1,server=1", "pro=1,pro=2,corp=1,server=1", "pro=-1,corp=1,server=1"} {
		if _, err := Load([]string{"--plan-prices", bad}, envOf(nil), Local); err == nil || !strings.Contains(err.Error(), "plan-prices") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
