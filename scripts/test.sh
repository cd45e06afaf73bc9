#!/usr/bin/env bash
# The README's test command. On a fresh machine it:
#   1. installs what the tests need (Debian packages: Redis, PostgreSQL, etcd,
#      librocksdb-dev; ruby for the hbase-shell quoting tests; python3-venv
#      and Java 17 for the Python package and PySpark; a venv with pytest,
#      hypothesis, foundationdb, mypy, pyspark — scripts/python.sh) — only
#      what is missing, so a second run costs nothing;
#   2. starts private Redis, PostgreSQL, etcd (single node and a 3-node
#      cluster) on loopback (scripts/with-stores.sh), stopped on exit;
#   3. runs every test of the workspace, with every store adapter, then the
#      Python package's tests (pytest + hypothesis, python/tests). The core
#      properties run 10,000 cases each (tests/common); tests that spawn
#      real parsers (ruby, bash, redis-cli) per case set their own counts.
#      Setting PROPTEST_CASES overrides every proptest's count (proptest
#      reads it last), so it is left unset here.
# Extra arguments go to `cargo test` (e.g. a test name filter).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

scripts/install-stores.sh
if ! command -v ruby >/dev/null 2>&1; then
  echo "test.sh: installing ruby (hbase shell literals are checked with it)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=300 update -qq
  apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends ruby
fi

# The Python package: a venv with its tools, the package built into it
# (scripts/python.sh); its tests run after the Rust ones, with the servers.
scripts/python.sh setup

export RUST_BACKTRACE="${RUST_BACKTRACE:-0}"
exec scripts/with-stores.sh bash -c \
  'cargo test --workspace --features lexikey-stores/all-servers,lexikey-cli/slatedb,lexikey/serde -j2 "$@" && scripts/python.sh test' \
  bash "$@"
