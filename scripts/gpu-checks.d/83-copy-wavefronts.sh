#!/usr/bin/env bash
# cp.async's shared writes over many lane patterns (bench/copy_wavefront_sweep,
# built with -DTILESCOPE_LADDER_TUNE=ON): Nsight Compute's LDGSTS wavefronts
# per instruction next to the store model's, one launch a pattern. For 4- and
# 8-byte copies it checks the rule measured on an H100 (docs/memory-analysis.md,
# "A sweep of copy patterns"): a phase (the warp for 4 bytes, a half-warp for
# 8) takes one wavefront per 128-byte source line its lanes read, plus the
# store model's ways less one; it fails where a pattern differs, where a
# pattern's copies are wrong, or where ncu fails. 16-byte copies are listed
# (no rule is known for them). Writes copy_wavefronts.{log,csv,txt}.
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
from collections import defaultdict
names, rule = {}, {}
for line in open(sys.argv[1]):
    if line.startswith("sweep "):
        parts = [p.strip() for p in line.split("|")]
        index, name = int(parts[0].split()[1]), parts[1]
        names[index] = (name, parts[2])
        width = int(name.split()[0][1:])
        dst, src = list(map(int, parts[3].split()[1:])), list(map(int, parts[4].split()[1:]))
        if width in (4, 8):  # per phase: source lines + the worst bank's distinct words - 1
            per = 32 if width == 4 else 16
            total = 0
            for first in range(0, 32, per):
                lanes = range(first, first + per)
                banks = defaultdict(set)
                for l in lanes:
                    for e in range(width // 4):
                        word = dst[l] // 4 + e
                        banks[word % 32].add(word)
                total += len({src[l] // 128 for l in lanes}) + max(len(b) for b in banks.values()) - 1
            rule[index] = total
rows = [r for r in csv.reader(open(sys.argv[2])) if r and not r[0].startswith("==")]
head = next(i for i, r in enumerate(rows) if "Metric Name" in r)
launches = {}
for r in rows[head + 1:]:
    d = dict(zip(rows[head], r))
    launches.setdefault(int(d["ID"]), {})[d["Metric Name"]] = float(d["Metric Value"].replace(",", ""))
bad = checked = differ = 0
for i, key in enumerate(sorted(launches)):
    m = launches[key]
    inst = m.get("smsp__inst_executed_op_ldgsts.sum", 0)
    wave = m.get("smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum", 0)
    conf = m.get("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum", float("nan"))
    name, model = names.get(i, ("?", "?"))
    got = wave / inst if inst else float("nan")
    verdict = "(no rule for 16 bytes)"
    if i in rule:
        checked += 1
        ok = abs(got - rule[i]) < 0.0005
        differ += not ok
        verdict = f"rule {rule[i]:2} {'ok' if ok else 'DIFFERS'}"
    print(f"{i:3} {name:42} {got:7.3f} wavefronts per copy  {conf / inst if inst else float('nan'):7.3f} conflicts  "
          f"({model})  {verdict}")
if len(launches) != len(names):
    print(f"ncu profiled {len(launches)} launches, the sweep ran {len(names)}")
    bad += 1
print(f"4- and 8-byte copies: {checked - differ} of {checked} as the rule gives")
sys.exit(1 if bad or differ else 0)
PY
[[ ${PIPESTATUS[0]} -eq 0 ]] || exit 1
exit 0
