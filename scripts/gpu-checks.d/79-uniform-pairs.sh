#!/usr/bin/env bash
# The uniform-pair rule of vector shared loads (app/core/analysis/
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
# Quarter-warp phases alone would give 4.000 for all four; pairing by lane ^ 1
# alone 3.333, 2.667, 3.000, 3.000.
# Then shared_wavefront_probe (built with -DTILESCOPE_LADDER_TUNE=ON): lane
# patterns no recorded kernel shows (64-bit loads in pairs, an inactive lane
# of a pair, a paired load with bank conflicts, a 128-bit store of one
# address), one launch each, the model's wavefronts per instruction against
# Nsight's. Writes uniform_pairs.csv (ncu's CSV, every kernel),
# uniform_pairs.txt, shared_wavefront_probe.{log,csv,txt}.
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
rc=${PIPESTATUS[0]}

probe=$BIN/shared_wavefront_probe
if [[ ! -x $probe ]]; then
  echo "shared_wavefront_probe was not built (-DTILESCOPE_LADDER_TUNE=ON): skipped"
  exit "$rc"
fi
"$probe" > "$results/shared_wavefront_probe.log" 2>&1 || { cat "$results/shared_wavefront_probe.log"; exit 1; }
probe_metrics=$metrics,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum
probe_metrics+=,smsp__inst_executed_op_ldgsts.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum
ncu --csv --print-units base --clock-control none --metrics "$probe_metrics" -k regex:probe "$probe" \
  > "$results/shared_wavefront_probe.csv" 2> "$results/shared_wavefront_probe.ncu.log"
python3 - "$results/shared_wavefront_probe.log" "$results/shared_wavefront_probe.csv" <<'PY' | tee "$results/shared_wavefront_probe.txt"
import csv, re, sys
model = {}
for line in open(sys.argv[1]):
    m = re.match(r"probe<(\d+)> (\S+)\s+(\d+)-byte (\w+)\s+model\s+(\d+) wavefronts", line)
    if m:
        model[int(m[1])] = (m[2], int(m[3]), m[4], int(m[5]))
rows = [r for r in csv.reader(open(sys.argv[2])) if r and not r[0].startswith("==")]
head = next(i for i, r in enumerate(rows) if "Metric Name" in r)
launches = {}
for r in rows[head + 1:]:
    d = dict(zip(rows[head], r))
    p = int(re.search(r"probe<(\d+)>", d["Kernel Name"])[1])
    launches.setdefault(p, {})[d["Metric Name"]] = float(d["Metric Value"].replace(",", ""))
bad = 0
for p, (name, width, op, want) in sorted(model.items()):
    m = launches.get(p, {})
    if op == "copy":  # cp.async: ncu's LDGSTS wavefronts; the model counts the shared write as a store
        inst = m.get("smsp__inst_executed_op_ldgsts.sum", 0)
        wave = m.get("smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum", 0)
    else:
        side = "st" if op == "store" else "ld"
        inst = m.get(f"smsp__sass_inst_executed_op_shared_{side}.sum", 0)
        wave = m.get(f"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_{side}.sum", 0)
    got = wave / inst if inst else float("nan")
    ok = abs(got - want) < 0.0005
    verdict = "ok" if ok else "DIFFERS"
    if op == "copy":
        verdict = "measured (copies are not checked: " + ("as the store" if ok else "not as the store") + ")"
    else:
        bad += not ok
    print(f"{name:22} {width:2}-byte {op:5} {inst:10.0f} instructions {wave:10.0f} wavefronts  {got:6.3f} per "
          f"instruction, the model {want}  {verdict}")
if len(launches) != len(model):
    print(f"ncu profiled {len(launches)} launches, the probe ran {len(model)}")
    bad += 1
sys.exit(1 if bad else 0)
PY
[[ ${PIPESTATUS[0]} -eq 0 ]] || rc=1
exit "$rc"
