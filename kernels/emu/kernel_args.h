// kernel_args.h — what the emulator hands a kernel entry point: the matrices
// and the sizes. Its own header, because a user kernel's compiled wrapper
// (kernels/user/) is built against it outside tilescope's build.
#pragma once

namespace ts::emu {

struct KernelArgs {
  const float* a;
  const float* b;
  float* c;
  int m, n, k;
};
using KernelEntry = void (*)(const KernelArgs&);

}  // namespace ts::emu
