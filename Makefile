# Space Baduk: `make run` starts the product, `make test` runs every test.
# Both install what is missing first (scripts/setup.sh), so they work on a fresh machine.
SHELL := /bin/bash
export PATH := $(HOME)/.cargo/bin:$(CURDIR)/.tools/node_modules/.bin:$(PATH)
# Everything the release server needs to find its files when started from the repository.
export SPACE_BADUK_SITE_ROOT ?= $(CURDIR)/target/site
# `--split`: the lazy routes and the 3D renderer become WASM chunks of their own, so that the
# first download stays small (docs/decisions/0004-a-small-browser-download.md). Required, not
# an option: a lazy function in an unsplit bundle imports a module that does not exist. Then
# the check that the chunks kept their data (scripts/bundle/check-split.py) and the chunks' custom
# sections dropped (scripts/bundle/strip-chunks.py) and the splitter's loader minified
# (scripts/bundle/minify-split.sh) and the bundle's brotli and gzip copies (scripts/bundle/precompress.sh).
LEPTOS_BUILD := cargo leptos build --release --split && scripts/bundle/check-split.py target/site/pkg && scripts/bundle/strip-chunks.py target/site/pkg && scripts/bundle/minify-split.sh target/site/pkg && scripts/bundle/precompress.sh target/site/pkg

.PHONY: run test setup build lint unit e2e lan-play dev bench bench-ui api-fuzz

## Build the release bundle and serve it at http://127.0.0.1:3000 (data in ./data).
run:
	scripts/setup.sh run
	$(LEPTOS_BUILD)
	target/release/space-baduk

## Every test: the lint gate, unit and integration (cargo), then the release build, the
## schema-driven API fuzzer against it, the browser end-to-end tests (Playwright) and the
## LAN play test.
test:
	scripts/setup.sh test
	$(MAKE) lint
	$(MAKE) unit
	$(LEPTOS_BUILD)
	$(MAKE) api-fuzz
	$(MAKE) e2e
	$(MAKE) lan-play

## fmt --check, clippy with warnings denied for every crate and feature, side crates built.
lint:
	scripts/lint.sh

## The participant program's WASM first: the server's participant test inlines it. Then the
## server suite a second time, against a throwaway PostgreSQL server (the second database the
## data layer supports).
unit:
	scripts/build-participant.sh
	cargo test --workspace --exclude frontend
	scripts/test-postgres.sh

e2e:
	node end2end/run.mjs

## The seed's three-PC LAN: the server and each player's browser in network namespaces of
## their own (root, iproute2); a Classic 9×9 game to its result. About half a minute.
lan-play:
	node end2end/lan.mjs

## Schema-driven fuzzing of the participant API against its OpenAPI document (schemathesis,
## pinned in .tools/venv): the release server if built, else the debug one. About a minute.
api-fuzz:
	scripts/api-fuzz.sh

## Watch mode for development (debug build, live reload).
dev:
	scripts/setup.sh run
	cargo leptos watch --split

build:
	scripts/setup.sh run
	$(LEPTOS_BUILD)

bench:
	cargo bench -p engine

## Browser-side speed (transfer sizes, first paint, 25³ frame time, tap latency).
bench-ui:
	$(LEPTOS_BUILD)
	node end2end/bench.mjs
