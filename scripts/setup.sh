#!/usr/bin/env bash
# setup.sh — install what tilescope needs from Debian 12's packages, only what
# is missing. Run as root. The CUDA Toolkit is optional: with it (at
# /usr/local/cuda) the GPU recorder and benchmark are built, without it the
# emulator alone.
set -euo pipefail

packages=(
  build-essential cmake pkg-config ccache git
  clang libclang-rt-14-dev          # the sanitizer and fuzzing build
  googletest libgtest-dev
  libboost-context-dev nlohmann-json3-dev libcli11-dev zlib1g-dev libzstd-dev
  libglfw3-dev libimgui-dev python3-glad libstb-dev libgl-dev
  xvfb xauth libgl1-mesa-dri fonts-dejavu-core
  dpkg-dev file                     # the Debian package: dpkg-shlibdeps, CPack
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  if [[ $(id -u) -ne 0 ]]; then
    echo "setup: run as root to install packages" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if [[ -x /usr/local/cuda/bin/nvcc ]]; then
  echo "setup: CUDA found: $(/usr/local/cuda/bin/nvcc --version | tail -2 | head -1)"
else
  echo "setup: no CUDA Toolkit at /usr/local/cuda: building the CPU emulator only"
fi
