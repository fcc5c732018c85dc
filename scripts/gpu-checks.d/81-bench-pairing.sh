#!/usr/bin/env bash
# Do the benchmark's timing choices change the figures: a kernel timed in
# alternating rounds with cuBLAS (the default) or on its own, back to back
# (--apart); the L2 cache overwritten before every timed run (the default) or
# left as the last run left it (--warm-l2)? Two passes over the four modes for
# fp32-best and tf32-wgmma-ws at 2048^3 (one wave of 128x256 blocks: fp32-best's
# narrowest margin) and 4096^3, median of 50; then fp32_tune's every plan at
# 2048^3 (each timed on its own against cuBLAS in its process), where built.
# Writes $RESULTS/pairing_{paired,apart}_{flush,warm}_N.csv, pairing.txt (the table) and
# fp32_tune_2048.log.
set -uo pipefail
results=${RESULTS:-${OUT:-.}}
if ldd "$BIN/tilescope" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
rc=0
for i in 1 2; do
  for mode in paired apart; do
    for l2 in flush warm; do
      flag=()
      [[ $mode == apart ]] && flag+=(--apart)
      [[ $l2 == warm ]] && flag+=(--warm-l2)
      timeout 120 "$BIN/tilescope" bench --kernels fp32-best,tf32-wgmma-ws --size 2048 --size 4096 --runs 50 \
        --no-ceilings "${flag[@]}" -o "$results/pairing_${mode}_${l2}_$i.csv" > /dev/null 2>&1 || rc=1
    done
  done
done
for f in "$results"/pairing_*.csv; do
  awk -F, -v f="$(basename "$f" .csv)" '/^#/ {next} !h {for (i = 1; i <= NF; ++i) c[$i] = i; h = 1; next}
    $c["kernel"] ~ /^(fp32-best|tf32-wgmma-ws|cublas-fp32|cublas-tf32)$/ {
      printf "%-24s %-14s %5sx%-5s %9.4f ms  ref %9.4f  %%FP32 %6.1f  %%TF32 %6.1f\n", f, $c["kernel"], $c["m"], $c["k"],
        $c["time_ms"], $c["reference_ms"], $c["pct_cublas"], $c["pct_cublas_tf32"] }' "$f"
done | tee "$results/pairing.txt"
if [[ -x $BIN/fp32_tune ]]; then
  timeout 120 "$BIN/fp32_tune" 2048x2048x2048 > "$results/fp32_tune_2048.log" 2>&1 || rc=1
  tail -n 12 "$results/fp32_tune_2048.log"
fi
exit $rc
