#!/usr/bin/env bash
# fuzz_long.sh — the long fuzzing run of the benchmark: every harness, at
# least 10 million executions in total over JOBS parallel jobs (libFuzzer's
# fork mode), and its figures (executions, coverage, crashes, duration, the
# machine) in OUTDIR/fuzz_long.json.
#   bench/fuzz_long.sh JOBS [OUTDIR] [EXECUTIONS]
#       builds the bundle (scripts/fuzz-bundle.sh build-fuzz/bundle) and runs
#       from it; OUTDIR defaults to assets/fuzz
#   .fuzz-bin/run.sh JOBS OUTDIR [EXECUTIONS]
#       the same from a bundle, on a machine without our build packages
# The harnesses: fuzz_trace_loader (the loader, then the index, stats with
# every analysis, the replay across all steps, comparison, CSV export) gets
# 75% of the executions; fuzz_panels (every panel drawn headless) 25%: it is
# the slower by far, and behind the same loader. Crashes, timeouts and
# out-of-memory inputs do not stop the run: they are counted, and kept in
# OUTDIR/<harness>/ as crash-*, timeout-*, oom-*; the exit status is non-zero
# when there is any. FUZZ_SECONDS=N also stops each harness after N seconds;
# FUZZ_ONLY=HARNESS runs that one alone.
set -euo pipefail
if [ -z "${FUZZ_BIN:-}" ]; then  # in the source tree: build the bundle, run from it
  cd "$(dirname "$0")/.."
  scripts/fuzz-bundle.sh build-fuzz/bundle >/dev/null
  exec build-fuzz/bundle/run.sh "${1:-$(nproc)}" "${2:-assets/fuzz}" "${3:-10000000}"
fi

jobs=${1:?usage: fuzz_long.sh JOBS OUTDIR [EXECUTIONS]}
out=${2:?usage: fuzz_long.sh JOBS OUTDIR [EXECUTIONS]}
total=${3:-10000000}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# The last value of `key: N` in a libFuzzer log (0 when absent).
last_stat() { grep -o "$2: *[0-9]*" "$1" | tail -1 | grep -o '[0-9]*$' || echo 0; }

run_harness() {  # name executions
  local name=$1 runs=$2 dir=$out/$1 status=0 start seconds
  rm -rf "$dir"
  mkdir -p "$dir/corpus"
  start=$(date +%s)
  # The first directory is where new inputs go; the seeds are only read.
  ( cd "$dir" && "$FUZZ_BIN/$name" -fork="$jobs" -runs="$runs" -max_len=65536 -timeout=60 -rss_limit_mb=4096 \
      -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 -artifact_prefix="$dir/" \
      ${FUZZ_SECONDS:+-max_total_time=$FUZZ_SECONDS} corpus "$FUZZ_SEEDS" ) >"$dir/fuzz.log" 2>&1 || status=$?
  seconds=$(( $(date +%s) - start ))
  local executed cov ft corpus crashes timeouts ooms
  executed=$(grep -o '^#[0-9]*' "$dir/fuzz.log" | tail -1 | tr -d '#' || true)
  executed=${executed:-0}
  cov=$(last_stat "$dir/fuzz.log" cov)
  ft=$(last_stat "$dir/fuzz.log" ft)
  corpus=$(find "$dir/corpus" -type f | wc -l)
  crashes=$(find "$dir" -maxdepth 1 -name 'crash-*' | wc -l)
  timeouts=$(find "$dir" -maxdepth 1 -name 'timeout-*' | wc -l)
  ooms=$(find "$dir" -maxdepth 1 \( -name 'oom-*' -o -name 'leak-*' \) | wc -l)
  [ "$crashes$timeouts$ooms" = 000 ] || failures=1
  [ "$status" = 0 ] || failures=1
  sum=$(( sum + executed ))
  rows+=("    {\"harness\": \"$name\", \"executions\": $executed, \"seconds\": $seconds, \"executions_per_second\": $(( executed / (seconds > 0 ? seconds : 1) )), \"coverage_edges\": $cov, \"coverage_features\": $ft, \"corpus_files\": $corpus, \"crashes\": $crashes, \"timeouts\": $timeouts, \"ooms_and_leaks\": $ooms, \"exit_status\": $status}")
  echo "$name: $executed executions in $seconds s, cov $cov, ft $ft, crashes $crashes, timeouts $timeouts, ooms/leaks $ooms (exit $status)"
}

started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
t0=$(date +%s)
sum=0 failures=0 rows=()
case ${FUZZ_ONLY:-} in  # FUZZ_ONLY=HARNESS: that harness alone, all the executions
  "") run_harness fuzz_trace_loader $(( total - total / 4 )); run_harness fuzz_panels $(( total / 4 )) ;;
  fuzz_trace_loader | fuzz_panels) run_harness "$FUZZ_ONLY" "$total" ;;
  *) echo "FUZZ_ONLY: no harness $FUZZ_ONLY (fuzz_trace_loader or fuzz_panels)" >&2; exit 2 ;;
esac

cpu=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //; s/"/'"'"'/g' || echo unknown)
memory=$(grep -m1 MemTotal /proc/meminfo | grep -o '[0-9]*' || echo 0)
{
  echo "{"
  echo "  \"what\": \"bench/fuzz_long.sh: every fuzzing harness, libFuzzer fork mode\","
  echo "  \"commit\": \"${FUZZ_COMMIT:-unknown}\","
  echo "  \"build\": \"${FUZZ_BUILD_INFO:-unknown}\","
  echo "  \"started\": \"$started\","
  echo "  \"machine\": {\"cpu\": \"$cpu\", \"cores\": $(nproc), \"memory_kib\": $memory, \"kernel\": \"$(uname -sr)\"},"
  echo "  \"jobs\": $jobs,"
  echo "  \"executions_asked\": $total,"
  echo "  \"executions\": $sum,"
  echo "  \"seconds\": $(( $(date +%s) - t0 )),"
  echo "  \"harnesses\": ["
  for i in "${!rows[@]}"; do
    if [ "$i" -lt $(( ${#rows[@]} - 1 )) ]; then echo "${rows[$i]},"; else echo "${rows[$i]}"; fi
  done
  echo "  ],"
  echo "  \"clean\": $([ "$failures" = 0 ] && echo true || echo false)"
  echo "}"
} >"$out/fuzz_long.json"
cat "$out/fuzz_long.json"
exit "$failures"
