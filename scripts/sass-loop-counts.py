#!/usr/bin/env python3
"""sass-loop-counts.py FILE... [--match SUBSTRING...] — per kernel: the
instructions of its main loop (the backward branch whose body holds the most
FFMA and HMMA) by opcode class, and of the whole kernel. FILE is a CUDA object or
executable (its sm_90 SASS, through cuobjdump -sass: no GPU needed, but the
toolkit's cuobjdump) or a .ptx file (PTX classes named after the SASS they
become: fma.rn.f32 as FFMA, ld.shared.v4 as LDS.128, ...). Used to compare a
rung's single-source plain build with the kernel it replaced
(docs/ladder-notes.md)."""
import re
import subprocess
import shutil
import sys

CUOBJDUMP = shutil.which("cuobjdump") or "/usr/local/cuda/bin/cuobjdump"

CLASSES = ["FFMA", "HMMA", "LDSM", "LDS.128", "LDS.64", "LDS", "LDG.E.128", "LDG.E", "STS.128", "STS", "STG.E.128",
           "STG.E", "LDGSTS", "BAR", "total"]


def classify(op):
    # op: the mnemonic with its modifiers, e.g. LDS.U.128, LDG.E.128.CONSTANT, FFMA.FTZ
    base = op.split(".")[0]
    wide = ".128" in op
    if base == "LDS":
        return "LDS.128" if wide else ("LDS.64" if ".64" in op else "LDS")
    if base == "LDG":
        return "LDG.E.128" if wide else "LDG.E"
    if base == "STS":
        return "STS.128" if wide else "STS"
    if base == "STG":
        return "STG.E.128" if wide else "STG.E"
    if base in ("FFMA", "HMMA", "LDSM", "LDGSTS", "BAR"):
        return base
    return None


def parse(obj):
    out = subprocess.run([CUOBJDUMP, "-sass", obj], check=True, capture_output=True, text=True).stdout
    kernels, name, body = {}, None, []
    for line in out.splitlines():
        m = re.search(r"Function : (\S+)", line)
        if m:
            if name:
                kernels[name] = body
            name, body = m.group(1), []
            continue
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?);", line)
        if m and name:
            text = m.group(2).strip()
            text = re.sub(r"^@!?U?P\w+\s+", "", text)  # the predicate
            op = text.split()[0] if text else ""
            target = re.search(r"BRA\s+(?:`\(\.L_x_\d+\)|(0x[0-9a-f]+))", text)
            body.append((int(m.group(1), 16), op, int(target.group(1), 16) if target and target.group(1) else None))
    if name:
        kernels[name] = body
    return kernels


def classify_ptx(op):
    parts = op.split(".")
    base, wide = parts[0], "v4" in parts
    if op.startswith("fma.rn.f32"):
        return "FFMA"
    if op.startswith("mma.sync"):
        return "HMMA"
    if op.startswith("ldmatrix"):
        return "LDSM"
    if base == "ld" and "shared" in parts:
        return "LDS.128" if wide else ("LDS.64" if "v2" in parts else "LDS")
    if base == "ld" and "global" in parts:
        return "LDG.E.128" if wide else "LDG.E"
    if base == "st" and "shared" in parts:
        return "STS.128" if wide else "STS"
    if base == "st" and "global" in parts:
        return "STG.E.128" if wide else "STG.E"
    if op.startswith(("cp.async.ca.", "cp.async.cg.")):  # the copies, not commit_group or wait_group
        return "LDGSTS"
    if op.startswith("bar.sync") or op.startswith("barrier.sync"):
        return "BAR"
    return None


def parse_ptx(path):
    kernels, name, body, labels = {}, None, [], {}
    for line in open(path):
        m = re.match(r"(?:\.visible\s+)?\.entry\s+(\S+?)\(", line.strip())
        if m:
            name, body, labels = m.group(1), [], {}
            kernels[name] = body
            continue
        if name is None:
            continue
        text = line.strip()
        m = re.match(r"(\$L__\w+):", text)
        if m:
            labels[m.group(1)] = len(body)
            continue
        if not text.endswith(";") or text.startswith((".", "//")):
            continue
        text = re.sub(r"^@!?%p\d+\s+", "", text)
        op = text.split()[0]
        target = re.search(r"bra(?:\.uni)?\s+(\$L__\w+)", text)
        where = labels.get(target.group(1)) if target else None
        body.append((len(body), "BRA" if target else op, where, classify_ptx(op)))
    return kernels


def counts(instrs):
    if instrs and len(instrs[0]) == 4:  # PTX: classified while parsing
        c = dict.fromkeys(CLASSES, 0)
        for _, _, _, k in instrs:
            if k:
                c[k] += 1
            c["total"] += 1
        return c
    return sass_counts(instrs)


def sass_counts(instrs):
    c = dict.fromkeys(CLASSES, 0)
    for _, op, _ in instrs:
        k = classify(op)
        if k:
            c[k] += 1
        if op and op != "NOP":
            c["total"] += 1
    return c


def main_loop(instrs):
    def math(part):
        c = counts(part)
        return c["FFMA"] + c["HMMA"]

    best = []
    for x in instrs:
        addr, op, target = x[0], x[1], x[2]
        if op.startswith("BRA") and target is not None and target < addr:
            loop = [y for y in instrs if target <= y[0] <= addr]
            if math(loop) > math(best):
                best = loop
    return best


def main():
    args = sys.argv[1:]
    match = []
    if "--match" in args:
        i = args.index("--match")
        args, match = args[:i], args[i + 1:]
    print("kernel | scope | " + " | ".join(CLASSES))
    for obj in args:
        for name, instrs in (parse_ptx(obj) if obj.endswith(".ptx") else parse(obj)).items():
            if match and not any(m in name for m in match):
                continue
            demangled = subprocess.run(["c++filt", name], capture_output=True, text=True).stdout.strip()
            for scope, part in (("loop", main_loop(instrs)), ("kernel", instrs)):
                c = counts(part)
                print(f"{demangled[:90]} | {scope} | " + " | ".join(str(c[k]) for k in CLASSES))


if __name__ == "__main__":
    main()
