#!/usr/bin/env bash
# Shapes nobody chose: fp32-best and tf32-wgmma-ws against cuBLAS at shapes
# drawn at run time (FRESH_SHAPES of them, 40 by default, from FRESH_SEED,
# by default the clock; the seed is printed so that a run can be repeated).
# Each side from 128 to 6500 (a third of the shapes any integer, a third
# multiples of 4, a third multiples of 128), one shape in three skinny (one
# side from 128 to 511), and every shape at least 2^30 multiply-adds (drawn
# again until it is): the targets' domain. `tilescope bench` checks every
# kernel before timing it (a failed check is a `failed` row), median of 20,
# alternating with cuBLAS. Prints the share of cuBLAS per shape, flags
# fp32-best under 95% and tf32-wgmma-ws under 90%, then the worst shapes of
# each, the medians, and how many shapes missed each target.
# Writes fresh_shapes.csv, fresh_shapes.txt; exit 1 only when a run or a
# check failed (a missed target is reported, not a failure of the check).
set -uo pipefail
results=${RESULTS:-${OUT:-.}}
BIN=${BIN:-$PWD/.gpu-bin}
if ldd "$BIN/tilescope" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
seed=${FRESH_SEED:-$(date +%s)}
count=${FRESH_SHAPES:-40}
# Python's random.Random(seed) draws the same numbers on every machine (awk's
# srand/rand did not: one seed gave two lists on two runs of the GPU server).
shapes=$(python3 - "$seed" "$count" <<'PY'
import random, sys
rng = random.Random(int(sys.argv[1]))
flags = []
for i in range(int(sys.argv[2])):
    while True:
        dims = [rng.randint(128, 6500) for _ in range(3)]
        if i % 3 == 1:
            dims = [max(128, d - d % 4) for d in dims]
        if i % 3 == 2:
            dims = [max(128, d - d % 128) for d in dims]
        if i % 3 == 0:  # skinny: one side, any of the three, under 512
            dims[rng.randrange(3)] = rng.randint(128, 511)
        if dims[0] * dims[1] * dims[2] >= 2 ** 30:
            break
    flags.append("--shape %dx%dx%d" % tuple(dims))
print(" ".join(flags))
PY
)
echo "seed $seed: $shapes"
rc=0
# shellcheck disable=SC2086 # $shapes is a list of flags
timeout 560 "$BIN/tilescope" bench --kernels fp32-best,tf32-wgmma-ws $shapes --runs 20 --no-ceilings \
  -o "$results/fresh_shapes.csv" > "$results/fresh_shapes.log" 2>&1 || rc=1
awk -F, -v seed="$seed" '/^#/ {next} !h {for (i = 1; i <= NF; ++i) c[$i] = i; h = 1; next}
  {
    s = $c["m"] "x" $c["n"] "x" $c["k"]
    if (!(s in seen)) { seen[s] = 1; order[++n] = s }
    if ($c["status"] != "ok" && $c["family"] != "cublas") bad[s] = bad[s] " " $c["kernel"] ":" $c["status"]
    if ($c["kernel"] == "fp32-best" && $c["status"] == "ok") fp[s] = $c["pct_cublas"]
    if ($c["kernel"] == "tf32-wgmma-ws" && $c["status"] == "ok") ws[s] = $c["pct_cublas_tf32"]
  }
  function median(a,   m, i, j, t, v) {
    m = 0; for (i in a) v[++m] = a[i] + 0
    for (i = 2; i <= m; ++i) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; --j) v[j + 1] = v[j]; v[j + 1] = t }
    return m == 0 ? 0 : (m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2)
  }
  function worst(a, name, k,   i, j, s, t, v, w, m) {
    m = 0; for (s in a) { v[++m] = a[s] + 0; w[m] = s }
    for (i = 2; i <= m; ++i) { t = v[i]; s = w[i]; for (j = i - 1; j >= 1 && v[j] > t; --j) { v[j + 1] = v[j]; w[j + 1] = w[j] } v[j + 1] = t; w[j + 1] = s }
    printf "worst %s:", name
    for (i = 1; i <= k && i <= m; ++i) printf " %s %.1f%%", w[i], v[i]
    printf "\n"
  }
  END {
    printf "seed %s\n%-18s %16s %20s\n", seed, "shape", "fp32-best %FP32", "tf32-wgmma-ws %TF32"
    for (i = 1; i <= n; ++i) {
      s = order[i]
      f = (s in fp) && fp[s] + 0 < 95 ? "  fp32 < 95%" : ""
      t = (s in ws) && ws[s] + 0 < 90 ? "  tf32 < 90%" : ""
      printf "%-18s %16.1f %20.1f%s%s%s\n", s, fp[s], ws[s], f, t, bad[s]
      if (f != "") ++fmiss
      if (t != "") ++tmiss
      if (bad[s] != "") failed = 1
    }
    worst(fp, "fp32-best", 5)
    worst(ws, "tf32-wgmma-ws", 5)
    printf "median: fp32-best %.1f%% of cuBLAS SGEMM, tf32-wgmma-ws %.1f%% of cuBLAS TF32 over %d shapes\n", median(fp), median(ws), n
    printf "targets missed: fp32-best under 95%% at %d of %d shapes, tf32-wgmma-ws under 90%% at %d of %d\n", fmiss, n, tmiss, n
    exit failed
  }' "$results/fresh_shapes.csv" | tee "$results/fresh_shapes.txt"
((PIPESTATUS[0])) && rc=1
exit $rc
