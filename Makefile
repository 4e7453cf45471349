# Oficina — the two commands are `make run` and `make test`; see README.md.
SHELL := /bin/bash
.DEFAULT_GOAL := help

GO        ?= go
NPM       ?= npm
BIN       := bin/oficina
GOFLAGS_TEST ?= -count=1
# Explicit package roots: node_modules ships Go template files that ./... would pick up.
GO_PKGS   := ./functions/... ./shared/...

.PHONY: help deps run build test test-go vet bench clean

help: ## list the targets
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-20s %s\n", $$1, $$2}'

# npm ci only when package-lock.json changed since the last install.
# The stub go.mod makes node_modules a module of its own, outside ours.
node_modules/.package-lock.json: package-lock.json package.json
	$(NPM) ci --no-audit --no-fund
	@for d in node_modules */node_modules; do [ -d "$$d" ] && echo 'module ignored/nodemodules' > "$$d/go.mod"; done; true
	@touch $@

deps: node_modules/.package-lock.json ## install Go modules and npm packages
	$(GO) mod download

build: deps ## build the local server into bin/oficina
	$(GO) build -o $(BIN) ./functions/local

run: build ## start the whole product locally on the embedded store (http://127.0.0.1:8080)
	./$(BIN)

vet:
	@unformatted=$$(gofmt -l functions shared); if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi
	$(GO) vet $(GO_PKGS)

test-go: deps vet ## Go tests (DynamoDB Local is started by the tests themselves)
	$(GO) test $(GOFLAGS_TEST) -race $(GO_PKGS)

test: test-go ## every test of the repo

bench: deps ## benchmarks: HTTP on the embedded store, mango, DynamoDB capacity units
	$(GO) test -run '^$$' -bench . -benchtime 2s ./shared/httpapi/ ./shared/mango/ ./shared/store/...

clean: ## remove build output and local data
	rm -rf bin build data
