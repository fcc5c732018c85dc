#!/usr/bin/env bash
# Any kernel as it is (docs/tracer.md), on the GPU: the three ways in that run
# tilescope's own launcher (`tilescope launch`) under the tracer.
#  1. Two recorders, one truth: every kernel of the catalog and every recorded
#     rung, at three shapes (one ragged), recorded by the instrumented build
#     and traced plain (`record --tracer`) with the same seed; each pair held
#     to each other by tracer_trace_compare (every thread's events as
#     multisets of epoch, load/store, place). A table row per pair.
#  2. cuBLAS's own GEMM (`record --library cublas`), FP32 and TF32, at 256^3, a
#     ragged shape and 64 x 96 x 80 (the trace shipped in assets/traces/): C
#     checked by the launcher, what the tracer did not see, stats; Nsight
#     Compute's global requests and sectors of the same launch beside them.
#  3. A CUDA file as written (`record --cuda-file`,
#     examples/cuda/sgemm_blocktile_float4.cu) at two shapes and two alpha,
#     beta; memcheck and racecheck of the plain launch.
#  4. Bad input: each a message and its exit status.
#  5. Speed: the plain launch, the traced one, and record + index of cuBLAS
#     at 256^3.
#  6. A Triton matmul under `record --exec`, where this machine has Triton.
# Writes $RESULTS/any-kernel/; traces worth keeping under $RESULTS/any-kernel/traces/.
set -uo pipefail
rc=0
out=$RESULTS/any-kernel
mkdir -p "$out/traces"
tmp=$(mktemp -d)
source "$(dirname "$0")/tracer-lib.bash"
build_tracer "$tmp" "$out/build.log" || exit 1
ts=$BIN/tilescope

# Each can be narrowed for a quick re-run: TILESCOPE_88_SECTIONS, _KERNELS, _SHAPES, _CUBLAS ("fp32 256 256 256;...").
sections=${TILESCOPE_88_SECTIONS:-3 4 2 1 5 6}
if [[ " $sections " == *" 3 "* ]]; then
echo "== 3. a CUDA file as written"
f=examples/cuda/sgemm_blocktile_float4.cu
for run in "128 128 64 2,2 1 0" "64 192 48 3,1 2 0.5"; do
  read -r m n k grid alpha beta <<< "$run"
  name=float4-${m}x${n}x${k}-a$alpha-b$beta
  "$ts" launch --cuda-file $f --entry sgemm_blocktile_float4 --grid $grid --block 256 --m $m --n $n --k $k \
    --arg alpha=$alpha --arg beta=$beta --seed 5 > "$out/$name.alone.log" 2>&1 || rc=1
  cat "$out/$name.alone.log"
  timeout 300 "$ts" record --cuda-file $f --entry sgemm_blocktile_float4 --grid $grid --block 256 --m $m --n $n --k $k \
    --arg alpha=$alpha --arg beta=$beta --seed 5 -o "$tmp/$name.tstrace" > "$out/$name.record.log" 2>&1 || rc=1
  cat "$out/$name.record.log"
  if [[ -f $tmp/$name.tstrace ]]; then
    "$ts" stats "$tmp/$name.tstrace" > "$out/$name.stats.txt" 2>&1 || rc=1
    "$ts" stats "$tmp/$name.tstrace" --by-line > "$out/$name.by-line.txt" 2>&1
    [[ $m == 128 ]] && cp "$tmp/$name.tstrace" "$out/traces/"
  fi
done
# What the disassembler says of a -lineinfo cubin, and one raw tracer file: the format the SASS view reads.
nvcc -cubin -lineinfo -arch=sm_90 -o "$tmp/float4.cubin" $f && {
  command -v nvdisasm && nvdisasm -g -c "$tmp/float4.cubin" > "$out/nvdisasm-float4.txt" 2>&1
  command -v cuobjdump && cuobjdump -sass "$tmp/float4.cubin" > "$out/cuobjdump-float4.txt" 2>&1
}
TILESCOPE_TRACER_KEEP_RAW=1 "$ts" record --cuda-file $f --entry sgemm_blocktile_float4 --grid 2,2 --block 256 \
  --m 128 --n 128 --k 64 --arg alpha=1 --arg beta=0 --seed 5 -o "$out/traces/float4-raw.tstrace" > /dev/null 2>&1
for tool in memcheck racecheck; do
  compute-sanitizer --tool $tool --error-exitcode 99 "$ts" launch --cuda-file $f --entry sgemm_blocktile_float4 \
    --grid 2,2 --block 256 --m 128 --n 128 --k 64 --arg alpha=1 --arg beta=0 > "$out/float4.$tool.log" 2>&1
  echo "float4 $tool rc=$?" | tee -a "$out/summary.txt"
  tail -n 2 "$out/float4.$tool.log"
done

fi

if [[ " $sections " == *" 4 "* ]]; then
echo "== 4. bad input"
bad() {  # NAME EXPECTED-EXIT COMMAND...
  local name=$1 want=$2; shift 2
  "$@" > "$out/bad-$name.log" 2>&1
  local got=$?
  local verdict=ok; [[ $got -ne $want ]] && verdict=UNEXPECTED && rc=1
  printf 'bad %-16s exit %d (want %d) %s: %s\n' "$name" $got $want $verdict "$(grep -m1 tilescope: "$out/bad-$name.log")" \
    | tee -a "$out/summary.txt"
}
common=(--entry sgemm_blocktile_float4 --grid 2,2 --block 256 --m 128 --n 128 --k 64)
bad unknown-arg 2 "$ts" record --cuda-file $f "${common[@]}" --arg alpha=1 --arg beta=0 --arg gamma=3 -o "$tmp/x.tstrace"
bad missing-arg 2 "$ts" record --cuda-file $f "${common[@]}" --arg alpha=1 -o "$tmp/x.tstrace"
bad pointer-unbound 2 "$ts" record --cuda-file $f "${common[@]}" --arg alpha=1 --arg beta=0 --arg A=7 -o "$tmp/x.tstrace"
printf '__global__ void broken(float* C) {\n  C[0] = undefined_name;\n}\n' > "$tmp/broken.cu"
bad no-compile 4 "$ts" record --cuda-file "$tmp/broken.cu" --entry broken --grid 1 --block 1 --m 4 --n 4 --k 4 -o "$tmp/x.tstrace"
printf '__global__ void faulty(float* C) {\n  C[threadIdx.x * 1000000000ull] = 1.0f;\n}\n' > "$tmp/faulty.cu"
bad fault 5 "$ts" record --cuda-file "$tmp/faulty.cu" --entry faulty --grid 1 --block 32 --m 4 --n 4 --k 4 -o "$tmp/x.tstrace"
bad no-matrices 1 "$ts" record --exec --m 999 --n 7 --k 5 -o "$tmp/x.tstrace" -- "$BIN/tracer_plain_launch" 64 48 32 16 7
bad launches-nothing 1 "$ts" record --exec --m 4 --n 4 --k 4 -o "$tmp/x.tstrace" -- /bin/true
ls "$tmp"/x.tstrace* 2>/dev/null && { echo "a half-written file was left"; rc=1; }

fi

if [[ " $sections " == *" 2 "* ]]; then
echo "== 2. cuBLAS"
IFS=';' read -r -a runs <<< "${TILESCOPE_88_CUBLAS:-fp32 256 256 256;tf32 256 256 256;fp32 200 136 88;tf32 200 136 88;fp32 64 96 80;tf32 64 96 80}"
for run in "${runs[@]}"; do
  read -r math m n k <<< "$run"
  name=cublas-$math-${m}x${n}x${k}
  "$ts" launch --library cublas --math $math --m $m --n $n --k $k --seed 11 > "$out/$name.alone.log" 2>&1 || rc=1
  cat "$out/$name.alone.log"
  start=$(date +%s.%N)
  timeout 500 "$ts" record --library cublas --math $math --m $m --n $n --k $k --seed 11 --max-records $((1 << 26)) \
    --timeout 400 -o "$tmp/$name.tstrace" > "$out/$name.record.log" 2>&1 || rc=1
  echo "record exit $?, $(awk "BEGIN{print $(date +%s.%N) - $start}") s" >> "$out/$name.record.log"
  cat "$out/$name.record.log"
  if [[ -f $tmp/$name.tstrace ]]; then
    start=$(date +%s.%N)
    "$ts" stats "$tmp/$name.tstrace" > "$out/$name.stats.txt" 2>&1 || rc=1
    echo "stats (load + index + count): $(awk "BEGIN{print $(date +%s.%N) - $start}") s" >> "$out/$name.stats.txt"
    "$ts" stats "$tmp/$name.tstrace" --json > "$out/$name.stats.json" 2>&1
    "$ts" stats "$tmp/$name.tstrace" --by-line > "$out/$name.by-line.txt" 2>&1
    ls -l "$tmp/$name.tstrace" >> "$out/$name.stats.txt"
    [[ $m == 64 && $math == fp32 ]] && cp "$tmp/$name".*tstrace "$out/traces/"
    for more in "$tmp/$name".[0-9]*.tstrace; do  # the launches after the GEMM (split-k's reduction)
      [[ -f $more ]] && "$ts" stats "$more" > "$out/$(basename "$more" .tstrace).stats.txt" 2>&1
    done
  fi
  # cuBLAS beside the ladder's best recorded FP32 rung, same shape and inputs' sizes.
  if [[ $math == fp32 && $m == 256 && -f $tmp/$name.tstrace ]]; then
    "$ts" record --kernel warptile --m $m --n $n --k $k --device gpu --seed 11 -o "$tmp/warptile-256.tstrace" > /dev/null 2>&1
    "$ts" compare "$tmp/$name.tstrace" "$tmp/warptile-256.tstrace" > "$out/compare-cublas-warptile-256.txt" 2>&1 || rc=1
    head -n 30 "$out/compare-cublas-warptile-256.txt"
  fi
  if command -v ncu > /dev/null; then
    timeout 300 ncu --target-processes all --kernel-name-base mangled -k regex:gemm --csv --metrics \
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum,\
smsp__inst_executed_op_ldgsts.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_ldsm.sum \
      "$ts" launch --library cublas --math $math --m $m --n $n --k $k --seed 11 > "$out/$name.ncu.csv" 2>&1
    if [[ -f $out/$name.stats.json ]]; then
      echo "-- $name: the trace against Nsight Compute" | tee -a "$out/trace_vs_ncu.txt"
      python3 scripts/trace-vs-ncu.py "$out/$name.stats.json" "$out/$name.ncu.csv" 2>&1 | tee -a "$out/trace_vs_ncu.txt" || rc=1
    fi
  fi
done

fi

if [[ " $sections " == *" 1 "* ]]; then
echo "== 1. two recorders, one truth"
printf '%-18s %-10s %-9s %s\n' kernel shape verdict detail | tee "$out/two_recorders.txt"
for shape in ${TILESCOPE_88_SHAPES:-64x48x32 96x96x96 37x29x45}; do
  IFS=x read -r m n k <<< "$shape"
  for kernel in ${TILESCOPE_88_KERNELS:-naive naive-row tiled coarsened tiled-transposed tiled-padded blocktile-1d \
                blocktile-2d vectorized warptile double-buffer tf32-tensor-core}; do
    base=$tmp/$kernel-$shape
    if ! "$ts" record --kernel $kernel --tile 16 --m $m --n $n --k $k --device gpu --seed 7 -o "$base.inst.tstrace" \
        > "$base.inst.log" 2>&1; then
      printf '%-18s %-10s %-9s %s\n' $kernel $shape refused "$(tail -n 1 "$base.inst.log")" | tee -a "$out/two_recorders.txt"
      continue
    fi
    if ! timeout 300 "$ts" record --tracer --kernel $kernel --tile 16 --m $m --n $n --k $k --seed 7 \
        --max-records $((1 << 26)) -o "$base.traced.tstrace" > "$base.traced.log" 2>&1; then
      rc=1
      printf '%-18s %-10s %-9s %s\n' $kernel $shape FAILED "$(tail -n 1 "$base.traced.log")" | tee -a "$out/two_recorders.txt"
      cp "$base.traced.log" "$out/"
      continue
    fi
    "$BIN/tracer_trace_compare" "$base.inst.tstrace" "$base.traced.tstrace" > "$base.compare.log" 2>&1
    c=$?
    verdict=EQUAL; [[ $c -ne 0 ]] && verdict=DIFFERENT && rc=1
    # The compare's verdict line says how they are equal (per thread, or per warp for ldmatrix).
    printf '%-18s %-10s %-9s %s; %s\n' $kernel $shape $verdict "$(grep -m1 -E '^events' "$base.compare.log")" \
      "$(tail -n 1 "$base.compare.log")" | tee -a "$out/two_recorders.txt"
    [[ $c -ne 0 ]] && cp "$base.compare.log" "$out/compare-$kernel-$shape.log"
    [[ $shape == 64x48x32 ]] && cp "$base.traced.log" "$out/traced-$kernel-$shape.log"
    # Shared requests as written (the instrumented recorder's per-element events, merged by the
    # counters' "as compiled" model) and as the hardware ran them (the tracer sees LDS.128 as one access).
    if [[ $shape == 96x96x96 ]]; then
      "$ts" stats "$base.inst.tstrace" --json > "$base.inst.json" 2>/dev/null
      "$ts" stats "$base.traced.tstrace" --json > "$base.traced.json" 2>/dev/null
      python3 - "$base.inst.json" "$base.traced.json" $kernel <<'PY' | tee -a "$out/shared_as_compiled.txt"
import json, sys
i, t = (json.load(open(p)) for p in sys.argv[1:3])
print(f"{sys.argv[3]:18} shared load requests: instrumented {i['shared_load_requests']} as written, "
      f"{i['shared_load_requests_compiled']} as compiled (model); traced {t['shared_load_requests']} "
      f"-> {'model = traced' if i['shared_load_requests_compiled'] == t['shared_load_requests'] else 'DIFFERENT'}")
PY
    fi
  done
done

fi

if [[ " $sections " == *" 5 "* ]]; then
echo "== 5. speed"
{
  for i in 1 2 3; do /usr/bin/time -f "plain launch (process) %e s" "$ts" launch --library cublas --m 256 --n 256 --k 256 --seed 3 > /dev/null; done
  for i in 1 2 3; do /usr/bin/time -f "record --library cublas 256^3 %e s" "$ts" record --library cublas --m 256 --n 256 --k 256 --seed 3 --max-records $((1 << 26)) -o "$tmp/speed.tstrace" > /dev/null; done
  for i in 1 2 3; do /usr/bin/time -f "stats (load + index) %e s" "$ts" stats "$tmp/speed.tstrace" > /dev/null; done
  for i in 1 2 3; do /usr/bin/time -f "tracer_plain_launch alone %e s" "$BIN/tracer_plain_launch" 256 256 256 16 7 > /dev/null; done
  for i in 1 2 3; do /usr/bin/time -f "record --exec tracer_plain_launch 256^3 %e s" "$ts" record --exec --m 256 --n 256 --k 256 --max-records $((1 << 26)) -o "$tmp/speed2.tstrace" -- "$BIN/tracer_plain_launch" 256 256 256 16 7 > /dev/null; done
} 2>&1 | tee "$out/speed.txt"

fi

if [[ " $sections " == *" 6 "* ]]; then
echo "== 6. Triton"
if python3 -c 'import triton, torch' 2> /dev/null; then
  python3 examples/triton/matmul.py 128 > "$out/triton.alone.log" 2>&1
  cat "$out/triton.alone.log"
  PYTORCH_NO_CUDA_MEMORY_CACHING=1 timeout 400 "$ts" record --exec --m 128 --n 128 --k 128 --kernel-name matmul \
    --timeout 300 -o "$tmp/triton.tstrace" -- python3 examples/triton/matmul.py 128 > "$out/triton.record.log" 2>&1
  echo "triton record exit $?" >> "$out/triton.record.log"
  cat "$out/triton.record.log"
  [[ -f $tmp/triton.tstrace ]] && "$ts" stats "$tmp/triton.tstrace" > "$out/triton.stats.txt" 2>&1
else
  echo "no Triton (or no torch) here" | tee "$out/triton.alone.log"
fi

fi

rm -rf "$tmp"
exit $rc
