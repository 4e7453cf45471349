# Oficina — the two commands are `make run` and `make test`; see README.md.
SHELL := /bin/bash
.DEFAULT_GOAL := help

GO        ?= go
NPM       ?= npm
BIN       := bin/oficina
GOFLAGS_TEST ?= -count=1
# Explicit package roots: node_modules ships Go template files that ./... would pick up.
GO_PKGS   := ./functions/... ./shared/...

.PHONY: help deps run build test test-go vet bench bench-peers clean web web-test e2e infra-test lambdas synth synth-check deploy localstack-deploy webdav-image

help: ## list the targets
	@grep -hE '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-20s %s\n", $$1, $$2}'

# npm ci only when package-lock.json changed since the last install.
# A one-line go.mod makes node_modules a module of its own, outside ours.
node_modules/.package-lock.json: package-lock.json package.json
	$(NPM) ci --no-audit --no-fund
	@for d in node_modules */node_modules; do [ -d "$$d" ] && echo 'module ignored/nodemodules' > "$$d/go.mod"; done; true
	@touch $@

# The S3 server the blob tests start themselves (shared/blob/blobtest): Versity's gateway, from the Go module proxy.
VERSITYGW_VERSION := v1.8.0
bin/.versitygw-$(VERSITYGW_VERSION):
	GOBIN=$(CURDIR)/bin $(GO) install github.com/versity/versitygw/cmd/versitygw@$(VERSITYGW_VERSION)
	@touch $@

# The Stripe API double the billing tests start themselves (shared/billing/billingtest): stripe-mock, from the Go module proxy.
STRIPE_MOCK_VERSION := v0.203.0
bin/.stripe-mock-$(STRIPE_MOCK_VERSION):
	GOBIN=$(CURDIR)/bin $(GO) install github.com/stripe/stripe-mock@$(STRIPE_MOCK_VERSION)
	@touch $@

deps: node_modules/.package-lock.json bin/.versitygw-$(VERSITYGW_VERSION) bin/.stripe-mock-$(STRIPE_MOCK_VERSION) ## install Go modules, npm packages and the S3 and Stripe test servers
	$(GO) mod download

build: deps ## build the local server into bin/oficina
	$(GO) build -o $(BIN) ./functions/local

web: deps ## build the SPA into web/dist (served by the Go server at /)
	$(NPM) run build --workspace web

run: build web ## start the whole product locally on the embedded store (http://127.0.0.1:8080)
	./$(BIN)

vet: ## gofmt, go vet and go mod tidy checks (test-go runs them first)
	@unformatted=$$(gofmt -l functions shared); if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi
	$(GO) vet $(GO_PKGS)
	@$(GO) mod tidy -diff >/dev/null || { echo "go.mod or go.sum is not tidy: run go mod tidy"; $(GO) mod tidy -diff; exit 1; }

# Two packages run without -race: they run no concurrency of their own worth
# racing, and the race detector makes them take ten to twenty times as long.
# shared/capacity meters DynamoDB Local's units through a scripted shop day;
# shared/phones compares 206,338 numbers with libphonenumber's Go port.
UNRACED_PKGS = ./shared/capacity/ ./shared/phones/
test-go: deps vet ## Go tests (DynamoDB Local is started by the tests themselves)
	$(GO) test $(GOFLAGS_TEST) -race $$($(GO) list $(GO_PKGS) | grep -v -e '/shared/capacity$$' -e '/shared/phones$$')
	$(GO) test $(GOFLAGS_TEST) -timeout 20m $(UNRACED_PKGS)

web-test: deps ## web unit tests, the production build and the first-route size budget
	$(NPM) test --workspace web
	$(NPM) run build --workspace web
	$(NPM) run size --workspace web

e2e: build web ## end-to-end tests in headless Chromium against the real server
	OFICINA_BIN=$(BIN) $(NPM) run e2e --workspace web

test: test-go web-test infra-test e2e ## every test of the repo

bench: deps bench-peers lambdas ## benchmarks (and the Lambda zips' sizes): HTTP on the embedded store side by side with pouchdb-server and an older build, the write path's stages, mango, DynamoDB capacity units, every module's targets; capacity per action, bytes per record, cost per tenant
	$(GO) test -run '^$$' -bench . -skip 'Peers|WritePath|BackupContentsLocked' -benchtime 2s ./shared/...
	$(GO) test -run '^$$' -bench BackupContentsLocked -benchtime 120x ./shared/backup/
	$(GO) test -run '^$$' -bench WritePath -benchtime 200x ./shared/app/
	$(GO) test -run '^$$' -bench ColdStart -benchtime 20x ./functions/api/
	$(GO) test -run '^$$' -bench ColdStart -benchtime 20x ./functions/internal/coldstart/
	set -o pipefail; $(GO) test -count=1 -v -run 'TestCapacityPerAction|TestReaderStorage' -bench 'BytesPerRecord|CostPerTenant' -benchtime 1x -timeout 60m ./shared/capacity/ | grep -v '^=== RUN'

# The side-by-side HTTP run (shared/httpload's BenchmarkPeers): pouchdb-server
# from npm and the local server built from an older commit (the platform
# before the modules), both made here under build/bench/ at bench time, next
# to net/http alone (the ceiling) and a build of the working tree; each server
# fresh, 16 connections, 8 s rounds.
BENCH_DIR          := build/bench
BENCH_OLD_COMMIT   ?= 7b6c642
POUCHDB_SERVER_VERSION := 4.2.0

$(BENCH_DIR)/pouchdb-server/.installed-$(POUCHDB_SERVER_VERSION):
	rm -rf $(BENCH_DIR)/pouchdb-server && mkdir -p $(BENCH_DIR)/pouchdb-server
	echo '{"private": true}' > $(BENCH_DIR)/pouchdb-server/package.json
	cd $(BENCH_DIR)/pouchdb-server && $(NPM) install --no-audit --no-fund --no-save pouchdb-server@$(POUCHDB_SERVER_VERSION)
	@touch $@

$(BENCH_DIR)/oficina-$(BENCH_OLD_COMMIT):
	rm -rf $(BENCH_DIR)/src-$(BENCH_OLD_COMMIT) && mkdir -p $(BENCH_DIR)/src-$(BENCH_OLD_COMMIT)
	git archive $(BENCH_OLD_COMMIT) | tar -x -C $(BENCH_DIR)/src-$(BENCH_OLD_COMMIT)
	cd $(BENCH_DIR)/src-$(BENCH_OLD_COMMIT) && $(GO) build -o ../oficina-$(BENCH_OLD_COMMIT) ./functions/local
	rm -rf $(BENCH_DIR)/src-$(BENCH_OLD_COMMIT)

bench-peers: deps $(BENCH_DIR)/pouchdb-server/.installed-$(POUCHDB_SERVER_VERSION) $(BENCH_DIR)/oficina-$(BENCH_OLD_COMMIT) ## PUT and GET side by side: pouchdb-server 4.2, the 7b6c642 build, net/http alone (the ceiling) and this one (about 2.5 minutes)
	$(GO) build -o $(BENCH_DIR)/oficina-current ./functions/local
	$(GO) build -o $(BENCH_DIR)/bare ./shared/httpload/internal/bare
	OFICINA_BENCH_POUCHDB=$(BENCH_DIR)/pouchdb-server/node_modules/.bin/pouchdb-server \
	OFICINA_BENCH_BARE=$(BENCH_DIR)/bare \
	OFICINA_BENCH_BUILDS=$(BENCH_OLD_COMMIT)=$(BENCH_DIR)/oficina-$(BENCH_OLD_COMMIT),current=$(BENCH_DIR)/oficina-current \
	  $(GO) test -run '^$$' -bench Peers -benchtime 1x -timeout 30m ./shared/httpload/

clean: ## remove build output and local data
	rm -rf bin build data

# ---- Cloud (infra-cdk/) -------------------------------------------------------
STAGE            ?= dev
CDK_ARGS         ?=
# Keep in step with LAMBDA_FUNCTIONS in infra-cdk/lib/paths.ts (a test checks it).
LAMBDA_FUNCTIONS ?= api stream schedule worker live
LAMBDA_GOARCH    ?= arm64
CDK              := cd infra-cdk && CDK_DISABLE_VERSION_CHECK=1 npx --no-install cdk

lambdas: deps ## build/lambda/<fn>.zip: a linux/arm64 bootstrap for each Lambda function
	@mkdir -p build/lambda
	@set -e; for fn in $(LAMBDA_FUNCTIONS); do \
	  rm -rf build/lambda/$$fn; \
	  GOOS=linux GOARCH=$(LAMBDA_GOARCH) CGO_ENABLED=0 $(GO) build -tags lambda.norpc -trimpath -buildvcs=false \
	    -ldflags="-s -w" -o build/lambda/$$fn/bootstrap ./functions/$$fn; \
	  node infra-cdk/scripts/lambda-zip.cjs build/lambda/$$fn.zip build/lambda/$$fn/bootstrap; \
	done; \
	for fn in $(LAMBDA_FUNCTIONS); do \
	  size=$$(stat -c %s build/lambda/$$fn.zip); \
	  awk -v f=$$fn -v s=$$size 'BEGIN { printf "  %-8s %6.2f MB  build/lambda/%s.zip%s\n", f, s/1e6, f, (s > 6e6 ? "  (over the 6 MB target)" : "") }'; \
	  [ $$size -lt 20000000 ] || { echo "$$fn.zip is over 20 MB"; exit 1; }; \
	done

webdav-image: ## functions/webdav's container image, for Fargate or App Runner (needs Docker; cdk deploy builds its own)
	docker build --platform linux/arm64 -f functions/webdav/Dockerfile -t oficina-webdav .

infra-test: deps ## CDK assertion tests (offline, no builds needed)
	$(NPM) test --workspace infra-cdk

synth: lambdas web ## synthesise Oficina-$(STAGE) into infra-cdk/cdk.out
	$(CDK) synth Oficina-$(STAGE) --no-notices -q -c stage=$(STAGE) $(CDK_ARGS)

synth-check: deps ## the template only, with placeholder assets
	$(CDK) synth --no-notices -q -c placeholderAssets=true -c stage=$(STAGE) $(CDK_ARGS)

deploy: lambdas web ## deploy Oficina-$(STAGE) with your AWS credentials
	$(CDK) deploy Oficina-$(STAGE) --no-notices -c stage=$(STAGE) $(CDK_ARGS) --require-approval broadening

localstack-deploy: ## optional: needs Docker and LocalStack running (localstack/README.md)
	localstack/deploy.sh
