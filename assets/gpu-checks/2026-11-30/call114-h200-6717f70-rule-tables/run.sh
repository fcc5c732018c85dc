#!/usr/bin/env bash
# Call 114: tables for the rules at the drawn misses of calls 111-113 (no code change): tf32_ws_tune, every plan of
# the tiles in pairs (the eight the rule weighs and the unruled 128x128 s3 2/sm), at 13 aligned shapes where
# tf32-wgmma-ws missed 90%; fp32_tune, every plan, at the 32 shapes where fp32-best was lowest in calls 112-113.
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
TF=(4240x1524x4596 1836x772x2880 3072x768x5248 2712x3676x208 5760x2560x512 848x5112x4816 3340x3864x672
  1408x512x2176 394x5372x4684 3960x3312x688 1668x5776x556 4172x3288x336 896x1152x1792)
timeout 150 "$BIN/tf32_ws_tune" "${TF[@]}" --runs=20 --only=cn2 --only=cm2 --only=rule > "$R/ws_tune.log" 2>&1
step ws_tune $?
FP=(5285x362x888 2605x365x3595 2117x3517x507 1837x381x5325 2500x3897x136 5589x138x3439 1420x335x5263 2097x255x2185
  2842x999x448 3347x6077x152 5084x4211x130 3225x317x3540 2695x3025x468 414x4450x1544 4446x143x5268 4896x2851x166
  472x1497x2712 6422x296x3288 1563x257x6495 1952x6410x274 256x1935x5852 2784x331x3471 6244x1161x282 600x3188x676
  5524x2625x438 1280x640x3072 428x5549x4244 560x3688x2796 984x2056x1824 3236x304x4476 354x5128x868 3960x1028x3808)
for i in 0 1 2 3; do
  left=$((560 - SECONDS)); ((left < 30)) && { echo "fp32_tune $i not started" | tee -a "$R/steps.txt"; continue; }
  timeout $((left < 130 ? left : 130)) "$BIN/fp32_tune" "${FP[@]:$((i * 8)):8}" --runs=10 > "$R/fp32_tune_$i.log" 2>&1
  step "fp32_tune $i" $?
done
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
