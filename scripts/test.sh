#!/usr/bin/env bash
# The README's test command. On a fresh machine it:
#   1. installs what the tests need (Debian packages: Redis, PostgreSQL, etcd,
#      the Bigtable emulator and cbt,
#      librocksdb-dev; ruby, jruby and a JDK (javac) for the hbase-shell
#      tests, which run the rendered lines under JRuby as the hbase shell
#      does, against Java stand-ins compiled at test time; python3-venv
#      and Java 17 for the Python package and PySpark; a venv with pytest,
#      hypothesis, foundationdb, mypy, pyspark — scripts/python.sh) — only
#      what is missing, so a second run costs nothing;
#   2. starts private Redis, PostgreSQL, etcd (single node and a 3-node
#      cluster) and the Bigtable emulator on loopback
#      (scripts/with-stores.sh), stopped on exit;
#   3. runs every test of the workspace, with every store adapter, then the
#      Python package's tests (pytest + hypothesis, python/tests), then the
#      Java package's (JUnit 5, java/src/test: scripts/java.sh; its jar is
#      built with the `test` profile and the store features the Python
#      module is built with, so only the JNI crate itself is compiled). The
#      core
#      properties run 10,000 cases each (tests/common); tests that spawn
#      real parsers (ruby, bash, redis-cli) per case set their own counts.
#      Setting PROPTEST_CASES overrides every proptest's count (proptest
#      reads it last), so it is left unset here.
# Extra arguments go to `cargo test` (e.g. a test name filter).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

scripts/install-stores.sh
# The hbase shell's lines are checked with ruby (literals) and jruby (the
# shell's own interpreter, with javac-compiled stand-ins for HBase classes).
missing=()
command -v ruby >/dev/null 2>&1 || missing+=(ruby)
command -v jruby >/dev/null 2>&1 || missing+=(jruby)
command -v javac >/dev/null 2>&1 || missing+=(openjdk-17-jdk-headless)
if [ ${#missing[@]} -gt 0 ]; then
  echo "test.sh: installing ${missing[*]} (the hbase shell lines are checked with them)"
  SUDO=()
  [ "$(id -u)" -eq 0 ] || SUDO=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=300 update -qq
  "${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "${missing[@]}"
fi

# The Python package: a venv with its tools, the package built into it
# (scripts/python.sh); its tests run after the Rust ones, with the servers.
scripts/python.sh setup

# The Java package: a JDK, Debian's junit5 and libassertj-core-java
# (scripts/java.sh setup), then java/build/lexikey.jar with its native
# library built with the `test` profile (it reuses the crates the Python
# module was just built with; speed is measured on release builds:
# scripts/java.sh bench). Its tests run last, with the servers and PySpark
# required (LEXIKEY_REQUIRE_*: a missing one fails instead of skipping).
scripts/java.sh setup
LEXIKEY_JAVA_PROFILE=test scripts/java.sh build

export RUST_BACKTRACE="${RUST_BACKTRACE:-0}"
exec scripts/with-stores.sh bash -c \
  'cargo test --workspace --features lexikey-stores/all-servers,lexikey-cli/slatedb,lexikey-cli/bigtable,lexikey/serde -j2 "$@" && scripts/python.sh test \
   && LEXIKEY_REQUIRE_STORES=1 LEXIKEY_REQUIRE_SPARK=1 scripts/java.sh test' \
  bash "$@"
