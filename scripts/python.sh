#!/usr/bin/env bash
# The Python package (python/, import name lexikey): set-up and tests.
#
#   scripts/python.sh venv          # the test venv: python/requirements-test.txt
#   scripts/python.sh module        # the extension module, from the test build
#   scripts/python.sh setup         # venv, then module
#   scripts/python.sh test [ARGS]   # pytest python/tests (ARGS go to pytest)
#
# venv is idempotent (python3-venv and Java 17, for PySpark, from Debian
# when absent; the venv in target/pyvenv, LEXIKEY_PY_VENV to change; pip
# installs python/requirements-test.txt, every version pinned, only when the
# venv does not hold exactly those pins already).
#
# module builds the extension as `pip install ./python` (maturin) builds
# it, but inside the one test build of scripts/lib.sh (lexikey_build: the
# `test` profile, the workspace's target dir, LEXIKEY_FEATURES, so every
# crate `cargo test` needs is compiled once, with the Python module among
# them; the module has every store, Bigtable included), then copies it into
# python/lexikey/ and puts python/ on the venv's path (an editable install,
# as `maturin develop` makes).
#
# scripts/test.sh runs setup, then test inside scripts/with-stores.sh (the
# allocator tests use LEXIKEY_REDIS_URL, LEXIKEY_POSTGRES_URL,
# LEXIKEY_ETCD_URL; the Bigtable tests LEXIKEY_BIGTABLE_URL and
# BIGTABLE_EMULATOR_HOST). Every test has a time limit (pytest-timeout,
# 600 s), and the hypothesis examples per property follow
# LEXIKEY_TEST_SIZE (python/tests/conftest.py).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/lib.sh
. scripts/lib.sh
root=$PWD
venv=$LEXIKEY_PY_VENV
requirements=python/requirements-test.txt

apt_install() {
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=300 update -qq
  apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "$@"
}

venv() {
  if ! command -v python3 >/dev/null 2>&1 || ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
    echo "python.sh: installing python3-venv"
    apt_install python3 python3-venv python3-pip
  fi
  if ! command -v java >/dev/null 2>&1; then
    echo "python.sh: installing Java 17 (PySpark runs on it)"
    apt_install openjdk-17-jre-headless
  fi
  if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
  fi
  # The pins the venv was last set up with; pip runs only when they changed.
  local stamp_file=$venv/.lexikey-requirements
  if ! cmp -s "$requirements" "$stamp_file"; then
    echo "python.sh: pip install -r $requirements"
    bounded 900 "pip install -r $requirements" \
      "$venv/bin/pip" install -q --disable-pip-version-check -r "$requirements"
    cp "$requirements" "$stamp_file"
  fi
}

module() {
  lexikey_build --quiet
  cp "${CARGO_TARGET_DIR:-target}/debug/liblexikey.so" python/lexikey/lexikey.abi3.so
  local site
  site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
  echo "$root/python" >"$site/lexikey-dev.pth"
}

case "${1:-}" in
  venv) venv ;;
  module) module ;;
  setup)
    venv
    module
    ;;
  test)
    shift
    exec "$venv/bin/python" -m pytest -q --timeout=600 --durations=10 python/tests "$@"
    ;;
  *)
    echo "usage: scripts/python.sh venv | module | setup | test [PYTEST ARGS]" >&2
    exit 2
    ;;
esac
