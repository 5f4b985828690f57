// The blocked output gradient and the bias gradient that conv2d's backward ops share.
#include "backends/cpu/conv_backward_reuse.h"

#include <algorithm>
#include <utility>

namespace tessel::backends::cpu::conv_reuse {

// Note [Conv backward reuse]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
// conv2d's gradient is three graph values (autodiff/grad_conv.cpp): backward_input(gy, w),
// backward_weight(gy, x) and, with a bias, sum(gy, [0, 2, 3]). They stay three ops of one
// result each (every backend, @compile and grad-of-grad see plain table ops), but on the cpu
// they read the same gy, and two things are worth doing once (PyTorch's
// convolution_backward does both in one call):
// - gy goes into oneDNN's blocked layout (nChw16c) for each backward primitive; the first
//   backward op keeps its blocked copy here and the second takes it instead of reordering
//   again (a 25 MB pass on [32, 64, 56, 56]).
// - the backward-weights primitive sums the bias gradient in the same pass over gy (a diff_bias
//   argument) at almost no cost; it is kept here and the cpu `sum` kernel copies it into its
//   result when asked for exactly that reduction of exactly that gy, instead of reading gy
//   once more.
// Both are taken at most once and keyed on gy's buffer (BufferId): a live storage object with
// the same first element and shape holds the same values, because tensors are never written
// after they are made. A storage that died (its memory perhaps reused) no longer matches. On
// a miss (another order of the ops, a gy that had to be converted to contiguous f32 first, a
// thread switch) each op does its own work, so only speed depends on the order. The cache is
// per thread and holds one entry of each kind: a later conv backward replaces it, so at most
// one blocked gy outlives its step (when only one backward op ran).

namespace {

struct Cache {
  BlockedGy gy;
  BufferId biasSource;
  std::optional<std::vector<float>> bias;
};
thread_local Cache tCache;

}  // namespace

BufferId BufferId::of(const Tensor& t) {
  return {t.storage(), t.bytes(), t.shape()};
}

bool BufferId::sameAs(const Tensor& t) const {
  const std::shared_ptr<Storage> s = storage.lock();
  return s != nullptr && s == t.storage() && data == t.bytes() && shape == t.shape() &&
         t.isContiguous();
}

std::shared_ptr<Storage> takeBlockedGy(const Tensor& gy, const dnnl::memory::desc& layout) {
  BlockedGy& kept = tCache.gy;
  if (kept.bytes == nullptr || !kept.source.sameAs(gy) || kept.layout != layout) return nullptr;
  kept.source = {};
  return std::move(kept.bytes);
}

void keepBlockedGy(const Tensor& gy, const dnnl::memory::desc& layout,
                   std::shared_ptr<Storage> bytes) {
  tCache.gy = {BufferId::of(gy), layout, std::move(bytes)};
}

void keepBiasGrad(const Tensor& gy, std::vector<float> sums) {
  tCache.biasSource = BufferId::of(gy);
  tCache.bias = std::move(sums);
}

std::optional<std::vector<float>> takeBiasGrad(const Tensor& input, const OpAttrs& attrs,
                                               const OpSignature& result) {
  if (!tCache.bias || input.ndim() != 4 || attrs.keepdim ||
      result.dtype != DType::F32 || input.dtype() != DType::F32 || attrs.dims.size() != 3)
    return std::nullopt;
  std::vector<int64_t> dims;
  for (int64_t d : attrs.dims) dims.push_back(d < 0 ? d + 4 : d);
  std::sort(dims.begin(), dims.end());
  if (dims != std::vector<int64_t>{0, 2, 3} || !tCache.biasSource.sameAs(input))
    return std::nullopt;
  tCache.biasSource = {};
  return std::exchange(tCache.bias, std::nullopt);
}

}  // namespace tessel::backends::cpu::conv_reuse
