#!/usr/bin/env bash
# Start and stop private store servers for the lexikey tests, on loopback
# (127.0.0.1) only, on free ports (below the ephemeral range), under one directory.
#
#   scripts/stores.sh start DIR [STORE...]   start servers under DIR (created
#                                            if missing), wait until each is
#                                            ready, write DIR/env, print it
#   scripts/stores.sh stop DIR               stop every server started under
#                                            DIR (by the PIDs it recorded)
#   scripts/stores.sh env DIR                print DIR/env
#
# STORE is any of: redis postgres etcd etcd-cluster bigtable dynamodb, and
# the secure twins redis-tls postgres-tls etcd-tls etcd-cluster-tls, and
# self-signed, and s3 (default: all twelve, or the space/comma-separated list in
# $LEXIKEY_WITH_STORES).
#
# `s3` is moto's server (`moto_server -H 127.0.0.1 -p P`, PyPI moto[server],
# pinned in scripts/moto-requirements.txt and installed by
# scripts/install-stores.sh into its own venv, $LEXIKEY_MOTO_VENV, default
# /opt/lexikey-moto): S3 with conditional puts, in memory only (a restart
# loses every bucket). The bucket `lexikey` is created once it is ready.
#
# `bigtable` is the Cloud Bigtable emulator (`cbtemulator -host 127.0.0.1
# -port P`, from the Debian package google-cloud-cli-bigtable-emulator; in
# memory only: a restart loses every table). Its binary is found on the
# PATH, else where that package puts it, else in $LEXIKEY_CBTEMULATOR; when
# it is missing, start fails naming the package.
#
# `dynamodb` is dynalite (npm `dynalite` 4.0.0, a DynamoDB on LevelDB, that
# scripts/install-stores.sh puts under target/dynalite; $LEXIKEY_DYNALITE
# names another binary) with `--path DIR/dynamodb/data`: its data outlive a
# restart, as the history runs' kill-and-restart needs.
#
# The secure twins run with TLS and authentication on, as production does:
#   redis-tls         TLS only (--port 0 --tls-port P, client certificates
#                     optional), requirepass and an ACL user `lexikey`
#   postgres-tls      ssl=on; pg_hba: hostssl + scram-sha-256 only (a
#                     plain-text connection is refused)
#   etcd-tls          HTTPS only, --client-cert-auth, peer TLS, auth enabled
#                     (user root), simple tokens that expire after 2 idle s
#   etcd-cluster-tls  the same, 3 members (token TTL: etcd's default)
# Their certificates come from a throw-away CA made at start with the
# openssl CLI (DIR/tls, removed with DIR): server certificates for
# 127.0.0.1/localhost, one client certificate, and a second, untrusted CA
# for tests. One random password per run for every secure server.
#
# `self-signed` is the common small set-up: Redis (TLS only), PostgreSQL
# (hostssl only, trust) and one etcd node (HTTPS), all three with one
# self-signed certificate made by
#   openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 \
#     -addext subjectAltName=IP:127.0.0.1 …
# which the clients are given as their CA file (each server's readiness is
# checked by redis-cli --tls --cacert, psql sslmode=verify-full and etcdctl
# --cacert with it); and a second one made the same way, which signed
# nothing of theirs.
#
# DIR/env holds `export` lines a shell can source:
#   LEXIKEY_STORES_DIR            DIR
#   LEXIKEY_REDIS_URL             redis://127.0.0.1:PORT
#   LEXIKEY_POSTGRES_URL          postgres://postgres@127.0.0.1:PORT/postgres
#   LEXIKEY_ETCD_URL              etcd://127.0.0.1:PORT
#   LEXIKEY_ETCD_CLUSTER_URL      etcd://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3
#   LEXIKEY_ETCD_CLUSTER_MEMBERS  m1,m2,m3 (member directories, see below)
#   LEXIKEY_ETCD_CLUSTER_PIDS     PID1,PID2,PID3 (at start; a restarted
#                                 member's PID is in its pid file)
#   LEXIKEY_BIGTABLE_URL          bigtable://lexikey/test?emulator=127.0.0.1:PORT
#   BIGTABLE_EMULATOR_HOST        127.0.0.1:PORT (read by cbt, Google's
#                                 clients and the lexikey adapter)
#   LEXIKEY_S3_ENDPOINT           http://127.0.0.1:PORT (moto's S3)
#   LEXIKEY_SLATEDB_S3_URL        slatedb:s3://lexikey/test?endpoint=http://127.0.0.1:PORT&region=us-east-1
#   AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY   `testing` (moto takes any)
#   LEXIKEY_DYNAMODB_ENDPOINT     http://127.0.0.1:PORT (dynalite)
#   LEXIKEY_DYNAMODB_URL          dynamodb://lexikey-test?endpoint=http://127.0.0.1:PORT&region=us-east-1
#   AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_DEFAULT_REGION
#                                 dummy credentials for the SDKs and the aws
#                                 command (dynalite checks none); set only
#                                 when unset
# and for the secure twins:
#   LEXIKEY_REDIS_TLS_URL         rediss://lexikey:PW@127.0.0.1:PORT?cacert=…&cert=…&key=…
#   LEXIKEY_POSTGRES_TLS_URL      postgres://postgres:PW@127.0.0.1:PORT/postgres?sslmode=verify-full&sslrootcert=…
#   LEXIKEY_ETCD_TLS_URL          etcd+https://root:PW@127.0.0.1:PORT?cacert=…&cert=…&key=…
#   LEXIKEY_ETCD_CLUSTER_TLS_URL  the same with three endpoints
#   LEXIKEY_TLS_PASSWORD          PW (every secure server's password)
#   LEXIKEY_TLS_CA, LEXIKEY_TLS_CERT, LEXIKEY_TLS_KEY   CA, client cert, key
#   LEXIKEY_TLS_OTHER_CA          a CA that signed none of them (untrusted)
# and for self-signed:
#   LEXIKEY_REDIS_SELF_SIGNED_URL     rediss://127.0.0.1:PORT
#   LEXIKEY_POSTGRES_SELF_SIGNED_URL  postgres://postgres@127.0.0.1:PORT/postgres
#   LEXIKEY_ETCD_SELF_SIGNED_URL      etcd+https://127.0.0.1:PORT
#   LEXIKEY_SELF_SIGNED_CERT          the certificate (give it as the CA file)
#   LEXIKEY_SELF_SIGNED_OTHER         another self-signed certificate
#
# Every server has a directory, for fault tests that stop and restart it:
#   DIR/redis, DIR/postgres, DIR/etcd, DIR/etcd-cluster/m1 … m3, DIR/bigtable
# holding:
#   start     starts it again (same command, same port, existing data) in
#             the background; a no-op if it runs
#   ready     waits (up to 30 s) until it answers; exit 1 if it does not
#   stop      graceful stop (SIGTERM; postgres: pg_ctl -m fast), waits
#   kill      SIGKILL (postgres: pg_ctl -m immediate, a simulated crash), waits
#   pid       the running server's PID
#   endpoint  127.0.0.1:PORT (the client address)
#   log       its log
# Durability across restarts:
#   Redis keeps an append-only file (appendfsync $LEXIKEY_REDIS_APPENDFSYNC,
#   default `everysec`): after `stop` (SIGTERM: Redis flushes the file) a
#   restarted Redis has every acknowledged write; after `kill` it may miss
#   the last second of them, unless LEXIKEY_REDIS_APPENDFSYNC=always (every
#   write fsynced before its reply; ~15x slower under the 8-client
#   allocator test here).
#   PostgreSQL runs with fsync=off: it survives `kill` (a process crash),
#   not a machine crash. etcd syncs its WAL as usual.
#
# Processes are only ever signalled by the PIDs this script recorded.
set -euo pipefail

PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
READY_TIMEOUT=${LEXIKEY_READY_TIMEOUT:-30}

die() {
  echo "stores.sh: $*" >&2
  exit 1
}

log() {
  echo "stores.sh: $*" >&2
}

# --- ports -------------------------------------------------------------------

# Ports handed out by this run, so two calls never return the same one.
USED_PORTS=" "

port_busy() {
  local p=$1
  case "$USED_PORTS" in *" $p "*) return 0 ;; esac
  if command -v ss >/dev/null 2>&1; then
    ss -Htan "( sport = :$p )" 2>/dev/null | grep -q . && return 0
  fi
  # Something answers on it?
  (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null && return 0
  return 1
}

# The range servers listen in: below the kernel's ephemeral range (the
# local ports of outgoing connections), or above it when that leaves no
# room. A port in the ephemeral range can be taken, while its server is
# down for a `kill` fault, as the local port of any outgoing connection on
# the machine, and the restarted server then fails to bind it (seen in
# CI: history runs, redis, "Address already in use").
read -r EPH_LO EPH_HI </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || {
  EPH_LO=32768
  EPH_HI=60999
}
PORT_LO=10000
PORT_HI=$((EPH_LO - 1))
if ((PORT_HI - PORT_LO < 1000)); then
  PORT_LO=$((EPH_HI + 1))
  PORT_HI=65535
fi

# free_port: prints a free TCP port in PORT_LO-PORT_HI.
free_port() {
  local p
  for _ in $(seq 1 200); do
    p=$((PORT_LO + (RANDOM * 32768 + RANDOM) % (PORT_HI - PORT_LO + 1)))
    if ! port_busy "$p"; then
      USED_PORTS="$USED_PORTS$p "
      echo "$p"
      return 0
    fi
  done
  die "no free port found"
}

# --- per-server scripts --------------------------------------------------------

# Shell functions every generated script starts with.
read -r -d '' SCRIPT_LIB <<'EOS' || true
set -eu
# alive PID: the process exists and is not a zombie (a daemon re-parented to
# PID 1 lingers as a zombie for a moment after it died).
alive() {
  [ -n "${1:-}" ] && [ -r "/proc/$1/stat" ] &&
    ! grep -qE '^[0-9]+ \(.*\) [ZX]' "/proc/$1/stat" 2>/dev/null
}
pid() { cat "$here/pid" 2>/dev/null || true; }
# wait_gone PID SECONDS
wait_gone() {
  local i
  for i in $(seq 1 $(($2 * 20))); do
    alive "$1" || return 0
    sleep 0.05
  done
  return 1
}
EOS

# write_scripts DIR READY_CMD START_CMD...
# Writes start/stop/kill/ready for a server that runs in the foreground.
write_scripts() {
  local dir=$1 ready=$2
  shift 2
  local cmd
  cmd=$(printf '%q ' "$@")
  cat >"$dir/start" <<EOS
#!/usr/bin/env bash
# Starts the server of this directory in the background; PID in ./pid.
here=$(printf '%q' "$dir")
$SCRIPT_LIB
alive "\$(pid)" && exit 0
cd "\$here"
setsid $cmd </dev/null >>"\$here/log" 2>&1 &
echo \$! >"\$here/pid"
EOS
  cat >"$dir/stop" <<EOS
#!/usr/bin/env bash
# Stops the server of this directory gracefully (SIGTERM), SIGKILL after 10 s.
here=$(printf '%q' "$dir")
$SCRIPT_LIB
p=\$(pid)
alive "\$p" || exit 0
kill -TERM "\$p" 2>/dev/null || true
wait_gone "\$p" 10 && exit 0
kill -KILL "\$p" 2>/dev/null || true
wait_gone "\$p" 5
EOS
  cat >"$dir/kill" <<EOS
#!/usr/bin/env bash
# SIGKILLs the server of this directory and waits until it is gone, or
# fails: a process in uninterruptible sleep (a slow fsync on a busy machine)
# can outlive SIGKILL for seconds, and a start while it lives would take it
# for the restarted server (seen in CI: etcd, history runs).
here=$(printf '%q' "$dir")
$SCRIPT_LIB
p=\$(pid)
alive "\$p" || exit 0
kill -KILL "\$p" 2>/dev/null || true
wait_gone "\$p" 30 && exit 0
echo "\$here: pid \$p still there 30 s after SIGKILL" >&2
exit 1
EOS
  write_ready "$dir" "$ready"
  chmod +x "$dir/start" "$dir/stop" "$dir/kill"
}

# write_ready DIR READY_CMD
write_ready() {
  local dir=$1 ready=$2
  cat >"$dir/ready" <<EOS
#!/usr/bin/env bash
# Waits until the server of this directory answers (exit 1 after ${READY_TIMEOUT} s).
here=$(printf '%q' "$dir")
$SCRIPT_LIB
deadline=\$((SECONDS + $READY_TIMEOUT))
until $ready >/dev/null 2>&1; do
  # A server that is not running never gets ready: say so at once.
  if ! alive "\$(pid)"; then
    echo "\$here: not running (pid \$(pid)); its log ends:" >&2
    tail -n 20 "\$here/log" >&2 || true
    exit 1
  fi
  if [ "\$SECONDS" -ge "\$deadline" ]; then
    echo "\$here: not ready after ${READY_TIMEOUT}s" >&2
    tail -n 20 "\$here/log" >&2 || true
    exit 1
  fi
  sleep 0.05
done
EOS
  chmod +x "$dir/ready"
}

as_postgres() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

# --- stores ------------------------------------------------------------------

start_redis() {
  local dir=$1/redis port
  mkdir -p "$dir"
  port=$(free_port)
  echo "127.0.0.1:$port" >"$dir/endpoint"
  write_scripts "$dir" \
    "[ \"\$(redis-cli -h 127.0.0.1 -p $port ping 2>/dev/null)\" = PONG ]" \
    redis-server --bind 127.0.0.1 --port "$port" --dir "$dir" --save '' \
    --appendonly yes --appendfsync "${LEXIKEY_REDIS_APPENDFSYNC:-everysec}" \
    --daemonize no --logfile "$dir/log" --protected-mode yes
  "$dir/start"
  ENV_LINES+=("export LEXIKEY_REDIS_URL=redis://127.0.0.1:$port")
}

# The Bigtable emulator's binary (empty when missing).
cbtemulator_bin() {
  if [ -n "${LEXIKEY_CBTEMULATOR:-}" ]; then
    [ -x "$LEXIKEY_CBTEMULATOR" ] && echo "$LEXIKEY_CBTEMULATOR"
    return 0
  fi
  if command -v cbtemulator 2>/dev/null; then
    return 0
  fi
  local p=/usr/lib/google-cloud-sdk/platform/bigtable-emulator/cbtemulator
  if [ -x "$p" ]; then echo "$p"; fi
  return 0
}

BIGTABLE_MISSING="the Bigtable emulator (cbtemulator) is missing: install the Debian package google-cloud-cli-bigtable-emulator (scripts/install-stores.sh does), or point LEXIKEY_CBTEMULATOR at the binary"

MOTO_VENV=${LEXIKEY_MOTO_VENV:-/opt/lexikey-moto}
MOTO_MISSING="moto's server is missing ($MOTO_VENV/bin/moto_server): run scripts/install-stores.sh"

start_s3() {
  local dir=$1/s3 port
  [ -x "$MOTO_VENV/bin/moto_server" ] || die "$MOTO_MISSING"
  mkdir -p "$dir"
  port=$(free_port)
  echo "127.0.0.1:$port" >"$dir/endpoint"
  write_scripts "$dir" "(exec 3<>/dev/tcp/127.0.0.1/$port)" \
    "$MOTO_VENV/bin/moto_server" -H 127.0.0.1 -p "$port"
  "$dir/start"
  ENV_LINES+=("export LEXIKEY_S3_ENDPOINT=http://127.0.0.1:$port")
  ENV_LINES+=("export LEXIKEY_SLATEDB_S3_URL='slatedb:s3://lexikey/test?endpoint=http://127.0.0.1:$port&region=us-east-1'")
  ENV_LINES+=("export AWS_ACCESS_KEY_ID=testing AWS_SECRET_ACCESS_KEY=testing")
}

# The bucket of LEXIKEY_SLATEDB_S3_URL (moto's server takes unsigned requests).
s3_bucket() {
  local ep
  ep=$(cat "$1/s3/endpoint")
  "$MOTO_VENV/bin/python" -c 'import sys, urllib.request
urllib.request.urlopen(urllib.request.Request(sys.argv[1], method="PUT"), timeout=10)' \
    "http://$ep/lexikey"
}

start_bigtable() {
  local dir=$1/bigtable port bin
  bin=$(cbtemulator_bin)
  [ -n "$bin" ] || die "$BIGTABLE_MISSING"
  mkdir -p "$dir"
  port=$(free_port)
  echo "127.0.0.1:$port" >"$dir/endpoint"
  # Ready when it accepts a connection (it listens ~15 ms after start).
  write_scripts "$dir" "(exec 3<>/dev/tcp/127.0.0.1/$port)" \
    "$bin" -host 127.0.0.1 -port "$port"
  "$dir/start"
  ENV_LINES+=("export LEXIKEY_BIGTABLE_URL='bigtable://lexikey/test?emulator=127.0.0.1:$port'")
  ENV_LINES+=("export BIGTABLE_EMULATOR_HOST=127.0.0.1:$port")
}

dynalite_bin() {
  if [ -n "${LEXIKEY_DYNALITE:-}" ]; then
    [ -x "$LEXIKEY_DYNALITE" ] && echo "$LEXIKEY_DYNALITE"
    return 0
  fi
  local p
  p=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/target/dynalite/node_modules/.bin/dynalite
  if [ -x "$p" ]; then echo "$p"; fi
  return 0
}

DYNALITE_MISSING="dynalite is missing: run scripts/install-stores.sh (npm install dynalite@4.0.0 into target/dynalite), or point LEXIKEY_DYNALITE at its binary"

start_dynamodb() {
  local dir=$1/dynamodb port bin
  bin=$(dynalite_bin)
  [ -n "$bin" ] || die "$DYNALITE_MISSING"
  mkdir -p "$dir/data"
  port=$(free_port)
  echo "127.0.0.1:$port" >"$dir/endpoint"
  write_scripts "$dir" "(exec 3<>/dev/tcp/127.0.0.1/$port)" \
    node "$bin" --host 127.0.0.1 --port "$port" --path "$dir/data" \
    --createTableMs 0 --deleteTableMs 0 --updateTableMs 0
  "$dir/start"
  ENV_LINES+=("export LEXIKEY_DYNAMODB_ENDPOINT=http://127.0.0.1:$port")
  ENV_LINES+=("export LEXIKEY_DYNAMODB_URL='dynamodb://lexikey-test?endpoint=http://127.0.0.1:$port&region=us-east-1'")
  ENV_LINES+=("export AWS_ACCESS_KEY_ID=\${AWS_ACCESS_KEY_ID:-lexikey} AWS_SECRET_ACCESS_KEY=\${AWS_SECRET_ACCESS_KEY:-lexikey} AWS_DEFAULT_REGION=\${AWS_DEFAULT_REGION:-us-east-1}")
}

# start_postgres BASE [NAME INITDB_AUTH_FLAGS EXTRA_SERVER_OPTS PG_HBA_LINES]
start_postgres() {
  local dir=$1/${2:-postgres} port q auth=${3:--A trust} extra=${4:-}
  mkdir -p "$dir"
  if [ "$(id -u)" -eq 0 ]; then
    chown postgres: "$dir"
  fi
  port=$(free_port)
  echo "127.0.0.1:$port" >"$dir/endpoint"
  # shellcheck disable=SC2086
  as_postgres "$PG_BIN/initdb" -D "$dir/data" $auth -U postgres -E UTF8 \
    --locale=C --no-sync >"$dir/initdb.log" 2>&1 || {
    cat "$dir/initdb.log" >&2
    die "initdb failed"
  }
  if [ -n "${5:-}" ]; then
    printf '%s\n' "$5" >"$dir/data/pg_hba.conf"
  fi
  local as=""
  [ "$(id -u)" -eq 0 ] && as="runuser -u postgres --"
  q=$(printf '%q' "$dir")
  cat >"$dir/start" <<EOS
#!/usr/bin/env bash
# Starts PostgreSQL (pg_ctl -w waits until it accepts connections); PID in ./pid.
here=$q
$SCRIPT_LIB
alive "\$(pid)" && exit 0
$as "$PG_BIN/pg_ctl" -D "\$here/data" -l "\$here/log" -w -t $READY_TIMEOUT \\
  -o "-c listen_addresses=127.0.0.1 -p $port -k \$here -c fsync=off -c full_page_writes=off -c max_connections=300 $extra" \\
  start >"\$here/pg_ctl.log" 2>&1 || { cat "\$here/pg_ctl.log" >&2; tail -n 20 "\$here/log" >&2; exit 1; }
head -n 1 "\$here/data/postmaster.pid" >"\$here/pid"
EOS
  cat >"$dir/stop" <<EOS
#!/usr/bin/env bash
# Stops PostgreSQL (pg_ctl -m fast).
here=$q
$SCRIPT_LIB
alive "\$(pid)" || exit 0
$as "$PG_BIN/pg_ctl" -D "\$here/data" -m fast -w -t 20 stop >/dev/null
wait_gone "\$(pid)" 5
EOS
  cat >"$dir/kill" <<EOS
#!/usr/bin/env bash
# Crashes PostgreSQL (pg_ctl -m immediate: no checkpoint, recovery on start)
# and waits until the postmaster is gone, or fails, as the other servers'
# kill does: a start while it lives would take it for the restarted server.
here=$q
$SCRIPT_LIB
p=\$(pid)
alive "\$p" || exit 0
$as "$PG_BIN/pg_ctl" -D "\$here/data" -m immediate -w -t 20 stop >/dev/null || kill -KILL "\$p" 2>/dev/null || true
wait_gone "\$p" 30 && exit 0
echo "\$here: postmaster pid \$p still there 30 s after the immediate stop" >&2
exit 1
EOS
  chmod +x "$dir/start" "$dir/stop" "$dir/kill"
  write_ready "$dir" "pg_isready -q -h 127.0.0.1 -p $port -U postgres"
  "$dir/start" || die "postgres did not start"
  [ "${2:-postgres}" = postgres ] || return 0
  ENV_LINES+=("export LEXIKEY_POSTGRES_URL=postgres://postgres@127.0.0.1:$port/postgres")
}

# etcd_health_cmd ENDPOINT [TLS_DIR]
etcd_health_cmd() {
  if [ -n "${2:-}" ]; then
    echo "ETCDCTL_API=3 etcdctl --endpoints=https://$1 --cacert $2/ca.pem --cert $2/client.pem --key $2/client.key --dial-timeout=1s --command-timeout=2s endpoint health"
  else
    echo "ETCDCTL_API=3 etcdctl --endpoints=$1 --dial-timeout=1s --command-timeout=2s endpoint health"
  fi
}

# etcd_member DIR NAME CLIENT_PORT PEER_PORT INITIAL_CLUSTER TOKEN [FLAG...]
# (ETCD_SCHEME=https ETCD_TLS_DIR=D: TLS URLs, health checked with D's
# certificates; the TLS flags come as FLAGs)
etcd_member() {
  local dir=$1 name=$2 cport=$3 pport=$4 cluster=$5 token=$6 sch=${ETCD_SCHEME:-http}
  shift 6
  local tlsdir=${ETCD_TLS_DIR:-}
  mkdir -p "$dir/data"
  chmod 700 "$dir/data"
  echo "$name" >"$dir/name"
  echo "127.0.0.1:$cport" >"$dir/endpoint"
  write_scripts "$dir" "$(etcd_health_cmd "127.0.0.1:$cport" "$tlsdir")" \
    etcd --name "$name" --data-dir "$dir/data" \
    --listen-client-urls "$sch://127.0.0.1:$cport" \
    --advertise-client-urls "$sch://127.0.0.1:$cport" \
    --listen-peer-urls "$sch://127.0.0.1:$pport" \
    --initial-advertise-peer-urls "$sch://127.0.0.1:$pport" \
    --initial-cluster "$cluster" --initial-cluster-state new \
    --initial-cluster-token "$token" \
    --heartbeat-interval 100 --election-timeout 1000 "$@"
  "$dir/start"
}

start_etcd() {
  local dir=$1/etcd cport pport
  cport=$(free_port)
  pport=$(free_port)
  etcd_member "$dir" n "$cport" "$pport" "n=http://127.0.0.1:$pport" "lexikey-$cport"
  ENV_LINES+=("export LEXIKEY_ETCD_URL=etcd://127.0.0.1:$cport")
}

# etcd_cluster DIR SCHEME TOKEN_PREFIX [FLAG...]: three members under DIR
# (m1 … m3); sets CLUSTER_EPS (HOST:PORT,…) and CLUSTER_PIDS.
etcd_cluster() {
  local dir=$1 sch=$2 prefix=$3 i cluster=""
  shift 3
  local -a cports pports
  CLUSTER_EPS="" CLUSTER_PIDS=""
  for i in 1 2 3; do
    cports[i]=$(free_port)
    pports[i]=$(free_port)
    cluster="${cluster:+$cluster,}m$i=$sch://127.0.0.1:${pports[i]}"
    CLUSTER_EPS="${CLUSTER_EPS:+$CLUSTER_EPS,}127.0.0.1:${cports[i]}"
  done
  # Start all three before waiting: a lone member has no quorum.
  for i in 1 2 3; do
    ETCD_SCHEME=$sch etcd_member "$dir/m$i" "m$i" "${cports[i]}" "${pports[i]}" \
      "$cluster" "$prefix-${cports[1]}" "$@"
    CLUSTER_PIDS="${CLUSTER_PIDS:+$CLUSTER_PIDS,}$(cat "$dir/m$i/pid")"
  done
}

start_etcd_cluster() {
  etcd_cluster "$1/etcd-cluster" http lexikey-cluster
  local eps=$CLUSTER_EPS pids=$CLUSTER_PIDS
  ENV_LINES+=("export LEXIKEY_ETCD_CLUSTER_URL=etcd://$eps")
  ENV_LINES+=("export LEXIKEY_ETCD_CLUSTER_MEMBERS=m1,m2,m3")
  ENV_LINES+=("export LEXIKEY_ETCD_CLUSTER_PIDS=$pids")
}


# --- TLS and authentication (the secure twins) ---------------------------------

TLS_PASSWORD=""

# make_certs DIR: a throw-away CA, a server certificate (127.0.0.1,
# localhost; server and client use, as etcd's gateway and peers need), a
# client certificate and an unrelated CA, under DIR/tls. Once per run.
make_certs() {
  local t=$1/tls
  [ -f "$t/done" ] && return 0
  command -v openssl >/dev/null || die "openssl missing: run scripts/install-stores.sh"
  mkdir -p "$t"
  chmod 755 "$t"
  local ec=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
  (
    cd "$t"
    for ca in ca other-ca; do
      openssl req -x509 "${ec[@]}" -keyout "$ca.key" -out "$ca.pem" -days 2 \
        -subj "/CN=lexikey test $ca" \
        -addext basicConstraints=critical,CA:TRUE \
        -addext keyUsage=critical,keyCertSign,cRLSign
    done
    printf '%s\n' 'subjectAltName=IP:127.0.0.1,DNS:localhost' \
      'extendedKeyUsage=serverAuth,clientAuth' 'basicConstraints=CA:FALSE' \
      'keyUsage=critical,digitalSignature' >server.ext
    printf '%s\n' 'extendedKeyUsage=clientAuth' 'basicConstraints=CA:FALSE' \
      'keyUsage=critical,digitalSignature' >client.ext
    # The client certificate has no CommonName: etcd's JSON gateway refuses
    # a client certificate with one ("CommonName of client sending a request
    # against gateway will be ignored"), as it would bypass its auth.
    for who in server client; do
      subj="/O=lexikey/OU=$who"
      [ "$who" = server ] && subj="/CN=lexikey-server"
      openssl req "${ec[@]}" -keyout "$who.key" -out "$who.csr" -subj "$subj"
      openssl x509 -req -in "$who.csr" -CA ca.pem -CAkey ca.key -CAcreateserial \
        -days 2 -extfile "$who.ext" -out "$who.pem"
    done
    chmod 644 ./*.pem ./*.key
  ) >"$t/openssl.log" 2>&1 || {
    cat "$t/openssl.log" >&2
    die "could not make certificates"
  }
  touch "$t/done"
  ENV_LINES+=("export LEXIKEY_TLS_CA=$t/ca.pem")
  ENV_LINES+=("export LEXIKEY_TLS_CERT=$t/client.pem")
  ENV_LINES+=("export LEXIKEY_TLS_KEY=$t/client.key")
  ENV_LINES+=("export LEXIKEY_TLS_OTHER_CA=$t/other-ca.pem")
  ENV_LINES+=("export LEXIKEY_TLS_PASSWORD=$TLS_PASSWORD")
}

# The client-side TLS options of Redis and etcd URLs.
tls_query() {
  local t=$1/tls
  echo "cacert=$t/ca.pem&cert=$t/client.pem&key=$t/client.key"
}

start_redis_tls() {
  local dir=$1/redis-tls port t=$1/tls
  make_certs "$1"
  mkdir -p "$dir"
  port=$(free_port)
  echo "127.0.0.1:$port" >"$dir/endpoint"
  write_scripts "$dir" \
    "[ \"\$(REDISCLI_AUTH=$TLS_PASSWORD redis-cli --tls --cacert $t/ca.pem -h 127.0.0.1 -p $port ping 2>/dev/null)\" = PONG ]" \
    redis-server --bind 127.0.0.1 --port 0 --tls-port "$port" \
    --tls-cert-file "$t/server.pem" --tls-key-file "$t/server.key" \
    --tls-ca-cert-file "$t/ca.pem" --tls-auth-clients optional \
    --requirepass "$TLS_PASSWORD" \
    --user lexikey on ">$TLS_PASSWORD" '~*' '&*' '+@all' \
    --dir "$dir" --save '' --appendonly no \
    --daemonize no --logfile "$dir/log" --protected-mode yes
  "$dir/start"
  ENV_LINES+=("export LEXIKEY_REDIS_TLS_URL='rediss://lexikey:$TLS_PASSWORD@127.0.0.1:$port?$(tls_query "$1")'")
}

start_postgres_tls() {
  local dir=$1/postgres-tls t=$1/tls
  make_certs "$1"
  mkdir -p "$dir"
  cp "$t/server.pem" "$t/server.key" "$t/ca.pem" "$dir/"
  chmod 600 "$dir/server.key"
  printf '%s\n' "$TLS_PASSWORD" >"$dir/pwfile"
  if [ "$(id -u)" -eq 0 ]; then
    chown -R postgres: "$dir"
  fi
  # pg_hba: TLS with a password only (no plain-text TCP, no trust over TCP).
  start_postgres "$1" postgres-tls \
    "--auth-local=trust --auth-host=scram-sha-256 --pwfile=$dir/pwfile" \
    "-c ssl=on -c ssl_cert_file=$dir/server.pem -c ssl_key_file=$dir/server.key -c ssl_ca_file=$dir/ca.pem -c password_encryption=scram-sha-256" \
    "local all all trust
hostssl all all 127.0.0.1/32 scram-sha-256"
  rm -f "$dir/pwfile"
  local port
  port=$(cut -d: -f2 "$dir/endpoint")
  ENV_LINES+=("export LEXIKEY_POSTGRES_TLS_URL='postgres://postgres:$TLS_PASSWORD@127.0.0.1:$port/postgres?sslmode=verify-full&sslrootcert=$t/ca.pem'")
}

# The TLS flags of an etcd member.
etcd_tls_flags() {
  local t=$1/tls
  echo --cert-file "$t/server.pem" --key-file "$t/server.key" \
    --client-cert-auth --trusted-ca-file "$t/ca.pem" \
    --peer-cert-file "$t/server.pem" --peer-key-file "$t/server.key" \
    --peer-client-cert-auth --peer-trusted-ca-file "$t/ca.pem"
}

start_etcd_tls() {
  local dir=$1/etcd-tls cport pport
  make_certs "$1"
  cport=$(free_port)
  pport=$(free_port)
  # shellcheck disable=SC2046
  ETCD_SCHEME=https ETCD_TLS_DIR=$1/tls etcd_member "$dir" n "$cport" "$pport" \
    "n=https://127.0.0.1:$pport" "lexikey-tls-$cport" \
    $(etcd_tls_flags "$1") --auth-token-ttl 2
  ENV_LINES+=("export LEXIKEY_ETCD_TLS_URL='etcd+https://root:$TLS_PASSWORD@127.0.0.1:$cport?$(tls_query "$1")'")
}

start_etcd_cluster_tls() {
  make_certs "$1"
  # shellcheck disable=SC2046
  ETCD_TLS_DIR=$1/tls etcd_cluster "$1/etcd-cluster-tls" https lexikey-cluster-tls \
    $(etcd_tls_flags "$1")
  local eps=$CLUSTER_EPS
  ENV_LINES+=("export LEXIKEY_ETCD_CLUSTER_TLS_URL='etcd+https://root:$TLS_PASSWORD@$eps?$(tls_query "$1")'")
}

# etcd_enable_auth DIR MEMBER_DIR: user root with the run's password, auth on.
etcd_enable_auth() {
  local t=$1/tls ep
  ep=$(cat "$2/endpoint")
  local ctl=(env ETCDCTL_API=3 etcdctl --endpoints="https://$ep" --cacert "$t/ca.pem"
    --cert "$t/client.pem" --key "$t/client.key" --dial-timeout=2s --command-timeout=5s)
  { "${ctl[@]}" role add root >/dev/null 2>&1 || true; } &&
    "${ctl[@]}" user add "root:$TLS_PASSWORD" >/dev/null &&
    "${ctl[@]}" user grant-role root root >/dev/null &&
    "${ctl[@]}" auth enable >/dev/null ||
    die "could not enable etcd auth at $ep"
}

# --- one self-signed certificate (the common small set-up) ---------------------

start_self_signed() {
  local base=$1/self-signed port cport pport
  local c=$base/cert
  mkdir -p "$c"
  chmod 755 "$base" "$c"
  command -v openssl >/dev/null || die "openssl missing: run scripts/install-stores.sh"
  (
    cd "$c"
    for n in server other; do
      openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 \
        -addext subjectAltName=IP:127.0.0.1 -days 2 -keyout "$n.key" -out "$n.pem"
    done
    chmod 644 ./*.pem ./*.key
  ) >"$c/openssl.log" 2>&1 || {
    cat "$c/openssl.log" >&2
    die "could not make the self-signed certificates"
  }
  ENV_LINES+=("export LEXIKEY_SELF_SIGNED_CERT=$c/server.pem")
  ENV_LINES+=("export LEXIKEY_SELF_SIGNED_OTHER=$c/other.pem")

  # Redis, TLS only.
  mkdir -p "$base/redis"
  port=$(free_port)
  echo "127.0.0.1:$port" >"$base/redis/endpoint"
  write_scripts "$base/redis" \
    "[ \"\$(redis-cli --tls --cacert $c/server.pem -h 127.0.0.1 -p $port ping 2>/dev/null)\" = PONG ]" \
    redis-server --bind 127.0.0.1 --port 0 --tls-port "$port" \
    --tls-cert-file "$c/server.pem" --tls-key-file "$c/server.key" \
    --tls-auth-clients no --dir "$base/redis" --save '' --appendonly no \
    --daemonize no --logfile "$base/redis/log" --protected-mode no
  "$base/redis/start"
  ENV_LINES+=("export LEXIKEY_REDIS_SELF_SIGNED_URL=rediss://127.0.0.1:$port")

  # PostgreSQL: TLS only (hostssl), no password.
  local pg=$base/postgres
  mkdir -p "$pg"
  cp "$c/server.pem" "$c/server.key" "$pg/"
  chmod 600 "$pg/server.key"
  if [ "$(id -u)" -eq 0 ]; then
    chown -R postgres: "$pg"
  fi
  start_postgres "$1" self-signed/postgres "-A trust" \
    "-c ssl=on -c ssl_cert_file=$pg/server.pem -c ssl_key_file=$pg/server.key" \
    "local all all trust
hostssl all all 127.0.0.1/32 trust"
  port=$(cut -d: -f2 "$pg/endpoint")
  write_ready "$pg" "psql -Xqtc 'select 1' 'postgres://postgres@127.0.0.1:$port/postgres?sslmode=verify-full&sslrootcert=$c/server.pem'"
  ENV_LINES+=("export LEXIKEY_POSTGRES_SELF_SIGNED_URL=postgres://postgres@127.0.0.1:$port/postgres")

  # One etcd node, HTTPS for clients (no client certificate asked).
  cport=$(free_port)
  pport=$(free_port)
  ETCD_SCHEME=https etcd_member "$base/etcd" n "$cport" "$pport" \
    "n=https://127.0.0.1:$pport" "lexikey-self-$cport" \
    --cert-file "$c/server.pem" --key-file "$c/server.key" \
    --peer-cert-file "$c/server.pem" --peer-key-file "$c/server.key"
  write_ready "$base/etcd" "ETCDCTL_API=3 etcdctl --endpoints=https://127.0.0.1:$cport --cacert $c/server.pem --dial-timeout=1s --command-timeout=2s endpoint health"
  ENV_LINES+=("export LEXIKEY_ETCD_SELF_SIGNED_URL=etcd+https://127.0.0.1:$cport")
}

# What a store needs once all its servers are ready.
after_ready() {
  case "$2" in
    etcd-tls) etcd_enable_auth "$1" "$1/etcd-tls" ;;
    etcd-cluster-tls) etcd_enable_auth "$1" "$1/etcd-cluster-tls/m1" ;;
    s3) s3_bucket "$1" ;;
  esac
}

# The directories of the servers of one store.
server_dirs() {
  case "$2" in
    etcd-cluster | etcd-cluster-tls) echo "$1/$2/m1" "$1/$2/m2" "$1/$2/m3" ;;
    self-signed) echo "$1/$2/redis" "$1/$2/postgres" "$1/$2/etcd" ;;
    *) echo "$1/$2" ;;
  esac
}

# --- commands ----------------------------------------------------------------

cmd_stop() {
  local dir=$1 d
  [ -d "$dir" ] || return 0
  # Test data is disposable: kill, don't shut down.
  for d in "$dir"/redis "$dir"/postgres "$dir"/etcd "$dir"/etcd-cluster/m* "$dir"/bigtable "$dir"/s3 "$dir"/dynamodb \
    "$dir"/redis-tls "$dir"/postgres-tls "$dir"/etcd-tls "$dir"/etcd-cluster-tls/m* \
    "$dir"/self-signed/redis "$dir"/self-signed/postgres "$dir"/self-signed/etcd; do
    [ -x "$d/kill" ] || continue
    "$d/kill" || log "could not stop $d"
  done
}

cmd_start() {
  local dir=$1
  shift
  local -a stores
  if [ $# -gt 0 ]; then
    stores=("$@")
  else
    local list=${LEXIKEY_WITH_STORES:-redis postgres etcd etcd-cluster bigtable dynamodb redis-tls postgres-tls etcd-tls etcd-cluster-tls self-signed s3}
    # shellcheck disable=SC2206
    stores=(${list//,/ })
  fi
  local s d t0 missing=""
  t0=${EPOCHREALTIME/./}
  for s in "${stores[@]}"; do
    case "$s" in
      redis | redis-tls) command -v redis-server >/dev/null || missing=1 ;;
      postgres | postgres-tls) [ -x "$PG_BIN/postgres" ] || missing=1 ;;
      etcd | etcd-cluster | etcd-tls | etcd-cluster-tls) command -v etcd >/dev/null || missing=1 ;;
      bigtable) [ -n "$(cbtemulator_bin)" ] || die "$BIGTABLE_MISSING" ;;
      s3) [ -x "$MOTO_VENV/bin/moto_server" ] || die "$MOTO_MISSING" ;;
      dynamodb) [ -n "$(dynalite_bin)" ] || die "$DYNALITE_MISSING" ;;
      self-signed)
        command -v redis-server >/dev/null && [ -x "$PG_BIN/postgres" ] &&
          command -v etcd >/dev/null || missing=1
        ;;
      *) die "unknown store '$s' (redis, postgres, etcd, etcd-cluster, bigtable, dynamodb, redis-tls, postgres-tls, etcd-tls, etcd-cluster-tls, self-signed, s3)" ;;
    esac
  done
  [ -z "$missing" ] || die "store servers missing: run scripts/install-stores.sh"
  mkdir -p "$dir"
  chmod 755 "$dir" # the postgres user must traverse it
  ENV_LINES=("export LEXIKEY_STORES_DIR=$dir")
  case " ${stores[*]} " in
    *-tls" "*)
      command -v openssl >/dev/null || missing=1
      [ -z "$missing" ] || die "openssl missing: run scripts/install-stores.sh"
      TLS_PASSWORD="pw-$(openssl rand -hex 12)"
      ;;
  esac
  # Start everything first, then wait: the servers come up in parallel.
  for s in "${stores[@]}"; do
    "start_${s//-/_}" "$dir" || {
      cmd_stop "$dir"
      die "could not start $s"
    }
  done
  for s in "${stores[@]}"; do
    for d in $(server_dirs "$dir" "$s"); do
      "$d/ready" || {
        cmd_stop "$dir"
        die "$s did not become ready (logs under $dir)"
      }
    done
  done
  for s in "${stores[@]}"; do
    after_ready "$dir" "$s" || {
      cmd_stop "$dir"
      die "could not set up $s"
    }
  done
  printf '%s\n' "${ENV_LINES[@]}" >"$dir/env"
  log "started ${stores[*]} in $(((${EPOCHREALTIME/./} - t0) / 1000)) ms under $dir"
}

case "${1:-}" in
  start)
    [ $# -ge 2 ] || die "usage: stores.sh start DIR [STORE...]"
    dir=$2
    shift 2
    cmd_start "$dir" "$@"
    cat "$dir/env"
    ;;
  stop)
    [ $# -eq 2 ] || die "usage: stores.sh stop DIR"
    cmd_stop "$2"
    ;;
  env)
    [ $# -eq 2 ] || die "usage: stores.sh env DIR"
    cat "$2/env"
    ;;
  *)
    die "usage: stores.sh start DIR [STORE...] | stop DIR | env DIR"
    ;;
esac
