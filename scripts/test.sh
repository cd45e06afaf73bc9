#!/usr/bin/env bash
# The README's test command:
#
#   scripts/test.sh [--full] [NEXTEST ARGS...]
#
# CI sizes by default (what .ci/run runs, about 20 minutes here from a fresh
# clone); --full (or LEXIKEY_TEST_SIZE=full) runs the acceptance sizes: the
# same tests, with 10,000 proptest cases per property, 2,000 hypothesis
# examples, conformance at 8 clients x 1,000 allocations on every store (the
# salted tests on the TLS servers too), 60-second history runs and
# 1,000,000-row Spark jobs. See scripts/lib.sh for what the sizes change.
#
# On a fresh machine it:
#   1. installs what the tests need, only what is missing (Debian packages:
#      Redis, PostgreSQL, etcd, the Bigtable emulator and cbt,
#      librocksdb-dev — scripts/install-stores.sh; ruby, jruby and a JDK
#      (javac) for the hbase-shell tests, which run the rendered lines
#      under JRuby as the hbase shell does; python3-venv, Java 17, a venv of
#      python/requirements-test.txt — scripts/python.sh venv; Debian's
#      junit5 and assertj — scripts/java.sh setup; node/package-lock.json's
#      npm packages — scripts/node.sh install);
#   2. builds everything once: every crate and target of the workspace in
#      the `test` profile with scripts/lib.sh's one feature list — the
#      tests, the benches, the CLI, the Python module and the JNI library
#      share every compiled crate;
#   3. starts private Redis, PostgreSQL, etcd (a node and a 3-node cluster),
#      their TLS twins and the Bigtable emulator on loopback
#      (scripts/with-stores.sh), stopped on exit, and runs: the Rust tests
#      with cargo-nextest (.config/nextest.toml: two at a time, each with a
#      time limit, the slow ones named), the doc tests, every benchmark
#      once (criterion's test mode), the Python tests (pytest + hypothesis),
#      the Node tests (node --test) and the Java tests (JUnit 5). PySpark
#      and the servers are required there (LEXIKEY_REQUIRE_*: a missing one
#      fails instead of skipping).
# Each step prints "== STEP (N s)": seconds since the start.
# Extra arguments go to `cargo nextest run` (e.g. a test name filter).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ "${1:-}" = --full ]; then
  export LEXIKEY_TEST_SIZE=full
  shift
fi
# shellcheck source=scripts/lib.sh
. scripts/lib.sh
echo "test.sh: LEXIKEY_TEST_SIZE=$LEXIKEY_TEST_SIZE"

stamp "install: store servers, parsers, the Python venv, Java's test jars"
scripts/install-stores.sh
# The hbase shell's lines are checked with ruby (literals) and jruby (the
# shell's own interpreter, with javac-compiled stand-ins for HBase classes);
# the printed `aws dynamodb query` lines with aws CLI v2 (Debian's awscli,
# /usr/bin/aws; PyPI's awscli in the venv is v1, which cannot send binary
# sort keys as printed).
missing=()
command -v ruby >/dev/null 2>&1 || missing+=(ruby)
command -v jruby >/dev/null 2>&1 || missing+=(jruby)
command -v javac >/dev/null 2>&1 || missing+=(openjdk-17-jdk-headless)
[ -x /usr/bin/aws ] || missing+=(awscli)
if [ ${#missing[@]} -gt 0 ]; then
  echo "test.sh: installing ${missing[*]} (the hbase shell and aws dynamodb lines are checked with them)"
  SUDO=()
  [ "$(id -u)" -eq 0 ] || SUDO=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=300 update -qq
  "${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "${missing[@]}"
fi
scripts/python.sh venv
scripts/java.sh setup
scripts/node.sh install
if ! cargo nextest --version >/dev/null 2>&1; then
  echo "test.sh: installing cargo-nextest (cargo install; machines of this kind ship it)"
  cargo install cargo-nextest --locked
fi

stamp "build: every crate and target once (test profile, scripts/lib.sh's features)"
lexikey_build
scripts/python.sh module
LEXIKEY_JAVA_PROFILE=test scripts/java.sh build
scripts/node.sh build

export RUST_BACKTRACE="${RUST_BACKTRACE:-0}"
nextest_profile=default
[ "$LEXIKEY_TEST_SIZE" = full ] && nextest_profile=full
export nextest_profile
exec scripts/with-stores.sh bash -c '
  set -euo pipefail
  . scripts/lib.sh
  stamp "Rust tests: cargo nextest (profile $nextest_profile)"
  rc=0
  cargo nextest run --workspace --features "$LEXIKEY_FEATURES" \
    --build-jobs 2 --profile "$nextest_profile" --no-tests=fail "$@" || rc=$?
  python3 scripts/slowest.py "${CARGO_TARGET_DIR:-target}/nextest/$nextest_profile/junit.xml" 15 || true
  [ "$rc" -eq 0 ] || exit "$rc"
  stamp "Rust doc tests"
  bounded 900 "cargo test --doc" cargo test --workspace --doc --features "$LEXIKEY_FEATURES" -j2 -q
  stamp "benchmarks, each once (criterion test mode, test profile: benches/, stores/benches/)"
  bounded 600 "the benchmark smoke (cargo test --bench *)" \
    cargo test --workspace --bench "*" --features "$LEXIKEY_FEATURES" -j2 -q
  stamp "Python tests (pytest)"
  bounded 1800 "the Python tests (scripts/python.sh test)" scripts/python.sh test
  stamp "Node tests (node --test)"
  LEXIKEY_REQUIRE_STORES=1 bounded 900 "the Node tests (scripts/node.sh test)" scripts/node.sh test
  stamp "Java tests (JUnit)"
  LEXIKEY_REQUIRE_STORES=1 LEXIKEY_REQUIRE_SPARK=1 \
    bounded 1800 "the Java tests (scripts/java.sh test)" scripts/java.sh test
  stamp "tests done"
' bash "$@"
