#!/usr/bin/env bash
# Rung 6 written once for every mode (kernels/tf32_tensor_core.h, kernels/api/mma.h):
#  1. mma_gpu_test: the emulator's mma.sync m16n8k8 TF32 equals the tensor
#     cores' bit for bit on random fragments (one warp on the device; when
#     not, it prints which adder model would fit);
#  2. compute-sanitizer memcheck and racecheck of the new plain kernel (and of
#     the one it replaced) at small ragged sizes, through ladder_test;
#  3. the SASS of both in the tilescope binary, instruction counts side by side
#     (docs/ladder-notes.md: HMMA, LDSM, LDS, LDGSTS must match), of the whole
#     kernels and of their k-tile loops, and their registers per thread;
#  4. both timed at 4096^3 in one run: the new one within 2% of the old.
set -uo pipefail
rc=0
if ldd "$BIN/tilescope" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
"$BIN/mma_gpu_test" --gtest_output=json:"$RESULTS/mma_gpu_test.json" > "$RESULTS/mma_gpu_test.log" 2>&1 || rc=1
tail -n 15 "$RESULTS/mma_gpu_test.log"
for tool in memcheck racecheck; do
  compute-sanitizer --tool "$tool" --error-exitcode 99 \
    "$BIN/ladder_test" --gtest_filter='*tf32_tensor_core*_37x44x20:*tf32_tensor_core*_130x132x68' \
    > "$RESULTS/tf32_sanitizer_$tool.log" 2>&1 || rc=1
  tail -n 3 "$RESULTS/tf32_sanitizer_$tool.log"
done
if command -v cuobjdump > /dev/null; then
  cuobjdump -sass "$BIN/tilescope" > "$RESULTS/tilescope.sass" 2>&1 || rc=1
  awk '/Function :/ { f = ($0 ~ /tf32_tensor_core_kernel/) ? "new" : ($0 ~ /tf32_tensor_coreINS0_10Tf32Config/) ? "before" : "" }
       f != "" && /\/\*[0-9a-f][0-9a-f][0-9a-f][0-9a-f]\*\// {
         for (i = 1; i <= NF; ++i) if ($i ~ /^[A-Z][A-Z0-9]+(\.|$)/ && $i !~ /^R[0-9]/ && $i !~ /^P[0-9T]/ && $i !~ /^UR/) {
           split($i, op, "."); n[f, op[1]]++; total[f]++; break } }
       END { printf "%-8s %7s %7s\n", "SASS", "before", "new"
             split("HMMA LDSM LDS LDGSTS STS STG BAR IMAD IADD3 LOP3 BRA", ops, " ")
             for (j = 1; j <= 11; ++j) printf "%-8s %7d %7d\n", ops[j], n["before", ops[j]], n["new", ops[j]]
             printf "%-8s %7d %7d\n", "all", total["before"], total["new"] }' "$RESULTS/tilescope.sass" \
    | tee "$RESULTS/tf32_sass_counts.txt"
  python3 scripts/sass-loop-counts.py "$BIN/tilescope" --match tf32_tensor_core_kernel Tf32Config \
    > "$RESULTS/tf32_sass_loop.txt" 2>&1 || rc=1
  cat "$RESULTS/tf32_sass_loop.txt"
  cuobjdump -res-usage "$BIN/tilescope" 2>&1 | grep -A1 -E "tf32_tensor_core_kernel|Tf32Config" \
    > "$RESULTS/tf32_res_usage.txt" || rc=1
  cat "$RESULTS/tf32_res_usage.txt"
else
  echo "cuobjdump not found on PATH: no SASS comparison"
  rc=1
fi
"$BIN/tilescope" bench --kernels tf32-tensor-core,tf32-tensor-core-before --size 4096 \
  -o "$RESULTS/bench_tf32_before_after.json" -o "$RESULTS/bench_tf32_before_after.csv" \
  > "$RESULTS/bench_tf32_before_after.log" 2>&1 || rc=1
tail -n 8 "$RESULTS/bench_tf32_before_after.log"
# The new one against the old, read back from the CSV by column name (as 45-rungs.sh does).
awk -F, '/^#/ {next} !h {for (i = 1; i <= NF; ++i) col[$i] = i; h = 1; next}
  {g[$col["kernel"]] = $col["gflops"]}
  END {
    a = g["tf32-tensor-core"]; b = g["tf32-tensor-core-before"]
    if (a == "" || b == "") { print "tf32-tensor-core: missing from the results"; exit 1 }
    d = 100 * (a - b) / b
    printf "%-16s %9.1f GFLOP/s, before %9.1f: %+5.1f%% %s\n", "tf32-tensor-core", a, b, d, (d >= -2 ? "ok" : "SLOWER than 2%")
    exit d < -2
  }' "$RESULTS/bench_tf32_before_after.csv" | tee "$RESULTS/bench_tf32_compare.txt" || rc=1
exit $rc
