#!/usr/bin/env bash
# Minifies the bundle splitter's loader, `__wasm_split.*.js`, to shrink the first download:
# every page loads it, and it holds one loader per WASM chunk (~200 KB, 7 KB gzip).
# cargo-leptos minifies its own script with swc but leaves this one as wasm-split writes it;
# esbuild makes it a third of that. Run by the Makefile after each split build, before the
# compressed copies.
set -euo pipefail
pkg="${1:-target/site/pkg}"
shopt -s nullglob
files=("$pkg"/__wasm_split.*.js)
[ ${#files[@]} -gt 0 ] || { echo "minify-split: no __wasm_split.*.js in $pkg (not a --split build?)" >&2; exit 1; }
if ! command -v esbuild >/dev/null; then
  echo "minify-split: no esbuild on PATH; the loader stays as it is (scripts/setup.sh installs it)" >&2
  exit 0
fi
for f in "${files[@]}"; do
  before=$(stat -c %s "$f")
  esbuild --minify --format=esm --log-level=warning "$f" --outfile="$f.min"
  mv "$f.min" "$f"
  echo "minify-split: $(basename "$f") $before -> $(stat -c %s "$f") bytes"
done
