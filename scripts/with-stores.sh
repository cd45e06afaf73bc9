#!/usr/bin/env bash
# Run a command with private store servers on loopback:
#
#   scripts/with-stores.sh CMD [ARGS...]
#
# Starts Redis, PostgreSQL, a single etcd node, a 3-node etcd cluster, the
# Bigtable emulator, moto's S3 and dynalite (DynamoDB) on free high ports of
# 127.0.0.1 under a fresh temporary directory, waits until each is ready,
# exports their URLs (LEXIKEY_REDIS_URL, LEXIKEY_POSTGRES_URL,
# LEXIKEY_ETCD_URL, LEXIKEY_ETCD_CLUSTER_URL, LEXIKEY_BIGTABLE_URL and
# BIGTABLE_EMULATOR_HOST, LEXIKEY_SLATEDB_S3_URL with
# AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, LEXIKEY_DYNAMODB_ENDPOINT,
# ... — see scripts/stores.sh),
# runs CMD, then stops every server it started (by PID) and deletes the
# directory, whatever happens. The exit code is CMD's.
#
# LEXIKEY_WITH_STORES="redis postgres" starts only those stores (default:
# every store of scripts/stores.sh, bigtable included). Servers must be
# installed (scripts/install-stores.sh); a missing one fails the start with
# a message naming its Debian package.
set -euo pipefail

if [ $# -eq 0 ]; then
  echo "usage: scripts/with-stores.sh CMD [ARGS...]" >&2
  exit 2
fi

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dir=$(mktemp -d "${TMPDIR:-/tmp}/lexikey-stores.XXXXXX")
chmod 755 "$dir" # the postgres user must traverse it

child=""
cleanup() {
  if [ -n "$child" ] && kill -0 "$child" 2>/dev/null; then
    kill -TERM "$child" 2>/dev/null || true
    wait "$child" 2>/dev/null || true
  fi
  "$here/stores.sh" stop "$dir" || true
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

"$here/stores.sh" start "$dir" >/dev/null
# shellcheck disable=SC1091
. "$dir/env"

# Run CMD in the background (stdin kept) and wait for it, so that a signal
# to this script is handled at once: CMD gets it too (SIGTERM), then the
# servers are stopped.
set +e
"$@" <&0 &
child=$!
trap 'kill -INT "$child" 2>/dev/null; exit 130' INT
trap 'kill -TERM "$child" 2>/dev/null; exit 143' TERM
trap 'kill -HUP "$child" 2>/dev/null; exit 129' HUP
wait "$child"
rc=$?
child=""
exit "$rc"
