#!/usr/bin/env bash
# The tracer of unmodified kernels (tracer/, docs in tracer/assemble.h), on the
# GPU, for the first time:
#  0. builds the device patches and libtilescope_tracer.so here from the
#     checkout (tracer-lib.bash); TILESCOPE_TRACER_LIBRARY points tilescope at them;
#  1. tracer_plain_launch (tests/tracer/plain_tiled_launch.cu: tilescope's plain
#     tiled kernel, launched once by a program that knows nothing of tracing)
#     runs alone, then under `tilescope record --exec`;
#  2. its trace is held to the instrumented recording of the same kernel,
#     sizes and seed (tracer_trace_compare: launch shape, A/B/C tables, each
#     thread's events as multisets of epoch, load/store, place);
#  3. tracer_cublas_sgemm (cuBLAS SGEMM at 256^3) under `record --exec
#     --layout col`, its trace's stats logged: to see what comes out (its
#     result does not fail this check).
# Writes $RESULTS/tracer/: *.log, the traces' stats (*.json).
set -uo pipefail
rc=0
out=$RESULTS/tracer
mkdir -p "$out"
tmp=$(mktemp -d)
source "$(dirname "$0")/tracer-lib.bash"
build_tracer "$tmp" "$out/build.log" || exit 1
ls -l "$tmp"

m=64 n=48 k=32 tile=16 seed=7
echo "== 1. the plain tiled kernel, alone and traced (M=$m N=$n K=$k TILE=$tile seed $seed)"
"$BIN/tracer_plain_launch" $m $n $k $tile $seed > "$out/plain_alone.log" 2>&1 || rc=1
cat "$out/plain_alone.log"
timeout 300 "$BIN/tilescope" record --exec --m $m --n $n --k $k --timeout 240 -o "$tmp/traced.tstrace" \
  -- "$BIN/tracer_plain_launch" $m $n $k $tile $seed > "$out/plain_traced.log" 2>&1 || rc=1
cat "$out/plain_traced.log"

echo "== 2. against the instrumented recording"
"$BIN/tilescope" record --kernel tiled --tile $tile --m $m --n $n --k $k --device gpu --seed $seed \
  -o "$tmp/instrumented.tstrace" > "$out/instrumented.log" 2>&1 || rc=1
cat "$out/instrumented.log"
if [[ -f $tmp/traced.tstrace ]]; then
  "$BIN/tracer_trace_compare" "$tmp/instrumented.tstrace" "$tmp/traced.tstrace" > "$out/compare.log" 2>&1 || rc=1
  cat "$out/compare.log"
  "$BIN/tilescope" stats "$tmp/traced.tstrace" --json > "$out/plain_traced_stats.json" 2>&1 || rc=1
  "$BIN/tilescope" stats "$tmp/instrumented.tstrace" --json > "$out/instrumented_stats.json" 2>&1 || rc=1
  "$BIN/tilescope" stats "$tmp/traced.tstrace" > "$out/plain_traced_stats.txt" 2>&1
  cat "$out/plain_traced_stats.txt"
else
  echo "87: no traced trace to compare"
  rc=1
fi

echo "== 3. cuBLAS SGEMM 256^3, traced (informative)"
"$BIN/tracer_cublas_sgemm" 256 > "$out/cublas_alone.log" 2>&1
cat "$out/cublas_alone.log"
timeout 500 "$BIN/tilescope" record --exec --layout col --m 256 --n 256 --k 256 --kernel-name gemm \
  --max-records $((1 << 25)) --timeout 400 -o "$tmp/cublas.tstrace" -- "$BIN/tracer_cublas_sgemm" 256 \
  > "$out/cublas_traced.log" 2>&1
echo "cublas record --exec: exit $?"
cat "$out/cublas_traced.log"
if [[ -f $tmp/cublas.tstrace ]]; then
  "$BIN/tilescope" stats "$tmp/cublas.tstrace" > "$out/cublas_stats.txt" 2>&1
  "$BIN/tilescope" stats "$tmp/cublas.tstrace" --json > "$out/cublas_stats.json" 2>&1
  cat "$out/cublas_stats.txt"
fi
# Every launch the program made, traced or not (launch 0 of any name).
timeout 300 "$BIN/tilescope" record --exec --layout col --m 256 --n 256 --k 256 --kernel-name 'no-such-kernel' \
  -o "$tmp/none.tstrace" -- "$BIN/tracer_cublas_sgemm" 256 > "$out/cublas_launches.log" 2>&1
cat "$out/cublas_launches.log"

rm -rf "$tmp"
exit $rc
