// The strided elementwise path (Note [Strided runs] in elementwise.comp): transposes,
// broadcasts, permutes, stepped slices and ranks past the kernel's four dims, with rows that
// split into several runs and a ragged last run, scheduled as on a CPU device (runs of the
// innermost dim) and as on a GPU (one element per invocation), against cpu.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "backends/dispatch.h"
#include "backends/vulkan/ops.h"
#include "backends/vulkan/vulkan.h"
#include "tests/backends/vulkan/vk_test_util.h"

namespace tessel::backends::vulkan {
namespace {

using shapes::OpAttrs;
using shapes::OpKind;

class StridedRuns : public VulkanSchedulingTest {};

Tensor random(Dims shape, DType t, std::mt19937& rng) {
  const int64_t n = numelOf(shape);
  if (t == DType::F32) {
    std::vector<float> v(n);
    for (auto& x : v) x = std::uniform_real_distribution<float>(-3, 3)(rng);
    return Tensor::fromData(std::span<const float>(v), shape);
  }
  if (t == DType::I32) {
    std::vector<int32_t> v(n);
    for (auto& x : v) x = std::uniform_int_distribution<int>(-50, 50)(rng);
    return Tensor::fromData(std::span<const int32_t>(v), shape);
  }
  std::vector<bool> v(n);
  for (size_t i = 0; i < v.size(); ++i) v[i] = rng() % 2;
  return Tensor::fromBools(v, shape);
}

OpAttrs castTo(DType t) {
  OpAttrs a;
  a.dtype = t;
  return a;
}

void expectSame(const Tensor& cpu, const Tensor& dev) {
  const Tensor got = toCpu(dev);
  ASSERT_EQ(got.shape(), cpu.shape());
  ASSERT_EQ(got.dtype(), cpu.dtype());
  const std::vector<double> w = cpu.toDoubles(), g = got.toDoubles();
  for (size_t i = 0; i < w.size(); ++i) {
    if (w[i] == g[i] || (std::isnan(w[i]) && std::isnan(g[i]))) continue;
    if (!(std::fabs(w[i] - g[i]) <= 1e-5 * std::fabs(w[i]) + 1e-6)) {
      ADD_FAILURE() << "element " << i << ": cpu " << w[i] << " vulkan " << g[i];
      return;
    }
  }
}

// `view` makes the same view on either device; `op` combines views with the same op.
template <typename View, typename Op>
void check(const std::vector<Tensor>& hosts, View view, Op op) {
  std::vector<Tensor> cpu, dev;
  for (const Tensor& h : hosts) {
    cpu.push_back(view(h));
    dev.push_back(view(toVulkan(h)));
  }
  expectSame(op(cpu), op(dev));
}

TEST_P(StridedRuns, MatchCpu) {
  std::mt19937 rng(5);
  for (DType t : {DType::F32, DType::I32, DType::Bool}) {
    SCOPED_TRACE(std::string(name(t)));
    const DType arith = t == DType::Bool ? DType::I32 : t;
    auto contiguous = [](const std::vector<Tensor>& v) { return call(OpKind::Contiguous, {v[0]}); };
    auto add = [&](const std::vector<Tensor>& v) {
      return call(OpKind::Add, {call(OpKind::Cast, {v[0]}, castTo(arith)), v[1]});
    };
    // Transposes whose rows split into runs of 64, 64 and 2 (and one of a single short run).
    for (Dims shape : {Dims{130, 70}, Dims{3, 5}, Dims{1, 257}}) {
      check({random(shape, t, rng)}, [](const Tensor& x) { return x.transpose(0, 1); }, contiguous);
    }
    // Broadcast rows and columns over contiguous rows; a stepped slice with an offset.
    check({random({200, 300}, t, rng), random({300}, arith, rng)},
          [](const Tensor& x) { return x; }, add);
    check({random({300, 200}, t, rng), random({300, 1}, arith, rng)},
          [](const Tensor& x) { return x; }, add);
    check({random({1000}, t, rng)}, [](const Tensor& x) { return x.slice(0, 7, 1000, 3); },
          contiguous);
    // A permute of rank 3 and a transpose of rank 5 (past the kernel's 4 dims: a host loop).
    check({random({7, 9, 150}, t, rng)},
          [](const Tensor& x) { return x.permute(std::vector<int64_t>{2, 0, 1}); }, contiguous);
    check({random({2, 3, 2, 3, 70}, t, rng)}, [](const Tensor& x) { return x.transpose(1, 4); },
          contiguous);
    // where with a broadcast condition and a transposed branch.
    check({random({90, 1}, DType::Bool, rng), random({90, 90}, arith, rng),
           random({90}, arith, rng)},
          [](const Tensor& x) { return x; },
          [](const std::vector<Tensor>& v) {
            return call(OpKind::Where, {v[0], v[1].transpose(0, 1), v[2]});
          });
  }
}

// index_select and gather walk runs of their output's innermost dim too, including when the
// indexed dim is the innermost one (each element then reads its own index).
TEST_P(StridedRuns, IndexOpsMatchCpu) {
  std::mt19937 rng(8);
  auto indices = [&](Dims shape, int64_t size) {
    std::vector<int32_t> v(numelOf(shape));
    for (auto& i : v) i = std::uniform_int_distribution<int>(-int(size), int(size) - 1)(rng);
    return Tensor::fromData(std::span<const int32_t>(v), shape);
  };
  for (DType t : {DType::F32, DType::I32, DType::Bool}) {
    SCOPED_TRACE(std::string(name(t)));
    const Tensor x = random({130, 150}, t, rng);
    for (int64_t dim : {0, 1}) {
      OpAttrs a;
      a.dim = dim;
      const Tensor sel = indices({97}, x.size(dim));
      expectSame(call(OpKind::IndexSelect, {x, sel}, a),
                 call(OpKind::IndexSelect, {toVulkan(x), toVulkan(sel)}, a));
      const Tensor gat = indices(dim == 0 ? Dims{40, 150} : Dims{130, 140}, x.size(dim));
      expectSame(call(OpKind::Gather, {x, gat}, a),
                 call(OpKind::Gather, {toVulkan(x), toVulkan(gat)}, a));
    }
    // A transposed source: strided reads along the run.
    OpAttrs a;
    a.dim = 0;
    const Tensor sel = indices({70}, 150);
    expectSame(call(OpKind::IndexSelect, {x.transpose(0, 1), sel}, a),
               call(OpKind::IndexSelect, {toVulkan(x).transpose(0, 1), toVulkan(sel)}, a));
  }
}

TESSEL_BOTH_SCHEDULINGS(StridedRuns);

}  // namespace
}  // namespace tessel::backends::vulkan
