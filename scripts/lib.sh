# shellcheck shell=bash
# Sourced by scripts/test.sh, scripts/python.sh, scripts/java.sh and
# .ci/run: what every build and test step shares, written once.
#
#   LEXIKEY_FEATURES   the one cargo feature list of the test build. The
#                      workspace tests, the Python module, the JNI library
#                      and the fuzz targets' tests are built with it in one
#                      `cargo build` (lexikey_build), and clippy and the
#                      docs check with it, so each crate is compiled once
#                      per profile: a second
#                      list would give the shared crates (lexikey,
#                      lexikey-stores and everything above them) other
#                      features and compile them again.
#   LEXIKEY_TEST_SIZE  ci (the default: what .ci/run and scripts/test.sh
#                      run) or full (scripts/test.sh --full: the acceptance
#                      sizes). Every size knob of the tests reads it: Rust
#                      (tests/support/size.rs), Python (python/tests/
#                      conftest.py), Java (scripts/java.sh); the history
#                      runs through tests/support/size.rs.
#   stamp MESSAGE      prints "== MESSAGE (N s)", N seconds since the
#                      calling script (or .ci/run, through LEXIKEY_T0) began
#   bounded SECS NAME CMD...
#                      runs CMD with a time limit; past it CMD is killed
#                      (TERM, then KILL 10 s later) and the step fails with
#                      "NAME: no result after SECS s (timed out)"
#
# PYO3_PYTHON and PYO3_BUILD_EXTENSION_MODULE are exported for every cargo
# call of the test build: pyo3's build script reads them, and a change in
# either between two calls would rebuild pyo3 and everything above it.

# A fresh machine (or `env -i`) may have no locale, which means ASCII: javac
# then rejects the UTF-8 sources ("unmappable character ... US-ASCII") and
# Java prints non-ASCII keys as '?'. Every step runs in C.UTF-8 unless a
# UTF-8 locale is already set.
case "${LC_ALL:-${LC_CTYPE:-${LANG:-}}}" in
  *UTF-8* | *utf-8* | *UTF8* | *utf8*) ;;
  *) export LC_ALL=C.UTF-8 ;;
esac

LEXIKEY_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export LEXIKEY_FEATURES="lexikey/serde,lexikey/broken-allocator,lexikey-stores/all-servers,lexikey-cli/all-servers,lexikey-history/all-servers,lexikey-python/all-servers,lexikey-java/all-servers,lexikey-node/all-servers,lexikey-fuzz/libfuzzer"
export LEXIKEY_TEST_SIZE=${LEXIKEY_TEST_SIZE:-ci}
case "$LEXIKEY_TEST_SIZE" in
  ci | full) ;;
  *)
    echo "LEXIKEY_TEST_SIZE is ci or full, not '$LEXIKEY_TEST_SIZE'" >&2
    exit 2
    ;;
esac
export LEXIKEY_PY_VENV=${LEXIKEY_PY_VENV:-$LEXIKEY_ROOT/target/pyvenv}
export PYO3_PYTHON=$LEXIKEY_PY_VENV/bin/python
export PYO3_BUILD_EXTENSION_MODULE=1
export LEXIKEY_T0=${LEXIKEY_T0:-$(date +%s)}

stamp() {
  echo
  echo "== $* ($(($(date +%s) - LEXIKEY_T0)) s)"
}

bounded() {
  local secs=$1 name=$2
  shift 2
  local rc=0
  timeout --kill-after=10 "$secs" "$@" || rc=$?
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    echo "$name: no result after $secs s (timed out)" >&2
  fi
  return "$rc"
}

# The test build: every crate of the workspace, every target (libraries,
# the Python and JNI cdylibs, binaries, tests, benches, examples), the
# `test` profile, LEXIKEY_FEATURES. A second call finds it all fresh.
# LEXIKEY_BUILD_TIMINGS=1 (.ci/run sets it) adds cargo's --timings report
# (target/cargo-timings/) and prints its slowest units.
lexikey_build() {
  local timings=()
  [ "${LEXIKEY_BUILD_TIMINGS:-}" = 1 ] && timings=(--timings)
  (cd "$LEXIKEY_ROOT" && cargo build --workspace --all-targets --profile test \
    --features "$LEXIKEY_FEATURES" -j2 "${timings[@]}" "$@")
  if [ ${#timings[@]} -gt 0 ] && [ -z "${LEXIKEY_TIMINGS_SHOWN:-}" ]; then
    export LEXIKEY_TIMINGS_SHOWN=1
    python3 "$LEXIKEY_ROOT/scripts/slowest.py" --cargo-timings \
      "${CARGO_TARGET_DIR:-$LEXIKEY_ROOT/target}/cargo-timings/cargo-timing.html" 20 || true
  fi
}
