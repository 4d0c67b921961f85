#!/usr/bin/env bash
# The server test suite against PostgreSQL, the database that several instances share (the
# embedded SQLite is the other): a throwaway PostgreSQL server in a temporary directory
# (initdb + pg_ctl, as the `postgres` user when run as root: PostgreSQL refuses to run as
# root), the suite with SPACE_BADUK_TEST_POSTGRES pointing at it (each test makes its own
# database), then the server stopped and its directory deleted.
set -euo pipefail
cd "$(dirname "$0")/.."

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
  echo "test-postgres: no PostgreSQL server found under /usr/lib/postgresql (Debian package postgresql)" >&2
  exit 1
fi

tmp=$(mktemp -d /tmp/sb-postgres.XXXXXX)
as_pg=()
if [ "$(id -u)" -eq 0 ]; then
  chown postgres: "$tmp"
  as_pg=(runuser -u postgres --)
fi
# A free port: bound and released by the kernel's choice.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

stop() {
  "${as_pg[@]}" "$bindir/pg_ctl" -D "$tmp/data" -m fast stop >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap stop EXIT

"${as_pg[@]}" "$bindir/initdb" -D "$tmp/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >/dev/null
# The chaos run's partitioned instance reaches it from a network namespace (10.231.n.2);
# anything else that is not this machine is refused.
echo "host all all 10.231.0.0/16 trust" >>"$tmp/data/pg_hba.conf"
"${as_pg[@]}" "$bindir/pg_ctl" -D "$tmp/data" -l "$tmp/server.log" -w \
  -o "-p $port -k $tmp -c listen_addresses='*' -c max_connections=300" start >/dev/null

export SPACE_BADUK_TEST_POSTGRES="postgres://postgres@127.0.0.1:$port"
echo "test-postgres: PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on port $port; the server suite again"
# How the chaos run restarts this PostgreSQL server in the middle of its games.
restart="${as_pg[*]} $bindir/pg_ctl -D $tmp/data -l $tmp/server.log -m fast -w restart >/dev/null"
if [ $# -gt 0 ]; then
  # Given tests only (run the chaos run alone: no other test may see the restart).
  SPACE_BADUK_TEST_PG_RESTART="$restart" cargo test -p server --test suite "$@"
  exit
fi
# The chaos run alone, last.
cargo test -p server --test suite -- --skip chaos::
SPACE_BADUK_TEST_PG_RESTART="$restart" cargo test -p server --test suite chaos:: -- --nocapture
