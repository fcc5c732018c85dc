# tracer-lib.bash — sourced by the tracer's GPU checks (87, 88), not run on its
# own: build_tracer DIR LOG builds the device patches and libtilescope_tracer.so
# from the checkout into DIR (libsanitizer-public.so exists only on the GPU
# machine) with nvcc and g++, and points TILESCOPE_TRACER_LIBRARY at them.
build_tracer() {
  local dir=$1 log=$2
  local san=${TILESCOPE_SANITIZER_DIR:-/usr/local/cuda/compute-sanitizer}
  local cuda=${CUDA_HOME:-/usr/local/cuda}
  local arch=${TILESCOPE_TRACER_ARCH:-90}
  echo "== build the tracer (Compute Sanitizer API at $san, sm_$arch)"
  "$cuda/bin/nvcc" --fatbin --compile-as-tools-patch -gencode "arch=compute_$arch,code=sm_$arch" \
    -I"$san/include" -I. -o "$dir/tilescope_tracer_patches.fatbin" tracer/patches/tracer_patches.cu \
    > "$log" 2>&1 || { echo "the patches do not build"; cat "$log"; return 1; }
  g++ -std=c++20 -O2 -Wall -Wextra -shared -fPIC -I. -I"$san/include" -I"$cuda/include" \
    tracer/inject/tracer_inject.cpp tracer/raw_file.cpp tracer/cubin_shared.cpp \
    -L"$san" -lsanitizer-public -Wl,-rpath,"$san" -L"$cuda/lib64/stubs" -lcuda -ldl \
    -o "$dir/libtilescope_tracer.so" >> "$log" 2>&1 \
    || { echo "libtilescope_tracer.so does not build"; cat "$log"; return 1; }
  export TILESCOPE_TRACER_LIBRARY=$dir/libtilescope_tracer.so
}
