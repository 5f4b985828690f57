// Every op in shapes/op_list.def runs on the cpu backend: one valid call per op, checked
// against the op list so that a new op without a cpu kernel fails here.
#include <functional>
#include <map>

#include "shapes/pool_geometry.h"
#include "test_util.h"

namespace tessel::backends::testing {
namespace {

OpAttrs withDim(int64_t d) {
  return dimAttr(d);
}

std::map<OpKind, std::function<Tensor()>> oneCallPerOp() {
  Tensor x = iota({2, 3});
  Tensor pos = F({0.5f, 1.f, 2.f});
  Tensor mask = B({true, false, true, false, true, false}, {2, 3});
  std::map<OpKind, std::function<Tensor()>> calls;
  auto unary = [&](OpKind op, Tensor in) { calls[op] = [op, in] { return run(op, {in}); }; };
  auto binary = [&](OpKind op) { calls[op] = [op, x] { return run(op, {x, F({1, 2, 3})}); }; };
#define TESSEL_OP(Enum, name, cat)                                                    \
  if (shapes::OpCategory::cat == shapes::OpCategory::Unary) unary(OpKind::Enum, pos); \
  if (shapes::OpCategory::cat == shapes::OpCategory::Binary) binary(OpKind::Enum);     \
  if (shapes::OpCategory::cat == shapes::OpCategory::Ternary)                          \
    calls[OpKind::Enum] = [x] { return run(OpKind::Enum, {x, x, F({0.25f}, {})}); };
#include "shapes/op_list.def"
  calls[OpKind::Where] = [=] { return run(OpKind::Where, {mask, x, F({0}, {})}); };
  calls[OpKind::Clamp] = [=] { return run(OpKind::Clamp, {x, F({1}, {}), F({4}, {})}); };
  for (OpKind op : {OpKind::Sum, OpKind::Mean, OpKind::Max, OpKind::Min, OpKind::Argmax,
                    OpKind::Argmin, OpKind::All, OpKind::Any})
    calls[op] = [=] { return run(op, {x}, dimsAttr({1})); };
  for (OpKind op : {OpKind::Cumsum, OpKind::Cumprod})
    calls[op] = [=] { return run(op, {x}, withDim(1)); };
  for (OpKind op : {OpKind::IndexAdd, OpKind::IndexCopy})
    calls[op] = [=] { return run(op, {x, I({1, 0}), iota({2, 3})}, withDim(0)); };
  for (OpKind op : {OpKind::Scatter, OpKind::ScatterAdd, OpKind::ScatterReduce})
    calls[op] = [=] { return run(op, {x, I({0, 1}, {2, 1}), iota({2, 3})}, withDim(1)); };
  calls[OpKind::Reshape] = [=] { return run(OpKind::Reshape, {x}, shapeAttr({3, 2})); };
  calls[OpKind::Transpose] = [=] { return run(OpKind::Transpose, {x}, dimsAttr({0, 1})); };
  calls[OpKind::Permute] = [=] { return run(OpKind::Permute, {x}, dimsAttr({1, 0})); };
  calls[OpKind::Unsqueeze] = [=] { return run(OpKind::Unsqueeze, {x}, withDim(1)); };
  calls[OpKind::Squeeze] = [=] { return run(OpKind::Squeeze, {iota({2, 1})}); };
  calls[OpKind::Flatten] = [=] { return run(OpKind::Flatten, {x}); };
  calls[OpKind::Expand] = [=] { return run(OpKind::Expand, {x}, shapeAttr({4, 2, 3})); };
  calls[OpKind::Cat] = [=] {
    return dispatch(OpKind::Cat, std::vector<Tensor>{x, x}, withDim(0))[0];
  };
  calls[OpKind::Stack] = [=] {
    return dispatch(OpKind::Stack, std::vector<Tensor>{x, x}, withDim(0))[0];
  };
  calls[OpKind::Slice] = [=] {
    OpAttrs a;
    a.dim = 1;
    a.start = shapes::SymInt(1);
    return run(OpKind::Slice, {x}, a);
  };
  calls[OpKind::Select] = [=] { return run(OpKind::Select, {x}, withDim(0)); };
  calls[OpKind::IndexSelect] = [=] { return run(OpKind::IndexSelect, {x, I({1})}, withDim(1)); };
  calls[OpKind::Gather] = [=] { return run(OpKind::Gather, {x, I({0, 1}, {2, 1})}, withDim(1)); };
  calls[OpKind::Nonzero] = [=] { return run(OpKind::Nonzero, {x}); };
  calls[OpKind::MaskedSelect] = [=] { return run(OpKind::MaskedSelect, {x, mask}); };
  calls[OpKind::MaskedScatter] = [=] { return run(OpKind::MaskedScatter, {x, mask, iota({3})}); };
  calls[OpKind::Unique] = [=] { return run(OpKind::Unique, {x}); };
  calls[OpKind::RepeatInterleave] = [=] { return run(OpKind::RepeatInterleave, {x, I({2, 0})}); };
  calls[OpKind::Bincount] = [=] { return run(OpKind::Bincount, {I({1, 3, 1})}); };
  calls[OpKind::SegmentReduce] = [=] {
    return run(OpKind::SegmentReduce, {x, I({1, 0, 2})}, withDim(1));
  };
  calls[OpKind::Argsort] = [=] { return run(OpKind::Argsort, {x}, withDim(1)); };
  calls[OpKind::Topk] = [=] {
    OpAttrs a = withDim(1);
    a.stop = shapes::SymInt(2);
    return run(OpKind::Topk, {x}, a);
  };
  calls[OpKind::Searchsorted] = [=] { return run(OpKind::Searchsorted, {pos, x}); };
  calls[OpKind::Nms] = [=] {
    OpAttrs a;
    a.scalars = {0.5};
    return run(OpKind::Nms, {F({0, 0, 2, 2, 1, 1, 3, 3}, {2, 4}), F({0.5f, 0.7f})}, a);
  };
  calls[OpKind::Matmul] = [=] { return run(OpKind::Matmul, {x, iota({3, 2})}); };
  calls[OpKind::Softmax] = [=] { return run(OpKind::Softmax, {x}, withDim(1)); };
  calls[OpKind::LogSoftmax] = [=] { return run(OpKind::LogSoftmax, {x}, withDim(1)); };
  calls[OpKind::LayerNorm] = [=] { return run(OpKind::LayerNorm, {x}, shapeAttr({3})); };
  calls[OpKind::LayerNormBackward] = [=] {
    return run(OpKind::LayerNormBackward, {iota({2, 3}), x, F({1, 2, 3})}, shapeAttr({3}));
  };
  calls[OpKind::Linear] = [=] { return run(OpKind::Linear, {x, iota({4, 3})}); };
  calls[OpKind::MseLoss] = [=] { return run(OpKind::MseLoss, {x, x}); };
  calls[OpKind::CrossEntropy] = [=] { return run(OpKind::CrossEntropy, {x, I({0, 2})}); };
  calls[OpKind::Dropout] = [=] { return run(OpKind::Dropout, {x}); };
  for (OpKind op : {OpKind::Attention, OpKind::AttentionLse})
    calls[op] = [=] { return run(op, {x, iota({4, 3}), iota({4, 5})}); };
  calls[OpKind::AttentionBackward] = [=] {
    return run(OpKind::AttentionBackward,
               {x, iota({4, 3}), iota({4, 5}), iota({2, 5}), iota({2, 5}), F({1, 2})});
  };
  for (OpKind op : {OpKind::Full, OpKind::Eye, OpKind::Rand, OpKind::Randn})
    calls[op] = [=] { return run(op, {}, shapeAttr({2, 2})); };
  calls[OpKind::Randint] = [=] {
    OpAttrs a = shapeAttr({2, 2});
    a.scalars = {0, 5};
    return run(OpKind::Randint, {}, a);
  };
  calls[OpKind::Randperm] = [=] { return run(OpKind::Randperm, {}, shapeAttr({3})); };
  calls[OpKind::Multinomial] = [=] { return run(OpKind::Multinomial, {x}, shapeAttr({2})); };
  calls[OpKind::Bernoulli] = [=] { return run(OpKind::Bernoulli, {F({0.5f, 1})}); };
  calls[OpKind::Arange] = [=] {
    OpAttrs a;
    a.stop = shapes::SymInt(4);
    return run(OpKind::Arange, {}, a);
  };
  calls[OpKind::Cast] = [=] {
    OpAttrs a;
    a.dtype = DType::I32;
    return run(OpKind::Cast, {x}, a);
  };
  calls[OpKind::Contiguous] = [=] { return run(OpKind::Contiguous, {x.transpose(0, 1)}); };
  calls[OpKind::Detach] = [=] { return run(OpKind::Detach, {x.transpose(0, 1)}); };
  calls[OpKind::Item] = [=] { return run(OpKind::Item, {I({7}, {1, 1})}); };
  Tensor img = x.reshape(Dims{1, 1, 2, 3}), k = iota({2, 1, 1, 2});
  auto conv = [](shapes::SymShape result) {
    OpAttrs a;
    a.shape = std::move(result);
    return a;
  };
  calls[OpKind::Conv2d] = [=] { return run(OpKind::Conv2d, {img, k}); };
  calls[OpKind::Conv2dBackwardInput] = [=] {
    return run(OpKind::Conv2dBackwardInput, {iota({1, 2, 2, 2}), k}, conv({1, 1, 2, 3}));
  };
  calls[OpKind::Conv2dBackwardWeight] = [=] {
    return run(OpKind::Conv2dBackwardWeight, {iota({1, 2, 2, 2}), img}, conv({2, 1, 1, 2}));
  };
  Tensor chw = iota({1, 2, 3});  // [C, H, W]
  OpAttrs pool;
  pool.pool.kernel[0] = pool.pool.kernel[1] = 2;
  pool.pool.stride[0] = pool.pool.stride[1] = 1;
  pool.shape = {2, 4};
  for (OpKind op : {OpKind::MaxPool2d, OpKind::AvgPool2d, OpKind::AdaptiveAvgPool2d,
                    OpKind::Interpolate})
    calls[op] = [=] { return run(op, {chw}, pool); };
  for (OpKind op : {OpKind::MaxPool2dBackward, OpKind::AvgPool2dBackward,
                    OpKind::AdaptiveAvgPool2dBackward, OpKind::InterpolateBackward})
    calls[op] = [=] {
      Tensor y = run(shapes::poolForward(op), {chw}, pool);
      return run(op, {y, chw}, pool);
    };
  calls[OpKind::MaxPool2dDoubleBackward] = [=] {
    return run(OpKind::MaxPool2dDoubleBackward, {chw, chw}, pool);
  };
  return calls;
}

TEST(AllOps, EveryOpHasACpuKernel) {
  auto calls = oneCallPerOp();
  for (int i = 0; i < shapes::kNumOps; ++i) {
    const OpKind op = static_cast<OpKind>(i);
    SCOPED_TRACE(std::string(shapes::opName(op)));
    auto it = calls.find(op);
    ASSERT_NE(it, calls.end()) << "no test call for " << shapes::opName(op);
    Tensor out;
    EXPECT_NO_THROW(out = it->second());
    EXPECT_TRUE(out.defined());
  }
}

}  // namespace
}  // namespace tessel::backends::testing
