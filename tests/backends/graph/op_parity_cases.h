// The per-op cases of the graph parity tests: for every op of op_list.def, a small program
// built through a Harness, once as a graph with symbolic sizes n and m and once eagerly at
// concrete sizes. Used by tests/backends/graph/op_parity_test.cpp (graph against eager dispatch) and
// tests/backends/vulkan/graph_parity_test.cpp (vulkan executor against the cpu executor).
#pragma once

#include <array>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "shapes/elementwise_defs.h"
#include "shapes/pool_geometry.h"
#include "tests/backends/graph/compile_test_util.h"

namespace tessel::graph::testing {

/// One way of applying ops: to graph values (symbolic) or to eager tensors (concrete).
class Harness {
 public:
  virtual ~Harness() = default;
  /// An input of the given shape (sizes may use n and m) and data kind.
  virtual int input(const std::string& name, SymShape shape, DType dtype, Fill fill) = 0;
  virtual int op(OpKind op, std::vector<int> args, const OpAttrs& attrs = {}) = 0;
  SymInt n, m;  ///< the two varying sizes
};

class GraphHarness final : public Harness {
 public:
  explicit GraphHarness(ShapeEnv& env) : b(&env) {}
  int input(const std::string& name, SymShape shape, DType dtype, Fill) override {
    return static_cast<int>(b.input(name, std::move(shape), dtype));
  }
  int op(OpKind op, std::vector<int> args, const OpAttrs& attrs) override {
    std::vector<ValueId> ids(args.begin(), args.end());
    return static_cast<int>(b.op(op, ids, attrs));
  }
  GraphBuilder b;
};

class EagerHarness final : public Harness {
 public:
  explicit EagerHarness(uint32_t seed) : rng(seed) {}
  int input(const std::string&, SymShape shape, DType, Fill fill) override {
    Dims d;
    for (const SymInt& s : shape) d.push_back(s.constant());
    inputs.push_back(randomTensor(rng, d, fill));
    values.push_back(inputs.back());
    return static_cast<int>(values.size() - 1);
  }
  int op(OpKind op, std::vector<int> args, const OpAttrs& attrs) override {
    std::vector<Tensor> in;
    for (int a : args) in.push_back(values[a]);
    values.push_back(eager(op, in, attrs));
    return static_cast<int>(values.size() - 1);
  }
  std::mt19937 rng;
  std::vector<Tensor> inputs, values;
};

using Case = std::function<int(Harness&)>;

inline OpAttrs dims(std::vector<int64_t> d, bool keepdim = false) {
  OpAttrs a;
  a.dims = std::move(d);
  a.keepdim = keepdim;
  return a;
}
inline OpAttrs dim(int64_t d) {
  OpAttrs a;
  a.dim = d;
  return a;
}
inline OpAttrs shape(SymShape s) {
  OpAttrs a;
  a.shape = std::move(s);
  return a;
}

inline Case unary(OpKind op, DType dtype = DType::F32, Fill fill = Fill::Float) {
  return [=](Harness& h) { return h.op(op, {h.input("x", {h.n, h.m}, dtype, fill)}); };
}
// b is broadcast along the first dim.
inline Case binary(OpKind op, DType dtype = DType::F32, Fill fa = Fill::Float, Fill fb = Fill::Float) {
  return [=](Harness& h) {
    int a = h.input("a", {h.n, h.m}, dtype, fa);
    int b = h.input("b", {h.m}, dtype, fb);
    return h.op(op, {a, b});
  };
}
inline Case reduce(OpKind op, OpAttrs attrs, DType dtype = DType::F32, Fill fill = Fill::Float) {
  return [=](Harness& h) { return h.op(op, {h.input("x", {h.n, h.m}, dtype, fill)}, attrs); };
}

/// [n] i32 counts 1 + a - roll(a, 1) of a random 0/1 input a: values in {0, 1, 2}, sum n.
inline int jaggedCounts(Harness& h) {
  using K = OpKind;
  int a = h.input("a", {h.n}, DType::I32, Fill::Index);
  OpAttrs head, tail, cat0, one;
  head.dim = tail.dim = cat0.dim = 0;
  head.start = SymInt(1);
  tail.start = SymInt(0);
  tail.stop = SymInt(1);
  one.scalars = {1};
  one.dtype = DType::I32;
  int rolled = h.op(K::Cat, {h.op(K::Slice, {a}, head), h.op(K::Slice, {a}, tail)}, cat0);
  return h.op(K::Sub, {h.op(K::Add, {h.op(K::Full, {}, one), a}), rolled});
}

inline std::map<OpKind, Case> cases() {
  using K = OpKind;
  std::map<OpKind, Case> c;
  for (K k : {K::Neg, K::Exp, K::Abs, K::Sin, K::Cos, K::Tanh, K::Sigmoid, K::Relu, K::Gelu})
    c[k] = unary(k);
  for (K k : {K::Log, K::Sqrt, K::Rsqrt}) c[k] = unary(k, DType::F32, Fill::Positive);
  c[K::LogicalNot] = unary(K::LogicalNot, DType::Bool, Fill::Bool);
  for (K k :
       {K::Add, K::Sub, K::Mul, K::Maximum, K::Minimum, K::Eq, K::Ne, K::Lt, K::Le, K::Gt, K::Ge})
    c[k] = binary(k, DType::I32, Fill::Int, Fill::Int);
  for (K k : {K::Div, K::FloorDiv, K::Mod})
    c[k] = binary(k, DType::F32, Fill::Float, Fill::Positive);
  c[K::Pow] = binary(K::Pow, DType::F32, Fill::Positive, Fill::Float);
  c[K::GeluBackward] = binary(K::GeluBackward, DType::F32, Fill::Float, Fill::Float);
  c[K::LogicalAnd] = binary(K::LogicalAnd, DType::Bool, Fill::Bool, Fill::Bool);
  c[K::LogicalOr] = binary(K::LogicalOr, DType::Bool, Fill::Bool, Fill::Bool);
  c[K::Where] = [](Harness& h) {
    int cond = h.input("c", {h.n, h.m}, DType::Bool, Fill::Bool);
    int a = h.input("a", {h.n, h.m}, DType::F32, Fill::Float);
    int b = h.input("b", {h.m}, DType::F32, Fill::Float);
    return h.op(K::Where, {cond, a, b});
  };
  c[K::Clamp] = [](Harness& h) {
    int x = h.input("x", {h.n, h.m}, DType::F32, Fill::Float);
    int lo = h.input("lo", {}, DType::F32, Fill::Float);
    int hi = h.input("hi", {h.m}, DType::F32, Fill::Positive);
    return h.op(K::Clamp, {x, lo, hi});
  };
  c[K::Sum] = reduce(K::Sum, dims({1}));
  c[K::Cumsum] = reduce(K::Cumsum, dim(0));
  c[K::Cumprod] = reduce(K::Cumprod, dim(-1), DType::F32, Fill::Positive);
  c[K::Mean] = reduce(K::Mean, dims({0}, true));
  c[K::Max] = reduce(K::Max, dims({1}));
  c[K::Min] = reduce(K::Min, dims({}));
  c[K::Argmax] = reduce(K::Argmax, dims({1}));
  c[K::Argmin] = reduce(K::Argmin, dims({0}));
  c[K::All] = reduce(K::All, dims({1}), DType::Bool, Fill::Bool);
  c[K::Any] = reduce(K::Any, dims({}), DType::Bool, Fill::Bool);
  c[K::Reshape] = [](Harness& h) {
    return h.op(K::Reshape, {h.input("x", {h.n, h.m}, DType::F32, Fill::Float)},
                shape({h.m, SymInt(-1)}));
  };
  c[K::Transpose] = [](Harness& h) {
    return h.op(K::Transpose, {h.input("x", {h.n, h.m}, DType::F32, Fill::Float)}, dims({0, 1}));
  };
  c[K::Permute] = [](Harness& h) {
    return h.op(K::Permute, {h.input("x", {h.n, h.m, 2}, DType::F32, Fill::Float)},
                dims({2, 0, 1}));
  };
  c[K::Unsqueeze] = [](Harness& h) {
    return h.op(K::Unsqueeze, {h.input("x", {h.n, h.m}, DType::F32, Fill::Float)}, dim(1));
  };
  c[K::Squeeze] = [](Harness& h) {
    return h.op(K::Squeeze, {h.input("x", {h.n, 1, h.m}, DType::F32, Fill::Float)}, dims({1}));
  };
  c[K::Flatten] = [](Harness& h) {
    OpAttrs a = dim(1);
    a.endDim = 2;
    return h.op(K::Flatten, {h.input("x", {h.n, h.m, 2}, DType::F32, Fill::Float)}, a);
  };
  c[K::Expand] = [](Harness& h) {
    return h.op(K::Expand, {h.input("x", {1, h.m}, DType::F32, Fill::Float)}, shape({h.n, h.m}));
  };
  c[K::Cat] = [](Harness& h) {
    int a = h.input("a", {h.n, h.m}, DType::F32, Fill::Float);
    int b = h.input("b", {h.n, 2}, DType::I32, Fill::Int);
    return h.op(K::Cat, {a, b}, dim(1));
  };
  c[K::Stack] = [](Harness& h) {
    int a = h.input("a", {h.n, h.m}, DType::F32, Fill::Float);
    int b = h.input("b", {h.n, h.m}, DType::F32, Fill::Float);
    return h.op(K::Stack, {a, b}, dim(1));
  };
  c[K::Slice] = [](Harness& h) {
    OpAttrs a = dim(0);
    a.start = SymInt(1);
    a.stop = h.n - SymInt(1);
    a.step = 2;
    return h.op(K::Slice, {h.input("x", {h.n, h.m}, DType::F32, Fill::Float)}, a);
  };
  c[K::Select] = [](Harness& h) {
    OpAttrs a = dim(1);
    a.index = h.m - SymInt(1);
    return h.op(K::Select, {h.input("x", {h.n, h.m}, DType::F32, Fill::Float)}, a);
  };
  c[K::IndexSelect] = [](Harness& h) {
    int x = h.input("x", {h.n, h.m}, DType::F32, Fill::Float);
    int idx = h.input("i", {h.m}, DType::I32, Fill::Index);
    return h.op(K::IndexSelect, {x, idx}, dim(0));
  };
  c[K::Gather] = [](Harness& h) {
    int x = h.input("x", {h.n, h.m}, DType::F32, Fill::Float);
    int idx = h.input("i", {h.n, h.m}, DType::I32, Fill::Index);
    return h.op(K::Gather, {x, idx}, dim(1));
  };
  // Writes along a dim: sums over duplicate indices (Fill::Index is 0 or 1), assignments to
  // distinct targets only (which duplicate wins is unspecified on a GPU, as in PyTorch).
  c[K::IndexAdd] = [](Harness& h) {
    int x = h.input("x", {h.n, h.m}, DType::F32, Fill::Float);
    int idx = h.input("i", {h.m}, DType::I32, Fill::Index);
    int src = h.input("s", {h.m, h.m}, DType::F32, Fill::Float);
    OpAttrs a = dim(0);
    a.scalars = {0.5};
    return h.op(K::IndexAdd, {x, idx, src}, a);
  };
  c[K::IndexCopy] = [](Harness& h) {
    int x = h.input("x", {h.n, h.m}, DType::F32, Fill::Float);
    OpAttrs r;
    r.stop = h.m;
    r.dtype = DType::I32;
    int idx = h.op(K::Arange, {}, r);
    int src = h.input("s", {h.n, h.m}, DType::F32, Fill::Float);
    return h.op(K::IndexCopy, {x, idx, src}, dim(-1));
  };
  c[K::Scatter] = [](Harness& h) {
    int x = h.input("x", {h.n, h.m}, DType::I32, Fill::Int);
    int idx = h.input("i", {1, h.m}, DType::I32, Fill::Index);
    int src = h.input("s", {h.n, h.m}, DType::I32, Fill::Int);
    return h.op(K::Scatter, {x, idx, src}, dim(0));
  };
  c[K::ScatterAdd] = [](Harness& h) {
    int x = h.input("x", {h.n, h.m}, DType::F32, Fill::Float);
    int idx = h.input("i", {h.n, h.m}, DType::I32, Fill::Index);
    int src = h.input("s", {h.n, h.m}, DType::F32, Fill::Float);
    return h.op(K::ScatterAdd, {x, idx, src}, dim(1));
  };
  c[K::ScatterReduce] = [](Harness& h) {
    int x = h.input("x", {h.n, h.m}, DType::F32, Fill::Float);
    int idx = h.input("i", {h.n, h.m}, DType::I32, Fill::Index);
    int src = h.input("s", {h.n, h.m}, DType::F32, Fill::Float);
    OpAttrs a = dim(1);
    a.scatterMode = shapes::ScatterMode::Amax;
    a.includeSelf = false;
    return h.op(K::ScatterReduce, {x, idx, src}, a);
  };
  c[K::Nonzero] = [](Harness& h) {
    return h.op(K::Nonzero, {h.input("x", {h.n, h.m}, DType::Bool, Fill::Bool)});
  };
  c[K::MaskedSelect] = [](Harness& h) {
    int x = h.input("x", {h.n, h.m}, DType::F32, Fill::Float);
    int mask = h.input("mask", {h.n, h.m}, DType::Bool, Fill::Bool);
    return h.op(K::MaskedSelect, {x, mask});
  };
  c[K::MaskedScatter] = [](Harness& h) {
    int x = h.input("x", {h.n, h.m}, DType::F32, Fill::Float);
    int mask = h.input("mask", {h.n, h.m}, DType::Bool, Fill::Bool);
    int src = h.input("src", {h.n, h.m}, DType::F32, Fill::Float);
    return h.op(K::MaskedScatter, {x, mask, src});
  };
  // Jagged ops. Repeats/lengths r = 1 + a - roll(a) for a random 0/1 vector a: values 0, 1, 2
  // (empty segments included) that always sum to n, so output_size = n is known and the tpu
  // has its bound. bincount's size (max + 1) has none there: tpu/parity_test.cpp skips it.
  c[K::RepeatInterleave] = [](Harness& h) {
    int x = h.input("x", {h.n, h.m}, DType::F32, Fill::Float);
    OpAttrs a = dim(0);
    a.shape = {h.n};
    return h.op(K::RepeatInterleave, {x, jaggedCounts(h)}, a);
  };
  c[K::Bincount] = [](Harness& h) {
    int x = h.input("x", {h.n}, DType::I32, Fill::Index);
    int w = h.input("w", {h.n}, DType::F32, Fill::Float);
    OpAttrs a;
    a.scalars = {3};
    return h.op(K::Bincount, {x, w}, a);
  };
  c[K::SegmentReduce] = [](Harness& h) {
    int x = h.input("x", {h.m, h.n}, DType::F32, Fill::Float);
    OpAttrs a = dim(1);
    a.scatterMode = shapes::ScatterMode::Amax;
    return h.op(K::SegmentReduce, {x, jaggedCounts(h)}, a);
  };
  // A captured item() of a reduction; the value binding a symbol is covered by the golden
  // scripts compile/captured_items*.dsl and tpu/captured_items_on_tpu.dsl on every device.
  c[K::Item] = [](Harness& h) {
    return h.op(K::Item, {h.op(K::Sum, {h.input("x", {h.n, h.m}, DType::I32, Fill::Int)})});
  };
  c[K::Unique] = [](Harness& h) {
    return h.op(K::Unique, {h.input("x", {h.n}, DType::I32, Fill::Int)});
  };
  // Sorting: i32 keys with ties (stable order), topk of a size expression, a sorted
  // sequence made by a cumsum of positives, nms of overlapping boxes.
  c[K::Argsort] = [](Harness& h) {
    OpAttrs a = dim(1);
    a.descending = true;
    return h.op(K::Argsort, {h.input("x", {h.n, h.m}, DType::I32, Fill::Int)}, a);
  };
  c[K::Topk] = [](Harness& h) {
    OpAttrs a = dim(0);
    a.stop = shapes::min(h.n, SymInt(2));
    return h.op(K::Topk, {h.input("x", {h.n, h.m}, DType::F32, Fill::Float)}, a);
  };
  c[K::Searchsorted] = [](Harness& h) {
    int s = h.op(K::Cumsum, {h.input("s", {h.n}, DType::F32, Fill::Positive)}, dim(0));
    OpAttrs a;
    a.right = true;
    return h.op(K::Searchsorted, {s, h.input("v", {h.m, 3}, DType::F32, Fill::Positive)}, a);
  };
  c[K::Nms] = [](Harness& h) {
    int xy = h.input("xy", {h.n, 2}, DType::F32, Fill::Float);
    int wh = h.input("wh", {h.n, 2}, DType::F32, Fill::Positive);
    int boxes = h.op(K::Cat, {xy, h.op(K::Add, {xy, wh})}, dim(1));
    OpAttrs a;
    a.scalars = {0.3};
    return h.op(K::Nms, {boxes, h.input("s", {h.n}, DType::F32, Fill::Float)}, a);
  };
  c[K::Matmul] = [](Harness& h) {
    int a = h.input("a", {h.n, h.m}, DType::F32, Fill::Float);
    int b = h.input("b", {h.m, 3}, DType::F32, Fill::Float);
    return h.op(K::Matmul, {a, b});
  };
  c[K::Softmax] = reduce(K::Softmax, dim(1));
  c[K::LogSoftmax] = reduce(K::LogSoftmax, dim(0));
  c[K::LayerNorm] = [](Harness& h) {
    int x = h.input("x", {h.n, h.m}, DType::F32, Fill::Float);
    int w = h.input("w", {h.m}, DType::F32, Fill::Float);
    int b = h.input("b", {h.m}, DType::F32, Fill::Float);
    OpAttrs a = shape({h.m});
    a.eps = 1e-5;
    return h.op(K::LayerNorm, {x, w, b}, a);
  };
  c[K::LayerNormBackward] = [](Harness& h) {
    int g = h.input("g", {h.n, h.m}, DType::F32, Fill::Float);
    int x = h.input("x", {h.n, h.m}, DType::F32, Fill::Float);
    int w = h.input("w", {h.m}, DType::F32, Fill::Float);
    OpAttrs a = shape({h.m});
    a.eps = 1e-5;
    return h.op(K::LayerNormBackward, {g, x, w}, a);
  };
  c[K::Linear] = [](Harness& h) {
    int x = h.input("x", {h.n, h.m}, DType::F32, Fill::Float);
    int w = h.input("w", {4, h.m}, DType::F32, Fill::Float);
    int b = h.input("b", {4}, DType::F32, Fill::Float);
    return h.op(K::Linear, {x, w, b});
  };
  c[K::MseLoss] = [](Harness& h) {
    int a = h.input("a", {h.n, h.m}, DType::F32, Fill::Float);
    int b = h.input("b", {h.n, h.m}, DType::F32, Fill::Float);
    return h.op(K::MseLoss, {a, b});
  };
  c[K::CrossEntropy] = [](Harness& h) {
    int logits = h.input("logits", {h.n, h.m}, DType::F32, Fill::Float);
    int labels = h.input("labels", {h.n}, DType::I32, Fill::Index);
    OpAttrs ignore;  // ignore_index: labels are 0 or 1, so some rows are ignored
    ignore.scalars = {1};
    return h.op(K::Add, {h.op(K::CrossEntropy, {logits, labels}),
                         h.op(K::CrossEntropy, {logits, labels}, ignore)});
  };
  c[K::Dropout] = [](Harness& h) {
    OpAttrs a;
    a.p = 0.3;
    return h.op(K::Dropout, {h.input("x", {h.n, h.m}, DType::F32, Fill::Float)}, a);
  };
  c[K::Full] = [](Harness& h) {
    OpAttrs a = shape({h.n, 2});
    a.scalars = {1.5};
    return h.op(K::Full, {}, a);
  };
  c[K::Arange] = [](Harness& h) {
    OpAttrs a;
    a.start = SymInt(1);
    a.stop = h.n * SymInt(2);
    a.step = 3;
    a.dtype = DType::I32;
    return h.op(K::Arange, {}, a);
  };
  c[K::Eye] = [](Harness& h) { return h.op(K::Eye, {}, shape({h.n, h.m})); };
  c[K::Rand] = [](Harness& h) { return h.op(K::Rand, {}, shape({h.n, h.m})); };
  c[K::Randn] = [](Harness& h) { return h.op(K::Randn, {}, shape({h.n})); };
  c[K::Randint] = [](Harness& h) {
    OpAttrs a = shape({h.n, h.m});
    a.scalars = {0, 10};
    a.dtype = DType::I32;
    return h.op(K::Randint, {}, a);
  };
  // Sampling: probabilities from sigmoid (never all zero), sizes symbolic.
  c[K::Randperm] = [](Harness& h) { return h.op(K::Randperm, {}, shape({h.n})); };
  c[K::Multinomial] = [](Harness& h) {
    int x = h.input("x", {h.n, h.m}, DType::F32, Fill::Float);
    OpAttrs a = shape({h.m});
    a.scalars = {0};
    return h.op(K::Multinomial, {h.op(K::Sigmoid, {x})}, a);
  };
  c[K::Bernoulli] = [](Harness& h) {
    int x = h.input("x", {h.n, h.m}, DType::F32, Fill::Float);
    return h.op(K::Bernoulli, {h.op(K::Sigmoid, {x})});
  };
  // Fused attention: T = n queries, S = m keys, batch dims that broadcast, an
  // additive mask broadcast over the heads, causal with T != S (never a row without keys),
  // a given scale; the logsumexp with a bool mask (a row without keys is -inf there); the
  // backward fed the forward's own output and logsumexp.
  c[K::Attention] = [](Harness& h) {
    int q = h.input("q", {2, 3, h.n, 5}, DType::F32, Fill::Float);
    int k = h.input("k", {3, h.m, 5}, DType::F32, Fill::Float);
    int v = h.input("v", {1, h.m, 4}, DType::F32, Fill::Float);
    int mask = h.input("mask", {2, 1, h.n, h.m}, DType::F32, Fill::Float);
    OpAttrs causal, scaled;
    causal.causal = true;
    scaled.scalars = {0.7};
    return h.op(K::Add, {h.op(K::Attention, {q, k, v}, causal),
                         h.op(K::Attention, {q, k, v, mask}, scaled)});
  };
  c[K::AttentionLse] = [](Harness& h) {
    int q = h.input("q", {h.n, 5}, DType::F32, Fill::Float);
    int k = h.input("k", {h.m, 5}, DType::F32, Fill::Float);
    int v = h.input("v", {h.m, 3}, DType::F32, Fill::Float);
    int mask = h.input("mask", {h.n, h.m}, DType::Bool, Fill::Bool);
    OpAttrs causal;
    causal.causal = true;
    return h.op(K::Add, {h.op(K::AttentionLse, {q, k, v, mask}),
                         h.op(K::AttentionLse, {q, k, v}, causal)});
  };
  c[K::AttentionBackward] = [](Harness& h) {
    int q = h.input("q", {2, h.n, 5}, DType::F32, Fill::Float);
    int k = h.input("k", {2, h.m, 5}, DType::F32, Fill::Float);
    int v = h.input("v", {h.m, 3}, DType::F32, Fill::Float);
    int dout = h.input("dout", {2, h.n, 3}, DType::F32, Fill::Float);
    OpAttrs causal;
    causal.causal = true;
    int out = h.op(K::Attention, {q, k, v}, causal);
    int lse = h.op(K::AttentionLse, {q, k, v}, causal);
    return h.op(K::AttentionBackward, {q, k, v, out, dout, lse}, causal);
  };
  c[K::Cast] = [](Harness& h) {
    OpAttrs a;
    a.dtype = DType::I32;
    return h.op(K::Cast, {h.input("x", {h.n, h.m}, DType::F32, Fill::Float)}, a);
  };
  c[K::Contiguous] = [](Harness& h) {
    int t = h.op(K::Transpose, {h.input("x", {h.n, h.m}, DType::F32, Fill::Float)}, dims({0, 1}));
    return h.op(K::Contiguous, {t});
  };
  // The ops of ops/elementwise.ops, from their definitions: f32 arguments (a third one
  // broadcast along the second dim), i32 ones where the op keeps integers and checks no
  // divisor (those take a positive f32 divisor).
  for (const shapes::ElementwiseDef& d : shapes::elementwiseDefs()) {
    const bool ints = d.hasInt && !d.intDivisor;
    const DType t = ints ? DType::I32 : DType::F32;
    const Fill f = ints ? Fill::Int : Fill::Float;
    const Fill fb = d.intDivisor ? Fill::Positive : f;
    c[d.op] = [op = d.op, arity = d.arity, t, f, fb](Harness& h) {
      std::vector<int> in = {h.input("a", {h.n, h.m}, t, f)};
      if (arity >= 2) in.push_back(h.input("b", {h.m}, t, fb));
      if (arity >= 3) in.push_back(h.input("c", {h.n, 1}, t, f));
      return h.op(op, in);
    };
  }
  // Some ops of the definitions again, on the inputs that matter to them: halves for round
  // (floor(4x) / 2), NaN and inf from log and exp, log1p above -1.
  c[K::Log1p] = unary(K::Log1p, DType::F32, Fill::Positive);
  c[K::Round] = [](Harness& h) {
    OpAttrs four, half;
    four.scalars = {4.0};
    half.scalars = {0.5};
    int x = h.input("x", {h.n, h.m}, DType::F32, Fill::Float);
    int x4 = h.op(K::Mul, {x, h.op(K::Full, {}, four)});
    return h.op(K::Round, {h.op(K::Mul, {h.op(K::Floor, {x4}), h.op(K::Full, {}, half)})});
  };
  c[K::Isnan] = [](Harness& h) {
    return h.op(K::Isnan, {h.op(K::Log, {h.input("x", {h.n, h.m}, DType::F32, Fill::Float)})});
  };
  c[K::Isinf] = [](Harness& h) {
    OpAttrs big;
    big.scalars = {60.0};
    int x = h.input("x", {h.n, h.m}, DType::F32, Fill::Float);
    return h.op(K::Isinf, {h.op(K::Exp, {h.op(K::Mul, {x, h.op(K::Full, {}, big)})})});
  };
  c[K::Isfinite] = [](Harness& h) {
    int x = h.input("x", {h.n, h.m}, DType::F32, Fill::Float);
    int i = h.input("i", {h.m}, DType::I32, Fill::Int);
    return h.op(K::LogicalAnd, {h.op(K::Isfinite, {h.op(K::Log, {x})}), h.op(K::Isfinite, {i})});
  };
  c[K::Detach] = unary(K::Detach);
  // conv2d and its backward ops: batch n, width m + 2 (odd and even), every option at once
  // (stride, uneven padding, dilation, groups); the backward ops' gy has conv2d's output shape.
  auto convAttrs = [](SymShape result) {
    OpAttrs a = shape(std::move(result));
    a.conv.stride = {2, 1};
    a.conv.padBegin = {1, 0};
    a.conv.padEnd = {1, 1};
    a.conv.dilation = {1, 2};
    a.conv.groups = 2;
    return a;
  };
  c[K::Conv2d] = [convAttrs](Harness& h) {
    int x = h.input("x", {h.n, 4, 5, h.m + 2}, DType::F32, Fill::Float);
    int w = h.input("w", {6, 2, 3, 2}, DType::F32, Fill::Float);
    int b = h.input("b", {6}, DType::F32, Fill::Float);
    return h.op(K::Conv2d, {x, w, b}, convAttrs({}));
  };
  c[K::Conv2dBackwardInput] = [convAttrs](Harness& h) {
    int gy = h.input("gy", {h.n, 6, 3, h.m + 1}, DType::F32, Fill::Float);
    int w = h.input("w", {6, 2, 3, 2}, DType::F32, Fill::Float);
    return h.op(K::Conv2dBackwardInput, {gy, w}, convAttrs({h.n, 4, 5, h.m + 2}));
  };
  c[K::Conv2dBackwardWeight] = [convAttrs](Harness& h) {
    int gy = h.input("gy", {h.n, 6, 3, h.m + 1}, DType::F32, Fill::Float);
    int x = h.input("x", {h.n, 4, 5, h.m + 2}, DType::F32, Fill::Float);
    return h.op(K::Conv2dBackwardWeight, {gy, x}, convAttrs({6, 2, 3, 2}));
  };
  // Pooling and resizing: images whose height and width are symbolic (an empty
  // batch where n is 0), output sizes as expressions; each backward op takes its forward's
  // output (of the same shape as the grad it expects) as the grad.
  auto pool = [](OpKind k, OpAttrs a) -> Case {
    return [=](Harness& h) {
      const SymShape xs{h.n, 2, h.m + 2, h.n + 1};
      int x = h.input("x", xs, DType::F32, Fill::Float);
      const OpKind fwd = shapes::poolForward(k);
      OpAttrs b = a;  // nearest: twice the height, a width of its own
      if (fwd == OpKind::Interpolate && b.shape.empty()) b.shape = {(h.m + 2) * 2, h.n + 3};
      if (fwd == k) return h.op(k, {x}, b);
      if (k == K::MaxPool2dDoubleBackward)  // its gradient operand has x's shape
        return h.op(k, {h.input("gg", xs, DType::F32, Fill::Float), x}, b);
      int g = h.op(fwd, {h.input("g", xs, DType::F32, Fill::Float)}, b);
      return h.op(k, {g, x}, b);
    };
  };
  OpAttrs maxA, avgA, adaptiveA, nearestA, bilinearA;
  maxA.pool.kernel[0] = maxA.pool.kernel[1] = 3;
  maxA.pool.stride[0] = maxA.pool.stride[1] = 2;
  maxA.pool.padding[0] = maxA.pool.padding[1] = 1;
  avgA.pool.kernel[0] = 3, avgA.pool.kernel[1] = 2;
  avgA.pool.stride[0] = 2, avgA.pool.stride[1] = 1;
  avgA.pool.padding[0] = 1;
  avgA.pool.countIncludePad = false;
  adaptiveA.shape = {3, 2};
  bilinearA.shape = {SymInt(4), SymInt(7)};
  bilinearA.pool.mode = shapes::InterpMode::Bilinear;
  for (auto [k, a] : std::vector<std::pair<OpKind, OpAttrs>>{
           {K::MaxPool2d, maxA}, {K::AvgPool2d, avgA}, {K::AdaptiveAvgPool2d, adaptiveA},
           {K::Interpolate, bilinearA}, {K::MaxPool2dBackward, maxA},
           {K::AvgPool2dBackward, avgA}, {K::AdaptiveAvgPool2dBackward, adaptiveA},
           {K::InterpolateBackward, nearestA}, {K::MaxPool2dDoubleBackward, maxA}})
    c[k] = pool(k, a);
  return c;
}

inline std::vector<OpKind> allOps() {
  return {
#define TESSEL_OP(Enum, name, cat) OpKind::Enum,
#include "shapes/op_list.def"
  };
}


/// The case of `op` followed by two more elementwise ops (times 2, negate), so that an
/// elementwise op runs inside a fused group.
inline Case fusedChain(const std::map<OpKind, Case>& c, OpKind op) {
  return [&c, op](Harness& h) {
    int r = c.at(op)(h);
    int two = h.op(OpKind::Full, {}, [] {
      OpAttrs a;
      a.scalars = {2};
      a.dtype = DType::I32;
      return a;
    }());
    return h.op(OpKind::Neg, {h.op(OpKind::Mul, {r, two})});
  };
}


/// A case built as a graph at hints n = 6, m = 4 (its ShapeEnv in scope while this lives),
/// and the options to compile it with (`fused`: elementwise fusion on). `max` bounds n and m
/// (the tpu needs a bound for every size).
struct CaseGraph {
  CaseGraph(const Case& build, bool fused, std::optional<int64_t> max = std::nullopt) {
    g.n = dynamicSize(env, "n", 6, max);
    g.m = dynamicSize(env, "m", 4, max);
    g.b.output(static_cast<ValueId>(build(g)));
    graph = g.b.build();
    options.fusion = fused;
  }
  ShapeEnv env;
  shapes::ScopedShapeEnv scope{&env};
  GraphHarness g{env};
  Graph graph;
  CompileOptions options;
};

/// Runs a case graph at each size (n, m) its guards admit, on the cpu executor and on `device`
/// (inputs moved there by `upload`), with the same inputs and random seed; errors must match in
/// kind, and `compare(got, want)` checks each result. Returns how many sizes ran without error.
inline int compareWithCpuExecutor(OpKind op, const Case& build, bool fuse, CaseGraph& c,
                                  GraphExecutable& device,
                                  std::span<const std::array<int64_t, 2>> sizes,
                                  const std::function<Tensor(const Tensor&)>& upload,
                                  const std::function<void(const Tensor&, const Tensor&)>& compare) {
  CpuGraphExecutor cpu(c.graph, c.options);
  shapes::GuardProgram guards = c.env.compileGuards();
  int ran = 0;
  for (auto [n, m] : sizes) {
    SCOPED_TRACE(std::string(shapes::opName(op)) + " at n=" + std::to_string(n) +
                 ", m=" + std::to_string(m) + (fuse ? " (fused)" : ""));
    const std::vector<int64_t> sources{n, m};
    if (!guards.passes(sources)) continue;  // e.g. index ops need n >= 2
    EagerHarness e(1234 + uint32_t(n * 31 + m));
    e.n = n;
    e.m = m;
    build(e);
    std::vector<Tensor> dev;
    for (const Tensor& t : e.inputs) dev.push_back(upload(t));
    const std::vector<int64_t> syms = guards.bindSymbols(sources);
    backends::seed(7);
    std::vector<Tensor> want;
    ErrorKind cpuErr = errorOf([&] { want = cpu.run(e.inputs, syms); });
    backends::seed(7);
    std::vector<Tensor> got;
    ErrorKind devErr = errorOf([&] { got = device.run(dev, syms); });
    EXPECT_EQ(devErr, cpuErr);
    if (cpuErr != ErrorKind::Interrupted || devErr != cpuErr) continue;
    ++ran;
    EXPECT_EQ(got.size(), 1u);
    if (got.size() == 1) compare(got[0], want[0]);
  }
  return ran;
}

/// Expects a case for every op of op_list.def.
inline void expectEveryOpHasACase() {
  const auto c = cases();
  for (OpKind op : allOps())
    EXPECT_TRUE(c.count(op)) << "no parity case for " << shapes::opName(op);
}

/// A parity check of one op's case (`fused`: the case is a fusedChain).
using CaseCheck = std::function<void(OpKind op, const Case& build, bool fused)>;

/// Runs `check` on the case of every op that has one; with `fused`, only on elementwise ops,
/// each inside its fusedChain.
inline void checkEveryCase(const CaseCheck& check, bool fused) {
  const auto c = cases();
  for (OpKind op : allOps()) {
    auto it = c.find(op);
    if (it == c.end()) continue;
    if (!fused)
      check(op, it->second, false);
    else if (isElementwise(op))
      check(op, fusedChain(c, op), true);
  }
}

}  // namespace tessel::graph::testing
