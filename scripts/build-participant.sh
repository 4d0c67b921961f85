#!/usr/bin/env bash
# The participant program's engine (003 §12.6): the `participant` crate compiled to WASM,
# written to target/participant/participant.wasm, then shrunk with `wasm-opt -Oz` when
# binaryen is on PATH (setup installs it into .tools/node_modules/.bin). The server inlines
# this file into every exported participant script (app::learning::participant), and the
# server's participant test reads it; `make unit` (so `make test`) runs this first.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/.tools/node_modules/.bin:$PATH"
say() { printf '\033[1;34m[participant]\033[0m %s\n' "$*"; }

out=target/participant
built="${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/wasm-release/participant.wasm"
say "cargo build -p participant --target wasm32-unknown-unknown --profile wasm-release"
cargo build -p participant --target wasm32-unknown-unknown --profile wasm-release --quiet
mkdir -p "$out"
if command -v wasm-opt >/dev/null; then
    # The Rust toolchain emits these features by default; binaryen must accept them.
    wasm-opt -Oz --enable-bulk-memory --enable-sign-ext --enable-mutable-globals \
        --enable-nontrapping-float-to-int --enable-reference-types --enable-multivalue \
        "$built" -o "$out/participant.wasm.tmp"
    mv "$out/participant.wasm.tmp" "$out/participant.wasm"
else
    say "wasm-opt not on PATH: the module is left unoptimised"
    cp "$built" "$out/participant.wasm"
fi
say "$out/participant.wasm: $(wc -c <"$out/participant.wasm") bytes"
