// argsort, topk and nms under both schedulings (the merge sort of a GPU, Note [Row merge sort];
// the radix sort of a CPU device, Note [Row radix sort]) against the cpu: run and chunk
// boundaries, many rows (row passes), ties, NaN and -0.0; sizes past the first few build no
// pipeline.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "backends/dispatch.h"
#include "backends/vulkan/vulkan.h"
#include "tests/backends/vulkan/vk_test_util.h"

namespace tessel::backends::vulkan {
namespace {

using shapes::OpAttrs;
using shapes::OpKind;

class RowSorts : public VulkanSchedulingTest {};

void expectSame(OpKind op, const Tensor& host, const OpAttrs& a) {
  const std::vector<double> want = call(op, {host}, a).toDoubles();
  const std::vector<double> got = toCpu(call(op, {toVulkan(host)}, a)).toDoubles();
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i]) {
      ADD_FAILURE() << "element " << i << ": cpu " << want[i] << " vulkan " << got[i];
      return;
    }
}

TEST_P(RowSorts, AtEverySize) {
  std::mt19937 rng(4);
  uint64_t pipelines = 0;
  const std::vector<Dims> shapes = {{1},      {2},      {33},        {3, 31}, {257, 5},
                                    {1025},   {70001},  {300, 1000}, {2, 3, 40},
                                    {70000, 3}};
  for (size_t s = 0; s < shapes.size(); ++s) {
    const Dims& shape = shapes[s];
    const int64_t n = numelOf(shape);
    for (int range : {3, 1 << 30}) {
      std::vector<int32_t> ints(n);
      for (auto& v : ints) v = std::uniform_int_distribution<int>(-range, range)(rng);
      std::vector<float> floats(n);
      for (auto& v : floats) v = float(std::uniform_int_distribution<int>(-range, range)(rng)) * 0.5f;
      if (n > 3) floats[n / 3] = floats[n / 2] = std::nanf("");
      if (n > 5) floats[n / 5] = -0.0f;
      for (const Tensor& host : {Tensor::fromData(std::span<const int32_t>(ints), shape),
                                 Tensor::fromData(std::span<const float>(floats), shape)})
        for (int64_t d : {int64_t(0), int64_t(-1)})
          for (bool desc : {false, true}) {
            SCOPED_TRACE("shape " + std::to_string(s) + " range " + std::to_string(range) +
                         " dim " + std::to_string(d) + (desc ? " desc" : ""));
            OpAttrs a;
            a.dim = d;
            a.descending = desc;
            expectSame(OpKind::Argsort, host, a);
            a.stop = shapes::SymInt(std::min<int64_t>(shape[d == 0 ? 0 : shape.size() - 1], 3));
            expectSame(OpKind::Topk, host, a);
          }
    }
    if (s == 3) pipelines = vulkanStats().pipelinesCreated;  // every kernel seen by then
  }
  EXPECT_EQ(vulkanStats().pipelinesCreated, pipelines);
}

TESSEL_BOTH_SCHEDULINGS(RowSorts);

}  // namespace
}  // namespace tessel::backends::vulkan
