#!/usr/bin/env bash
# The crate walls, as dependency trees (run by scripts/lint.sh):
# - the browser bundle's tree (the frontend crate, app with `hydrate`, on wasm32) holds no
#   server-only crate: a server dependency in the bundle is download size at best and a
#   build that no longer compiles for the browser at worst;
# - the room domain's tree holds no runtime crate (async, database, web, OS randomness, the
#   UI framework): its state machine stays pure, time and randomness its caller's parameters.
# The wire crate needs no check of its own: it is in the browser's tree.
set -euo pipefail
cd "$(dirname "$0")/.."
SERVER_ONLY='sqlx|sqlx-core|sqlx-sqlite|sqlx-postgres|libsqlite3-sys|rusqlite|tokio|mio|axum|axum-core|leptos_axum|hyper|tower-sessions|tower-sessions-core|argon2|reqwest|utoipa|tracing-subscriber|time'
RUNTIME='tokio|mio|futures|futures-util|async-trait|sqlx|sqlx-core|libsqlite3-sys|rusqlite|axum|axum-core|hyper|reqwest|tower|leptos|leptos_axum|server_fn|getrandom|wasm-bindgen|web-sys|time'

# check <what> <forbidden pattern> <cargo tree arguments…>
check() {
  local what=$1 forbidden=$2
  shift 2
  local deps found
  deps=$(cargo tree "$@" -e normal --prefix none | sed 's/ v[0-9].*//' | sort -u)
  found=$(grep -xE "$forbidden" <<<"$deps" || true)
  if [ -n "$found" ]; then
    echo "$what: crates that must not be in its dependency tree:" $found
    echo "(see how they come in: cargo tree $* -i <crate>)"
    exit 1
  fi
  echo "$what: none of the forbidden crates among $(wc -l <<<"$deps") dependencies"
}

check "browser build" "$SERVER_ONLY" -p frontend --target wasm32-unknown-unknown
check "room domain" "$RUNTIME" -p room
