#!/usr/bin/env bash
# Install the store servers and libraries the lexikey-stores tests use:
# Redis, etcd (server + etcdctl), PostgreSQL 15, Debian's RocksDB library
# (plus libclang: the `rocksdb` crate's build script runs bindgen even when
# it links the system library), and the Cloud Bigtable emulator and `cbt`
# (Google Cloud's Debian packages google-cloud-cli-bigtable-emulator and
# google-cloud-cli-cbt, from its apt repository packages.cloud.google.com),
# and moto's server (PyPI moto[server], S3 for SlateDB on S3; pinned in
# scripts/moto-requirements.txt) in a venv of its own, $LEXIKEY_MOTO_VENV
# (default /opt/lexikey-moto), apart from the Python tests' venv.
#
# Idempotent: only missing packages are installed, and `apt-get update` is
# skipped when nothing is missing, so a second run costs almost nothing.
# The packaged services are not started (the image's policy-rc.d denies it,
# which is harmless): scripts/with-stores.sh starts private instances on
# loopback. Waits up to 5 minutes for a dpkg lock held by another apt run.
set -euo pipefail

PACKAGES=(
  redis-server
  etcd-server
  etcd-client
  postgresql-15
  postgresql-client-15
  librocksdb-dev
  libclang1-14
  libclang-common-14-dev
  iproute2 # `ip netns` for the etcd partition of scripts/history.sh
  procps   # `ps --ppid`: scripts/history.sh pauses PostgreSQL's backends
  openssl
  google-cloud-cli-bigtable-emulator # cbtemulator (in-memory Bigtable)
  google-cloud-cli-cbt               # cbt: the --for cbt lines are run by it
  python3-venv                       # moto's venv
)

# moto's server in its own venv, exactly the pins of moto-requirements.txt
# (pip runs only when they changed since the venv was set up).
MOTO_VENV=${LEXIKEY_MOTO_VENV:-/opt/lexikey-moto}
moto_pins=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/moto-requirements.txt
install_moto() {
  if [ -x "$MOTO_VENV/bin/moto_server" ] && cmp -s "$moto_pins" "$MOTO_VENV/.lexikey-requirements"; then
    echo "install-stores: moto present ($MOTO_VENV)"
    return 0
  fi
  echo "install-stores: pip install -r $moto_pins into $MOTO_VENV"
  [ -x "$MOTO_VENV/bin/python" ] || python3 -m venv "$MOTO_VENV"
  "$MOTO_VENV/bin/pip" install -q --disable-pip-version-check -r "$moto_pins"
  cp "$moto_pins" "$MOTO_VENV/.lexikey-requirements"
}

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg -s "$p" 2>/dev/null | grep -q '^Status: install ok installed'; then
    missing+=("$p")
  fi
done

# dynalite (npm, a DynamoDB on LevelDB; its LevelDB binding ships prebuilt)
# into target/dynalite, where scripts/stores.sh finds it. The aws command
# and boto3 the DynamoDB tests use are pinned in python/requirements-test.txt.
DYNALITE_VERSION=4.0.0
dynalite_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/target/dynalite
if ! grep -qs "\"version\": \"$DYNALITE_VERSION\"" "$dynalite_dir/node_modules/dynalite/package.json"; then
  if ! command -v npm >/dev/null 2>&1; then
    missing+=(nodejs npm)
  fi
  install_dynalite=1
fi

if [ ${#missing[@]} -eq 0 ] && [ -z "${install_dynalite:-}" ]; then
  echo "install-stores: all packages present (${PACKAGES[*]}, dynalite $DYNALITE_VERSION)"
  install_moto
  exit 0
fi

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  SUDO=(sudo)
fi

if [ ${#missing[@]} -gt 0 ]; then
  echo "install-stores: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=300 update -qq
  if ! "${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "${missing[@]}"; then
    case " ${missing[*]} " in
      *" google-cloud-cli-"*)
        echo "install-stores: google-cloud-cli-bigtable-emulator and google-cloud-cli-cbt come from Google Cloud's apt repository (https://packages.cloud.google.com/apt, suite cloud-sdk): add it to apt's sources, then run this again" >&2
        ;;
    esac
    exit 1
  fi
fi
if [ -n "${install_dynalite:-}" ]; then
  echo "install-stores: npm install dynalite@$DYNALITE_VERSION into $dynalite_dir"
  mkdir -p "$dynalite_dir"
  (cd "$dynalite_dir" && npm install --no-audit --no-fund --loglevel=error "dynalite@$DYNALITE_VERSION")
fi
install_moto
echo "install-stores: done"
