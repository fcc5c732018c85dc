#!/usr/bin/env bash
# cp.async's shared writes over many lane patterns (bench/copy_wavefront_sweep,
# built with -DTILESCOPE_LADDER_TUNE=ON): Nsight Compute's LDGSTS wavefronts
# per instruction next to the store model's, one launch a pattern. Data for
# finding the rule, not a check: it fails only when a pattern's copies are
# wrong or ncu fails. Writes copy_wavefronts.{log,csv,txt}.
set -uo pipefail
results=${RESULTS:-${OUT:-.}}
sweep=$BIN/copy_wavefront_sweep
if [[ ! -x $sweep ]]; then
  echo "copy_wavefront_sweep was not built (-DTILESCOPE_LADDER_TUNE=ON): skipped"
  exit 0
fi
"$sweep" > "$results/copy_wavefronts.log" 2>&1 || { tail -n 5 "$results/copy_wavefronts.log"; exit 1; }
ncu --csv --print-units base --clock-control none \
  --metrics smsp__inst_executed_op_ldgsts.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum \
  -k regex:copy_sweep "$sweep" > "$results/copy_wavefronts.csv" 2> "$results/copy_wavefronts.ncu.log" || exit 1
python3 - "$results/copy_wavefronts.log" "$results/copy_wavefronts.csv" <<'PY' | tee "$results/copy_wavefronts.txt"
import csv, sys
names = {}
for line in open(sys.argv[1]):
    if line.startswith("sweep "):
        parts = [p.strip() for p in line.split("|")]
        names[int(parts[0].split()[1])] = (parts[1], parts[2])
rows = [r for r in csv.reader(open(sys.argv[2])) if r and not r[0].startswith("==")]
head = next(i for i, r in enumerate(rows) if "Metric Name" in r)
launches = {}
for r in rows[head + 1:]:
    d = dict(zip(rows[head], r))
    launches.setdefault(int(d["ID"]), {})[d["Metric Name"]] = float(d["Metric Value"].replace(",", ""))
for i, key in enumerate(sorted(launches)):
    m = launches[key]
    inst = m.get("smsp__inst_executed_op_ldgsts.sum", 0)
    wave = m.get("smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum", 0)
    conf = m.get("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum", float("nan"))
    name, model = names.get(i, ("?", "?"))
    print(f"{i:3} {name:42} {wave / inst if inst else float('nan'):7.3f} wavefronts per copy  "
          f"{conf / inst if inst else float('nan'):7.3f} conflicts  ({model})")
PY
exit 0
