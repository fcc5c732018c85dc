#!/usr/bin/env bash
# tf32_ws_tune over every candidate it lists (rung 7 tf32-wgmma and each
# compiled variant of tf32-wgmma-ws: tile shape, stages, grouping, one CTA per
# tile, clusters of 2 with TMA multicast) at 4096^3 and 8192^3 against cuBLAS
# TF32, ONE PROCESS PER CANDIDATE (--name=NAME): a kernel fault ends the CUDA
# context of its own process only, so one broken variant cannot hide the
# others (the tuner's first GPU run stopped at rung 7's fault before any
# variant ran). Each call is under `timeout` (a hang shows as TIMED OUT); the
# whole check stops starting calls after ~140 s. Builds nothing: $BIN holds
# the binaries (scripts/gpu-build.sh).
# Writes under $RESULTS (or $OUT): tf32_ws_tune_<name>.log per candidate,
# tf32_ws_tune_steps.txt (how each call ended), tf32_ws_tune_table.txt (every
# candidate's row of TFLOP/s and % of cuBLAS TF32, each % against cuBLAS
# timed in the same process).
# What proves the claim: every call rc=0, every row numeric (no "failed",
# "WRONG", "not run"); rung 7 near 60% and the shipped "256x128 s4 g8 *" near
# 90% of cuBLAS TF32, as in 77-tf32-ws.sh's benchmark.
set -uo pipefail
BIN=${BIN:-$PWD/.gpu-bin}
results=${RESULTS:-${OUT:-$PWD/gpu-results}}
mkdir -p "$results"
tune=$BIN/tf32_ws_tune
if ldd "$tune" 2>/dev/null | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
steps=$results/tf32_ws_tune_steps.txt
table=$results/tf32_ws_tune_table.txt
: > "$steps"
if ! "$tune" --list > "$results/tf32_ws_tune_list.txt" 2>&1; then
  echo "tf32_ws_tune --list failed:" | tee -a "$steps"
  cat "$results/tf32_ws_tune_list.txt"
  exit 1
fi
mapfile -t names < "$results/tf32_ws_tune_list.txt"
echo "${#names[@]} candidates: $(printf '%s; ' "${names[@]}")"

rc=0
logs=() ran=()  # each call's log and candidate
for name in "${names[@]}"; do
  slug=$(printf '%s' "$name" | tr -c 'A-Za-z0-9' '_' | sed 's/__*/_/g; s/_$//')
  log=$results/tf32_ws_tune_$slug.log
  if ((SECONDS > 140)); then
    printf '%-28s %-30s\n' "$name" "not started (past 140 s)" | tee -a "$steps"
    rc=1
    continue
  fi
  start=$SECONDS
  timeout --kill-after=5 18 "$tune" 4096x4096x4096 8192x8192x8192 --name="$name" > "$log" 2>&1
  code=$?
  how="rc=$code"
  ((code == 124 || code == 137)) && how="TIMED OUT after 18 s (a hang?)"
  ((code)) && rc=1
  printf '%-28s %-30s %4d s  (%s)\n' "$name" "$how" $((SECONDS - start)) "$(basename "$log")" | tee -a "$steps"
  logs+=("$log") ran+=("$name")
done

# One table: the first process's cuBLAS row, then every candidate's own row
# (its % is against the cuBLAS of its own process); then why any failed.
{
  first=1
  for i in "${!logs[@]}"; do
    log=${logs[$i]}
    if ! grep -q '^TFLOP/s' "$log"; then
      why=$(grep -m 1 -E 'tf32_ws_tune:|FAIL|rror' "$log" || tail -n 1 "$log")
      printf '%-28s no table: %s\n' "${ran[$i]}" "${why:-an empty log (see tf32_ws_tune_steps.txt)}"
      continue
    fi
    awk -v first=$first '
      /^TFLOP\/s/ { on = 1; if (first) print; next }
      !on { next }
      /^kernel / || /^cublas-tf32 / { if (first) print; next }
      { print }' "$log"
    first=0
  done
} > "$table"

echo "=== tf32_ws_tune, one process per candidate: how each call ended, then the table ==="
cat "$steps" "$table"
exit $rc
