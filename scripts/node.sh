#!/usr/bin/env bash
# The Node package (node/: the napi-rs crate lexikey-node and the npm
# package lexikey): set-up, build, tests, benchmark.
#
#   scripts/node.sh install      # node/node_modules from node/package-lock.json (npm ci,
#                                # every version pinned), only when the lock changed
#   scripts/node.sh build        # node/lexikey.node: the addon of the one test build
#                                # (scripts/lib.sh's lexikey_build) copied in;
#                                # LEXIKEY_NODE_PROFILE=release builds it with
#                                # cargo --release instead (what npm install ./node does)
#   scripts/node.sh test [ARGS]  # tsc --strict on the declarations, then node --test
#                                # node/test/*.test.* (ARGS go to node --test)
#   scripts/node.sh bench        # node/bench.js on a release build without the stores
#                                # (BENCHMARKS.md)
#
# `npm install ./node` on a machine without this script builds the addon
# with @napi-rs/cli (node/build.js). The tests compare with the command line
# (target/debug/lexikey, from the same test build) and, for the allocator,
# use the servers of scripts/with-stores.sh (LEXIKEY_REDIS_URL); without
# them those tests are skipped, never passed (LEXIKEY_REQUIRE_STORES=1
# fails them instead). Sizes follow LEXIKEY_TEST_SIZE (ci or full).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/lib.sh
. scripts/lib.sh
root=$PWD
target=${CARGO_TARGET_DIR:-$root/target}
profile=${LEXIKEY_NODE_PROFILE:-test}

install() {
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "node.sh: installing nodejs and npm"
    export DEBIAN_FRONTEND=noninteractive
    apt-get -o DPkg::Lock::Timeout=300 update -qq
    apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends nodejs npm
  fi
  local stamp_file=node/node_modules/.lexikey-lock
  if ! cmp -s node/package-lock.json "$stamp_file"; then
    echo "node.sh: npm ci (node/package-lock.json)"
    (cd node && bounded 900 "npm ci" npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
    cp node/package-lock.json "$stamp_file"
  fi
}

build() {
  if [ "$profile" = release ]; then
    cargo build -p lexikey-node --release -j2 --quiet
    cp "$target/release/liblexikey_node.so" node/lexikey.node
  else
    lexikey_build --quiet
    cp "$target/debug/liblexikey_node.so" node/lexikey.node
  fi
  echo "node.sh: node/lexikey.node ($profile)"
}

run_tests() {
  [ -f node/lexikey.node ] || build
  (cd node && node_modules/.bin/tsc -p tsconfig.json)
  LEXIKEY_CLI="$target/debug/lexikey" LEXIKEY_ROOT="$root" \
    node --test --test-reporter=dot "$@" node/test/*.test.js node/test/*.test.mjs
}

case "${1:-}" in
  install) install ;;
  build) build ;;
  test)
    shift
    run_tests "$@"
    ;;
  bench)
    # Encoding does not touch the stores: the addon without them builds in
    # a fraction of the time, with the same code for keys.
    cargo build -p lexikey-node --release --no-default-features -j2 --quiet
    cp "$target/release/liblexikey_node.so" node/lexikey.node
    echo "node.sh: node/lexikey.node (release, no stores: put the test build back with scripts/node.sh build)"
    node node/bench.js
    ;;
  *)
    echo "usage: scripts/node.sh install | build | test [ARGS] | bench" >&2
    exit 2
    ;;
esac
