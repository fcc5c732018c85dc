#!/usr/bin/env bash
# fuzz-bundle.sh — build the libFuzzer harnesses and bundle them for a machine
# that has none of our build packages: the long fuzzing run of the benchmark
# (bench/fuzz_long.sh) runs there from the bundle alone.
#   scripts/fuzz-bundle.sh [DEST]          (DEST: .fuzz-bin by default)
#   DEST/run.sh JOBS OUTDIR [EXECUTIONS]   (there: the figures land in OUTDIR)
# The harnesses (clang, libFuzzer, AddressSanitizer + UndefinedBehaviorSanitizer,
# assertions on, GUI on, CUDA off): tests/fuzz/fuzz_trace_loader.cpp (the
# loader and every consumer behind it) and tests/ui/fuzz_panels.cpp (every
# panel drawn headless). Beside them: every shared library they load that a
# bare glibc system lacks (ldd; the C++ runtime included), the seed corpus
# (make_fuzz_seeds' crafted files and tests/fuzz/corpus), fuzz_long.sh, COMMIT.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=${1:-.fuzz-bin}
build=${FUZZ_BUILD:-build-fuzz}
# No NDEBUG: ImGui's and the standard library's assertions stay on while fuzzing.
CC=clang CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -gline-tables-only" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -gline-tables-only" \
  -DTILESCOPE_CUDA=OFF -DTILESCOPE_GUI=ON -DTILESCOPE_SANITIZE=ON -DTILESCOPE_FUZZ=ON >/dev/null
cmake --build "$build" -j"$(nproc)" --target fuzz_trace_loader fuzz_panels make_fuzz_seeds

rm -rf "$dest"
mkdir -p "$dest/bin" "$dest/lib" "$dest/seeds"
harnesses=("$build/tests/fuzz/fuzz_trace_loader" "$build/tests/ui/fuzz_panels")
for h in "${harnesses[@]}"; do
  cp "$h" "$dest/bin/"
  strip --strip-debug "$dest/bin/$(basename "$h")"  # line tables only help a symbolizer the server lacks
done

# Shared libraries: everything ldd resolves except glibc itself (the server's
# own C library, loader and friends must be used).
glibc='^(linux-vdso|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so|libresolv\.so|libutil\.so|ld-linux)'
for h in "${harnesses[@]}"; do
  ldd "$h" | sed -n 's/^[[:space:]]*\([^ ]*\) => \(\/[^ ]*\) .*/\1 \2/p' | while read -r name file; do
    [[ $name =~ $glibc || -e $dest/lib/$name ]] && continue
    cp -L "$file" "$dest/lib/$name"
  done
done
strip --strip-unneeded "$dest"/lib/*.so* 2>/dev/null || true

"$build/tests/fuzz/make_fuzz_seeds" "$dest/seeds" >/dev/null
cp tests/fuzz/corpus/* "$dest/seeds/"
cp bench/fuzz_long.sh "$dest/fuzz_long.sh"
git rev-parse --short HEAD > "$dest/COMMIT"
echo "clang $(clang --version | head -1 | grep -o '[0-9][0-9.]*' | head -1), ASan + UBSan, libFuzzer" > "$dest/BUILD"

cat > "$dest/run.sh" <<'RUNNER'
#!/usr/bin/env bash
# run.sh JOBS OUTDIR [EXECUTIONS] — the long fuzzing run of tilescope's
# benchmark from this bundle: every harness, JOBS parallel jobs, EXECUTIONS
# in total (default 10 million); figures in OUTDIR/fuzz_long.json, logs and
# any crashing input under OUTDIR. Needs only glibc (x86-64 Linux, glibc 2.36 or newer).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export PATH=${PATH:-/usr/local/bin:/usr/bin:/bin}
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export FUZZ_BIN="$here/bin" FUZZ_SEEDS="$here/seeds" FUZZ_COMMIT="$(cat "$here/COMMIT")" FUZZ_BUILD_INFO="$(cat "$here/BUILD")"
exec bash "$here/fuzz_long.sh" "$@"
RUNNER
chmod +x "$dest/run.sh" "$dest/fuzz_long.sh"
du -sh "$dest"
