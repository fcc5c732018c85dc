#!/usr/bin/env bash
# The uniform-pair rule of 128-bit shared loads (app/core/analysis/
# bank_conflicts.h) on kernels the trace does not record: the benchmark's
# plain warp-tiled kernels, whose float4 fragment loads pair their lanes in
# other ways than the recorded rungs. One launch each at 1024^3 (`tilescope
# bench`), profiled with Nsight Compute's SASS-level shared-load instructions
# and wavefronts; their ratio against what the rule gives for the kernel's
# lane map (warp_tile.cuh, the listing's kernels/double_buffer.h):
#   double-buffer-before  LANE_MAP 1, 4 x 8 lanes of 16 x 8: A pairs l ^ 2, B l ^ 1   -> 2.000
#   double-buffer         the listing, 4 x 8 lanes row-major: A 2, B 4 (6 loads: 4 A, 2 B) -> 2.667
#   warptile-before       8 x 4 lanes row-major of 8 x 8: A 2, B 4                     -> 3.000
#   fp32-best             LANE_MAP 1 (its 64 x 128 tile at 1024^3)                       -> 2.000
# Quarter-warp phases alone would give 4.000, 3.333 (tuned), 3.000, 3.000.
# Writes uniform_pairs.csv (ncu's CSV, every kernel) and uniform_pairs.txt.
set -uo pipefail
results=${RESULTS:-${OUT:-.}}
if ! command -v ncu > /dev/null; then
  echo "ncu not found on PATH"
  exit 1
fi
metrics=smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
# kernel:expected:regex of its function's name
checks=(double-buffer-before:2.000:'double_buffer$' double-buffer:2.667:'double_buffer_listing$'
        warptile-before:3.000:'warptile_before$' fp32-best:2.000:'fp32_any$')
: > "$results/uniform_pairs.csv"
profile_all() {
  local rc=0
  for pair in "${checks[@]}"; do
    IFS=: read -r kernel expected regex <<< "$pair"
    ncu --csv --print-units base --clock-control none --metrics "$metrics" --launch-count 1 -k "regex:$regex" \
      "$BIN/tilescope" bench --kernels "$kernel" --size 1024 --no-ceilings --apart --runs 20 --warmup 1 --max-seconds 0.1 \
      > "$results/uniform_pairs_$kernel.csv" 2> "$results/uniform_pairs_$kernel.err"
    grep '^"' "$results/uniform_pairs_$kernel.csv" >> "$results/uniform_pairs.csv"
    python3 - "$results/uniform_pairs_$kernel.csv" "$kernel" "$expected" <<'PY' || rc=1
import csv, sys
path, kernel, expected = sys.argv[1], sys.argv[2], float(sys.argv[3])
rows = [r for r in csv.reader(open(path)) if r and r[0] != "" and not r[0].startswith("==")]
head = next(i for i, r in enumerate(rows) if "Metric Name" in r)
m = {}
name = ""
for r in rows[head + 1:]:
    d = dict(zip(rows[head], r))
    name = d["Kernel Name"]
    m[d["Metric Name"]] = float(d["Metric Value"].replace(",", ""))
inst = m.get("smsp__sass_inst_executed_op_shared_ld.sum", 0)
wave = m.get("smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 0)
ratio = wave / inst if inst else float("nan")
ok = abs(ratio - expected) < 0.0005
print(f"{kernel:22} {inst:12.0f} shared loads {wave:12.0f} wavefronts  {ratio:.3f} per load, the rule {expected:.3f}  "
      f"{'ok' if ok else 'DIFFERS'}  ({name[:70]})")
sys.exit(0 if ok else 1)
PY
  done
  return "$rc"
}
profile_all | tee "$results/uniform_pairs.txt"
exit "${PIPESTATUS[0]}"
