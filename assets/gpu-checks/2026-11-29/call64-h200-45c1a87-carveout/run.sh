#!/usr/bin/env bash
# Call 64: where B's rows are off 16 bytes, do the words kernels gain from more L1? fp32_tune at misaligned
# shapes (aligned neighbours beside them) by the default kernels, the 4-stage tiles in 3 stages, and the words
# kernels under three shared-memory carveouts; at larger m, the padded copy against words. Nsight Compute: the
# carveout the driver picks, L1 hit rate and stalls of one words launch by each way.
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
SMALL="158x1438x5376 264x3301x3952 267x1679x4607 408x4437x2241 440x2130x3502 240x1351x6234 280x5914x2839 390x5025x2950 430x4385x588 160x1440x5376 264x3304x3952"
LARGE="909x3986x321 1510x5237x276 2150x1545x325 4300x2089x392 2789x187x3802"
plans=()
for t in "32x128" "64x64 k16" "64x128" "128x64"; do
  plans+=("--plan=$t")
  for s in 2 3 4 6 8 12 16; do plans+=("--plan=$t split $s"); done
done
sk=("--plan=32x128 stream-k" "--plan=64x64 k16 stream-k" "--plan=64x128 stream-k" "--plan=128x64 stream-k" "--plan=rule")
tune() { local name=$1; shift; timeout 150 "$BIN/fp32_tune" --runs=10 "$@" > "$R/$name.log" 2>&1; step "$name" $?; }
tune small-default $SMALL "${plans[@]}" "${sk[@]}"
tune small-fewer $SMALL "${plans[@]}" "${sk[@]}" --words-fewer-stages
tune small-c100 $SMALL "${plans[@]}" --words-carveout=100
tune small-c71 $SMALL "${plans[@]}" --words-carveout=71
tune small-c57 $SMALL "${plans[@]}" --words-carveout=57
tune large-default $LARGE "${plans[@]}" "${sk[@]}"
tune large-words $LARGE "${plans[@]}" "${sk[@]}" --words-always
tune large-words-fewer $LARGE "${plans[@]}" "${sk[@]}" --words-always --words-fewer-stages
tune large-words-c71 $LARGE "${plans[@]}" --words-always --words-carveout=71
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
M="launch__shared_mem_config_size,launch__occupancy_limit_shared_mem,launch__occupancy_limit_registers,l1tex__t_sector_hit_rate.pct,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_mio_throttle.ratio,smsp__average_warp_latency_issue_stalled_lg_throttle.ratio,smsp__average_warp_latency_issue_stalled_barrier.ratio,gpu__time_duration.sum"
prof() { local name=$1; shift; timeout 90 "$NCU" --metrics "$M" -k regex:fp32_any --launch-count 1 "$BIN/fp32_tune" --runs=1 "$@" > "$R/ncu-$name.log" 2>&1; step "ncu-$name" $?; }
for p in "32x128 split 4" "64x64 k16 split 4" "64x128 split 4"; do
  tag=${p// /_}
  prof "$tag-default" 264x3301x3952 "--plan=$p"
  prof "$tag-fewer" 264x3301x3952 "--plan=$p" --words-fewer-stages
  prof "$tag-c71" 264x3301x3952 "--plan=$p" --words-carveout=71
  prof "$tag-aligned" 264x3304x3952 "--plan=$p"
done
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
