// dispatch.h — turn a run-time (kernel, TILE) into compile-time template
// arguments: dispatch(kind, tile, f) calls f.template operator()<KIND, TILE>().
// The naive kernels take their block edge at run time and get TILE = 0, so
// they are instantiated once; so do the ladder's rungs (fixed configurations).
#pragma once
#include <stdexcept>
#include <utility>

#include "kernels/kernel_kind.h"

namespace ts {

template <KernelKind KIND, class F>
decltype(auto) dispatch_tile(int tile, F&& f) {
  switch (tile) {
    case 2: return std::forward<F>(f).template operator()<KIND, 2>();
    case 4: return std::forward<F>(f).template operator()<KIND, 4>();
    case 8: return std::forward<F>(f).template operator()<KIND, 8>();
    case 16: return std::forward<F>(f).template operator()<KIND, 16>();
    case 32: return std::forward<F>(f).template operator()<KIND, 32>();
  }
  throw std::invalid_argument("TILE must be 2, 4, 8, 16 or 32");
}

template <class F>
decltype(auto) dispatch(KernelKind kind, int tile, F&& f) {
  switch (kind) {
    case KernelKind::Naive: return std::forward<F>(f).template operator()<KernelKind::Naive, 0>();
    case KernelKind::NaiveRow: return std::forward<F>(f).template operator()<KernelKind::NaiveRow, 0>();
    case KernelKind::Tiled: return dispatch_tile<KernelKind::Tiled>(tile, std::forward<F>(f));
    case KernelKind::Coarsened: return dispatch_tile<KernelKind::Coarsened>(tile, std::forward<F>(f));
    case KernelKind::TiledTransposed: return dispatch_tile<KernelKind::TiledTransposed>(tile, std::forward<F>(f));
    case KernelKind::TiledPadded: return dispatch_tile<KernelKind::TiledPadded>(tile, std::forward<F>(f));
    case KernelKind::Blocktile1d: return std::forward<F>(f).template operator()<KernelKind::Blocktile1d, 0>();
    case KernelKind::Blocktile2d: return std::forward<F>(f).template operator()<KernelKind::Blocktile2d, 0>();
    case KernelKind::Vectorized: return std::forward<F>(f).template operator()<KernelKind::Vectorized, 0>();
    case KernelKind::Warptile: return std::forward<F>(f).template operator()<KernelKind::Warptile, 0>();
    case KernelKind::DoubleBuffer: return std::forward<F>(f).template operator()<KernelKind::DoubleBuffer, 0>();
    case KernelKind::Tf32TensorCore: return std::forward<F>(f).template operator()<KernelKind::Tf32TensorCore, 0>();
  }
  throw std::invalid_argument("unknown kernel");
}

}  // namespace ts
