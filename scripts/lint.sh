#!/usr/bin/env bash
# The lint gate, run by `make test` (so by CI): formatting, clippy with every warning denied
# for each crate and each of app's builds (server-side `ssr`, browser-side `hydrate` on
# wasm32), and the side crates built so that they cannot rot. The lints themselves are the
# workspace table in Cargo.toml (`[workspace.lints]`), each allowed lint with its reason.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
say() { printf '\033[1;34m[lint]\033[0m %s\n' "$*"; }

say "structure: no server-only crate in the browser build, no runtime crate in the room domain, no new import circle between a crate's top-level modules, no new long file"
scripts/crate-deps.sh
scripts/module-graph.py --check
scripts/long-files.py
say "cargo fmt --check"
cargo fmt --all --check
say "clippy: tag_first, engine, wire, room, the participant engine, server (with app[ssr]), the load, soak and chaos tools"
cargo clippy -p tag_first -p engine -p wire -p room -p participant -p server --all-targets -- -D warnings
cargo clippy -p participant --target wasm32-unknown-unknown -- -D warnings
cargo clippy -p server --features load --bin load --bin soak --bin chaos -- -D warnings
say "clippy: app[ssr] with its tests"
cargo clippy -p app --features ssr --all-targets -- -D warnings
say "clippy: app[hydrate] and frontend on wasm32"
cargo clippy -p app -p frontend --features app/hydrate --target wasm32-unknown-unknown -- -D warnings
say "build (not run): engine/fuzz and engine/compare"
cargo build --manifest-path engine/compare/Cargo.toml --quiet
cargo build --manifest-path engine/fuzz/Cargo.toml --quiet
say "ok"
