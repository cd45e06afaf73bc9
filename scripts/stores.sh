#!/usr/bin/env bash
# Start and stop private store servers for the lexikey-stores tests, on
# loopback (127.0.0.1) only, on free high ports, under one directory.
#
#   scripts/stores.sh start DIR [STORE...]   start servers under DIR (created
#                                            if missing), wait until each is
#                                            ready, write DIR/env
#   scripts/stores.sh stop DIR               stop every server started under
#                                            DIR (by the PIDs it recorded)
#   scripts/stores.sh env DIR                print DIR/env
#
# STORE is any of: redis postgres etcd etcd-cluster (default: all four, or
# the space/comma-separated list in $LEXIKEY_WITH_STORES).
#
# DIR/env holds `export` lines a shell can source:
#   LEXIKEY_STORES_DIR        DIR
#   LEXIKEY_REDIS_URL         redis://127.0.0.1:PORT
#   LEXIKEY_POSTGRES_URL      postgres://postgres@127.0.0.1:PORT/postgres
#   LEXIKEY_ETCD_URL          etcd://127.0.0.1:PORT
#   LEXIKEY_ETCD_CLUSTER_URL  etcd://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3
#   LEXIKEY_ETCD_CLUSTER_MEMBERS  m1,m2,m3 (member directories, see below)
#   LEXIKEY_ETCD_CLUSTER_PIDS     PID1,PID2,PID3 (at start; a restarted
#                                 member's PID is in its pid file)
#
# Each etcd cluster member has a directory DIR/etcd-cluster/mN holding:
#   start     starts the member again (same command, existing data dir) in
#             the background and writes its PID to `pid`; no-op if running
#   stop      SIGKILLs the member (PID from `pid`) and waits until it is gone
#   pid       the running member's PID
#   endpoint  its client address, 127.0.0.1:PORT
#   name      its member name (m1, m2, m3)
#   log       its log
# A fault test kills and restarts members with these scripts.
#
# Processes are only ever stopped by the PIDs this script recorded.
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
  local p i
  for i in $(seq 1 200); do
    p=$((20000 + (RANDOM * 32768 + RANDOM) % 40000))
    if ! port_busy "$p"; then
      USED_PORTS="$USED_PORTS$p "
      echo "$p"
      return 0
    fi
  done
  die "no free port found"
}

# --- processes ---------------------------------------------------------------

# alive PID: the process exists and is not a zombie.
alive() {
  local pid=$1 state
  [ -n "$pid" ] || return 1
  [ -r "/proc/$pid/stat" ] || return 1
  state=$(sed -E 's/^[0-9]+ \(.*\) ([A-Za-z]).*/\1/' "/proc/$pid/stat" 2>/dev/null) || return 1
  [ "$state" != "Z" ] && [ "$state" != "X" ]
}

# kill_pid PID: SIGKILL one process we started, wait until it is gone.
kill_pid() {
  local pid=$1 i
  alive "$pid" || return 0
  kill -KILL "$pid" 2>/dev/null || true
  for i in $(seq 1 100); do
    alive "$pid" || return 0
    sleep 0.05
  done
  log "process $pid did not go away"
}

# wait_until TIMEOUT_S WHAT CMD...: polls CMD until it succeeds.
wait_until() {
  local timeout=$1 what=$2
  shift 2
  local deadline=$((SECONDS + timeout))
  while ! "$@" >/dev/null 2>&1; do
    if [ "$SECONDS" -ge "$deadline" ]; then
      log "$what not ready after ${timeout}s"
      return 1
    fi
    sleep 0.05
  done
}

# --- stores ------------------------------------------------------------------

start_redis() {
  local dir=$1/redis port
  mkdir -p "$dir"
  port=$(free_port)
  redis-server --bind 127.0.0.1 --port "$port" --save '' --appendonly no \
    --dir "$dir" --daemonize no --logfile "$dir/log" \
    --protected-mode yes </dev/null >/dev/null 2>&1 &
  echo $! >"$dir/pid"
  disown
  echo "$port" >"$dir/port"
  ENV_LINES+=("export LEXIKEY_REDIS_URL=redis://127.0.0.1:$port")
}

ready_redis() {
  local dir=$1/redis
  wait_until "$READY_TIMEOUT" redis \
    bash -c "[ \"\$(redis-cli -h 127.0.0.1 -p $(cat "$dir/port") ping)\" = PONG ]" || {
    tail -n 20 "$dir/log" >&2 || true
    return 1
  }
}

as_postgres() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

start_postgres() {
  local dir=$1/postgres port
  mkdir -p "$dir"
  if [ "$(id -u)" -eq 0 ]; then
    chown postgres: "$dir"
  fi
  port=$(free_port)
  echo "$port" >"$dir/port"
  as_postgres "$PG_BIN/initdb" -D "$dir/data" -A trust -U postgres -E UTF8 \
    --locale=C --no-sync >"$dir/initdb.log" 2>&1 || {
    cat "$dir/initdb.log" >&2
    die "initdb failed"
  }
  # pg_ctl -w waits until the server accepts connections.
  as_postgres "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/log" -w -t "$READY_TIMEOUT" \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off \
        -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
    start >"$dir/pg_ctl.log" 2>&1 || {
    cat "$dir/pg_ctl.log" >&2
    tail -n 20 "$dir/log" >&2 || true
    die "postgres did not start"
  }
  head -n 1 "$dir/data/postmaster.pid" >"$dir/pid"
  ENV_LINES+=("export LEXIKEY_POSTGRES_URL=postgres://postgres@127.0.0.1:$port/postgres")
}

ready_postgres() {
  local dir=$1/postgres
  wait_until "$READY_TIMEOUT" postgres \
    pg_isready -q -h 127.0.0.1 -p "$(cat "$dir/port")" -U postgres
}

# write_etcd_member DIR NAME CLIENT_PORT PEER_PORT INITIAL_CLUSTER TOKEN
# Writes the member's start/stop scripts.
write_etcd_member() {
  local dir=$1 name=$2 cport=$3 pport=$4 cluster=$5 token=$6
  mkdir -p "$dir/data"
  chmod 700 "$dir/data"
  echo "$name" >"$dir/name"
  echo "127.0.0.1:$cport" >"$dir/endpoint"
  cat >"$dir/start" <<EOS
#!/usr/bin/env bash
# Starts etcd member $name in the background; writes its PID to $dir/pid.
set -eu
if [ -s "$dir/pid" ] && [ -d "/proc/\$(cat "$dir/pid")" ] &&
   ! grep -qE '^[0-9]+ \(.*\) [ZX]' "/proc/\$(cat "$dir/pid")/stat" 2>/dev/null; then
  exit 0
fi
ETCD_UNSUPPORTED_ARCH=\${ETCD_UNSUPPORTED_ARCH:-} setsid etcd --name $name --data-dir "$dir/data" \\
  --listen-client-urls http://127.0.0.1:$cport --advertise-client-urls http://127.0.0.1:$cport \\
  --listen-peer-urls http://127.0.0.1:$pport --initial-advertise-peer-urls http://127.0.0.1:$pport \\
  --initial-cluster $cluster --initial-cluster-state new \\
  --initial-cluster-token $token \\
  --heartbeat-interval 100 --election-timeout 1000 \\
  --quota-backend-bytes 1073741824 \\
  </dev/null >>"$dir/log" 2>&1 &
echo \$! >"$dir/pid"
EOS
  cat >"$dir/stop" <<EOS
#!/usr/bin/env bash
# SIGKILLs etcd member $name (PID from $dir/pid) and waits until it is gone.
set -eu
[ -s "$dir/pid" ] || exit 0
pid=\$(cat "$dir/pid")
kill -KILL "\$pid" 2>/dev/null || true
for _ in \$(seq 1 100); do
  if [ ! -d "/proc/\$pid" ] || grep -qE '^[0-9]+ \(.*\) [ZX]' "/proc/\$pid/stat" 2>/dev/null; then
    exit 0
  fi
  sleep 0.05
done
echo "etcd member $name (pid \$pid) did not stop" >&2
exit 1
EOS
  chmod +x "$dir/start" "$dir/stop"
}

etcd_healthy() {
  ETCDCTL_API=3 etcdctl --endpoints="$1" --dial-timeout=1s --command-timeout=2s \
    endpoint health
}

start_etcd() {
  local dir=$1/etcd cport pport
  cport=$(free_port)
  pport=$(free_port)
  write_etcd_member "$dir" n "$cport" "$pport" "n=http://127.0.0.1:$pport" "lexikey-$cport"
  "$dir/start"
  ENV_LINES+=("export LEXIKEY_ETCD_URL=etcd://127.0.0.1:$cport")
}

ready_etcd() {
  local dir=$1/etcd
  wait_until "$READY_TIMEOUT" etcd etcd_healthy "$(cat "$dir/endpoint")" || {
    tail -n 20 "$dir/log" >&2 || true
    return 1
  }
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
    write_etcd_member "$dir/m$i" "m$i" "${cports[i]}" "${pports[i]}" "$cluster" \
      "lexikey-cluster-${cports[1]}"
    "$dir/m$i/start"
    pids="${pids:+$pids,}$(cat "$dir/m$i/pid")"
  done
  ENV_LINES+=("export LEXIKEY_ETCD_CLUSTER_URL=etcd://$eps")
  ENV_LINES+=("export LEXIKEY_ETCD_CLUSTER_MEMBERS=m1,m2,m3")
  ENV_LINES+=("export LEXIKEY_ETCD_CLUSTER_PIDS=$pids")
}

ready_etcd_cluster() {
  local dir=$1/etcd-cluster i
  for i in 1 2 3; do
    wait_until "$READY_TIMEOUT" "etcd member m$i" etcd_healthy "$(cat "$dir/m$i/endpoint")" || {
      tail -n 20 "$dir/m$i/log" >&2 || true
      return 1
    }
  done
}

# --- commands ----------------------------------------------------------------

cmd_stop() {
  local dir=$1 f
  [ -d "$dir" ] || return 0
  if [ -f "$dir/postgres/data/postmaster.pid" ]; then
    as_postgres "$PG_BIN/pg_ctl" -D "$dir/postgres/data" -m immediate -w -t 10 stop \
      >/dev/null 2>&1 || true
  fi
  for f in "$dir"/redis/pid "$dir"/postgres/pid "$dir"/etcd/pid "$dir"/etcd-cluster/m*/pid; do
    [ -s "$f" ] || continue
    kill_pid "$(cat "$f")"
    rm -f "$f"
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
  mkdir -p "$dir"
  chmod 755 "$dir" # the postgres user must traverse it
  ENV_LINES=("export LEXIKEY_STORES_DIR=$dir")
  local s t0=$SECONDS missing=""
  for s in "${stores[@]}"; do
    case "$s" in
      redis) command -v redis-server >/dev/null || missing=1 ;;
      postgres) [ -x "$PG_BIN/postgres" ] || missing=1 ;;
      etcd | etcd-cluster) command -v etcd >/dev/null || missing=1 ;;
      *) die "unknown store '$s' (redis, postgres, etcd, etcd-cluster)" ;;
    esac
  done
  [ -z "${missing:-}" ] || die "store servers missing: run scripts/install-stores.sh"
  # Start everything first, then wait: the servers come up in parallel.
  for s in "${stores[@]}"; do
    "start_${s//-/_}" "$dir" || {
      cmd_stop "$dir"
      die "could not start $s"
    }
  done
  for s in "${stores[@]}"; do
    "ready_${s//-/_}" "$dir" || {
      cmd_stop "$dir"
      die "$s did not become ready (logs under $dir)"
    }
  done
  printf '%s\n' "${ENV_LINES[@]}" >"$dir/env"
  log "started ${stores[*]} in $((SECONDS - t0))s under $dir"
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
