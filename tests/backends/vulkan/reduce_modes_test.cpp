// Reductions in every mode of Note [Reduction modes] (backends/vulkan/ops_reduce.cpp): column,
// tree and serial, each with and without the eight-element loads, chunked and not, for every
// reduction op and dtype, against cpu; long rows both as workgroup trees (the GPU choice) and
// as serial chunks (the CPU-device choice). The parity test's small shapes reach only some.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "backends/dispatch.h"
#include "backends/vulkan/ops.h"
#include "backends/vulkan/vulkan.h"
#include "shapes/user_error.h"
#include "tests/backends/vulkan/vk_test_util.h"

namespace tessel::backends::vulkan {
namespace {

using shapes::OpAttrs;
using shapes::OpKind;

struct Layout {
  Dims shape;
  std::vector<int64_t> dims;  // reduced dims ({} = all)
  int64_t offset;             // element offset of the tensor in its storage
  const char* mode;           // what it exercises
};

const Layout kLayouts[] = {
    {{8296}, {}, 0, "tree vec, one row"},
    {{8296}, {}, 3, "tree, misaligned offset"},
    {{2, 524296}, {1}, 0, "tree vec, chunked rows"},
    {{2, 524289}, {1}, 8, "tree, chunked ragged rows"},
    {{600, 64}, {1}, 0, "serial vec"},
    {{600, 37}, {1}, 0, "serial, ragged rows"},
    {{600, 64}, {-1}, 5, "serial, misaligned"},
    {{50, 16}, {0}, 0, "column vec"},
    {{50, 13}, {0}, 0, "column"},
    {{5000, 8}, {0}, 8, "column vec, chunked"},
    {{4, 300, 24}, {1}, 0, "column vec, middle dim"},
    {{4, 300, 24}, {1}, 1, "column, middle dim, misaligned"},
};

Tensor randomFlat(int64_t n, DType t, std::mt19937& rng) {
  if (t == DType::F32) {
    std::vector<float> v(n);
    for (auto& x : v) x = std::uniform_real_distribution<float>(-3, 3)(rng);
    if (n > 1000) v[n / 2] = std::nanf("");  // max/argmax must see it on both devices
    return Tensor::fromData(std::span<const float>(v), {n});
  }
  if (t == DType::I32) {
    std::vector<int32_t> v(n);
    for (auto& x : v) x = std::uniform_int_distribution<int>(-5, 5)(rng);
    return Tensor::fromData(std::span<const int32_t>(v), {n});
  }
  std::vector<bool> v(n);
  for (size_t i = 0; i < v.size(); ++i) v[i] = rng() % 4 != 0;  // mostly true: all() varies
  return Tensor::fromBools(v, {n});
}

// The layout's tensor on one device: a flat buffer with `offset` leading elements, sliced and
// reshaped (a view, so the offset reaches the kernel).
Tensor place(const Tensor& flat, const Layout& l) {
  return flat.slice(0, l.offset, flat.numel(), 1).reshape(l.shape);
}

const OpKind kOps[] = {OpKind::Sum, OpKind::Mean, OpKind::Max,    OpKind::Min,
                       OpKind::Argmax, OpKind::Argmin, OpKind::All, OpKind::Any};

void compareAll(std::mt19937& rng) {
  for (const Layout& l : kLayouts) {
    for (DType t : {DType::F32, DType::I32, DType::Bool}) {
      const Tensor flat = randomFlat(numelOf(l.shape) + l.offset, t, rng);
      const Tensor cpu = place(flat, l), dev = place(toVulkan(flat), l);
      ASSERT_EQ(dev.offset(), l.offset);
      for (OpKind op : kOps) {
        SCOPED_TRACE(std::string(shapes::opName(op)) + " " + std::string(name(t)) + " " + l.mode);
        OpAttrs a;
        a.dims = l.dims;
        Tensor want, got;
        try {
          want = call(op, {cpu}, a);
        } catch (const UserError&) {
          EXPECT_THROW(call(op, {dev}, a), UserError);
          continue;
        }
        got = toCpu(call(op, {dev}, a));
        ASSERT_EQ(got.shape(), want.shape());
        ASSERT_EQ(got.dtype(), want.dtype());
        const std::vector<double> w = want.toDoubles(), g = got.toDoubles();
        // Float sums add in another order; their error grows with the terms per output.
        const double terms = double(numelOf(l.shape)) / double(std::max<int64_t>(1, want.numel()));
        const double tol = t == DType::F32 && (op == OpKind::Sum || op == OpKind::Mean)
                               ? 1e-5 * terms : 0.0;
        for (size_t i = 0; i < w.size(); ++i) {
          if (w[i] == g[i] || (std::isnan(w[i]) && std::isnan(g[i]))) continue;
          if (!(std::fabs(w[i] - g[i]) <= tol + 1e-6 * std::fabs(w[i]))) {
            ADD_FAILURE() << "output " << i << ": cpu " << w[i] << " vulkan " << g[i];
            break;
          }
        }
      }
    }
  }
}

// Long rows take workgroup trees on a GPU and serial chunks on a CPU device; both run here.
class ReductionModes : public VulkanSchedulingTest {};

TEST_P(ReductionModes, MatchCpu) {
  // A small reduction of each op and dtype builds what it needs for every size and mode; the
  // sweep's other shapes, modes and chunked passes then build no pipeline.
  // (An arg reduction over a middle dim first copies to rows: that builds the copy kernel.)
  std::mt19937 rng(7);
  OpAttrs middle;
  middle.dims = {1};
  for (DType t : {DType::F32, DType::I32, DType::Bool}) {
    for (OpKind op : kOps) toCpu(call(op, {toVulkan(randomFlat(5, t, rng))}, OpAttrs{}));
    toCpu(call(OpKind::Argmax, {toVulkan(randomFlat(8, t, rng)).reshape(Dims{2, 2, 2})}, middle));
  }
  const uint64_t before = vulkanStats().pipelinesCreated;
  compareAll(rng);
  EXPECT_EQ(vulkanStats().pipelinesCreated, before);
}

// The row kernels (softmax, log_softmax, layer_norm, cross_entropy; Note [Rows alone] in
// rows.comp) with many rows and with few, a row per workgroup and a row per invocation.
TEST_P(ReductionModes, RowKernelsMatchCpu) {
  std::mt19937 rng(11);
  auto floats = [&](Dims shape) {
    Tensor t = randomFlat(numelOf(shape), DType::F32, rng).reshape(shape);
    return t;
  };
  auto labels = [&](int64_t n, int64_t classes) {
    std::vector<int32_t> v(n);
    for (auto& y : v) y = std::uniform_int_distribution<int>(0, int(classes) - 1)(rng);
    return Tensor::fromData(std::span<const int32_t>(v), {n});
  };
  struct RowCase {
    OpKind op;
    std::vector<Tensor> in;
    OpAttrs attrs;
    const char* what;
  };
  std::vector<RowCase> cases;
  for (Dims shape : {Dims{300, 37}, Dims{3, 5000}, Dims{70, 8}}) {
    for (OpKind op : {OpKind::Softmax, OpKind::LogSoftmax}) {
      for (int64_t d : {1, 0}) {
        OpAttrs a;
        a.dim = d;
        cases.push_back({op, {floats(shape)}, a, "softmax"});
      }
    }
    OpAttrs ln;
    ln.shape = {shape[1]};
    cases.push_back({OpKind::LayerNorm, {floats(shape)}, ln, "layer_norm"});
    cases.push_back({OpKind::LayerNorm, {floats(shape), floats({shape[1]}), floats({shape[1]})}, ln,
                     "layer_norm with weight and bias"});
    cases.push_back({OpKind::CrossEntropy, {floats(shape), labels(shape[0], shape[1])}, OpAttrs{},
                     "cross_entropy"});
  }
  for (const RowCase& c : cases) {
    SCOPED_TRACE(std::string(shapes::opName(c.op)) + " " + c.what + " rows " +
                 std::to_string(c.in[0].size(0)));
    std::vector<Tensor> dev;
    for (const Tensor& t : c.in) dev.push_back(toVulkan(t));
    const std::vector<double> w = dispatch(c.op, c.in, c.attrs, Device::Cpu)[0].toDoubles();
    const std::vector<double> g = toCpu(dispatch(c.op, dev, c.attrs, Device::Vulkan)[0]).toDoubles();
    ASSERT_EQ(w.size(), g.size());
    for (size_t i = 0; i < w.size(); ++i) {
      if (w[i] == g[i] || (std::isnan(w[i]) && std::isnan(g[i]))) continue;
      if (!(std::fabs(w[i] - g[i]) <= 1e-4 + 1e-4 * std::fabs(w[i]))) {
        ADD_FAILURE() << "element " << i << ": cpu " << w[i] << " vulkan " << g[i];
        break;
      }
    }
  }
}

TESSEL_BOTH_SCHEDULINGS(ReductionModes);

}  // namespace
}  // namespace tessel::backends::vulkan
