# Every module of the repo, nested ones included: the library at the root,
# plus the separate modules (conformance, bench, integrations/*) that keep
# their heavier dependencies out of go.mod. They are listed in the order
# `make test` runs them: the library first, the integration modules next,
# and last the two heavy ones, whose tests download peer libraries and
# official SDKs (bench, conformance).
HEAVY := ./bench ./conformance
FOUND := $(patsubst %/go.mod,%,$(shell find . -name go.mod -not -path './.git/*' -not -path '*/testdata/*' | LC_ALL=C sort))
MODULES := $(filter .,$(FOUND)) $(filter-out . $(HEAVY),$(FOUND)) $(filter $(HEAVY),$(FOUND))

GO ?= go
BENCH ?= .
BENCH_FLAGS ?= -count 5 -benchmem

.PHONY: test lint fmt golden bench bench-peers demo tidy-check staticcheck

## test: gofmt, then module after module (the library first): go mod tidy
## -diff, go vet, go test -race, staticcheck; it stops at the first failure.
## The tests come before staticcheck, whose first run (it is built, then
## it analyses the standard library) is the slowest step of a fresh clone.
test: fmt
	@set -e; for m in $(MODULES); do \
		echo "== $$m: go mod tidy -diff, go vet, go test -race, staticcheck"; \
		(cd $$m && $(GO) mod tidy -diff && $(GO) vet ./... && $(GO) test -race $(TEST_TIMEOUT) ./...); \
		$(BUILD_STATICCHECK); \
		(cd $$m && $(STATICCHECK) ./...); \
	done

## TEST_TIMEOUT: a test binary's time limit. go test's default, 10 minutes,
## is too close to what the adapters package takes under -race on a loaded
## 2-core machine (about 9 minutes measured while four engineers shared one).
TEST_TIMEOUT ?= -timeout 30m

## lint: gofmt, go vet and staticcheck must report nothing, in every module.
lint: fmt staticcheck
	@set -e; for m in $(MODULES); do \
		echo "== go vet, staticcheck ($$m)"; \
		(cd $$m && $(GO) vet ./... && $(STATICCHECK) ./...); \
	done

## fmt: gofmt must have nothing to change in any tracked .go file.
fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

## staticcheck: the pinned staticcheck, built once into $(TOOLS) (one
## binary per version and Go release, shared by every module and every
## later run; nothing to install by hand). `make test STATICCHECK=staticcheck`
## uses one on your PATH instead, and builds nothing.
STATICCHECK_VERSION := v0.8.2
TOOLS ?= $(CURDIR)/.tools
STATICCHECK_BIN := $(TOOLS)/staticcheck-$(STATICCHECK_VERSION)-$(shell $(GO) env GOVERSION)/staticcheck
STATICCHECK ?= $(STATICCHECK_BIN)
BUILD_STATICCHECK = if [ "$(STATICCHECK)" = "$(STATICCHECK_BIN)" ] && [ ! -x "$(STATICCHECK_BIN)" ]; then \
		echo "== building staticcheck $(STATICCHECK_VERSION) into $(dir $(STATICCHECK_BIN))"; \
		GOBIN="$(dir $(STATICCHECK_BIN))" $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION); \
	fi
staticcheck:
	@$(BUILD_STATICCHECK)

## golden: rewrite every golden file from the current code; review the diff.
golden:
	TOOLNEXUS_UPDATE_GOLDEN=1 $(GO) test -count=1 ./...
	@git status --short testdata

## bench: the library's benchmarks (medians: pipe through benchstat).
bench:
	$(GO) test -run '^$$' -bench '$(BENCH)' $(BENCH_FLAGS) ./...

## bench-peers: compare with peer libraries (bench/ module) and rewrite the tables of docs/benchmarks.md.
BENCH_PEERS_FLAGS ?= -count 5 -benchtime 500ms
bench-peers:
	cd bench && $(GO) run ./internal/readme -doc ../docs/benchmarks.md $(BENCH_PEERS_FLAGS)

## demo: the runnable example; needs no API key and no network.
demo:
	$(GO) run ./cmd/demo

## tidy-check: go.mod and go.sum are tidy in every module (nothing is rewritten).
tidy-check:
	@set -e; for m in $(MODULES); do \
		echo "== go mod tidy -diff ($$m)"; \
		(cd $$m && $(GO) mod tidy -diff); \
	done
