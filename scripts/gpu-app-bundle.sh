#!/usr/bin/env bash
# gpu-app-bundle.sh — build the app itself (GUI + CUDA, sm_90) and bundle it
# with the few shared libraries a GPU server without a desktop lacks (GLFW,
# the X11 client libraries, glvnd's libEGL / libGL front ends) and its fonts,
# into .gpu-bin/app/. Run it after scripts/gpu-build.sh (which empties
# .gpu-bin). On the server, with no display, the app draws offscreen through
# the NVIDIA driver's EGL and records live on the GPU, e.g.
#   .gpu-bin/app/tilescope-app --device gpu --select-c 5,7 --step 3 --screenshot out.png --quit-after-frames 5
# (scripts/gpu-checks.d/50-app.sh runs exactly that.)
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-ui-gpu -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DTILESCOPE_GUI=ON -DTILESCOPE_CUDA=ON -DBoost_USE_STATIC_LIBS=ON -DTILESCOPE_TESTS=OFF
cmake --build build-ui-gpu -j"$(nproc)" --target tilescope

out=.gpu-bin/app
rm -rf "$out"
mkdir -p "$out/lib" "$out/fonts"
cp build-ui-gpu/app/cli/tilescope "$out/tilescope"

# Every shared library the app and the GL front ends need, except the C and
# C++ runtimes (the server's are newer, and compatible) and CUDA's own
# libraries (cuBLAS: the server's CUDA Toolkit has them).
runtime='^(linux-vdso|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so|ld-linux|libstdc\+\+\.so|libgcc_s\.so|libcu|libnv)'
front_ends=(libEGL.so.1 libGL.so.1 libGLX.so.0 libGLdispatch.so.0)  # opened at run time
copy_with_deps() {
  local path=$1
  cp -L "$path" "$out/lib/$(basename "$path")"
  ldd "$path" | awk '/=> \// {print $1, $3}' | while read -r name file; do
    [[ $name =~ $runtime || -e $out/lib/$name ]] && continue
    copy_with_deps "$file"
  done
}
ldd "$out/tilescope" | awk '/=> \// {print $1, $3}' | while read -r name file; do
  [[ $name =~ $runtime ]] || copy_with_deps "$file"
done
for name in "${front_ends[@]}"; do
  copy_with_deps "$(ldconfig -p | awk -v n="$name" '$1 == n && /x86-64/ {print $NF; exit}')"
done
cp /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf "$out/fonts/"

cat > "$out/tilescope-app" <<'WRAPPER'
#!/usr/bin/env bash
# The bundled app: its libraries and fonts first; the GPU driver's own (EGL,
# CUDA) from the system.
here=$(cd "$(dirname "$0")" && pwd)
cuda_libs=$(ls -d /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib 2>/dev/null | tr '\n' ':')
export LD_LIBRARY_PATH="$here/lib:${cuda_libs}${LD_LIBRARY_PATH:-}"
export TILESCOPE_FONT_DIR="$here/fonts"
exec "$here/tilescope" "$@"
WRAPPER
chmod +x "$out/tilescope-app"
git rev-parse HEAD > "$out/COMMIT"
du -sh "$out"
