#!/usr/bin/env bash
# Records a history of the allocator under faults and checks it (issue #15).
#
#   scripts/history.sh --store STORE [--clients N] [--seconds S] [--faults LIST]
#                      [--guard] [--deletes] [--salt-buckets N] [--out FILE]
#                      [--max-attempts N] [--pause-ms MS] [--broken]
#
# STORE: redb, rocksdb, redis, postgres, etcd, etcd-cluster, slatedb (once
#   lexikey-stores has the SlateDB adapter: `slatedb:PATH`, run like RocksDB),
#   bigtable (the Bigtable emulator; in memory only, so no `kill`: a killed
#   emulator loses every row — pause and kill-client apply), slatedb-s3
#   (SlateDB on moto's S3, `slatedb:s3://lexikey/test/hist`: one process,
#   N threads, as slatedb; moto keeps its objects in memory, so no `kill`;
#   a killed client's replacement waits for its writer lease to go stale),
#   dynamodb (dynalite with --path: its data outlive a kill and restart).
# N client processes (default 8) allocate in a loop for S seconds (default
#   60) in table `hist`, each logging every call (lexikey-history client).
#   RocksDB is one process per database: its N clients are N threads of one
#   process. redb is opened by N processes at once (`processes=many`).
# LIST: comma-separated faults, injected in turn every FAULT_EVERY seconds
#   (default 6), from 1 s after every client process has had its first
#   allocation acknowledged on, at most S / FAULT_EVERY of them:
#     kill         SIGKILL the server (etcd-cluster: the leader, then a
#                  follower, alternately; Redis runs with appendfsync always),
#                  restart it 1 s later, wait until it answers
#     pause        SIGSTOP the server (PostgreSQL: the postmaster and its
#                  backends; etcd-cluster: the leader) for 3 s — longer than
#                  the clients' 1 s timeout — then SIGCONT
#     kill-client  SIGKILL one client process mid-call, start a replacement
#                  (same client number, new log) 0.5 s later
#     partition    etcd-cluster only: cut the leader off from the other two
#                  members for 4 s, then heal (see PARTITION below)
#     none         no fault
# --guard: the reuse guard on, and a deleter process deletes the newest row
#   every 200 ms (each delete logged; RocksDB: a thread of the client
#   process); FAULTS in the report then ends with `,deletes`.
# --deletes: the deleter without the guard — IDs of deleted rows are then
#   handed out again, and the checker must report `reuse` (a real bug for
#   the checker to find; --guard is the fix).
# --salt-buckets N: the table's rows spread over N salt buckets (1 to 255;
#   issue 28): every client, the deleter and the final read open it salted,
#   and the checker holds it to the same rules (real-time order included);
#   the report's label ends with ` salt=N`.
# --max-attempts N: attempts per call before the allocator gives up (default
#   64, the allocator's default); a small N makes calls give up during
#   outages, so the history gets `fail` (nothing written) and `info`
#   (unresolved ambiguous write) outcomes to check.
# --pause-ms MS: each client pauses MS milliseconds after each call (default
#   0: back to back). A paced writer, as a service allocating at some rate
#   is: the deleter's read of the newest row and its delete then fall
#   between two inserts, where with back-to-back inserts they rarely do
#   (history/tests/broken.rs paces its --deletes run so that it reuses IDs:
#   24 reuses from 30 deletes in 6 s on Redis, against 6 back to back).
# --broken: the deliberately broken allocator (needs lexikey-history built
#   with feature broken-allocator; for the test that the checker catches it).
# --out FILE: the history (default history-STORE.jsonl); the timeline is
#   FILE with .svg in place of .jsonl.
#
# The history: the client logs merged (lexikey-history merge: a call cut by
# a client kill becomes an `info` op ending at the kill), one `fault` line
# per fault, one `delete` line per delete, then one `read` line per row of
# the table read directly from the store. Then `lexikey-history check`
# prints the counts and any violation; the last line is
#   history: STORE FAULTS: N ops (ok X, fail Y, info Z), V violations
# and the exit code is 1 on any violation.
#
# Servers are started under a temporary directory with scripts/stores.sh
# and stopped on exit; only PIDs this script recorded are signalled.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)

store="" clients=8 seconds=60 faults=none guard="" deletes="" out="" broken="" attempts=64 salt="" pause=""
FAULT_EVERY=${FAULT_EVERY:-6}
die() {
  echo "history.sh: $*" >&2
  exit 2
}
while [ $# -gt 0 ]; do
  case "$1" in
    --store) store=${2:?}; shift 2 ;;
    --clients) clients=${2:?}; shift 2 ;;
    --seconds) seconds=${2:?}; shift 2 ;;
    --faults) faults=${2:?}; shift 2 ;;
    --guard) guard=1 deletes=1; shift ;;
    --deletes) deletes=1; shift ;;
    --broken) broken=1; shift ;;
    --max-attempts) attempts=${2:?}; shift 2 ;;
    --salt-buckets) salt=${2:?}; shift 2 ;;
    --pause-ms) pause=${2:?}; shift 2 ;;
    --out) out=${2:?}; shift 2 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[ -n "$store" ] || die "missing --store STORE"
case "$clients" in '' | *[!0-9]* | 0) die "--clients must be a positive number" ;; esac
case "$seconds" in '' | *[!0-9]* | 0) die "--seconds must be a positive whole number" ;; esac
case "$attempts" in '' | *[!0-9]* | 0) die "--max-attempts must be a positive number" ;; esac
case "$pause" in *[!0-9]*) die "--pause-ms must be a whole number of milliseconds" ;; esac
if [ -n "$salt" ]; then
  case "$salt" in *[!0-9]*) salt=x ;; esac
  [ "$salt" != x ] && [ "$salt" -ge 1 ] && [ "$salt" -le 255 ] ||
    die "--salt-buckets must be a number from 1 to 255"
fi
out=${out:-history-$store.jsonl}
svg=${out%.jsonl}.svg
IFS=, read -r -a fault_list <<<"$faults"
for f in "${fault_list[@]}"; do
  case "$f" in
    none | kill | pause | kill-client) ;;
    partition) [ "$store" = etcd-cluster ] || die "partition needs --store etcd-cluster" ;;
    *) die "unknown fault '$f' (kill, pause, kill-client, partition, none)" ;;
  esac
  case "$store:$f" in
    redb:kill | redb:pause | rocksdb:kill | rocksdb:pause | slatedb:kill | slatedb:pause)
      die "$store is embedded: no server to $f (use kill-client)" ;;
    slatedb-s3:kill)
      die "moto's S3 keeps everything in memory: a kill loses every object (use pause or kill-client)" ;;
    bigtable:kill)
      die "the Bigtable emulator keeps everything in memory: a kill loses every row (use pause or kill-client)" ;;
  esac
done
label="$store $faults${deletes:+,deletes}${salt:+ salt=$salt}"

# --- the binary ---------------------------------------------------------------
bin=${LEXIKEY_HISTORY_BIN:-}
if [ -z "$bin" ]; then
  features=all-servers
  [ -n "$broken" ] && features=$features,broken-allocator
  (cd "$root" && cargo build -q -p lexikey-history --features "$features" -j2)
  bin=${CARGO_TARGET_DIR:-$root/target}/debug/lexikey-history
fi

# --- servers -----------------------------------------------------------------
dir=$(mktemp -d "${TMPDIR:-/tmp}/lexikey-history.XXXXXX")
chmod 755 "$dir"
declare -A client_pid=()
deleter_pid=""
paused=()
cleanup() {
  local p
  for p in "${client_pid[@]}" $deleter_pid; do
    kill -KILL "$p" 2>/dev/null || true
  done
  for p in "${paused[@]}"; do kill -CONT "$p" 2>/dev/null || true; done
  partition_cleanup 2>/dev/null || true
  "$here/stores.sh" stop "$dir" >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The hook for new stores: a server store names its stores.sh STORE here
# and its client URL in store_url.
server=""
case "$store" in
  redis | postgres | etcd | etcd-cluster | bigtable | dynamodb) server=$store ;;
  slatedb-s3) server=s3 ;;
  redb | rocksdb) ;;
  # SlateDB (one writer per database, like RocksDB: see single_process
  # below): runs as soon as lexikey-stores opens `slatedb:PATH` URLs.
  slatedb) ;;
  *) die "unknown store '$store' (redb, rocksdb, redis, postgres, etcd, etcd-cluster, slatedb, bigtable, slatedb-s3, dynamodb)" ;;
esac
# PARTITION: with `partition` in LIST, the etcd cluster runs in network
# namespaces this script makes (not with stores.sh): a bridge `lkhNNNNNbr` in
# the root namespace with address 10.201.X.254/24 (X from this script's PID),
# and per member a namespace `lkhNNNNNmI` joined to it by a veth pair, the
# member listening on 10.201.X.I (ports 2379/2380). Clients run in the root
# namespace and reach every member through the bridge. `partition` sets the
# root end of the leader's veth down (the leader is cut off from the other
# two members and from the clients; the clients move on to the members they
# reach), waits 4 s, and sets it up again. Everything is deleted on exit.
# Needs root and iproute2.
netns_tag=lkh$(printf '%05d' $(($$ % 100000)))
netns_net=10.201.$(($$ % 250))
netns_on=""
partition_cleanup() {
  [ -n "$netns_on" ] || return 0
  local i
  for i in 1 2 3; do
    [ -x "$dir/etcd-cluster/m$i/kill" ] && "$dir/etcd-cluster/m$i/kill" || true
    ip netns del "${netns_tag}m$i" 2>/dev/null || true
    # A namespace is torn down asynchronously: delete its veth now.
    ip link del "${netns_tag}h$i" 2>/dev/null || true
  done
  ip link del "${netns_tag}br" 2>/dev/null || true
  netns_on=""
}

# member_scripts DIR NS CMD...: start/kill/ready/pid scripts in stores.sh's
# layout for a server that runs in namespace NS.
member_scripts() {
  local d=$1 ns=$2 ep cmd
  shift 2
  ep=$(cat "$d/endpoint")
  cmd=$(printf '%q ' "$@")
  cat >"$d/start" <<EOS
#!/usr/bin/env bash
d=$(printf '%q' "$d")
p=\$(cat "\$d/pid" 2>/dev/null || true)
[ -n "\$p" ] && kill -0 "\$p" 2>/dev/null && ! grep -qE '^[0-9]+ \(.*\) [ZX]' "/proc/\$p/stat" 2>/dev/null && exit 0
ip netns exec $ns setsid $cmd </dev/null >>"\$d/log" 2>&1 &
echo \$! >"\$d/pid"
EOS
  cat >"$d/kill" <<EOS
#!/usr/bin/env bash
d=$(printf '%q' "$d")
p=\$(cat "\$d/pid" 2>/dev/null || true)
[ -n "\$p" ] || exit 0
kill -KILL "\$p" 2>/dev/null || true
# Gone, or fail: a process in uninterruptible sleep (a slow fsync on a busy
# machine) can outlive SIGKILL for seconds, and a start while it lives
# would take it for the restarted server.
for _ in \$(seq 1 600); do
  [ -r "/proc/\$p/stat" ] && ! grep -qE '^[0-9]+ \(.*\) [ZX]' "/proc/\$p/stat" || exit 0
  sleep 0.05
done
echo "\$d: pid \$p still there 30 s after SIGKILL" >&2
exit 1
EOS
  cat >"$d/ready" <<EOS
#!/usr/bin/env bash
d=$(printf '%q' "$d")
for _ in \$(seq 1 600); do
  ETCDCTL_API=3 etcdctl --endpoints=$ep --dial-timeout=1s --command-timeout=2s endpoint health >/dev/null 2>&1 && exit 0
  # A member that is not running never gets ready: say so at once.
  p=\$(cat "\$d/pid" 2>/dev/null || true)
  if [ -z "\$p" ] || [ ! -r "/proc/\$p/stat" ] || grep -qE '^[0-9]+ \(.*\) [ZX]' "/proc/\$p/stat" 2>/dev/null; then
    echo "\$d: not running (pid \${p:-none}); its log ends:" >&2
    tail -n 5 "\$d/log" >&2
    exit 1
  fi
  sleep 0.05
done
echo "\$d: not ready" >&2
exit 1
EOS
  chmod +x "$d/start" "$d/kill" "$d/ready"
}

start_netns_cluster() {
  local i cluster="" eps="" d
  netns_on=1
  ip link add "${netns_tag}br" type bridge
  ip addr add "$netns_net.254/24" dev "${netns_tag}br"
  ip link set "${netns_tag}br" up
  for i in 1 2 3; do
    ip netns add "${netns_tag}m$i"
    ip link add "${netns_tag}h$i" type veth peer name "${netns_tag}n$i"
    ip link set "${netns_tag}n$i" netns "${netns_tag}m$i"
    ip link set "${netns_tag}h$i" master "${netns_tag}br" up
    ip netns exec "${netns_tag}m$i" ip addr add "$netns_net.$i/24" dev "${netns_tag}n$i"
    ip netns exec "${netns_tag}m$i" ip link set "${netns_tag}n$i" up
    ip netns exec "${netns_tag}m$i" ip link set lo up
    cluster="${cluster:+$cluster,}m$i=http://$netns_net.$i:2380"
    eps="${eps:+$eps,}$netns_net.$i:2379"
  done
  for i in 1 2 3; do
    d=$dir/etcd-cluster/m$i
    mkdir -p "$d/data"
    chmod 700 "$d/data"
    echo "m$i" >"$d/name"
    echo "$netns_net.$i:2379" >"$d/endpoint"
    member_scripts "$d" "${netns_tag}m$i" etcd --name "m$i" --data-dir "$d/data" \
      --listen-client-urls "http://$netns_net.$i:2379" \
      --advertise-client-urls "http://$netns_net.$i:2379" \
      --listen-peer-urls "http://$netns_net.$i:2380" \
      --initial-advertise-peer-urls "http://$netns_net.$i:2380" \
      --initial-cluster "$cluster" --initial-cluster-state new \
      --initial-cluster-token "$netns_tag" \
      --heartbeat-interval 100 --election-timeout 1000
    "$d/start"
  done
  for i in 1 2 3; do "$dir/etcd-cluster/m$i/ready"; done
  LEXIKEY_ETCD_CLUSTER_URL=etcd://$eps
}

if [ "$store" = etcd-cluster ] && [[ ",$faults," == *,partition,* ]]; then
  command -v ip >/dev/null || die "partition needs iproute2 (ip)"
  start_netns_cluster
elif [ -n "$server" ]; then
  LEXIKEY_REDIS_APPENDFSYNC=always "$here/stores.sh" start "$dir" "$server" >/dev/null
  # shellcheck disable=SC1091
  . "$dir/env"
fi

store_url() {
  local q="ns=hist"
  case "$store" in
    redb) echo "redb:$dir/hist.redb?$q&processes=many" ;;
    rocksdb) echo "rocksdb:$dir/hist.rocksdb?$q" ;;
    slatedb) echo "slatedb:$dir/hist.slatedb?$q" ;;
    redis) echo "$LEXIKEY_REDIS_URL?$q&timeout_ms=1000" ;;
    postgres) echo "$LEXIKEY_POSTGRES_URL?$q&timeout_ms=1000" ;;
    etcd) echo "$LEXIKEY_ETCD_URL?$q&timeout_ms=1000" ;;
    etcd-cluster) echo "$LEXIKEY_ETCD_CLUSTER_URL?$q&timeout_ms=1000" ;;
    # The URL holds ?emulator=HOST:PORT already.
    bigtable) echo "$LEXIKEY_BIGTABLE_URL&$q&timeout_ms=1000" ;;
    # A prefix of its own under the URL's: s3://lexikey/test/hist.
    slatedb-s3) echo "${LEXIKEY_SLATEDB_S3_URL%%\?*}/hist?${LEXIKEY_SLATEDB_S3_URL#*\?}&$q" ;;
    dynamodb) echo "dynamodb://hist?endpoint=$LEXIKEY_DYNAMODB_ENDPOINT&region=us-east-1&$q&timeout_ms=1000" ;;
  esac
}
url=$(store_url)

# The server directories (stores.sh layout).
server_dirs() {
  case "$store" in
    etcd-cluster) echo "$dir/etcd-cluster/m1 $dir/etcd-cluster/m2 $dir/etcd-cluster/m3" ;;
    redis | postgres | etcd | bigtable | dynamodb) echo "$dir/$store" ;;
    slatedb-s3) echo "$dir/s3" ;;
  esac
}

# etcd_role leader|follower: the directory of a cluster member in that role.
etcd_role() {
  local d ep status
  for d in $(server_dirs); do
    ep=$(cat "$d/endpoint")
    status=$(ETCDCTL_API=3 etcdctl --endpoints="$ep" --dial-timeout=1s --command-timeout=2s \
      endpoint status 2>/dev/null) || continue
    # "EP, ID, VERSION, DB SIZE, IS LEADER, IS LEARNER, ..."
    if [ "$(echo "$status" | cut -d, -f5 | tr -d ' ')" = true ]; then
      [ "$1" = leader ] && { echo "$d"; return 0; }
    else
      [ "$1" = follower ] && { echo "$d"; return 0; }
    fi
  done
  return 1
}

# The PIDs to SIGSTOP for a server directory (PostgreSQL: every process of
# the cluster — the postmaster and its children).
server_pids() {
  local p
  p=$(cat "$1/pid")
  echo "$p"
  if [ "$store" = postgres ]; then
    ps -o pid= --ppid "$p" 2>/dev/null || true
  fi
}

# --- clients -----------------------------------------------------------------
run_start=$(date +%s)
deadline=$((run_start + seconds))
incarnation=0
threads=1 procs=$clients in_process_deleter=""
# RocksDB (and SlateDB): one process opens the database: threads, and the
# deleter is a thread of that process too.
case "$store" in
  rocksdb | slatedb | slatedb-s3) threads=$clients procs=1 in_process_deleter=$deletes ;;
esac

start_client() { # start_client PROC_INDEX
  local i=$1 first left
  first=$((i * threads))
  left=$((deadline - $(date +%s)))
  [ "$left" -gt 0 ] || return 0
  incarnation=$((incarnation + 1))
  "$bin" client --store "$url" --table hist --client "$first" --threads "$threads" \
    --seconds "$left" --log "$dir/client-$i.$incarnation.log" ${guard:+--guard} \
    ${salt:+--salt-buckets "$salt"} \
    --max-attempts "$attempts" ${pause:+--pause-ms "$pause"} ${in_process_deleter:+--delete-log "$dir/deleter.$incarnation.log"} \
    ${broken:+--broken} 2>>"$dir/clients.err" &
  client_pid[$i]=$!
}

for i in $(seq 0 $((procs - 1))); do start_client "$i"; done
if [ -n "$deletes" ] && [ -z "$in_process_deleter" ]; then
  "$bin" deleter --store "$url" --table hist --seconds "$seconds" ${guard:+--guard} \
    ${salt:+--salt-buckets "$salt"} \
    --interval-ms 200 --log "$dir/deleter.log" 2>>"$dir/clients.err" &
  deleter_pid=$!
fi

# --- faults ------------------------------------------------------------------
fault_log=$dir/faults.log
: >"$fault_log"
mark() { # mark FAULT TARGET START_NS
  "$bin" fault --log "$fault_log" --fault "$1" --target "$2" --start "$3"
}
now() { "$bin" now; }
kills=0

fault_kill() {
  local d target t0
  if [ "$store" = etcd-cluster ]; then
    if [ $((kills % 2)) -eq 0 ]; then
      d=$(etcd_role leader) || return 0
      target="etcd leader $(cat "$d/name")"
    else
      d=$(etcd_role follower) || return 0
      target="etcd follower $(cat "$d/name")"
    fi
  else
    d=$(server_dirs)
    target=$store
  fi
  kills=$((kills + 1))
  t0=$(now)
  "$d/kill"
  sleep 1
  "$d/start"
  "$d/ready"
  mark kill "$target" "$t0"
}

fault_pause() {
  local d target t0 p
  if [ "$store" = etcd-cluster ]; then
    d=$(etcd_role leader) || return 0
    target="etcd leader $(cat "$d/name")"
  else
    d=$(server_dirs)
    target=$store
  fi
  mapfile -t paused < <(server_pids "$d")
  t0=$(now)
  for p in "${paused[@]}"; do kill -STOP "$p" 2>/dev/null || true; done
  sleep 3
  for p in "${paused[@]}"; do kill -CONT "$p" 2>/dev/null || true; done
  paused=()
  "$d/ready"
  mark pause "$target" "$t0"
}

next_victim=0
fault_kill_client() {
  local i=$((next_victim % procs)) t0 target
  next_victim=$((next_victim + 1))
  if [ "$threads" -gt 1 ]; then
    target="clients $((i * threads))-$((i * threads + threads - 1))"
  else
    target="client $i"
  fi
  t0=$(now)
  kill -KILL "${client_pid[$i]}" 2>/dev/null || true
  wait "${client_pid[$i]}" 2>/dev/null || true
  sleep 0.5
  start_client "$i"
  mark kill-client "$target" "$t0"
}

fault_partition() {
  local d i t0
  d=$(etcd_role leader) || return 0
  i=${d##*/m}
  t0=$(now)
  ip link set "${netns_tag}h$i" down
  sleep 4
  ip link set "${netns_tag}h$i" up
  "$d/ready"
  mark partition "etcd leader m$i cut off" "$t0"
}

# The schedule starts once the store answers the clients: every client
# process has had an allocation acknowledged (its log holds an "ok"), so
# that on a loaded machine the first fault never lands before the first
# call (up to 60 s, then the run fails naming what was missing).
wait_for_clients() {
  local i t_end=$((SECONDS + 60)) waiting
  while :; do
    waiting=""
    for i in "${!client_pid[@]}"; do
      grep -qs '"outcome": "ok"' "$dir/client-$i".*.log || waiting="$waiting $i"
    done
    [ -z "$waiting" ] && return 0
    if [ "$SECONDS" -ge "$t_end" ]; then
      echo "history.sh: client process(es)$waiting had no allocation acknowledged within 60 s of the start; their errors:" >&2
      tail -n 5 "$dir/clients.err" >&2 || true
      exit 2
    fi
    sleep 0.1
  done
}
wait_for_clients
sleep 1
n=0
max_faults=$((seconds / FAULT_EVERY))
if [ "$faults" != none ]; then
  while [ "$n" -lt "$max_faults" ] && [ $(($(date +%s) + 2)) -lt "$deadline" ]; do
    f=${fault_list[$((n % ${#fault_list[@]}))]}
    t=$SECONDS
    case "$f" in
      none) ;;
      kill) fault_kill ;;
      pause) fault_pause ;;
      kill-client) fault_kill_client ;;
      partition) fault_partition ;;
    esac
    n=$((n + 1))
    rest=$((FAULT_EVERY - (SECONDS - t)))
    [ "$rest" -gt 0 ] && sleep "$rest"
  done
fi

# --- end of the run: wait, read, merge, check ----------------------------------
for p in "${client_pid[@]}"; do wait "$p" || true; done
[ -n "$deleter_pid" ] && { wait "$deleter_pid" || true; }
client_pid=()
deleter_pid=""
if [ -s "$dir/clients.err" ]; then
  grep -v '^lexikey-history \(client\|deleter\): ' "$dir/clients.err" | sed 's/^/history.sh: client: /' >&2 || true
fi
for d in $(server_dirs); do "$d/start"; "$d/ready"; done
"$bin" read --store "$url" --table hist ${salt:+--salt-buckets "$salt"} >"$dir/reads.log"
"$bin" merge "$dir"/client-*.log ${deletes:+"$dir"/deleter*.log} "$fault_log" "$dir/reads.log" --out "$out"
set +e
"$bin" check "$out" --svg "$svg" --label "$label" >"$dir/report.txt"
rc=$?
set -e
# The report: counts and violations (cut), then the contract's last line.
head -n 40 "$dir/report.txt" | grep -v '^history: '
[ "$(grep -c '^violation: ' "$dir/report.txt")" -gt 12 ] && echo "… (full report: lexikey-history check $out)"
tail -n 1 "$dir/report.txt"
exit "$rc"
