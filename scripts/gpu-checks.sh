#!/usr/bin/env bash
# gpu-checks.sh OUTDIR [NAME...] — run the GPU checks on a GPU server with the
# executables that gpu-build.sh gathered in .gpu-bin/. Each check is a script
# in scripts/gpu-checks.d/ (run in name order, or only the NAMEs given); it
# finds the executables in $BIN and writes logs and results under $RESULTS
# (OUTDIR/gpu-results, written as each check runs, so that a run cut short
# keeps what it did), with a summary printed last and kept in summary.txt.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: gpu-checks.sh OUTDIR [NAME...]}
shift
export BIN=$PWD/.gpu-bin
mkdir -p "$out"
export RESULTS=$(cd "$out" && pwd)/gpu-results
mkdir -p "$RESULTS"
{
  echo "commit: $(cat "$BIN/COMMIT" 2>/dev/null)"
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=name,uuid,serial,pci.bus_id,driver_version,clocks.max.sm,clocks.sm,clocks.mem,memory.total --format=csv
} > "$RESULTS/machine.txt" 2>&1
summary=()
for script in scripts/gpu-checks.d/*.sh; do
  name=$(basename "$script" .sh)
  if (($#)) && [[ ! " $* " == *" ${name#*-} "* && ! " $* " == *" $name "* ]]; then continue; fi
  echo "=== $name ==="
  start=$SECONDS
  bash "$script" > "$RESULTS/$name.log" 2>&1
  rc=$?
  tail -n 15 "$RESULTS/$name.log"
  summary+=("$(printf '%-28s rc=%-3d %4ds' "$name" "$rc" $((SECONDS - start)))")
  printf '%s\n' "${summary[-1]}" >> "$RESULTS/summary.txt"
done
echo "=== summary ==="
cat "$RESULTS/machine.txt"
printf '%s\n' "${summary[@]}"
