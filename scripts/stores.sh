#!/usr/bin/env bash
# Start and stop private store servers for the lexikey tests, on loopback
# (127.0.0.1) only, on free high ports, under one directory.
#
#   scripts/stores.sh start DIR [STORE...]   start servers under DIR (created
#                                            if missing), wait until each is
#                                            ready, write DIR/env, print it
#   scripts/stores.sh stop DIR               stop every server started under
#                                            DIR (by the PIDs it recorded)
#   scripts/stores.sh env DIR                print DIR/env
#
# STORE is any of: redis postgres etcd etcd-cluster (default: all four, or
# the space/comma-separated list in $LEXIKEY_WITH_STORES).
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
#
# Every server has a directory, for fault tests that stop and restart it:
#   DIR/redis, DIR/postgres, DIR/etcd, DIR/etcd-cluster/m1 … m3
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

# free_port: prints a free TCP port in 20000-59999.
free_port() {
  local p
  for _ in $(seq 1 200); do
    p=$((20000 + (RANDOM * 32768 + RANDOM) % 40000))
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
# SIGKILLs the server of this directory and waits until it is gone.
here=$(printf '%q' "$dir")
$SCRIPT_LIB
p=\$(pid)
alive "\$p" || exit 0
kill -KILL "\$p" 2>/dev/null || true
wait_gone "\$p" 5
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

start_postgres() {
  local dir=$1/postgres port q
  mkdir -p "$dir"
  if [ "$(id -u)" -eq 0 ]; then
    chown postgres: "$dir"
  fi
  port=$(free_port)
  echo "127.0.0.1:$port" >"$dir/endpoint"
  as_postgres "$PG_BIN/initdb" -D "$dir/data" -A trust -U postgres -E UTF8 \
    --locale=C --no-sync >"$dir/initdb.log" 2>&1 || {
    cat "$dir/initdb.log" >&2
    die "initdb failed"
  }
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
  -o "-c listen_addresses=127.0.0.1 -p $port -k \$here -c fsync=off -c full_page_writes=off -c max_connections=300" \\
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
# Crashes PostgreSQL (pg_ctl -m immediate: no checkpoint, recovery on start).
here=$q
$SCRIPT_LIB
alive "\$(pid)" || exit 0
$as "$PG_BIN/pg_ctl" -D "\$here/data" -m immediate -w -t 20 stop >/dev/null || kill -KILL "\$(pid)"
wait_gone "\$(pid)" 5
EOS
  chmod +x "$dir/start" "$dir/stop" "$dir/kill"
  write_ready "$dir" "pg_isready -q -h 127.0.0.1 -p $port -U postgres"
  "$dir/start" || die "postgres did not start"
  ENV_LINES+=("export LEXIKEY_POSTGRES_URL=postgres://postgres@127.0.0.1:$port/postgres")
}

etcd_health_cmd() {
  echo "ETCDCTL_API=3 etcdctl --endpoints=$1 --dial-timeout=1s --command-timeout=2s endpoint health"
}

# etcd_member DIR NAME CLIENT_PORT PEER_PORT INITIAL_CLUSTER TOKEN
etcd_member() {
  local dir=$1 name=$2 cport=$3 pport=$4 cluster=$5 token=$6
  mkdir -p "$dir/data"
  chmod 700 "$dir/data"
  echo "$name" >"$dir/name"
  echo "127.0.0.1:$cport" >"$dir/endpoint"
  write_scripts "$dir" "$(etcd_health_cmd "127.0.0.1:$cport")" \
    etcd --name "$name" --data-dir "$dir/data" \
    --listen-client-urls "http://127.0.0.1:$cport" \
    --advertise-client-urls "http://127.0.0.1:$cport" \
    --listen-peer-urls "http://127.0.0.1:$pport" \
    --initial-advertise-peer-urls "http://127.0.0.1:$pport" \
    --initial-cluster "$cluster" --initial-cluster-state new \
    --initial-cluster-token "$token" \
    --heartbeat-interval 100 --election-timeout 1000
  "$dir/start"
}

start_etcd() {
  local dir=$1/etcd cport pport
  cport=$(free_port)
  pport=$(free_port)
  etcd_member "$dir" n "$cport" "$pport" "n=http://127.0.0.1:$pport" "lexikey-$cport"
  ENV_LINES+=("export LEXIKEY_ETCD_URL=etcd://127.0.0.1:$cport")
}

start_etcd_cluster() {
  local dir=$1/etcd-cluster i cluster="" eps="" pids=""
  local -a cports pports
  for i in 1 2 3; do
    cports[i]=$(free_port)
    pports[i]=$(free_port)
    cluster="${cluster:+$cluster,}m$i=http://127.0.0.1:${pports[i]}"
    eps="${eps:+$eps,}127.0.0.1:${cports[i]}"
  done
  # Start all three before waiting: a lone member has no quorum.
  for i in 1 2 3; do
    etcd_member "$dir/m$i" "m$i" "${cports[i]}" "${pports[i]}" "$cluster" \
      "lexikey-cluster-${cports[1]}"
    pids="${pids:+$pids,}$(cat "$dir/m$i/pid")"
  done
  ENV_LINES+=("export LEXIKEY_ETCD_CLUSTER_URL=etcd://$eps")
  ENV_LINES+=("export LEXIKEY_ETCD_CLUSTER_MEMBERS=m1,m2,m3")
  ENV_LINES+=("export LEXIKEY_ETCD_CLUSTER_PIDS=$pids")
}

# The directories of the servers of one store.
server_dirs() {
  case "$2" in
    etcd-cluster) echo "$1/etcd-cluster/m1" "$1/etcd-cluster/m2" "$1/etcd-cluster/m3" ;;
    *) echo "$1/$2" ;;
  esac
}

# --- commands ----------------------------------------------------------------

cmd_stop() {
  local dir=$1 d
  [ -d "$dir" ] || return 0
  # Test data is disposable: kill, don't shut down.
  for d in "$dir"/redis "$dir"/postgres "$dir"/etcd "$dir"/etcd-cluster/m*; do
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
    local list=${LEXIKEY_WITH_STORES:-redis postgres etcd etcd-cluster}
    # shellcheck disable=SC2206
    stores=(${list//,/ })
  fi
  local s d t0 missing=""
  t0=${EPOCHREALTIME/./}
  for s in "${stores[@]}"; do
    case "$s" in
      redis) command -v redis-server >/dev/null || missing=1 ;;
      postgres) [ -x "$PG_BIN/postgres" ] || missing=1 ;;
      etcd | etcd-cluster) command -v etcd >/dev/null || missing=1 ;;
      *) die "unknown store '$s' (redis, postgres, etcd, etcd-cluster)" ;;
    esac
  done
  [ -z "$missing" ] || die "store servers missing: run scripts/install-stores.sh"
  mkdir -p "$dir"
  chmod 755 "$dir" # the postgres user must traverse it
  ENV_LINES=("export LEXIKEY_STORES_DIR=$dir")
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
