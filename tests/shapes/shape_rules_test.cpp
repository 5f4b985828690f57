// Shape rules: constant and symbolic shapes, error kinds and messages, unbacked outputs.
#include "shapes/shape_rules.h"

#include <gtest/gtest.h>

#include "shapes/shape_env.h"
#include "shapes/source_loc.h"

namespace tessel::shapes {
namespace {

using Sig = OpSignature;

OpSignature one(OpKind op, std::vector<Sig> in, OpAttrs a = {}) {
  auto out = inferShape(op, in, a);
  EXPECT_EQ(out.size(), 1u);
  return out[0];
}
std::string shapeOf(OpKind op, std::vector<Sig> in, OpAttrs a = {}) {
  return toString(one(op, std::move(in), std::move(a)).shape);
}
std::pair<ErrorKind, std::string> errorOf(OpKind op, std::vector<Sig> in, OpAttrs a = {}) {
  try {
    inferShape(op, in, a);
  } catch (const UserError& e) {
    return {e.kind(), e.what()};
  }
  return {ErrorKind::Interrupted, ""};
}
Sig f32(SymShape s) {
  return {std::move(s), DType::F32};
}

TEST(ShapeRules, BroadcastingConstant) {
  EXPECT_EQ(shapeOf(OpKind::Add, {f32({2, 1, 3}), f32({4, 1})}), "[2, 4, 3]");
  EXPECT_EQ(shapeOf(OpKind::Mul, {f32({}), f32({5})}), "[5]");
  auto [k, msg] = errorOf(OpKind::Add, {f32({2, 3}), f32({4})});
  EXPECT_EQ(k, ErrorKind::ShapeError);
  EXPECT_NE(msg.find("add: shapes [2, 3] and [4] are not broadcastable"), std::string::npos) << msg;
}

TEST(ShapeRules, DtypePromotion) {
  EXPECT_EQ(one(OpKind::Add, {{{2}, DType::I32}, {{2}, DType::F32}}).dtype, DType::F32);
  EXPECT_EQ(one(OpKind::Lt, {f32({2}), f32({2})}).dtype, DType::Bool);
  EXPECT_EQ(one(OpKind::Div, {{{2}, DType::I32}, {{2}, DType::I32}}).dtype, DType::F32);
  EXPECT_EQ(one(OpKind::Add, {{{2}, DType::Bool}, {{2}, DType::I32}}).dtype, DType::I32);
  EXPECT_EQ(errorOf(OpKind::Where, {f32({2}), f32({2}), f32({2})}).first, ErrorKind::TypeError);
}

TEST(ShapeRules, MatmulForms) {
  EXPECT_EQ(shapeOf(OpKind::Matmul, {f32({2, 3}), f32({3, 5})}), "[2, 5]");
  EXPECT_EQ(shapeOf(OpKind::Matmul, {f32({3}), f32({3})}), "[]");
  EXPECT_EQ(shapeOf(OpKind::Matmul, {f32({3}), f32({3, 4})}), "[4]");
  EXPECT_EQ(shapeOf(OpKind::Matmul, {f32({2, 3}), f32({3})}), "[2]");
  EXPECT_EQ(shapeOf(OpKind::Matmul, {f32({7, 1, 2, 3}), f32({5, 3, 4})}), "[7, 5, 2, 4]");
  auto [k, msg] = errorOf(OpKind::Matmul, {f32({2, 3}), f32({4, 5})});
  EXPECT_EQ(k, ErrorKind::ShapeError);
  EXPECT_EQ(msg, "matmul: shapes [2, 3] and [4, 5] are incompatible (3 != 4)");
}

TEST(ShapeRules, SymbolicBroadcastAndMatmulGuard) {
  ShapeEnv env;
  SymInt b = env.createSymbol("x.shape[0]", 8), k = env.createSymbol("x.shape[1]", 16);
  SymInt k2 = env.createSymbol("w.shape[0]", 16, {.dynamic = DimDynamic::Dynamic});
  // [s0, s1] + [s1]: no guard needed
  EXPECT_EQ(shapeOf(OpKind::Add, {f32({b, k}), f32({k})}), "[s0, s1]");
  // [s0, 1] + [1, s1]: 1s broadcast away
  EXPECT_EQ(shapeOf(OpKind::Add, {f32({b, 1}), f32({1, k})}), "[s0, s1]");
  size_t before = env.guards().size();
  EXPECT_EQ(shapeOf(OpKind::Matmul, {f32({b, k}), f32({k2, 4})}), "[s0, 4]");
  EXPECT_EQ(env.guards().size(), before + 1);  // s1 == s2
  EXPECT_EQ(env.guards().back().text, "x.shape[1] == w.shape[0]");
}

TEST(ShapeRules, UnbackedBroadcastIsSizeOblivious) {
  ShapeEnv env;
  SymInt u = env.createUnbacked();
  SymInt s = env.createSymbol("y.shape[0]", 5);
  // [u] + [1] -> [u] with no data-dependent error: u treated as not 1
  EXPECT_EQ(shapeOf(OpKind::Add, {f32({u}), f32({1})}), "[u0]");
  // [u] + [s0]: u == s0 becomes a runtime assert, not a DataDependentError
  EXPECT_EQ(shapeOf(OpKind::Add, {f32({u}), f32({s})}), "[s0]");
  EXPECT_EQ(env.runtimeAsserts().size(), 1u);
}

TEST(ShapeRules, ReshapeWithMinusOne) {
  EXPECT_EQ(shapeOf(OpKind::Reshape, {f32({2, 3, 4})}, {.shape = {-1, 4}}), "[6, 4]");
  EXPECT_EQ(errorOf(OpKind::Reshape, {f32({2, 3})}, {.shape = {4, -1}}).first,
            ErrorKind::ShapeError);
  EXPECT_EQ(errorOf(OpKind::Reshape, {f32({2, 3})}, {.shape = {-1, -1}}).first,
            ErrorKind::ValueError);
  ShapeEnv env;
  SymInt s = env.createSymbol("x.shape[0]", 6);
  size_t n = env.guards().size();
  EXPECT_EQ(shapeOf(OpKind::Reshape, {f32({s, 4})}, {.shape = {-1}}), "[4*s0]");
  EXPECT_EQ(shapeOf(OpKind::Reshape, {f32({s, 4})}, {.shape = {2, -1}}), "[2, 2*s0]");
  EXPECT_EQ(shapeOf(OpKind::Reshape, {f32({s * 4})}, {.shape = {s, -1}}), "[s0, 4]");
  EXPECT_EQ(env.guards().size(), n);  // all proved by canonical forms
}

TEST(ShapeRules, LayoutOps) {
  EXPECT_EQ(shapeOf(OpKind::Transpose, {f32({2, 3, 4})}, {.dims = {0, 2}}), "[4, 3, 2]");
  EXPECT_EQ(shapeOf(OpKind::Permute, {f32({2, 3, 4})}, {.dims = {2, 0, 1}}), "[4, 2, 3]");
  EXPECT_EQ(shapeOf(OpKind::Unsqueeze, {f32({2, 3})}, {.dim = -1}), "[2, 3, 1]");
  EXPECT_EQ(shapeOf(OpKind::Squeeze, {f32({1, 3, 1})}), "[3]");
  EXPECT_EQ(shapeOf(OpKind::Squeeze, {f32({1, 3, 1})}, {.dims = {0}}), "[3, 1]");
  EXPECT_EQ(shapeOf(OpKind::Flatten, {f32({2, 3, 4, 5})}, {.dim = 1, .endDim = 2}), "[2, 12, 5]");
  EXPECT_EQ(shapeOf(OpKind::Expand, {f32({3, 1})}, {.shape = {2, -1, 4}}), "[2, 3, 4]");
  EXPECT_EQ(shapeOf(OpKind::Cat, {f32({2, 3}), f32({5, 3})}, {.dim = 0}), "[7, 3]");
  EXPECT_EQ(shapeOf(OpKind::Stack, {f32({2, 3}), f32({2, 3})}, {.dim = 1}), "[2, 2, 3]");
  EXPECT_EQ(errorOf(OpKind::Cat, {f32({2, 3}), f32({2, 4})}, {.dim = 0}).first,
            ErrorKind::ShapeError);
  EXPECT_EQ(errorOf(OpKind::Permute, {f32({2, 3})}, {.dims = {0, 0}}).first, ErrorKind::ValueError);
  EXPECT_EQ(errorOf(OpKind::Unsqueeze, {f32({2, 3})}, {.dim = 4}).first, ErrorKind::IndexError);
}

TEST(ShapeRules, SliceAndSelectConstant) {
  OpAttrs a;
  a.dim = 0;
  a.start = 1;
  a.stop = 100;
  EXPECT_EQ(shapeOf(OpKind::Slice, {f32({10, 2})}, a), "[9, 2]");
  a.start = -3;
  a.stop = std::nullopt;
  EXPECT_EQ(shapeOf(OpKind::Slice, {f32({10})}, a), "[3]");
  a.start = 0;
  a.step = 3;
  EXPECT_EQ(shapeOf(OpKind::Slice, {f32({10})}, a), "[4]");
  a.start = 8;
  a.stop = 2;
  a.step = 1;
  EXPECT_EQ(shapeOf(OpKind::Slice, {f32({10})}, a), "[0]");
  EXPECT_EQ(shapeOf(OpKind::Select, {f32({4, 5})}, {.dim = 1, .index = -1}), "[4]");
  auto [k, msg] = errorOf(OpKind::Select, {f32({4, 5})}, {.dim = 0, .index = 4});
  EXPECT_EQ(k, ErrorKind::IndexError);
  EXPECT_EQ(msg, "select: index 4 is out of range for dim 0 of size 4");
}

TEST(ShapeRules, SymbolicSlice) {
  ShapeEnv env;
  SymInt s = env.createSymbol("x.shape[0]", 10);
  SymInt n = env.createSymbol("n", 4, {.dynamic = DimDynamic::Dynamic, .isSize = false});
  OpAttrs a;
  a.start = 1;
  EXPECT_EQ(shapeOf(OpKind::Slice, {f32({s})}, a), "[s0 - 1]");  // s0 >= 2: no clamping needed
  a.start = 0;
  a.stop = n;  // sign unknown: guards n >= 0 from the hint, then min(n, s0)
  std::string r = shapeOf(OpKind::Slice, {f32({s})}, a);
  EXPECT_NE(r.find("min("), std::string::npos) << r;
  a.start = -2;
  a.stop = std::nullopt;
  EXPECT_EQ(shapeOf(OpKind::Slice, {f32({s})}, a), "[2]");
}

TEST(ShapeRules, Reductions) {
  EXPECT_EQ(shapeOf(OpKind::Sum, {f32({2, 3, 4})}, {.dims = {1}}), "[2, 4]");
  EXPECT_EQ(shapeOf(OpKind::Sum, {f32({2, 3, 4})}, {.dims = {-1, 0}, .keepdim = true}),
            "[1, 3, 1]");
  EXPECT_EQ(shapeOf(OpKind::Mean, {f32({2, 3})}), "[]");
  EXPECT_EQ(one(OpKind::Argmax, {f32({2, 3})}, {.dims = {1}}).dtype, DType::I32);
  EXPECT_EQ(one(OpKind::Sum, {{{2}, DType::Bool}}).dtype, DType::I32);
  // An empty dim: PyTorch's IndexError when named, its RuntimeError (ValueError) for all dims.
  EXPECT_EQ(errorOf(OpKind::Max, {f32({0, 3})}, {.dims = {0}}).first, ErrorKind::IndexError);
  EXPECT_EQ(errorOf(OpKind::Max, {f32({0, 3})}).first, ErrorKind::ValueError);
  EXPECT_EQ(errorOf(OpKind::Sum, {f32({2, 3})}, {.dims = {2}}).first, ErrorKind::IndexError);
}

TEST(ShapeRules, Scans) {
  ShapeEnv env;
  SymInt n = env.createSymbol("x.shape[0]", 8);
  EXPECT_EQ(shapeOf(OpKind::Cumsum, {f32({n, 3})}, {.dim = 0}), "[s0, 3]");
  EXPECT_EQ(shapeOf(OpKind::Cumprod, {f32({2, 3})}, {.dim = -1}), "[2, 3]");
  EXPECT_EQ(one(OpKind::Cumsum, {{{2}, DType::Bool}}).dtype, DType::I32);
  EXPECT_EQ(one(OpKind::Cumprod, {{{2}, DType::I32}}).dtype, DType::I32);
  EXPECT_EQ(one(OpKind::Cumsum, {f32({})}, {.dim = -1}).dtype, DType::F32);
  EXPECT_EQ(errorOf(OpKind::Cumsum, {f32({2, 3})}, {.dim = 2}).first, ErrorKind::IndexError);
  EXPECT_EQ(errorOf(OpKind::Cumsum, {f32({2}), f32({2})}).first, ErrorKind::TypeError);
}

// conv2d: the output size (H + pb + pe - d (k - 1) - 1) // s + 1 over the input's symbols, and
// its ShapeErrors (kernel larger than the padded input, channels and groups).
TEST(ShapeRules, Conv2d) {
  ShapeEnv env;
  SymInt n = env.createSymbol("x.shape[0]", 8), h = env.createSymbol("x.shape[2]", 28);
  SymInt w = env.createSymbol("x.shape[3]", 17);
  OpAttrs a;
  a.conv.stride = {2, 1};
  a.conv.padBegin = {1, 0};
  a.conv.padEnd = {1, 1};
  a.conv.dilation = {1, 2};
  a.conv.groups = 2;
  const OpSignature y = one(OpKind::Conv2d, {f32({n, 4, h, w}), f32({6, 2, 3, 3}), f32({6})}, a);
  ASSERT_EQ(y.shape.size(), 4u);
  EXPECT_EQ(y.shape[0].toString(), n.toString());
  EXPECT_EQ(y.shape[1].maybeConstant(), std::optional<int64_t>(6));
  EXPECT_FALSE(y.shape[2].isConstant());  // one graph serves every height
  EXPECT_EQ(evaluateInt(y.shape[2]), (28 + 2 - 3) / 2 + 1);
  EXPECT_EQ(evaluateInt(y.shape[3]), (17 + 1 - 5) / 1 + 1);
  OpAttrs plain;
  EXPECT_EQ(shapeOf(OpKind::Conv2d, {f32({0, 3, 5, 5}), f32({2, 3, 5, 5})}, plain), "[0, 2, 1, 1]");
  auto kernel = errorOf(OpKind::Conv2d, {f32({1, 2, 2, 2}), f32({2, 2, 3, 3})}, plain);
  EXPECT_EQ(kernel.first, ErrorKind::ShapeError);
  EXPECT_NE(kernel.second.find("spans 3 but the padded input [1, 2, 2, 2] is only 2"),
            std::string::npos)
      << kernel.second;
  auto channels = errorOf(OpKind::Conv2d, {f32({1, 4, 5, 5}), f32({2, 3, 3, 3})}, plain);
  EXPECT_EQ(channels.first, ErrorKind::ShapeError);
  EXPECT_NE(channels.second.find("to have 3 channels, got 4"), std::string::npos)
      << channels.second;
  OpAttrs g2;
  g2.conv.groups = 2;
  EXPECT_EQ(errorOf(OpKind::Conv2d, {f32({1, 4, 5, 5}), f32({3, 2, 3, 3})}, g2).first,
            ErrorKind::ShapeError);
  EXPECT_EQ(errorOf(OpKind::Conv2d, {f32({1, 4, 5}), f32({3, 4, 3, 3})}, plain).first,
            ErrorKind::ShapeError);
  EXPECT_EQ(errorOf(OpKind::Conv2d, {f32({1, 3, 5, 5}), f32({2, 3, 3, 3}), f32({3})}, plain).first,
            ErrorKind::ShapeError);
  OpAttrs zeroStride;
  zeroStride.conv.stride = {0, 1};
  EXPECT_EQ(errorOf(OpKind::Conv2d, {f32({1, 3, 5, 5}), f32({2, 3, 3, 3})}, zeroStride).first,
            ErrorKind::ValueError);
  // The backward ops check gy against the forward shape of their result.
  OpAttrs bi;
  bi.shape = {1, 3, 5, 5};
  EXPECT_EQ(shapeOf(OpKind::Conv2dBackwardInput, {f32({1, 2, 3, 3}), f32({2, 3, 3, 3})}, bi),
            "[1, 3, 5, 5]");
  EXPECT_EQ(errorOf(OpKind::Conv2dBackwardInput, {f32({1, 2, 4, 3}), f32({2, 3, 3, 3})}, bi).first,
            ErrorKind::ShapeError);
  OpAttrs bw;
  bw.shape = {2, 3, 3, 3};
  EXPECT_EQ(shapeOf(OpKind::Conv2dBackwardWeight, {f32({1, 2, 3, 3}), f32({1, 3, 5, 5})}, bw),
            "[2, 3, 3, 3]");
}

// Fused attention keeps T, S, D and Dv symbolic (one graph for every sequence length); batch
// dims broadcast; errors name the sizes.
TEST(ShapeRules, Attention) {
  ShapeEnv env;
  SymInt t = env.createSymbol("q.shape[1]", 7), s = env.createSymbol("k.shape[1]", 9);
  SymInt d = env.createSymbol("q.shape[2]", 4);
  EXPECT_EQ(shapeOf(OpKind::Attention, {f32({2, 3, t, d}), f32({3, s, d}), f32({1, s, 5})}),
            "[2, 3, s0, 5]");
  EXPECT_EQ(shapeOf(OpKind::AttentionLse, {f32({t, d}), f32({s, d}), f32({s, 5}),
                                           {{t, 1}, DType::Bool}}),
            "[s0]");
  EXPECT_EQ(shapeOf(OpKind::AttentionBackward,
                    {f32({2, t, d}), f32({s, d}), f32({s, 5}), f32({2, t, 5}), f32({2, t, 5}),
                     f32({2, t})}),
            "[10*s1 + 2*s0*s2 + 2*s1*s2]");
  auto [k, msg] = errorOf(OpKind::Attention, {f32({3, 4}), f32({5, 3}), f32({5, 2})});
  EXPECT_EQ(k, ErrorKind::ShapeError);
  EXPECT_EQ(msg, "scaled_dot_product_attention: query [3, 4] and key [5, 3] disagree on the "
                 "embedding size (4 != 3)");
  EXPECT_EQ(errorOf(OpKind::Attention, {f32({3, 4}), f32({5, 4}), f32({6, 2})}).first,
            ErrorKind::ShapeError);
  auto [mk, mmsg] = errorOf(OpKind::Attention, {f32({3, 4}), f32({5, 4}), f32({5, 2}),
                                                {{2, 3, 5}, DType::Bool}});
  EXPECT_EQ(mk, ErrorKind::ShapeError);
  EXPECT_NE(mmsg.find("attn_mask [2, 3, 5] does not broadcast to the scores' shape [3, 5]"),
            std::string::npos)
      << mmsg;
  EXPECT_EQ(errorOf(OpKind::Attention, {f32({3, 4}), f32({5, 4}), f32({5, 2}),
                                        {{3, 5}, DType::I32}})
                .first,
            ErrorKind::TypeError);
  EXPECT_EQ(errorOf(OpKind::Attention, {f32({4}), f32({5, 4}), f32({5, 2})}).first,
            ErrorKind::ShapeError);
}

TEST(ShapeRules, IndexOps) {
  Sig idx{{5}, DType::I32};
  EXPECT_EQ(shapeOf(OpKind::IndexSelect, {f32({4, 3}), idx}, {.dim = 0}), "[5, 3]");
  EXPECT_EQ(errorOf(OpKind::IndexSelect, {f32({4, 3}), f32({5})}, {.dim = 0}).first,
            ErrorKind::TypeError);
  EXPECT_EQ(shapeOf(OpKind::Gather, {f32({4, 3}), {{4, 2}, DType::I32}}, {.dim = 1}), "[4, 2]");
  EXPECT_EQ(errorOf(OpKind::Gather, {f32({4, 3}), {{5, 2}, DType::I32}}, {.dim = 1}).first,
            ErrorKind::ShapeError);
}

TEST(ShapeRules, DataDependentOpsMakeUnbackedSizes) {
  ShapeEnv env;
  ScopedShapeEnv scope(&env);
  auto nz = one(OpKind::Nonzero, {f32({3, 4})});
  EXPECT_EQ(toString(nz.shape), "[u0, 2]");
  EXPECT_EQ(nz.dtype, DType::I32);
  EXPECT_EQ(env.symbol(0).range, (ValueRange{0, 12}));
  SymInt s = env.createSymbol("x.shape[0]", 9);
  auto ms = one(OpKind::MaskedSelect, {f32({s}), {{s}, DType::Bool}});
  EXPECT_EQ(toString(ms.shape), "[u1]");
  EXPECT_TRUE(evaluate(ms.shape[0] <= s));  // from the fact u1 <= s0
  EXPECT_EQ(toString(one(OpKind::Unique, {f32({s})}).shape), "[u2]");
  EXPECT_EQ(shapeOf(OpKind::MaskedScatter, {f32({s, 2}), {{s, 1}, DType::Bool}, f32({7})}),
            "[s0, 2]");
  // eager: the caller passes the size; without it and without an env it is an error
  EXPECT_EQ(shapeOf(OpKind::Nonzero, {f32({3, 4})}, {.outputSize = 5}), "[5, 2]");
}

TEST(ShapeRules, JaggedOps) {
  ShapeEnv env;
  ScopedShapeEnv scope(&env);
  SymInt n = env.createSymbol("x.shape[0]", 9);
  const Sig reps{{n}, DType::I32};
  // repeat_interleave: sum(repeats) is an unbacked size with no upper bound (only >= 0).
  auto ri = one(OpKind::RepeatInterleave, {f32({n, 3}), reps}, {.dim = 0});
  EXPECT_EQ(toString(ri.shape), "[u0, 3]");
  EXPECT_FALSE(env.maxValue(ri.shape[0]).has_value());
  // output_size gives it (symbolic sizes too), and eager callers pass the counted size.
  EXPECT_EQ(shapeOf(OpKind::RepeatInterleave, {f32({3, n}), reps}, {.dim = 1, .shape = {n * 2}}),
            "[3, 2*s0]");
  EXPECT_EQ(shapeOf(OpKind::RepeatInterleave, {f32({4}), {{4}, DType::I32}}, {.outputSize = 7}),
            "[7]");
  EXPECT_EQ(errorOf(OpKind::RepeatInterleave, {f32({4}), {{3}, DType::I32}}, {.outputSize = 7}).first,
            ErrorKind::ShapeError);
  EXPECT_EQ(errorOf(OpKind::RepeatInterleave, {f32({4}), f32({4})}, {.outputSize = 7}).first,
            ErrorKind::TypeError);
  // bincount: an unbacked length with the fact length >= minlength; weights make it f32.
  auto bc = one(OpKind::Bincount, {reps, f32({n})}, {.scalars = {5}});
  EXPECT_EQ(toString(bc.shape), "[u1]");
  EXPECT_EQ(bc.dtype, DType::F32);
  EXPECT_TRUE(evaluate(bc.shape[0] >= 5));
  EXPECT_EQ(errorOf(OpKind::Bincount, {{{2, 2}, DType::I32}}, {.outputSize = 3}).first,
            ErrorKind::ShapeError);
  EXPECT_EQ(errorOf(OpKind::Bincount, {reps}, {.scalars = {-1}, .outputSize = 3}).first,
            ErrorKind::ValueError);
  // segment_reduce: one row per segment along the axis, symbolic.
  SymInt s = env.createSymbol("lengths.shape[0]", 4);
  EXPECT_EQ(shapeOf(OpKind::SegmentReduce, {f32({2, n, 3}), {{s}, DType::I32}}, {.dim = 1}),
            "[2, s1, 3]");
  EXPECT_EQ(errorOf(OpKind::SegmentReduce, {f32({n}), {{1, s}, DType::I32}}).first,
            ErrorKind::ShapeError);
  EXPECT_EQ(errorOf(OpKind::SegmentReduce, {{{n}, DType::I32}, {{s}, DType::I32}}).first,
            ErrorKind::TypeError);
}

// Sorting: argsort keeps symbolic sizes; topk's k is a size expression that must fit
// its dim (min(k, n) needs no guard); nms gives an unbacked count bounded by the boxes.
TEST(ShapeRules, SortTopkSearchsortedNms) {
  ShapeEnv env;
  ScopedShapeEnv scope(&env);
  SymInt n = env.createSymbol("x.shape[0]", 9);
  auto as = one(OpKind::Argsort, {f32({n, 3})}, {.dim = 0});
  EXPECT_EQ(toString(as.shape), "[s0, 3]");
  EXPECT_EQ(as.dtype, DType::I32);
  OpAttrs k;
  k.dim = -2;
  k.stop = shapes::min(SymInt(4), n);
  const size_t guards = env.guards().size();
  EXPECT_EQ(toString(one(OpKind::Topk, {f32({n, 3})}, k).shape), "[min(s0, 4), 3]");
  EXPECT_EQ(env.guards().size(), guards);
  k.stop = SymInt(4);
  k.dim = 1;
  EXPECT_EQ(errorOf(OpKind::Topk, {f32({2, 3})}, k).first, ErrorKind::IndexError);
  k.dim = 2;
  EXPECT_EQ(errorOf(OpKind::Topk, {f32({2, 3})}, k).first, ErrorKind::IndexError);
  EXPECT_EQ(shapeOf(OpKind::Searchsorted, {f32({5}), f32({2, 7})}), "[2, 7]");
  EXPECT_EQ(shapeOf(OpKind::Searchsorted, {f32({2, 5}), f32({2, 7})}), "[2, 7]");
  EXPECT_EQ(errorOf(OpKind::Searchsorted, {f32({2, 5}), f32({3, 7})}).first, ErrorKind::ShapeError);
  auto keep = one(OpKind::Nms, {f32({n, 4}), f32({n})});
  EXPECT_EQ(toString(keep.shape), "[u0]");
  EXPECT_TRUE(evaluate(keep.shape[0] <= n));
  EXPECT_EQ(errorOf(OpKind::Nms, {f32({3, 5}), f32({3})}).first, ErrorKind::ShapeError);
  EXPECT_EQ(errorOf(OpKind::Nms, {f32({3, 4}), f32({2})}, {.outputSize = 1}).first,
            ErrorKind::ShapeError);
}

TEST(ShapeRules, DataDependentWithoutEnvIsAnError) {
  EXPECT_EQ(errorOf(OpKind::Nonzero, {f32({3})}).first, ErrorKind::DataDependentError);
}

TEST(ShapeRules, NNOps) {
  EXPECT_EQ(shapeOf(OpKind::Linear, {f32({8, 4}), f32({16, 4}), f32({16})}), "[8, 16]");
  EXPECT_EQ(errorOf(OpKind::Linear, {f32({8, 4}), f32({16, 5})}).first, ErrorKind::ShapeError);
  EXPECT_EQ(shapeOf(OpKind::Softmax, {f32({2, 3})}, {.dim = -1}), "[2, 3]");
  EXPECT_EQ(
      shapeOf(OpKind::LayerNorm, {f32({2, 3, 4}), f32({3, 4}), f32({3, 4})}, {.shape = {3, 4}}),
      "[2, 3, 4]");
  EXPECT_EQ(errorOf(OpKind::LayerNorm, {f32({2, 3, 4})}, {.shape = {4, 4}}).first,
            ErrorKind::ShapeError);
  EXPECT_EQ(shapeOf(OpKind::MseLoss, {f32({2, 3}), f32({2, 3})}), "[]");
  EXPECT_EQ(shapeOf(OpKind::CrossEntropy, {f32({5, 10}), {{5}, DType::I32}}), "[]");
  EXPECT_EQ(errorOf(OpKind::CrossEntropy, {f32({5, 10}), f32({5})}).first, ErrorKind::TypeError);
  EXPECT_EQ(errorOf(OpKind::Dropout, {f32({2})}, {.p = 1.5}).first, ErrorKind::ValueError);
}

TEST(ShapeRules, CreationOps) {
  EXPECT_EQ(shapeOf(OpKind::Full, {}, {.shape = {2, 3}}), "[2, 3]");
  EXPECT_EQ(shapeOf(OpKind::Arange, {}, {.start = 0, .stop = 10, .step = 3}), "[4]");
  EXPECT_EQ(shapeOf(OpKind::Arange, {}, {.start = 10, .stop = 0, .step = -3}), "[4]");
  EXPECT_EQ(shapeOf(OpKind::Arange, {}, {.start = 5, .stop = 2}), "[0]");
  EXPECT_EQ(shapeOf(OpKind::Eye, {}, {.shape = {3}}), "[3, 3]");
  EXPECT_EQ(one(OpKind::Randint, {}, {.shape = {4}}).dtype, DType::I32);
  EXPECT_EQ(errorOf(OpKind::Full, {}, {.shape = {2, -3}}).first, ErrorKind::ValueError);
  ShapeEnv env;
  SymInt n = env.createSymbol("n", 10, {.isSize = false});
  EXPECT_EQ(shapeOf(OpKind::Arange, {}, {.stop = n}), "[max(s0, 0)]");
}

// Every op in op_list.def has a rule: plausible constant inputs never hit an internal assert.
TEST(ShapeRules, EveryOpHasARule) {
  for (int i = 0; i < kNumOps; ++i) {
    auto op = static_cast<OpKind>(i);
    std::vector<Sig> in;
    OpAttrs a;
    switch (opCategory(op)) {
      case OpCategory::Unary:
        in = {f32({2, 3})};
        break;
      case OpCategory::Binary:
        in = {{{2, 3}, DType::Bool}, {{3}, DType::Bool}};
        break;
      case OpCategory::Ternary:
        in = {{{2, 3}, DType::Bool}, f32({3}), f32({2, 1})};
        break;
      case OpCategory::Reduce:
        in = {f32({2, 3})};
        a.dims = {1};
        break;
      case OpCategory::Shape:
        in = {f32({2, 3})};
        a.shape = {3, 2};
        a.dims = {1, 0};
        break;
      case OpCategory::Index:
        in = {f32({2, 3}), {{2, 3}, DType::I32}};
        break;
      case OpCategory::DataDependent:
        in = {f32({2, 3}), {{2, 3}, DType::Bool}, f32({6})};
        a.outputSize = 3;
        break;
      case OpCategory::NN:
        in = {f32({2, 3}), f32({3, 3})};
        a.shape = {3};
        break;
      case OpCategory::Create:
        a.shape = {2, 3};
        a.stop = 4;
        break;
      case OpCategory::Convert:
        in = {f32({2, 3})};
        break;
      case OpCategory::Sort:
        in = {f32({2, 3})};
        a.stop = 2;
        break;
      case OpCategory::Scan:
        in = {f32({2, 3})};
        a.dim = 1;
        break;
    }
    try {
      auto out = inferShape(op, in, a);
      EXPECT_EQ(out.size(), 1u) << opName(op);
    } catch (const UserError& e) {
      // arity/type errors are fine here; what matters is that nothing aborts
      SUCCEED() << opName(op) << ": " << e.what();
    }
  }
}

TEST(ShapeRules, ConstantPathNeedsNoEnv) {
  ASSERT_EQ(currentShapeEnv(), nullptr);
  for (int i = 0; i < 1000; ++i) {
    auto out = inferShape(OpKind::Add, std::vector<Sig>{f32({64, 1, 32}), f32({8, 32})}, {});
    ASSERT_EQ(toString(out[0].shape), "[64, 8, 32]");
  }
}

}  // namespace
}  // namespace tessel::shapes
