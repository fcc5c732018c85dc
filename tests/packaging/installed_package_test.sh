#!/usr/bin/env bash
# installed_package_test.sh DEB OUTDIR — the Debian package as a user gets it:
# `apt-get install ./tilescope_*.deb`, then the installed /usr/bin/tilescope run
# from an empty directory (no source tree in sight) in a window on a virtual X
# server, at TILE 32. Its screenshot (OUTDIR/installed_strip_t32.png) and the
# layout it writes beside it must show the occupancy strip with figures, from
# the compiler data shipped in the package: seed 001's RTX 5070 Ti at one block
# per SM and 67%, the H100 at two blocks and 100%. The package is removed after.
# Needs root (apt), xvfb-run and python3; run by scripts/test.sh.
set -euo pipefail
deb=$(realpath "${1:?usage: installed_package_test.sh DEB OUTDIR}")
out=$(mkdir -p "${2:?usage: installed_package_test.sh DEB OUTDIR}" && cd "$2" && pwd)
if [[ $(id -u) -ne 0 ]]; then
  echo "installed_package_test: SKIPPED: installing the package needs root"
  exit 0
fi
if dpkg-query -W -f='${Status}' tilescope 2>/dev/null | grep -q "install ok installed"; then
  echo "installed_package_test: a tilescope package is installed already; not replacing it" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -qq --no-install-recommends "$deb" > "$out/apt.log" 2>&1 || { cat "$out/apt.log"; exit 1; }
trap 'apt-get remove -y -qq tilescope > /dev/null 2>&1 || true' EXIT
work=$(mktemp -d)
cd "$work"
[[ $(command -v tilescope) == /usr/bin/tilescope ]] || { echo "installed_package_test: tilescope is not /usr/bin/tilescope"; exit 1; }
tilescope --version

# The command line first: no --registers, figures from the shipped data.
tilescope occupancy --gpu rtx5070ti --kernel tiled --tile 32 --json > "$out/installed_occupancy_rtx5070ti.json"

# The window: the default scene at TILE 32 (the toggle's other side).
HOME=$work xvfb-run -a -s "-screen 0 1280x720x24" tilescope --tile 32 --window 1280x720 \
  --screenshot "$out/installed_strip_t32.png" --layout-json "$out/installed_strip_t32.json" --quit-after-frames 5 \
  > "$out/installed_app.log" 2>&1 || { cat "$out/installed_app.log"; exit 1; }

python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
cli = json.load(open(f"{out}/installed_occupancy_rtx5070ti.json"))
assert cli["blocks_per_sm"] == 1 and abs(cli["occupancy"] - 2 / 3) < 1e-9, cli
assert "shipped data" in cli["resources"]["source"], cli["resources"]["source"]
layout = json.load(open(f"{out}/installed_strip_t32.json"))
strip = layout.get("occupancy_strip")
assert strip, "the layout has no occupancy strip: the controls panel was not drawn"
assert strip["kernel"] == "tiled" and strip["tile"] == 32, strip
rows = {r["gpu"]: r for r in strip["rows"]}
want = {"rtx5070ti": (1, 2 / 3), "h100": (2, 1.0)}
for gpu, (blocks, occupancy) in want.items():
    r = rows.get(gpu)
    assert r and r["has_figures"], f"the strip shows no figures for {gpu}: {strip}"
    assert r["blocks_per_sm"] == blocks and abs(r["occupancy"] - occupancy) < 1e-9, r
assert "ptxas of nvcc" in strip["registers_from"] and "shipped data" in strip["registers_from"], strip
print("installed_package_test: the strip at TILE 32:",
      ", ".join(f"{g} {rows[g]['blocks_per_sm']} block(s)/SM {100 * rows[g]['occupancy']:.0f}%" for g in want),
      "|", strip["registers_from"])
PY
# The screenshot itself: a PNG of the window's size.
python3 - "$out/installed_strip_t32.png" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h = struct.unpack(">II", data[16:24])
assert (w, h) == (1280, 720), (w, h)
PY
echo "installed_package_test: passed ($out/installed_strip_t32.png)"
