#!/usr/bin/env bash
# Call 65: B's rows off 16 bytes read in place, shifted (16-byte copies of the aligned float4 around each row, the
# fragments read as words from the row's shift): fp32_best_test, memcheck on every case, racecheck on the shifted
# ones; fp32_tune at call 64's shapes by the rule's bound (now shifted where it was words), and at every m in place
# or padded, beside a few aligned shapes to see the aligned kernels unchanged.
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/fp32_tune" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
timeout 100 "$BIN/fp32_best_test" > "$R/fp32_best_test.log" 2>&1; step fp32_best_test $?; tail -n 1 "$R/fp32_best_test.log"
grep -E "FAILED|Failure" "$R/fp32_best_test.log" | head -20
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 99 "$BIN/fp32_best_test" \
  --gtest_filter='EveryPlan/*' > "$R/sanitizer_memcheck.log" 2>&1; step memcheck $?
tail -n 2 "$R/sanitizer_memcheck.log"
F=""
for t in 32x128 64x64_k16 64x128 128x256_k16; do F+="*/${t}_split_3_131x133x301:*/${t}_3x1x7:"; done
F+="*/128x128_k16_stream_k_37x29x45:*/128x64_45x131x90"
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 99 "$BIN/fp32_best_test" --gtest_filter="$F" \
  > "$R/sanitizer_racecheck.log" 2>&1; step racecheck $?; tail -n 2 "$R/sanitizer_racecheck.log"
SMALL="158x1438x5376 264x3301x3952 267x1679x4607 408x4437x2241 440x2130x3502 240x1351x6234 280x5914x2839 390x5025x2950 430x4385x588 160x1440x5376 264x3304x3952"
LARGE="909x3986x321 1510x5237x276 2150x1545x325 4300x2089x392 2789x187x3802 5380x179x5573 2412x6125x447 6240x5159x273"
plans=()
for t in "32x128" "64x64 k16" "64x128" "128x64"; do
  plans+=("--plan=$t")
  for s in 2 3 4 6 8 12 16; do plans+=("--plan=$t split $s"); done
done
sk=("--plan=32x128 stream-k" "--plan=64x64 k16 stream-k" "--plan=64x128 stream-k" "--plan=128x64 stream-k" "--plan=128x128 k16 stream-k" "--plan=rule")
tune() { local name=$1; shift; timeout 200 "$BIN/fp32_tune" --runs=10 "$@" > "$R/$name.log" 2>&1; step "$name" $?; }
tune small-shifted $SMALL "${plans[@]}" "${sk[@]}"
tune large-shifted $LARGE --b-in-place=always
tune large-padded $LARGE --b-in-place=never
tune small-padded $SMALL "${plans[@]}" "${sk[@]}" --b-in-place=never
tune aligned 2048x2048x2048 4096x4096x4096 1024x1024x1024 3000x5000x2000 --plan=rule
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
M="l1tex__t_sector_hit_rate.pct,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_mio_throttle.ratio,smsp__average_warp_latency_issue_stalled_short_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_barrier.ratio,smsp__inst_executed.sum,gpu__time_duration.sum"
for p in "32x128 split 4" "64x64 k16 split 4"; do
  timeout 60 "$NCU" --metrics "$M" -k regex:fp32_any --launch-count 1 "$BIN/fp32_tune" --runs=1 264x3301x3952 "--plan=$p" \
    > "$R/ncu-${p// /_}.log" 2>&1; step "ncu $p" $?
done
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
