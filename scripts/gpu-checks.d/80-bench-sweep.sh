#!/usr/bin/env bash
# The shipped benchmark results: `tilescope bench --sweep all` (128..8192
# square and the non-square shapes) plus the two ragged shapes of the
# any-shape target (3001x4097x2999, 4097^3), every kernel and cuBLAS, median
# of 20, written as <gpu>.json and <gpu>.csv (h100, h200: the names under
# assets/bench/) into $OUT, or $RESULTS under gpu-checks.sh. 162 s on an
# H100 (2026-11-23). Prints fp32-best's, tf32-wgmma's and tf32-wgmma-ws's share of cuBLAS per shape
# last; the targets (docs/ladder-notes.md) are figures here, not enforced.
set -uo pipefail
BIN=${BIN:-$PWD/.gpu-bin}
dest=${OUT:-${RESULTS:?set OUT or RESULTS}}
mkdir -p "$dest"
if ldd "$BIN/tilescope" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1 | grep -o -i 'h[0-9]00' | tr 'H' 'h')
gpu=${gpu:-gpu}
rc=0
"$BIN/tilescope" bench --sweep all --shape 3001x4097x2999 --shape 4097x4097x4097 --runs 20 \
  -o "$dest/$gpu.json" -o "$dest/$gpu.csv" > "$dest/$gpu.log" 2>"$dest/$gpu.progress.log" || rc=1
head -n 2 "$dest/$gpu.log"
# Per shape from 1024^3 of work up: fp32-best against cuBLAS FP32, the TF32 kernels against cuBLAS TF32.
awk -F, '/^#/ {next} !h {for (i = 1; i <= NF; ++i) col[$i] = i; h = 1; next}
  $col["status"] == "ok" && $col["m"] * $col["n"] * $col["k"] >= 1024 * 1024 * 1024 {
    s = $col["m"] "x" $col["n"] "x" $col["k"]
    if ($col["kernel"] == "fp32-best") fp[s] = $col["pct_cublas"]
    if ($col["kernel"] == "tf32-wgmma") tf[s] = $col["pct_cublas_tf32"]
    if ($col["kernel"] == "tf32-wgmma-ws") ws[s] = $col["pct_cublas_tf32"]
    if (!(s in seen)) { seen[s] = 1; order[++n] = s }
  }
  END {
    printf "%-18s %16s %16s %19s\n", "shape", "fp32-best %FP32", "tf32-wgmma %TF32", "tf32-wgmma-ws %TF32"
    for (i = 1; i <= n; ++i) printf "%-18s %16.1f %16.1f %19.1f\n", order[i], fp[order[i]], tf[order[i]], ws[order[i]]
  }' "$dest/$gpu.csv"
exit $rc
