#!/usr/bin/env bash
# Call 69: is the padded copy still ahead of the shifted kernels past m = 640 (the multi-block tiles' bound on
# reading B in place)? fp32_tune at 11 drawn misses with n % 4 != 0 and m from 909 to 4300: the five shifted tiles'
# plans (unsplit, split 2-8, stream-k) and the rule's pick, B in place at every m, then padded at every m.
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
S=(909x3986x321 1510x5237x276 1582x462x2222 1256x361x4064 3047x371x3600 2741x4275x414 1777x6283x308 1655x6075x337 1878x1485x430 2150x1545x325 4300x2089x392)
P=()
for t in "64x128" "128x256 k16" "128x64" "64x64 k16" "32x128"; do
  P+=(--plan="$t" --plan="$t stream-k")
  for s in 2 3 4 5 6 7 8; do P+=(--plan="$t split $s"); done
done
for how in always never; do
  timeout 150 "$BIN/fp32_tune" "${S[@]}" "${P[@]}" --plan=rule --runs=10 --b-in-place=$how > "$R/in_place_$how.log" 2>&1
  step "$how" $?
done
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
