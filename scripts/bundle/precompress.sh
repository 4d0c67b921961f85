#!/usr/bin/env bash
# Compressed copies of the browser bundle, for a smaller download: `<file>.br` (brotli 11) and
# `<file>.gz` next to each .wasm, .js and .css in the site's pkg directory, each kept only
# when smaller than the file. The gzip copies are made by zopfli: gzip that any client
# reads, ~4% smaller than gzip -9, at ~5 s for the main module (gzip -9 without zopfli). The
# server sends a copy the browser accepts instead of compressing every response itself (the
# first download's wasm took ~90 ms to compress on each request here), and brotli 11 makes
# it about a quarter smaller than gzip. Copies older than their file are dropped by the
# server at start, so a rebuild without this script still serves correct, if slower, files.
# Run by every `make` target that builds. Not cargo-leptos' own `--precompress`: it
# compresses every file of the site one after the other with a weaker gzip (libflate), and
# it turns off building the server and the bundle side by side, which this 2-core build
# relies on.
set -euo pipefail
pkg="${1:-target/site/pkg}"
[ -d "$pkg" ] || { echo "precompress: no directory $pkg" >&2; exit 1; }
have_br=0 have_zopfli=0
command -v brotli >/dev/null && have_br=1
command -v zopfli >/dev/null && have_zopfli=1
[ $have_br -eq 1 ] || echo "precompress: no brotli on PATH; gzip copies only (scripts/setup.sh installs it)" >&2
[ $have_zopfli -eq 1 ] || echo "precompress: no zopfli on PATH; gzip -9 copies (scripts/setup.sh installs it)" >&2

# One file: its copies, each removed again when it does not save anything.
one() {
  local f="$1" size
  size=$(stat -c %s "$f")
  if [ "$have_zopfli" -eq 1 ]; then
    zopfli -c "$f" >"$f.gz"
  else
    gzip -9 -n -c "$f" >"$f.gz"
  fi
  [ "$(stat -c %s "$f.gz")" -lt "$size" ] || rm -f "$f.gz"
  if [ "$have_br" -eq 1 ]; then
    brotli -q 11 -n -f -o "$f.br" "$f"  # -n: the copy's own time, not the file's
    chmod 644 "$f.br"
    [ "$(stat -c %s "$f.br")" -lt "$size" ] || rm -f "$f.br"
  fi
}
export -f one
export have_br have_zopfli
find "$pkg" -maxdepth 1 -type f \( -name '*.wasm' -o -name '*.js' -o -name '*.css' \) -print0 |
  xargs -0 -n 1 -P "$(nproc)" bash -c 'one "$0"'
printf 'precompress: %s gzip and %s brotli copies in %s\n' \
  "$(find "$pkg" -maxdepth 1 -name '*.gz' | wc -l)" "$(find "$pkg" -maxdepth 1 -name '*.br' | wc -l)" "$pkg"
