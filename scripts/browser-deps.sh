#!/usr/bin/env bash
# The browser bundle's dependency tree (the frontend crate, app with `hydrate`, on wasm32) must
# hold no server-only crate: a server dependency in the bundle is download size at best and a
# build that no longer compiles for the browser at worst. Run by scripts/lint.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
SERVER_ONLY='sqlx|sqlx-core|sqlx-sqlite|sqlx-postgres|libsqlite3-sys|rusqlite|tokio|mio|axum|axum-core|leptos_axum|hyper|tower-sessions|tower-sessions-core|argon2|reqwest|utoipa|tracing-subscriber|time'
deps=$(cargo tree -p frontend --target wasm32-unknown-unknown -e normal --prefix none | sed 's/ v[0-9].*//' | sort -u)
found=$(grep -xE "$SERVER_ONLY" <<<"$deps" || true)
if [ -n "$found" ]; then
  echo "server-only crates in the browser build's dependency tree:" $found
  echo "(see how they come in: cargo tree -p frontend --target wasm32-unknown-unknown -i <crate>)"
  exit 1
fi
echo "browser build: no server-only crate among $(wc -l <<<"$deps") dependencies"
