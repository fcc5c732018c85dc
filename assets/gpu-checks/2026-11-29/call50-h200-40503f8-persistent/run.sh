#!/usr/bin/env bash
# Call 50: the persistent grid with a walk that divides only where it starts: fp32_best_test, memcheck and racecheck
# of the persistent and stream-k cases; the persistent grid beside the grid at 12 shapes, and stream-k (now through
# the persistent pipeline) by the binary before (1349633) and this one; cuBLAS SGEMM's kernels (Nsight Compute
# launch stats); the SASS of fp32_any's kernels summed up (instructions, calls, barriers).
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/fp32_tune" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
timeout 150 "$BIN/fp32_best_test" > "$R/fp32_best_test.log" 2>&1; step fp32_best_test $?; tail -n 3 "$R/fp32_best_test.log"
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 99 "$BIN/fp32_best_test" \
  --gtest_filter='*persistent*:*stream_k*' > "$R/sanitizer_memcheck.log" 2>&1; step memcheck $?
tail -n 2 "$R/sanitizer_memcheck.log"
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 99 "$BIN/fp32_best_test" \
  --gtest_filter='*persistent_3000x4099x37*:*stream_k_3000x4099x37*:*persistent_2100x4100x300*:*stream_k_2100x4100x300*:*persistent_131x133x301*' \
  > "$R/sanitizer_racecheck.log" 2>&1; step racecheck $?; tail -n 2 "$R/sanitizer_racecheck.log"
SHAPES=(2048x2048x2048 4096x4096x4096 1024x4096x4096 3000x5000x2000 5000x3472x4084 3712x4736x512 2968x5153x282
        1653x4702x344 4096x4096x256 6104x1849x492 210x4613x2171 268x1607x3847 157x4267x5737 3656x588x1892)
SK=(--plan="128x256 k16 stream-k" --plan="64x128 stream-k" --plan="128x64 stream-k")
for round in 1 2; do
  for shape in "${SHAPES[@]}"; do
    timeout 60 "$BIN/fp32_tune" "$shape" --plan="128x256 k16" --plan="128x256 k16 persistent" "${SK[@]}" --runs=10 \
      | grep -v "^NVIDIA" | sed "s/^/new r$round /" >> "$R/ab.log"
    timeout 60 "$BIN/fp32_tune_old" "$shape" "${SK[@]}" --runs=10 | grep -v "^NVIDIA" | sed "s/^/old r$round /" >> "$R/ab.log"
  done
done
step ab $?
for shape in 1653x4702x344 2372x4365x168 2968x5153x282 4096x4096x4096 2132x347x3274 210x4613x2171; do
  timeout 60 ncu --section LaunchStats --section Occupancy --kernel-name regex:'Kernel|gemm' --launch-count 2 \
    "$BIN/fp32_tune" "$shape" --plan="128x256 k16" --runs=1 > "$R/ncu_cublas_$shape.log" 2>&1
  step "ncu $shape" $?
done
cuobjdump -sass "$BIN/fp32_tune" > sass.txt 2>/dev/null; step cuobjdump $?
python3 - sass.txt > "$R/sass_summary.txt" <<'PY'
import re, sys
fn = None; stats = {}
for line in open(sys.argv[1]):
    m = re.search(r"Function : (\S+)", line)
    if m: fn = m.group(1); stats[fn] = {"ins": 0, "CALL": 0, "BAR": 0, "BRA": 0, "LDL": 0, "STL": 0, "FFMA": 0}; continue
    m = re.match(r"\s+/\*[0-9a-f]+\*/\s+(@!?U?P\d+\s+)?([A-Z][A-Z0-9_.]*)", line)
    if fn and m:
        op = m.group(2).split(".")[0]; s = stats[fn]; s["ins"] += 1
        if op in s: s[op] += 1
for fn, s in stats.items():
    if "fp32_any" in fn: print(fn, " ".join("%s=%d" % kv for kv in s.items()))
PY
grep -n "Function : .*fp32_anyINS0_13Fp32AnyConfigILi128ELi256ELi16E.*Lb0ELb1E" -A100000 sass.txt | \
  awk 'NR > 1 && /Function :/ {exit} {print}' > "$R/sass_k16_persistent.txt"
grep -n "Function : .*fp32_anyINS0_13Fp32AnyConfigILi128ELi256ELi16E.*Lb0ELb0E" -A100000 sass.txt | \
  awk 'NR > 1 && /Function :/ {exit} {print}' > "$R/sass_k16_grid.txt"
step sass $?
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
