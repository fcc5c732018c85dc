#!/usr/bin/env bash
# Call 112: the padded copies (pad_copy.cu) walked as one run of float4s a matrix, each matrix its own blocks.
# Tests: pad_copy_test (new), tf32_wgmma_ws_test, fp32_best_test, memcheck on pad_copy_test. Nsight Compute's
# time of pad_rows, old (32ab5ec) against new, at four shapes. `tilescope bench`, old against new, alternating,
# two rounds, at 57 shapes with n % 4 != 0 or k % 4 != 0 (9 of call 111's misses, 48 drawn with seed 20261401).
# tf32_ws_tune at five shapes where the TF32 rule's pick missed 90% (1024^3 and four of call 111's). Then new
# drawn seeds (82-bench-fresh-shapes.sh) with the new binary while time is left.
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh .gpu-pack/shapes.txt "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/tilescope" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
timeout 60 "$BIN/pad_copy_test" > "$R/pad_copy_test.log" 2>&1; step pad_copy_test $?; tail -n 1 "$R/pad_copy_test.log"
timeout 90 compute-sanitizer --tool memcheck --leak-check full "$BIN/pad_copy_test" > "$R/pad_copy_memcheck.log" 2>&1
step pad_copy_memcheck $?; tail -n 2 "$R/pad_copy_memcheck.log"
timeout 120 "$BIN/tf32_wgmma_ws_test" > "$R/tf32_wgmma_ws_test.log" 2>&1; step tf32_wgmma_ws_test $?
tail -n 1 "$R/tf32_wgmma_ws_test.log"
timeout 90 "$BIN/fp32_best_test" > "$R/fp32_best_test.log" 2>&1; step fp32_best_test $?; tail -n 1 "$R/fp32_best_test.log"
# pad_rows alone under Nsight Compute (its clocks and cache control): both binaries, two launches each.
for shape in tf32-wgmma-ws:362x511x6359 tf32-wgmma-ws:2969x157x5257 tf32-wgmma-ws:5407x129x5630 fp32-best:4100x1001x3000; do
  kernel=${shape%%:*} s=${shape#*:}
  for v in new old; do
    exe=$BIN/tilescope; [[ $v == old ]] && exe=$BIN/old/tilescope
    timeout 60 ncu -k 'regex:pad_rows' --launch-count 2 --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \
      --csv "$exe" bench --kernels "$kernel" --shape "$s" --runs 20 --no-ceilings -o /tmp/ncu_bench.csv \
      > "$R/ncu_pad_${v}_$s.csv" 2> "$R/ncu_pad_${v}_$s.err"
    step "ncu $v $s" $?
  done
done
mapfile -t shapes < <(tr ' ' '\n' < .gpu-pack/shapes.txt | grep -v '^--shape$' | grep . | sed 's/^/--shape=/')
for round in 1 2; do
  order=(new old); ((round == 2)) && order=(old new)
  for v in "${order[@]}"; do
    exe=$BIN/tilescope; [[ $v == old ]] && exe=$BIN/old/tilescope
    timeout 150 "$exe" bench --kernels fp32-best,tf32-wgmma-ws "${shapes[@]}" --runs 20 --no-ceilings \
      -o "$R/ab_${v}_$round.csv" > "$R/ab_${v}_$round.log" 2>&1
    step "ab ${v}_$round" $?
  done
done
timeout 200 "$BIN/tf32_ws_tune" 1024x1024x1024 1536x512x2176 512x1536x1408 1084x1292x1992 584x1988x2620 --runs=20 \
  --only=cn2 --only=cm2 --only=rule > "$R/ws_tune_misses.log" 2>&1
step ws_tune_misses $?
for s in $(seq 1 12); do
  if ((SECONDS > 480)); then echo "seed $s not started (past 480 s)" | tee -a "$R/steps.txt"; continue; fi
  mkdir -p "$R/fresh_$s"
  RESULTS="$R/fresh_$s" bash scripts/gpu-checks.d/82-bench-fresh-shapes.sh > "$R/fresh_$s/summary.txt" 2>&1
  step "fresh $(head -c 40 "$R/fresh_$s/summary.txt" | grep -o 'seed [0-9]*')" $?
done
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
