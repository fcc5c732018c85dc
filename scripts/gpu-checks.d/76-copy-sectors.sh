#!/usr/bin/env bash
# Global sectors per request of a warp's 16-byte copies, by instruction
# (cp.async.cg, cp.async.ca, ld.global.v4) and by how its 512 bytes lie
# (copy_sectors_probe, built with -DTILESCOPE_LADDER_TUNE=ON; skipped with a
# message where it was not built), as Nsight Compute counts them: the
# question behind tf32-tensor-core's "unexplained" global load sectors
# (docs/memory-analysis.md). Every variant checks the data it copied first.
# Writes copy_sectors.csv (ncu's raw CSV), copy_sectors.txt (the table) and
# copy_sectors_probe.log under $RESULTS. In the table a launch is
# probe<KIND (0 cp.async.cg, 1 cp.async.ca, 2 ld.global.v4, 3 and 4: 0 and 1
# with a source size of `in ? 16 : 0`), ROW_BYTES, DOWN_FIRST, APART>.
set -uo pipefail
results=${RESULTS:-${OUT:-.}}
if [[ ! -x $BIN/copy_sectors_probe ]]; then
  echo "copy_sectors_probe was not built (-DTILESCOPE_LADDER_TUNE=ON): skipped"
  exit 0
fi
"$BIN/copy_sectors_probe" > "$results/copy_sectors_probe.log" 2>&1 || { cat "$results/copy_sectors_probe.log"; exit 1; }
cat "$results/copy_sectors_probe.log"
metrics=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
metrics+=,smsp__inst_executed_op_ldgsts.sum,smsp__inst_executed_op_global_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum
metrics+=,lts__t_requests_srcunit_tex_op_read.sum
ncu --clock-control none --csv --metrics "$metrics" "$BIN/copy_sectors_probe" > "$results/copy_sectors.csv" 2> "$results/copy_sectors.ncu.log"
rc=$?
# One row per launch: requests, sectors, sectors per request, L2 sectors and requests from L1TEX.
python3 - "$results/copy_sectors.csv" > "$results/copy_sectors.txt" <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if r]
head = next(i for i, r in enumerate(rows) if "Metric Name" in r)
cols = rows[head]
launches = {}
for r in rows[head + 1:]:
    d = dict(zip(cols, r))
    key = (d["ID"], d["Kernel Name"])
    launches.setdefault(key, {})[d["Metric Name"]] = float(d["Metric Value"].replace(",", ""))
print(f"{'launch':40} {'requests':>9} {'sectors':>10} {'per req':>7} {'L2 sectors':>11} {'L2 reqs':>9} {'LDGSTS':>8} {'LDG':>8}")
for (i, name), m in sorted(launches.items(), key=lambda x: int(x[0][0])):
    name = name.split("::")[-1].split("(")[0]  # probe<KIND, ROW_BYTES, DOWN_FIRST, APART>
    req = m.get("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", float("nan"))
    sec = m.get("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", float("nan"))
    print(f"{name[:40]:40} {req:9.0f} {sec:10.0f} {sec / req if req else float('nan'):7.2f} "
          f"{m.get('lts__t_sectors_srcunit_tex_op_read.sum', float('nan')):11.0f} "
          f"{m.get('lts__t_requests_srcunit_tex_op_read.sum', float('nan')):9.0f} "
          f"{m.get('smsp__inst_executed_op_ldgsts.sum', float('nan')):8.0f} "
          f"{m.get('smsp__inst_executed_op_global_ld.sum', float('nan')):8.0f}")
PY
cat "$results/copy_sectors.txt"
tail -n 5 "$results/copy_sectors.ncu.log"
exit $rc
