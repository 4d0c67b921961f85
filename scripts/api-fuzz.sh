#!/usr/bin/env bash
# Schema-driven fuzzing of the participant API: schemathesis generates requests from the
# served OpenAPI document and fails on any 5xx or any answer the document does not describe
# (status, content type, body schema).
#
#   scripts/api-fuzz.sh                 # the release binary if built, else the debug one
#   SPACE_BADUK_BIN=target/debug/space-baduk API_FUZZ_EXAMPLES=100 scripts/api-fuzz.sh
#   scripts/api-fuzz.sh --include-path-regex commands --seed 1   # extra schemathesis options
#
# The server runs on a fresh temporary data directory and a free port on 127.0.0.1. Before
# fuzzing, two players sign up, one creates a room from the document's own example, both
# take their seats, confirm and are ready, so the fuzzer (signed in as the first) reaches the
# authorised paths of a game in play. Schemathesis is installed, pinned, into .tools/venv.
set -euo pipefail
cd "$(dirname "$0")/.."

SCHEMATHESIS_VERSION="4.32.5"
EXAMPLES="${API_FUZZ_EXAMPLES:-30}"   # per operation and phase; a run takes about a minute
VENV=.tools/venv

say() { printf '\033[1;34m[api-fuzz]\033[0m %s\n' "$*"; }

if ! "$VENV/bin/schemathesis" --version 2>/dev/null | grep -q "version $SCHEMATHESIS_VERSION$"; then
  say "installing schemathesis $SCHEMATHESIS_VERSION into $VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

BIN="${SPACE_BADUK_BIN:-}"
if [ -z "$BIN" ]; then
  for candidate in target/release/space-baduk target/debug/space-baduk; do
    if [ -x "$candidate" ]; then BIN="$candidate"; break; fi
  done
fi
if [ -z "$BIN" ]; then
  say "no server binary yet: building the debug one"
  cargo build -p server --bin space-baduk
  BIN=target/debug/space-baduk
fi

WORK="$(mktemp -d -t space-baduk-fuzz-XXXXXX)"
PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
BASE="http://127.0.0.1:$PORT"
SERVER_PID=""
stop() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap stop EXIT

# The participant program's engine sits beside the site root (learning::participant::wasm_path).
if [ -f target/participant/participant.wasm ]; then
  mkdir -p "$WORK/participant" && cp target/participant/participant.wasm "$WORK/participant/"
fi
say "starting $BIN on $BASE (data in $WORK)"
env -u SPACE_BADUK_SITE_ROOT "$BIN" --bind 127.0.0.1 --port "$PORT" --data-dir "$WORK/data" \
  --site-root "$WORK/site" --no-browser-bundle --log warn >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 200); do
  curl -fsS "$BASE/healthz" >/dev/null 2>&1 && break
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server.log"; echo "the server exited" >&2; exit 1; }
  sleep 0.1
done

# Two players and a game in play; prints the first player's session cookie value.
SESSION="$(python3 - "$BASE" <<'PY'
import http.cookiejar, json, sys, urllib.parse, urllib.request
base = sys.argv[1]
def player(name):
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    pw = "correct horse battery"
    form = urllib.parse.urlencode({"username": name, "password": pw, "password_again": pw}).encode()
    opener.open(f"{base}/api/sign_up", form).read()
    return opener, jar
def post(opener, path, body):
    req = urllib.request.Request(f"{base}{path}", json.dumps(body).encode(), {"Content-Type": "application/json"})
    return json.load(opener.open(req))
(alice, jar), (bob, _) = player("fuzzer"), player("opponent")
doc = json.load(urllib.request.urlopen(f"{base}/api/openapi.json"))
room = post(alice, "/api/v1/rooms", doc["components"]["schemas"]["CreateRoomBody"]["example"])
rid = room["room_id"]
for p, cmd in [(alice, {"type": "join", "code": room["invite_codes"][0]}),
               (bob, {"type": "join", "code": room["invite_codes"][1]}),
               (alice, {"type": "confirm"}), (bob, {"type": "confirm"}),
               (alice, {"type": "ready"}), (bob, {"type": "ready"})]:
    post(p, f"/api/v1/rooms/{rid}/commands", cmd)
print(next(c.value for c in jar if c.name == "sb_session"))
PY
)"

CHECKS=not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance
# One worker: concurrent workers are threads, and CPython 3.11's `ast` is not thread-safe
# ("AST constructor recursion depth mismatch" inside Hypothesis, seen here with 2 workers).
run() {
  "$VENV/bin/schemathesis" run "$BASE/api/openapi.json" --checks "$CHECKS" --max-examples "$EXAMPLES" \
    --phases examples,coverage,fuzzing --workers 1 --request-timeout 20 --suppress-health-check filter_too_much \
    --header "Cookie: sb_session=$SESSION" --no-color "$@"
}
status=0
say "fuzzing every operation but sign-out ($EXAMPLES examples each)"
run --exclude-method DELETE "$@" || status=$?
say "fuzzing sign-out last (it ends the fuzzer's session)"
run --include-method DELETE || status=$?

if ! kill -0 "$SERVER_PID" 2>/dev/null; then
  echo "the server died during fuzzing" >&2
  status=1
fi
if grep -q "panicked" "$WORK/server.log"; then
  grep -B2 -A8 "panicked" "$WORK/server.log" >&2
  status=1
fi
[ "$status" -eq 0 ] && say "no server errors, every answer as documented" || say "FAILED (server log: above)"
exit "$status"
