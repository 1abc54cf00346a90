# Every module of the repo, nested ones included: the library at the root,
# plus the separate modules (conformance, bench, integrations/*) that keep
# their heavier dependencies out of go.mod.
MODULES := $(patsubst %/go.mod,%,$(shell find . -name go.mod -not -path './.git/*' -not -path '*/testdata/*' | LC_ALL=C sort))

GO ?= go
BENCH ?= .
BENCH_FLAGS ?= -count 5 -benchmem

.PHONY: test lint golden bench bench-peers demo tidy-check

## test: lint and tidy-check, then every module's tests with the race detector.
test: lint tidy-check
	@set -e; for m in $(MODULES); do \
		echo "== go test -race ./... ($$m)"; \
		(cd $$m && $(GO) test -race ./...); \
	done

## lint: gofmt, go vet and staticcheck must report nothing, in every module.
## staticcheck is pinned here and fetched by the go command on first use (no
## install step): `make lint STATICCHECK=staticcheck` uses one on PATH instead.
STATICCHECK ?= $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	@set -e; for m in $(MODULES); do \
		echo "== go vet, staticcheck ($$m)"; \
		(cd $$m && $(GO) vet ./... && $(STATICCHECK) ./...); \
	done

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
