// What conv2d's backward ops hand each other on one thread (Note [Conv backward reuse] in
// conv_backward_reuse.cpp): the output gradient gy in oneDNN's blocked layout, reordered once
// for both the data and the weight backward, and the bias gradient that the weight backward's
// primitive sums in the same pass, for the `sum` over [0, 2, 3] of gy that autodiff asks for.
// Internal to backends/cpu.
#pragma once

#include <dnnl.hpp>
#include <memory>
#include <optional>
#include <vector>

#include "backends/cpu/kernels.h"
#include "backends/storage.h"
#include "backends/tensor.h"

namespace tessel::backends::cpu::conv_reuse {

/// Which buffer a tensor reads: its storage (while that is alive), first element and shape.
/// Tensors never change after they are made (every op returns a fresh one), so the same live
/// storage, offset and shape mean the same values.
struct BufferId {
  std::weak_ptr<Storage> storage;
  const void* data = nullptr;
  Dims shape;
  static BufferId of(const Tensor& t);
  bool sameAs(const Tensor& t) const;
};

/// A blocked copy of gy made by one backward op: taken by the next backward op that reads the
/// same gy in the same layout, once.
struct BlockedGy {
  BufferId source;
  dnnl::memory::desc layout;
  std::shared_ptr<Storage> bytes;
};
/// The blocked gy kept for (gy, layout), removed from the cache; nullptr when there is none.
std::shared_ptr<Storage> takeBlockedGy(const Tensor& gy, const dnnl::memory::desc& layout);
/// Keeps `bytes` (gy in `layout`) for the next backward op, replacing what was kept.
void keepBlockedGy(const Tensor& gy, const dnnl::memory::desc& layout,
                   std::shared_ptr<Storage> bytes);

/// Keeps the bias gradient `sums` (C floats) of gy [N, C, H, W].
void keepBiasGrad(const Tensor& gy, std::vector<float> sums);
/// The kept bias gradient when `input` is that gy, reduced over [0, 2, 3] to `result` [C]
/// (f32, no kept dims); removed from the cache. Empty otherwise: the caller sums.
std::optional<std::vector<float>> takeBiasGrad(const Tensor& input, const OpAttrs& attrs,
                                               const OpSignature& result);

}  // namespace tessel::backends::cpu::conv_reuse
