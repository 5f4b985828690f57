// nonzero, masked_select and masked_scatter against cpu at sizes and layouts the parity test's
// small shapes do not reach: many chunks, sizes past 65535 * 256, ranks 1..8, all-false and
// all-true masks, broadcast masks, offsets and non-contiguous views, in both device modes
// (the workgroup scan a GPU takes and the chunked walk of a CPU device, Note [Chunked
// compaction] in backends/vulkan/ops_data_dependent.cpp).
#include <gtest/gtest.h>

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

enum class Fill { Random, Sparse, AllFalse, AllTrue };

Tensor flat(int64_t n, DType t, std::mt19937& rng, Fill fill = Fill::Random) {
  auto on = [&] {
    switch (fill) {
      case Fill::AllFalse: return false;
      case Fill::AllTrue: return true;
      case Fill::Sparse: return rng() % 97 == 0;
      default: return rng() % 2 == 0;
    }
  };
  if (t == DType::F32) {
    std::vector<float> v(n);
    for (auto& x : v) x = on() ? std::uniform_real_distribution<float>(-3, 3)(rng) + 4.0f : 0.0f;
    return Tensor::fromData(std::span<const float>(v), {n});
  }
  if (t == DType::I32) {
    std::vector<int32_t> v(n);
    for (auto& x : v) x = on() ? std::uniform_int_distribution<int>(1, 1000)(rng) : 0;
    return Tensor::fromData(std::span<const int32_t>(v), {n});
  }
  std::vector<bool> v(n);
  for (size_t i = 0; i < v.size(); ++i) v[i] = on();
  return Tensor::fromBools(v, {n});
}

// A tensor of `shape` on cpu and the same view of the same data on the device: `offset`
// leading elements, and with `strided` every other element (not contiguous).
struct Pair {
  Tensor cpu, dev;
};
Pair place(const Dims& shape, DType t, std::mt19937& rng, Fill fill = Fill::Random,
           int64_t offset = 0, bool strided = false) {
  const int64_t n = numelOf(shape), step = strided ? 2 : 1;
  const Tensor f = flat(offset + std::max<int64_t>(n * step, 1), t, rng, fill);
  auto view = [&](const Tensor& x) {
    return x.slice(0, offset, offset + n * step, step).reshape(shape);
  };
  return {view(f), view(toVulkan(f))};
}

void expectSame(OpKind op, const std::vector<Pair>& in, const std::string& what) {
  SCOPED_TRACE(std::string(shapes::opName(op)) + " " + what);
  std::vector<Tensor> cpuIn, devIn;
  for (const Pair& p : in) {
    cpuIn.push_back(p.cpu);
    devIn.push_back(p.dev);
  }
  Tensor want;
  try {
    want = dispatch(op, cpuIn, OpAttrs{})[0];
  } catch (const UserError& e) {
    try {
      dispatch(op, devIn, OpAttrs{});
      ADD_FAILURE() << "cpu raised " << e.what() << ", vulkan nothing";
    } catch (const UserError& d) {
      EXPECT_EQ(d.kind(), e.kind());
    }
    return;
  }
  Tensor got = toCpu(dispatch(op, devIn, OpAttrs{})[0]);
  ASSERT_EQ(got.shape(), want.shape());
  ASSERT_EQ(got.dtype(), want.dtype());
  const std::vector<double> w = want.toDoubles(), g = got.toDoubles();
  for (size_t i = 0; i < w.size(); ++i)
    if (w[i] != g[i]) {
      ADD_FAILURE() << "output " << i << " of " << w.size() << ": cpu " << w[i] << " vulkan "
                    << g[i];
      return;
    }
}

std::string dims(const Dims& s) {
  std::string r = "[";
  for (int64_t d : s) r += std::to_string(d) + ",";
  return r + "]";
}

class DataDependent : public VulkanSchedulingTest {};

const DType kTypes[] = {DType::F32, DType::I32, DType::Bool};

TEST_P(DataDependent, ShapesRanksAndDtypes) {
  std::mt19937 rng(3);
  const std::vector<Dims> shapes = {{},        {0},          {1},           {5},
                                    {3, 0, 2}, {7, 9},       {2, 3, 4, 5},  {1, 2, 1, 3, 1, 2},
                                    {2, 1, 3, 1, 2, 3, 1, 2},  {300, 333},  {3, 1000, 7},
                                    {70001},   {2, 3, 2, 3, 2, 3, 2, 3}};
  for (const Dims& s : shapes)
    for (DType t : kTypes) {
      const std::string w = dims(s) + " " + std::string(name(t));
      expectSame(OpKind::Nonzero, {place(s, t, rng)}, w);
      expectSame(OpKind::MaskedSelect, {place(s, t, rng), place(s, DType::Bool, rng)}, w);
      expectSame(OpKind::MaskedScatter,
                 {place(s, t, rng), place(s, DType::Bool, rng), place({numelOf(s)}, t, rng)}, w);
    }
}

TEST_P(DataDependent, LargeSizesAndMaskFills) {
  std::mt19937 rng(5);
  for (int64_t n : {int64_t(70001), int64_t(1 << 20) + 13})
    for (Fill fill : {Fill::Random, Fill::Sparse, Fill::AllFalse, Fill::AllTrue})
      for (DType t : kTypes) {
        const std::string w = std::to_string(n) + " " + std::string(name(t)) + " fill " +
                              std::to_string(int(fill));
        expectSame(OpKind::Nonzero, {place({n}, t, rng, fill)}, w);
        expectSame(OpKind::Nonzero, {place({n / 7, 7}, t, rng, fill)}, w + " 2d");
        expectSame(OpKind::MaskedSelect, {place({n}, t, rng), place({n}, DType::Bool, rng, fill)},
                   w);
        expectSame(OpKind::MaskedScatter,
                   {place({n}, t, rng), place({n}, DType::Bool, rng, fill), place({n}, t, rng)}, w);
      }
}

// More than 65535 * 256 elements: grids split in y, scans recurse a level deeper.
TEST_P(DataDependent, PastTheOneDimensionalGrid) {
  std::mt19937 rng(9);
  const int64_t n = 65535LL * 256 + 77;
  expectSame(OpKind::Nonzero, {place({n}, DType::Bool, rng)}, "1d");
  expectSame(OpKind::Nonzero, {place({n / 7, 7}, DType::F32, rng, Fill::Sparse)}, "2d");
  expectSame(OpKind::MaskedSelect, {place({n}, DType::F32, rng), place({n}, DType::Bool, rng)},
             "select");
  expectSame(OpKind::MaskedScatter,
             {place({n}, DType::I32, rng), place({n}, DType::Bool, rng, Fill::AllTrue),
              place({n}, DType::I32, rng)},
             "scatter");
}

TEST_P(DataDependent, BroadcastOffsetsAndStridedViews) {
  std::mt19937 rng(13);
  for (DType t : kTypes)
    for (int64_t offset : {0, 3, 8})
      for (bool strided : {false, true}) {
        const std::string w = std::string(name(t)) + " offset " + std::to_string(offset) +
                              (strided ? " strided" : "");
        const Dims s = {37, 1031};
        expectSame(OpKind::Nonzero, {place(s, t, rng, Fill::Random, offset, strided)}, w);
        expectSame(OpKind::MaskedSelect,
                   {place(s, t, rng, Fill::Random, offset, strided),
                    place(s, DType::Bool, rng, Fill::Random, offset, strided)},
                   w);
        expectSame(OpKind::MaskedSelect,
                   {place(s, t, rng, Fill::Random, offset, strided),
                    place({1031}, DType::Bool, rng, Fill::Random, offset, strided)},
                   w + " row mask");
        expectSame(OpKind::MaskedSelect,
                   {place({1031}, t, rng, Fill::Random, offset, strided),
                    place(s, DType::Bool, rng, Fill::Random, offset, strided)},
                   w + " broadcast x");
        expectSame(OpKind::MaskedScatter,
                   {place(s, t, rng, Fill::Random, offset, strided),
                    place({37, 1}, DType::Bool, rng, Fill::Random, offset, strided),
                    place({numelOf(s)}, t, rng, Fill::Random, offset, strided)},
                   w + " column mask");
        expectSame(OpKind::MaskedScatter,
                   {place(s, t, rng, Fill::Random, offset, strided),
                    place(s, DType::Bool, rng, Fill::Random, offset, strided),
                    place({numelOf(s) + 5}, t, rng, Fill::Random, offset, strided)},
                   w + " longer source");
      }
}

TEST_P(DataDependent, ScatterWithShortSourceIsValueError) {
  std::mt19937 rng(17);
  const Pair x = place({70001}, DType::F32, rng), m = place({70001}, DType::Bool, rng);
  const Tensor cpuCount = call(OpKind::Nonzero, {m.cpu}, OpAttrs{});
  const int64_t count = cpuCount.shape()[0];
  const Pair src = place({count - 1}, DType::F32, rng);
  EXPECT_THROW(call(OpKind::MaskedScatter, {x.cpu, m.cpu, src.cpu}, OpAttrs{}), UserError);
  try {
    call(OpKind::MaskedScatter, {x.dev, m.dev, src.dev}, OpAttrs{});
    ADD_FAILURE() << "no error";
  } catch (const UserError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::ValueError);
  }
  const Pair exact = place({count}, DType::F32, rng);
  expectSame(OpKind::MaskedScatter, {x, m, exact}, "exact source");
}

TEST_P(DataDependent, SizeChangesBuildNoPipeline) {
  std::mt19937 rng(19);
  auto all = [&](const Dims& s) {
    for (DType t : kTypes) {
      toCpu(call(OpKind::Nonzero, {toVulkan(flat(numelOf(s), t, rng)).reshape(s)}, OpAttrs{}));
      const Tensor x = toVulkan(flat(numelOf(s), t, rng)).reshape(s);
      const Tensor m = toVulkan(flat(numelOf(s), DType::Bool, rng)).reshape(s);
      toCpu(call(OpKind::MaskedSelect, {x, m}, OpAttrs{}));
      toCpu(call(OpKind::MaskedScatter, {x, m, x.reshape(Dims{numelOf(s)})}, OpAttrs{}));
    }
  };
  // One small size per rank builds what every size of that rank needs.
  all({5});
  all({1, 5});
  all({1, 1, 5});
  const uint64_t before = vulkanStats().pipelinesCreated;
  for (int64_t n : {1, 7, 8, 100, 1023, 1025, 4097, 70001, 300000}) all({n});
  for (int64_t n : {1, 7, 100, 2049}) all({n, 3});
  for (int64_t n : {1, 7, 100}) all({2, n, 3});
  EXPECT_EQ(vulkanStats().pipelinesCreated, before);
}

TESSEL_BOTH_SCHEDULINGS(DataDependent);

}  // namespace
}  // namespace tessel::backends::vulkan
