package app_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Packages of the module's own, by their path under it.
const (
	pkgApp      = modulePath + "shared/app"
	pkgAdapters = modulePath + "shared/app/adapters"
	pkgCore     = modulePath + "shared/app/core"
	pkgParts    = modulePath + "shared/app/parts"
)

// What no deployable links: the profiler's HTTP handlers; the template
// engines, whose reflection keeps every exported method of the program
// (shared/mail/render.go renders the mail without them); and chroma's
// lexers and styles, which register all of theirs at start
// (shared/wiki/highlight keeps its own, registered on first use); and
// libphonenumber's Go library, which decodes all of its metadata into
// protobuf messages at start (shared/phones reads the same metadata,
// generated as static data, with the same rules).
var neverLinked = []string{
	"net/http/pprof", "text/template", "html/template",
	"github.com/alecthomas/chroma/v2/lexers", "github.com/alecthomas/chroma/v2/styles",
	"github.com/nyaruka/phonenumbers", "google.golang.org/protobuf/proto",
}

// serveHTTP is what only the API and the WebDAV server serve.
var serveHTTP = []string{
	modulePath + "shared/httpapi", modulePath + "shared/openapi", modulePath + "shared/spa",
	modulePath + "shared/dav", "golang.org/x/net/webdav",
}

// otherModules is every module but the drive and the plan limits.
var otherModules = []string{
	modulePath + "shared/ticket", modulePath + "shared/servicedocs", modulePath + "shared/finance",
	modulePath + "shared/reader", modulePath + "shared/wiki", modulePath + "shared/links",
	modulePath + "shared/billing", modulePath + "shared/specfields", modulePath + "shared/backup",
}

// numberingMetadata reads phone numbers: libphonenumber's metadata, about
// 0.3 MB of a binary. Only the API takes phone numbers
// (core.Adapters.Phones); the other functions refuse a write that needs
// them (phonerules.Refusing).
var numberingMetadata = []string{modulePath + "shared/phones"}

// embeddedStore is bbolt and the store on it: the local server's, and the
// WebDAV image's when it runs off AWS.
var embeddedStore = []string{modulePath + "shared/store/bolt", "go.etcd.io/bbolt"}

// functionLinks pins what each deployable under functions/ must not link
// (go list -deps, with make lambdas' build tags), so that what issue 23.4
// took out of a function cannot come back unseen: a new import that pulls
// one of these in fails here. A new function needs an entry: the test
// fails for a functions/<name> main without one. Sizes and cold starts are
// measured by make lambdas and make bench.
var functionLinks = map[string][]string{
	// The whole product in one process, SPA included.
	"local": {"net/http/pprof"},
	// The HTTP API: every module, on the execution role's credentials and
	// DynamoDB alone; it enqueues no jobs (the dispatcher does).
	"api": slices.Concat(embeddedStore, []string{
		modulePath + "shared/spa", modulePath + "shared/app/standalone",
		"github.com/aws/aws-sdk-go-v2/config", "github.com/aws/aws-sdk-go-v2/service/sqs",
	}),
	// Live updates' WebSocket routes: $connect through the HTTP API built
	// on the core and the Groups alone (shared/app/liveapi); no module, no
	// mail, no files, no queue, no phone numbers.
	"live": slices.Concat(otherModules, numberingMetadata, []string{
		pkgApp, pkgAdapters, pkgParts, modulePath + "shared/spa", modulePath + "shared/dav", "golang.org/x/net/webdav",
		modulePath + "shared/drive", modulePath + "shared/limits", modulePath + "shared/wiki/highlight", "github.com/alecthomas/chroma/v2",
		modulePath + "shared/schedule", "github.com/aws/aws-sdk-go-v2/service/sqs", "github.com/stripe/stripe-go/v83",
		modulePath + "shared/mail/ses", "github.com/aws/aws-sdk-go-v2/service/sesv2",
		modulePath + "shared/store/bolt", "github.com/aws/aws-sdk-go-v2/config", lambdaClient,
	}),
	// The change stream: the modules' write paths and stream parts only;
	// no mail, no files, no queue, no HTTP, no phone numbers.
	"stream": slices.Concat(serveHTTP, numberingMetadata, []string{
		pkgApp, pkgAdapters, modulePath + "shared/wiki/highlight", "github.com/alecthomas/chroma/v2",
		modulePath + "shared/schedule", "github.com/aws/aws-sdk-go-v2/service/sqs",
		modulePath + "shared/mail/ses", "github.com/aws/aws-sdk-go-v2/service/sesv2",
		modulePath + "shared/store/bolt", "github.com/aws/aws-sdk-go-v2/config",
		lambdaClient,
	}),
	// The dispatcher: the jobs of jobs.json, the Groups and the queue.
	"schedule": slices.Concat(serveHTTP, otherModules, numberingMetadata, []string{
		pkgApp, pkgAdapters, pkgCore, pkgParts,
		modulePath + "shared/drive", modulePath + "shared/limits", modulePath + "shared/auth", modulePath + "shared/accounts",
		modulePath + "shared/mail/ses", "github.com/aws/aws-sdk-go-v2/service/sesv2", "github.com/stripe/stripe-go/v83",
		modulePath + "shared/store/bolt", "github.com/aws/aws-sdk-go-v2/config", lambdaClient,
	}),
	// The jobs worker: the modules' write paths and jobs; no HTTP, no
	// phone numbers (no job writes them), no Lambda client (it is
	// invoked, it invokes nothing), no embedded store (it runs on
	// DynamoDB alone: adapters.All without an opener), and no SQS client
	// (Lambda hands it the queue's messages; only the dispatcher sends).
	"worker": slices.Concat(serveHTTP, numberingMetadata, embeddedStore, []string{
		pkgApp, modulePath + "shared/wiki/highlight", "github.com/alecthomas/chroma/v2",
		"github.com/aws/aws-sdk-go-v2/config", lambdaClient,
		modulePath + "shared/schedule/sqsqueue", "github.com/aws/aws-sdk-go-v2/service/sqs",
	}),
	// WebDAV: the drive and the write paths a file's write reaches (it
	// passes the API's rules and guards and is noted for the stream:
	// shared/app/davparts); no other module, no mail, no other routes, no
	// phone numbers (a file is not a customer nor a setting).
	"webdav": slices.Concat(otherModules, numberingMetadata, []string{
		pkgApp, pkgParts, modulePath + "shared/httpapi", modulePath + "shared/openapi", modulePath + "shared/spa",
		modulePath + "shared/wiki/highlight", "github.com/alecthomas/chroma/v2", lambdaClient,
	}),
}

// lambdaClient invokes the worker: the api alone needs it (backups).
const lambdaClient = "github.com/aws/aws-sdk-go-v2/service/lambda"

// TestFunctionLinks checks each deployable's imports against its entry.
func TestFunctionLinks(t *testing.T) {
	root := filepath.Join("..", "..", "functions")
	dirs, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(root, d.Name(), "main.go")); !d.IsDir() || err != nil {
			continue
		}
		forbid, ok := functionLinks[d.Name()]
		if !ok {
			t.Errorf("functions/%s has no entry in functionLinks (shared/app/linkage_test.go): say what it must not link", d.Name())
			continue
		}
		t.Run(d.Name(), func(t *testing.T) {
			out, err := exec.Command("go", "list", "-deps", "-tags", "lambda.norpc", modulePath+"functions/"+d.Name()).CombinedOutput()
			if err != nil {
				t.Fatalf("go list: %v\n%s", err, out)
			}
			deps := strings.Fields(string(out))
			for _, p := range slices.Concat(neverLinked, forbid) {
				if slices.Contains(deps, p) {
					t.Errorf("functions/%s links %s (%s)", d.Name(), p, importedBy(t, d.Name(), p))
				}
			}
		})
	}
}

// importedBy names the packages of fn's build that import p.
func importedBy(t *testing.T, fn, p string) string {
	out, err := exec.Command("go", "list", "-deps", "-tags", "lambda.norpc", "-f", `{{.ImportPath}} {{join .Imports " "}}`, modulePath+"functions/"+fn).Output()
	if err != nil {
		return "importers unknown"
	}
	var by []string
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) > 1 && slices.Contains(f[1:], p) {
			by = append(by, f[0])
		}
	}
	return "imported by " + strings.Join(by, ", ")
}
