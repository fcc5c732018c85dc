#!/usr/bin/env bash
# Call 88: the TF32 rule with Tf32WsModel::pair_odd 0.04 (working tree on a0d4415): both picks (pair_odd 0 and
# 0.04) timed by tf32_ws_tune at the 145 shapes of two fresh 3,000-shape draws (seeds 20261129, 20261130) whose pick
# it moves, and the sweep's 3001x4097x2999, one process per pair of plans, in two rounds (the plans' order swapped);
# then the drawn-shape check through tilescope bench with the new rule, and tf32_wgmma_ws_test.
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh "$BIN/ab14_groups.txt" "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/tf32_ws_tune" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
for round in 1 2; do
  i=0
  while IFS='|' read -r a b shapes; do
    i=$((i + 1))
    if ((SECONDS > 300)); then echo "ab_${round}_$i not started (past 300 s)" | tee -a "$R/steps.txt"; continue; fi
    first=$a second=$b; ((round == 2)) && first=$b second=$a
    # shellcheck disable=SC2086 # $shapes is a list of shapes
    timeout 60 "$BIN/tf32_ws_tune" $shapes --runs=10 --name="$first" --name="$second" > "$R/ab_${round}_$i.log" 2>&1
    step "ab_${round}_$i" $?
  done < "$BIN/ab14_groups.txt"
done
for s in 1 2 3 4 5 6 7 8; do
  if ((SECONDS > 420)); then echo "seed $s not started (past 420 s)" | tee -a "$R/steps.txt"; continue; fi
  mkdir -p "$R/fresh_$s"
  RESULTS="$R/fresh_$s" bash scripts/gpu-checks.d/82-bench-fresh-shapes.sh > "$R/fresh_$s/summary.txt" 2>&1
  step "fresh seed $(head -c 40 "$R/fresh_$s/summary.txt" | grep -o 'seed [0-9]*')" $?
done
if ((SECONDS < 440)); then
  timeout $((590 - SECONDS)) "$BIN/tf32_wgmma_ws_test" > "$R/tf32_wgmma_ws_test.log" 2>&1; step tf32_wgmma_ws_test $?
  tail -n 1 "$R/tf32_wgmma_ws_test.log"
fi
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
