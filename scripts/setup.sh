#!/usr/bin/env bash
# Installs whatever is missing to build (and, with `test`, to test) Space Baduk.
# Idempotent: a second run finds everything and returns in seconds.
#   scripts/setup.sh run    # Rust toolchain pieces + wasm-opt (release builds)
#   scripts/setup.sh test   # the above + Chromium, test data, GNU Go, npm test packages
set -euo pipefail
cd "$(dirname "$0")/.."

MODE="${1:-run}"
CARGO_LEPTOS_VERSION="0.3.10"   # 0.3.11 does not build with --locked on rustc 1.95
ESBUILD_VERSION="0.24.0"       # minifies the bundle splitter's loader (scripts/bundle/minify-split.sh)
BINARYEN_VERSION="132.0.0"      # Debian's wasm-opt 108 produces a wasm that fails at run time
# wasm-bindgen-cli must be exactly the wasm-bindgen the lock file resolved.
WASM_BINDGEN_VERSION="$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/version = |"/, ""); print; exit}' Cargo.lock)"

say() { printf '\033[1;34m[setup]\033[0m %s\n' "$*"; }
export PATH="$HOME/.cargo/bin:$PWD/.tools/node_modules/.bin:$PATH"

if ! command -v cargo >/dev/null; then
  echo "cargo not found: install Rust with rustup first (https://rustup.rs)" >&2
  exit 1
fi

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

for component in clippy rustfmt; do
  if ! rustup component list --installed | grep -q "^$component"; then
    say "adding the $component component (the lint gate)"
    rustup component add "$component"
  fi
done

if ! cargo leptos --version 2>/dev/null | grep -q "$CARGO_LEPTOS_VERSION"; then
  say "installing cargo-leptos $CARGO_LEPTOS_VERSION (takes 12–20 minutes on 2 cores, once)"
  cargo install cargo-leptos --version "$CARGO_LEPTOS_VERSION" --locked
fi

if ! wasm-bindgen --version 2>/dev/null | grep -q "$WASM_BINDGEN_VERSION"; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (matches Cargo.lock)"
  cargo install wasm-bindgen-cli --version "=$WASM_BINDGEN_VERSION"
fi

apt_install() {
  local missing=()
  for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "installing Debian packages: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

if ! command -v npm >/dev/null; then
  apt_install nodejs npm
fi

# wasm-opt for release builds, from npm (cargo-leptos would otherwise try to download it).
if ! .tools/node_modules/.bin/wasm-opt --version 2>/dev/null | grep -q "version ${BINARYEN_VERSION%%.*}"; then
  say "installing wasm-opt (npm binaryen $BINARYEN_VERSION) into .tools/"
  mkdir -p .tools
  npm install --prefix .tools --no-audit --no-fund --silent "binaryen@$BINARYEN_VERSION"
fi

if [ "$(.tools/node_modules/.bin/esbuild --version 2>/dev/null)" != "$ESBUILD_VERSION" ]; then
  say "installing esbuild $ESBUILD_VERSION into .tools/"
  mkdir -p .tools
  npm install --prefix .tools --no-audit --no-fund --silent "esbuild@$ESBUILD_VERSION"
fi

# brotli and zopfli for the bundle's compressed copies (scripts/bundle/precompress.sh).
apt_install brotli zopfli

if [ "$MODE" = "test" ]; then
  # Chromium for the browser tests; real professional games and GNU Go as references for
  # the engine tests; PostgreSQL for the server suite's second run (scripts/test-postgres.sh),
  # and iproute2 for its chaos run's network namespace.
  apt_install chromium chromium-driver fonts-nanum goban-original-games gnugo python3-venv postgresql iproute2
  if [ ! -d end2end/node_modules/playwright-core ] || [ end2end/package-lock.json -nt end2end/node_modules/.package-lock.json ]; then
    say "installing end-to-end test packages (npm ci)"
    (cd end2end && npm ci --no-audit --no-fund --silent)
  fi
fi
say "ready ($MODE)"
