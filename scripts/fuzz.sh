#!/usr/bin/env bash
# Fuzz every lexikey decoder, parser and range builder with libFuzzer: every
# [[bin]] of fuzz/Cargo.toml, range_profile and parse_kind_component included.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]   # timed runs (default 30 s)
#   scripts/fuzz.sh --smoke [TARGET...]                # what CI runs
#
# Timed runs: each target for the given time on its corpus fuzz/corpus/<target>/
# (kept between runs, git-ignored), seeded from the committed fuzz/seeds/.
# `scripts/fuzz.sh 600` is the ten-minute run per target.
#
# --smoke: each target for a fixed number of inputs (FUZZ_SMOKE_RUNS,
# default 500,000: 1 to 30 s a target here, about as many inputs as the
# 10 s runs CI made before) from a fixed seed (-seed=1) on
# the committed seed corpus fuzz/seeds/<target>/ alone, two targets at a
# time. The same commit runs the same inputs: a red smoke is this commit's.
# Every run first checks that fuzz/seeds is what examples/seed.rs makes of
# fixtures/*.tsv today (regenerate: rm -rf fuzz/seeds, then cargo run -p
# lexikey-fuzz --example seed -- fixtures fuzz/seeds), with the seed
# generator of the one test build (scripts/lib.sh).
#
# The build: no cargo-fuzz. The targets are built by cargo with the flags
# cargo-fuzz passes (SanitizerCoverage: inline 8-bit counters, PC table,
# compare tracing; --cfg fuzzing), for the host triple (so that build
# scripts and proc macros are not instrumented), in the `fuzz` profile
# (release with line tables, debug assertions and overflow checks, as
# cargo-fuzz builds), target dir fuzz/target, stable toolchain.
# FUZZ_SANITIZER=address adds AddressSanitizer (needs -Z flags:
# RUSTC_BOOTSTRAP=1 is set for it). The default is none: lexikey's only
# unsafe code is calls into register-only SSE2 functions that touch no
# memory and one `from_utf8_unchecked` on bytes just checked to be ASCII
# (check_decode asserts every decoded string is valid UTF-8), so ASan would
# only halve the speed.
#
# Prints executions, exec/s, corpus size and crashes per target. Crash
# inputs are kept in fuzz/artifacts/<target>/ and libFuzzer's log in
# fuzz/target/fuzz-logs/<target>.log (all git-ignored). Exit status: 0 when
# no target crashed, 1 otherwise, 2 on a setup error.
# Environment: CARGO_BUILD_JOBS (default 2), FUZZ_ARGS (extra libFuzzer
# flags), FUZZ_SMOKE_RUNS.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root" || exit 2

die() {
    echo "fuzz.sh: $*" >&2
    exit 2
}

smoke=""
secs=30
if [[ ${1:-} == --smoke ]]; then
    smoke=1
    shift
elif [[ ${1:-} =~ ^[0-9]+$ ]]; then
    secs=$1
    shift
fi
if [[ -z $smoke ]] && ((secs < 1)); then
    echo "usage: scripts/fuzz.sh [SECONDS_PER_TARGET | --smoke] [TARGET...]" >&2
    exit 2
fi
runs=${FUZZ_SMOKE_RUNS:-500000}
export CARGO_BUILD_JOBS=${CARGO_BUILD_JOBS:-2}
sanitizer=${FUZZ_SANITIZER:-none}
logs=fuzz/target/fuzz-logs
now() { date +%s; }

# 1. build
host=$(rustc -vV | sed -n 's/^host: //p')
[[ -n $host ]] || die "rustc -vV names no host triple"
flags=(
    -Cpasses=sancov-module
    -Cllvm-args=-sanitizer-coverage-level=4
    -Cllvm-args=-sanitizer-coverage-inline-8bit-counters
    -Cllvm-args=-sanitizer-coverage-pc-table
    -Cllvm-args=-sanitizer-coverage-trace-compares
    --cfg fuzzing
)
case "$sanitizer" in
    none) ;;
    address)
        export RUSTC_BOOTSTRAP=1
        flags+=(-Zsanitizer=address)
        ;;
    *) die "FUZZ_SANITIZER is none or address, not $sanitizer" ;;
esac
echo "== building fuzz targets (sanitizer: $sanitizer, profile fuzz, $host)"
t0=$(now)
RUSTFLAGS="${flags[*]}" cargo build -q -p lexikey-fuzz --features libfuzzer --bins \
    --profile fuzz --target "$host" --target-dir fuzz/target ||
    die "building the fuzz targets failed"
echo "   built in $(($(now) - t0)) s"
bindir=fuzz/target/$host/fuzz

if [[ $# -gt 0 ]]; then
    targets=("$@")
else
    mapfile -t targets < <(sed -n 's/^name = "\(.*\)"$/\1/p' fuzz/Cargo.toml | grep -v '^lexikey-fuzz$\|^lexikey_fuzz$\|^seed$')
fi
((${#targets[@]} > 0)) || die "no fuzz targets"
for t in "${targets[@]}"; do
    [[ -x $bindir/$t ]] || die "no fuzz target '$t' (fuzz/Cargo.toml)"
done

# 2. seeds: the committed corpus, checked against what the fixtures give
scratch=$(mktemp -d "${TMPDIR:-/tmp}/lexikey-fuzz.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
echo "== checking fuzz/seeds against fixtures/ (examples/seed.rs)"
# The generator from the one test build (scripts/lib.sh; after scripts/test.sh
# it is there already, otherwise this builds the workspace once).
# shellcheck source=scripts/lib.sh
. scripts/lib.sh
lexikey_build --quiet || die "the test build (scripts/lib.sh lexikey_build) failed"
"${CARGO_TARGET_DIR:-target}/debug/examples/seed" fixtures "$scratch/seeds" >/dev/null ||
    die "the seed generator failed"
if ! diff -rq fuzz/seeds "$scratch/seeds" >/dev/null; then
    diff -rq fuzz/seeds "$scratch/seeds" | head -5 >&2
    die "fuzz/seeds is not what fixtures/ gives: rm -rf fuzz/seeds; cargo run -p lexikey-fuzz --example seed -- fixtures fuzz/seeds; then commit it"
fi

# 3. run
mkdir -p "$logs"
count_artifacts() {
    find "fuzz/artifacts/$1" -maxdepth 1 -type f \
        \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) 2>/dev/null |
        wc -l
}
# shellcheck disable=SC2206 # FUZZ_ARGS is split on purpose
extra=(${FUZZ_ARGS:-})

# run_one TARGET: one libFuzzer process; its summary row in $scratch/rows/TARGET.
run_one() {
    local t=$1 corpus log before rc t0 took execs rate size crashes status
    log=$logs/$t.log
    mkdir -p "fuzz/artifacts/$t"
    before=$(count_artifacts "$t")
    local args=(-print_final_stats=1 -timeout=10 -rss_limit_mb=2048 -max_len=4096
        "-artifact_prefix=fuzz/artifacts/$t/")
    if [[ -n $smoke ]]; then
        # New inputs go to the first directory (scratch), never to the seeds.
        corpus=$scratch/corpus/$t
        mkdir -p "$corpus"
        args+=(-seed=1 "-runs=$runs" "$corpus" "fuzz/seeds/$t")
    else
        corpus=fuzz/corpus/$t
        mkdir -p "$corpus"
        args+=("-max_total_time=$secs" "$corpus" "fuzz/seeds/$t")
    fi
    t0=$(now)
    # A hang past the limit is a failure with the target's name.
    timeout --kill-after=10 $((smoke ? 300 : secs + 120)) \
        "$bindir/$t" "${args[@]}" "${extra[@]}" >"$log" 2>&1
    rc=$?
    took=$(($(now) - t0))
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    if [[ -z $execs ]]; then
        # A crash ends the run before the final stats: use the last status line.
        execs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#')
        rate=$(grep -oE 'exec/s: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+')
    fi
    size=$(find "$corpus" -maxdepth 1 -type f | wc -l)
    crashes=$(($(count_artifacts "$t") - before))
    status=ok
    if ((rc != 0)); then
        status="FAILED (exit $rc$( ((rc == 124)) && echo ', timed out'))"
        ((crashes == 0)) && crashes="?"
    fi
    printf '%-20s %12s %9s %8s %8s %6s  %s\n' "$t" "${execs:-0}" "${rate:-0}" "$size" \
        "$crashes" "$took" "$status" >"$scratch/rows/$t"
    return "$rc"
}

mkdir -p "$scratch/rows"
if [[ -n $smoke ]]; then
    echo "== ${#targets[@]} targets, $runs inputs each, -seed=1, two at a time"
else
    echo "== ${#targets[@]} targets, ${secs} s each, one at a time"
fi
parallel=$((smoke ? 2 : 1))
running=0
for t in "${targets[@]}"; do
    if ((running >= parallel)); then
        wait -n || true
        running=$((running - 1))
    fi
    run_one "$t" &
    running=$((running + 1))
done
wait

echo
printf '%-20s %12s %9s %8s %8s %6s  %s\n' target executions exec/s corpus crashes secs status
failed=()
for t in "${targets[@]}"; do
    cat "$scratch/rows/$t"
    grep -q '  ok$' "$scratch/rows/$t" || failed+=("$t")
done
if ((${#failed[@]} > 0)); then
    for t in "${failed[@]}"; do
        echo
        echo "$t: log fuzz/target/fuzz-logs/$t.log, artifacts fuzz/artifacts/$t/"
        grep -m1 -E "panicked at|ERROR: libFuzzer" "$logs/$t.log" | sed 's/^/   /'
        grep -m1 -A3 "panicked at" "$logs/$t.log" | tail -n +2 | sed 's/^/   /'
    done
    echo
    echo "crashed: ${failed[*]}"
    echo "reproduce: fuzz/target/$host/fuzz/TARGET fuzz/artifacts/TARGET/crash-…  (after scripts/fuzz.sh builds it)"
    echo "minimize:  fuzz/target/$host/fuzz/TARGET -minimize_crash=1 -runs=10000 fuzz/artifacts/TARGET/crash-…"
    exit 1
fi
