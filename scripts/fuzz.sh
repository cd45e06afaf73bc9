#!/usr/bin/env bash
# Fuzz every lexikey decoder, parser and range builder with cargo-fuzz
# (libFuzzer): every target in fuzz/Cargo.toml, range_profile and
# parse_kind_component included.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
#
# SECONDS_PER_TARGET defaults to 30 (the CI smoke time); TARGETs default to
# every target in fuzz/Cargo.toml (`cargo fuzz list`). Targets run one after
# another, one libFuzzer process at a time.
#
# Steps: install cargo-fuzz if missing; build every target (stable toolchain
# with RUSTC_BOOTSTRAP=1, target dir fuzz/target); write seeds from
# fixtures/*.tsv into fuzz/corpus/<target>/ (examples/seed.rs); run each
# target for the given time; print executions, exec/s, corpus size and
# crashes per target. Crash inputs are kept in fuzz/artifacts/<target>/ and
# libFuzzer's log in fuzz/target/fuzz-logs/<target>.log (all git-ignored).
# Exit status: 0 when no target crashed, 1 otherwise, 2 on a setup error.
#
# Environment: FUZZ_SANITIZER (default "none": lexikey's only unsafe code is
# calls into register-only SSE2 functions that touch no memory and one
# `from_utf8_unchecked` on bytes just checked to be ASCII (check_decode
# asserts every decoded string is valid UTF-8), so AddressSanitizer would
# only halve the speed; set "address" to use it),
# CARGO_BUILD_JOBS (default 2), FUZZ_ARGS (extra libFuzzer flags).
set -uo pipefail

secs=${1:-30}
[[ $# -gt 0 ]] && shift
if ! [[ $secs =~ ^[0-9]+$ ]] || ((secs < 1)); then
    echo "usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]" >&2
    exit 2
fi

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root" || exit 2
export RUSTC_BOOTSTRAP=1
export CARGO_BUILD_JOBS=${CARGO_BUILD_JOBS:-2}
sanitizer=${FUZZ_SANITIZER:-none}
logs=fuzz/target/fuzz-logs

die() {
    echo "fuzz.sh: $*" >&2
    exit 2
}

now() { date +%s; }

# 1. cargo-fuzz
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "== installing cargo-fuzz"
    t0=$(now)
    cargo install cargo-fuzz --locked || die "cargo install cargo-fuzz failed"
    echo "   installed in $(($(now) - t0)) s"
fi

# 2. build (same flags as the runs below, so `cargo fuzz run` does not rebuild)
flags=(--sanitizer "$sanitizer")
echo "== building fuzz targets (sanitizer: $sanitizer)"
t0=$(now)
cargo fuzz build "${flags[@]}" || die "cargo fuzz build failed"
echo "   built in $(($(now) - t0)) s"

if [[ $# -gt 0 ]]; then
    targets=("$@")
else
    mapfile -t targets < <(cargo fuzz list) || die "cargo fuzz list failed"
fi
((${#targets[@]} > 0)) || die "no fuzz targets"

# 3. seeds from the golden vectors
echo "== seeding fuzz/corpus from fixtures/"
cargo run -q --manifest-path fuzz/Cargo.toml --no-default-features --example seed -- \
    fixtures fuzz/corpus >/dev/null || die "seeding failed"

# 4. run
mkdir -p "$logs"
count_artifacts() {
    find "fuzz/artifacts/$1" -maxdepth 1 -type f \
        \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) 2>/dev/null |
        wc -l
}
# shellcheck disable=SC2206 # FUZZ_ARGS is split on purpose
extra=(${FUZZ_ARGS:-})
rows=()
failed=()
for t in "${targets[@]}"; do
    mkdir -p "fuzz/corpus/$t" "fuzz/artifacts/$t"
    before=$(count_artifacts "$t")
    log="$logs/$t.log"
    echo "== $t: ${secs} s"
    t0=$(now)
    cargo fuzz run "${flags[@]}" "$t" "fuzz/corpus/$t" -- \
        -max_total_time="$secs" -print_final_stats=1 -timeout=10 \
        -rss_limit_mb=2048 -max_len=4096 "${extra[@]}" >"$log" 2>&1
    rc=$?
    took=$(($(now) - t0))
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    if [[ -z $execs ]]; then
        # A crash ends the run before the final stats: use the last status line.
        execs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#')
        execs=${execs:-0}
        rate=$(grep -oE 'exec/s: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+')
        rate=${rate:-0}
    fi
    corpus=$(find "fuzz/corpus/$t" -maxdepth 1 -type f | wc -l)
    crashes=$(($(count_artifacts "$t") - before))
    status=ok
    if ((rc != 0)); then
        status="FAILED (exit $rc)"
        ((crashes == 0)) && crashes="?"
        failed+=("$t")
        grep -m1 -E "panicked at|ERROR: libFuzzer" "$log" | sed 's/^/   /'
        grep -m1 -A3 "panicked at" "$log" | tail -n +2 | sed 's/^/   /'
        echo "   log: $log; artifacts: fuzz/artifacts/$t/"
    fi
    rows+=("$(printf '%-20s %12s %9s %8s %8s %6s  %s' "$t" "$execs" "$rate" "$corpus" "$crashes" "$took" "$status")")
done

echo
printf '%-20s %12s %9s %8s %8s %6s  %s\n' target executions exec/s corpus crashes secs status
printf '%s\n' "${rows[@]}"
if ((${#failed[@]} > 0)); then
    echo
    echo "crashed: ${failed[*]}"
    echo "reproduce: RUSTC_BOOTSTRAP=1 cargo fuzz run -s $sanitizer TARGET fuzz/artifacts/TARGET/crash-…"
    echo "minimize:  RUSTC_BOOTSTRAP=1 cargo fuzz tmin -s $sanitizer TARGET fuzz/artifacts/TARGET/crash-…"
    exit 1
fi
