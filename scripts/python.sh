#!/usr/bin/env bash
# The Python package (python/, import name lexikey): set-up and tests.
#
#   scripts/python.sh setup         # venv, tools, the package built into it
#   scripts/python.sh test [ARGS]   # pytest python/tests (ARGS go to pytest)
#
# setup is idempotent (only what is missing is installed): python3-venv and
# Java 17 (for PySpark) from Debian when absent; a venv in target/pyvenv
# (LEXIKEY_PY_VENV to change); maturin, pytest, hypothesis, foundationdb,
# mypy, pyspark, pyarrow (reads the Spark job's Parquet) and
# google-cloud-bigtable (scans the Bigtable emulator with lexikey ranges)
# from PyPI; then
# the package is built into the venv with the workspace's target dir and
# cargo's `test` profile, so the crates `cargo test --workspace` compiles
# are reused (see setup below).
#
# scripts/test.sh runs setup, then test inside scripts/with-stores.sh (the
# allocator tests use LEXIKEY_REDIS_URL, LEXIKEY_POSTGRES_URL,
# LEXIKEY_ETCD_URL; the Bigtable tests LEXIKEY_BIGTABLE_URL and
# BIGTABLE_EMULATOR_HOST). The module is built with the `bigtable` store.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD
venv=${LEXIKEY_PY_VENV:-$root/target/pyvenv}

apt_install() {
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=300 update -qq
  apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "$@"
}

setup() {
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
  local missing=()
  local pkg mod
  for pkg in maturin:maturin pytest:pytest hypothesis:hypothesis foundationdb:fdb mypy:mypy pyspark:pyspark pyarrow:pyarrow google-cloud-bigtable:google.cloud.bigtable; do
    mod=${pkg#*:}
    "$venv/bin/python" -c "import $mod" >/dev/null 2>&1 || missing+=("${pkg%%:*}")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "python.sh: pip install ${missing[*]}"
    "$venv/bin/pip" install -q "${missing[@]}"
  fi
  # The extension module, built as `pip install ./python` (maturin) builds
  # it, but with cargo's `test` profile in the workspace's target dir: the
  # crates `cargo test --workspace` compiled are reused (maturin would use
  # another profile and compile them all again). The venv imports the
  # package from python/ (an editable install, as `maturin develop` makes).
  PATH="$venv/bin:$PATH" PYO3_PYTHON="$venv/bin/python" PYO3_BUILD_EXTENSION_MODULE=1 \
    cargo build -p lexikey-python --features bigtable --profile test -j2 --quiet
  cp "${CARGO_TARGET_DIR:-target}/debug/liblexikey.so" python/lexikey/lexikey.abi3.so
  local site
  site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
  echo "$root/python" > "$site/lexikey-dev.pth"
}

case "${1:-}" in
  setup) setup ;;
  test)
    shift
    exec "$venv/bin/python" -m pytest -q python/tests "$@"
    ;;
  *)
    echo "usage: scripts/python.sh setup | test [PYTEST ARGS]" >&2
    exit 2
    ;;
esac
