#!/usr/bin/env bash
# The trace names what the kernel has (issue: buffers and shared regions), on
# the GPU:
#  1. examples/kernels/staged_output.cu (regions sa, sb and a staged output
#     tile sc) records on the GPU through NVRTC, C right (exit 0), and its
#     trace names the three regions; `stats --json` keys them by name
#     (user_kernel_gpu_test holds its events to the emulator's, one by one);
#  2. the same recording under compute-sanitizer memcheck: no error;
#  3. a kernel whose loop never ends (tests/kernels/data/endless_loop.cu) is
#     abandoned at --timeout 3: exit 7, the message says so, and the process
#     ends within the compile + 3 s + 5 s.
# Writes $RESULTS/trace_model/: staged.json (its stats), *.log.
set -uo pipefail
rc=0
out=$RESULTS/trace_model
mkdir -p "$out"
export TILESCOPE_INCLUDE_DIR=$PWD/include TILESCOPE_SOURCE_TREE=$PWD
export TILESCOPE_CACHE_DIR=$(mktemp -d)
tmp=$(mktemp -d)

"$BIN/tilescope" record --kernel-file examples/kernels/staged_output.cu --entry matmul_staged --block 8x8 -D TILE=8 \
  --m 37 --n 29 --k 45 --device gpu -o "$tmp/staged.tstrace" > "$out/staged_record.log" 2>&1 || rc=1
cat "$out/staged_record.log"
"$BIN/tilescope" stats "$tmp/staged.tstrace" --json > "$out/staged.json" || rc=1
for name in sa sb sc; do
  grep -q "\"name\": \"$name\"" "$out/staged.json" || { echo "86: region $name missing from the trace"; rc=1; }
done
grep -E '"shared_(load|store)_(requests|wavefronts)"|"shared_bank_conflicts_(load|store)"' "$out/staged.json"

compute-sanitizer --tool memcheck --error-exitcode 99 \
  "$BIN/tilescope" record --kernel-file examples/kernels/staged_output.cu --entry matmul_staged --block 8x8 -D TILE=8 \
  --m 37 --n 29 --k 45 --device gpu -o "$tmp/staged_memcheck.tstrace" > "$out/staged_memcheck.log" 2>&1 || rc=1
tail -n 2 "$out/staged_memcheck.log"

start=$SECONDS
"$BIN/tilescope" record --kernel-file tests/kernels/data/endless_loop.cu --entry matmul_endless --block 8x8 \
  --size 64 --device gpu --timeout 3 -o "$tmp/endless.tstrace" > "$out/endless.log" 2>&1
status=$?
took=$((SECONDS - start))
cat "$out/endless.log"
echo "endless loop on the GPU: exit $status after $took s"
((status == 7)) || { echo "86: expected exit 7"; rc=1; }
grep -q "abandoned" "$out/endless.log" || { echo "86: the message does not say the launch was abandoned"; rc=1; }
[[ ! -e $tmp/endless.tstrace ]] || { echo "86: a file was written"; rc=1; }
((took <= 30)) || { echo "86: took $took s"; rc=1; }
exit $rc
