#!/usr/bin/env python3
"""A traced launch's global requests and sectors (`tilescope stats --json`)
beside Nsight Compute's for the same launch (`ncu --csv --metrics
l1tex__t_{requests,sectors}_pipe_lsu_mem_global_op_{ld,st}.sum`).

    trace-vs-ncu.py STATS.json NCU.csv [KERNEL-SUBSTRING]

Prints one row per metric and exits 1 when any differs. ncu's first launch
whose name contains KERNEL-SUBSTRING (default: the first it profiled) is used.
"""
import csv
import json
import sys

PAIRS = [
    ("global_load_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
    ("global_load_sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
    ("global_store_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"),
    ("global_store_sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
]


def ncu_metrics(path, kernel):
    with open(path) as f:
        rows = [line for line in f if line.startswith('"')]
    metrics, launch = {}, None
    for row in csv.DictReader(rows):
        if kernel and kernel not in row["Kernel Name"]:
            continue
        if launch is None:
            launch = row["ID"]
        if row["ID"] != launch:
            continue
        value = row["Metric Value"].replace(",", "")
        metrics[row["Metric Name"]] = None if value in ("", "n/a") else float(value)
    return metrics


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    stats = json.load(open(sys.argv[1]))
    ncu = ncu_metrics(sys.argv[2], sys.argv[3] if len(sys.argv) == 4 else "")
    if not ncu:
        sys.exit("no matching launch in " + sys.argv[2])
    differ = 0
    for ours, theirs in PAIRS:
        a, b = stats.get(ours), ncu.get(theirs)
        same = a is not None and b is not None and float(a) == b
        differ += not same
        print(f"{ours:24} trace {a!s:>12}  ncu {b!s:>12}  {'equal' if same else 'DIFFERENT'}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
