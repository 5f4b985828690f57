// The cases of every op (op_cases.h): one generator per op category.
#include "tests/backends/op_cases.h"

#include <cmath>
#include <functional>
#include <map>

#include "backends/dispatch.h"
#include "shapes/user_error.h"
#include "tests/backends/pool_cases.h"

namespace tessel::backends::testing {
namespace {

using shapes::OpAttrs;
using shapes::OpKind;

const DType kDTypes[] = {DType::F32, DType::I32, DType::Bool};

const std::vector<Dims>& unaryShapes() {
  static const std::vector<Dims> s = {{}, {0}, {1}, {7}, {3, 1}, {2, 3, 4}, {2, 0, 3}, {1037}};
  return s;
}

std::vector<Case> elementwiseCases(OpKind op, Gen& g) {
  std::vector<Case> cases;
  const auto cat = shapes::opCategory(op);
  const int arity = cat == shapes::OpCategory::Unary ? 1 : cat == shapes::OpCategory::Binary ? 2 : 3;
  std::vector<std::vector<Dims>> shapeSets;
  if (arity == 1) {
    for (const Dims& s : unaryShapes()) shapeSets.push_back({s});
  } else {
    const std::vector<std::vector<Dims>> pairs = {
        {{}, {}}, {{5}, {}}, {{3, 1}, {1, 4}}, {{2, 3, 4}, {4}}, {{0, 3}, {1, 3}},
        {{1}, {1}}, {{257}, {257}}, {{2, 1, 3, 1, 2, 2}, {1, 4, 3, 1, 1, 2}}};
    for (auto p : pairs) {
      if (arity == 3) p.push_back(p[0]);
      shapeSets.push_back(p);
    }
    for (int i = 0; i < 6; ++i) {  // random broadcastable shapes
      Dims s = g.randomShape(4, 4);
      Dims t = s;
      for (auto& d : t)
        if (g.pick(3) == 0) d = 1;
      std::vector<Dims> set = {s, t};
      if (arity == 3) set.push_back(g.pick(2) ? s : Dims{});
      shapeSets.push_back(set);
    }
  }
  for (const auto& shapes : shapeSets)
    for (DType t0 : kDTypes)
      for (DType t1 : kDTypes) {
        if (arity == 1 && t1 != DType::F32) continue;
        Case c;
        for (int i = 0; i < arity; ++i) {
          DType t = i == 0 ? t0 : t1;
          if (op == OpKind::Where && i == 0) t = t0 == DType::F32 ? DType::Bool : t0;
          c.inputs.push_back(g.tensor(shapes[i], t, i == 1));
        }
        cases.push_back(std::move(c));
      }
  // Strided (transposed) operands, and one rank-6 permuted operand.
  {
    Case c;
    for (int i = 0; i < arity; ++i) c.inputs.push_back(g.tensor({3, 4}, DType::F32, i == 1).transpose(0, 1));
    cases.push_back(std::move(c));
    Case d;
    const int64_t perm[] = {5, 3, 1, 0, 2, 4};
    for (int i = 0; i < arity; ++i)
      d.inputs.push_back(g.tensor({2, 3, 2, 3, 2, 3}, DType::F32, i == 1).permute(perm));
    cases.push_back(std::move(d));
  }
  if (op == OpKind::FloorDiv || op == OpKind::Mod) {  // integer division by zero
    Case c;
    c.inputs = {g.tensor({4}, DType::I32), Tensor::fromData(std::span<const int32_t>(std::vector<int32_t>{1, 0, 2, 3}), {4})};
    cases.push_back(std::move(c));
  }
  return cases;
}

std::vector<Case> reduceCases(OpKind op, Gen& g) {
  std::vector<Case> cases;
  const std::vector<std::pair<Dims, std::vector<int64_t>>> layouts = {
      {{2, 3, 4}, {}},     {{2, 3, 4}, {0}},  {{2, 3, 4}, {1}},   {{2, 3, 4}, {2}},
      {{2, 3, 4}, {0, 2}}, {{2, 3, 4}, {-1}}, {{0, 3}, {0}},      {{0, 3}, {1}},
      {{1}, {}},           {{}, {}},          {{1000}, {}},       {{5, 300}, {1}},
      {{300, 5}, {0}},     {{4, 1, 6}, {1}},  {{70000}, {}},     {{3, 0}, {}},
      {{70000, 2}, {0}}, {{2, 600000}, {1}}};
  for (const auto& [shape, dims] : layouts)
    for (DType t : kDTypes)
      for (bool keep : {false, true}) {
        Case c;
        c.inputs = {g.tensor(shape, t)};
        c.attrs.dims = dims;
        c.attrs.keepdim = keep;
        cases.push_back(std::move(c));
      }
  Case s;  // strided input
  s.inputs = {g.tensor({4, 5}, DType::F32).transpose(0, 1)};
  s.attrs.dims = {1};
  cases.push_back(std::move(s));
  return cases;
}

Case one(std::vector<Tensor> in, OpAttrs a = {}) { return {std::move(in), std::move(a), ""}; }

// cumsum/cumprod: every dim of a few layouts (one row longer than a chunk of scan_rows.comp,
// one long enough for its totals to be scanned in chunks too), empty and 0-d inputs, a strided
// input, every dtype, an out-of-range dim.
std::vector<Case> scanCases(OpKind op, Gen& g) {
  std::vector<Case> cases;
  const std::vector<std::pair<Dims, int64_t>> layouts = {
      {{2, 3, 4}, 0}, {{2, 3, 4}, 1}, {{2, 3, 4}, -1}, {{0, 3}, 1}, {{3, 0}, 0}, {{}, 0},
      {{1}, 0},       {{5, 1}, 1},    {{3, 2500}, 1},  {{1100, 2}, 0}, {{1, 1100000}, -1}};
  for (const auto& [shape, d] : layouts)
    for (DType t : kDTypes) {
      if (numelOf(shape) > 100000 && t != DType::I32) continue;
      const int64_t len = shape.empty() ? 1 : shape[d < 0 ? d + shape.size() : d];
      // Long f32 products under/overflow at different steps in float (vulkan) and double (cpu).
      if (op == OpKind::Cumprod && t == DType::F32 && len > 30) continue;
      OpAttrs a;
      a.dim = d;
      Tensor x = g.tensor(shape, t, op == OpKind::Cumprod);
      cases.push_back(one({x}, a));
    }
  OpAttrs a;
  a.dim = 0;
  cases.push_back(one({g.tensor({4, 5}, DType::F32).transpose(0, 1)}, a));
  a.dim = 2;
  cases.push_back(one({g.tensor({4, 5}, DType::F32)}, a));  // IndexError
  return cases;
}

std::vector<Case> shapeCases(OpKind op, Gen& g) {
  std::vector<Case> cases;
  for (DType t : kDTypes) {
    Tensor x = g.tensor({2, 3, 4}, t);
    Tensor xt = x.transpose(0, 2);
    OpAttrs a;
    switch (op) {
      case OpKind::Reshape:
        a.shape = {4, -1};
        cases.push_back(one({x}, a));
        cases.push_back(one({xt}, a));
        a.shape = {0, 5};
        cases.push_back(one({g.tensor({5, 0}, t)}, a));
        break;
      case OpKind::Transpose:
        a.dims = {0, 2};
        cases.push_back(one({x}, a));
        break;
      case OpKind::Permute:
        a.dims = {2, 0, 1};
        cases.push_back(one({x}, a));
        break;
      case OpKind::Unsqueeze:
        a.dim = -1;
        cases.push_back(one({x}, a));
        break;
      case OpKind::Squeeze:
        cases.push_back(one({g.tensor({1, 3, 1}, t)}, a));
        break;
      case OpKind::Flatten:
        a.dim = 1;
        a.endDim = -1;
        cases.push_back(one({xt}, a));
        break;
      case OpKind::Expand:
        a.shape = {2, 2, 3, 4};
        cases.push_back(one({x}, a));
        break;
      case OpKind::Cat:
      case OpKind::Stack:
        a.dim = 1;
        cases.push_back(one({x, x, xt.transpose(0, 2)}, a));
        a.dim = 0;
        cases.push_back(one({g.tensor({0, 3, 4}, t), x}, a));
        break;
      case OpKind::Slice:
        a.dim = 2;
        a.start = 1;
        a.stop = 4;
        a.step = 2;
        cases.push_back(one({x}, a));
        break;
      case OpKind::Select:
        a.dim = 1;
        a.index = -1;
        cases.push_back(one({x}, a));
        break;
      default:
        break;
    }
  }
  if (op == OpKind::Cat) cases.push_back(one({g.tensor({2}, DType::I32), g.tensor({3}, DType::F32)}));
  return cases;
}

}  // namespace

Tensor floats(std::vector<float> v, Dims shape) {
  return Tensor::fromData(std::span<const float>(v), std::move(shape));
}

namespace {

Tensor ints(std::vector<int32_t> v, Dims shape) {
  return Tensor::fromData(std::span<const int32_t>(v), std::move(shape));
}

// Writes along a dim: every mode and dtype, duplicate indices where the result does not
// depend on their order (sums of ints, max/min, products of ints), distinct targets for
// assignments, include_self both ways, empty and 0-d inputs, a scalar and a strided source,
// and out-of-range indices (IndexError on both).
std::vector<Case> scatterCases(OpKind op, Gen& g) {
  using shapes::ScatterMode;
  std::vector<Case> cases;
  const bool slices = op == OpKind::IndexAdd || op == OpKind::IndexCopy;
  const bool assign = op == OpKind::IndexCopy || op == OpKind::Scatter;
  std::vector<std::pair<ScatterMode, bool>> modes = {{ScatterMode::Sum, true}};
  if (op == OpKind::ScatterReduce)
    modes = {{ScatterMode::Sum, true},  {ScatterMode::Prod, false}, {ScatterMode::Mean, true},
             {ScatterMode::Mean, false}, {ScatterMode::Amax, true}, {ScatterMode::Amin, false}};
  for (DType t : kDTypes)
    for (auto [mode, self] : modes) {
      if (t == DType::Bool && mode == ScatterMode::Mean) continue;
      OpAttrs a;
      a.scatterMode = mode;
      a.includeSelf = self;
      Tensor x = g.tensor({4, 5}, t);
      if (slices) {
        a.dim = 0;
        if (op == OpKind::IndexAdd && t != DType::Bool) a.scalars = {2};
        // Sums of floats in another order differ in rounding only (the tolerance allows it).
        Tensor idx = assign ? ints({3, 0}, {2}) : ints({3, 0, 3, 1, 3}, {5});
        cases.push_back(one({x, idx, g.tensor({idx.numel(), 5}, t)}, a));
        a.dim = -1;
        cases.push_back(one({x, ints({4, 1}, {2}), g.tensor({5, 2}, t).transpose(0, 1).transpose(0, 1)}, a));
        cases.push_back(one({x, ints({}, {0}), g.tensor({4, 0}, t)}, a));
        cases.push_back(one({x, ints({5}, {1}), g.tensor({4, 1}, t)}, a));  // IndexError
        cases.push_back(one({x, ints({-1}, {1}), g.tensor({4, 1}, t)}, a));  // IndexError
      } else {
        a.dim = 1;
        // Distinct targets per row for assignments; duplicates otherwise.
        Tensor idx = assign ? ints({4, 0, 2, 1, 3, 0, 0, 1, 2, 3, 4, 2}, {4, 3})
                            : ints({4, 4, 2, 1, 1, 0, 0, 0, 0, 3, 4, 3}, {4, 3});
        // f32 sums/products/means in another order differ in rounding: use the i32 cases' shape.
        cases.push_back(one({x, idx, g.tensor({4, 3}, t)}, a));
        cases.push_back(one({x, idx, g.tensor({5, 6}, t)}, a));  // a larger source
        a.dim = 0;
        cases.push_back(one({x, ints({3, 0, 1, 2, 0}, {1, 5}), g.tensor({2, 5}, t).transpose(0, 1).transpose(0, 1)}, a));
        cases.push_back(one({g.tensor({}, t), ints({0}, {}), g.tensor({}, t)}, a));
        cases.push_back(one({x, ints({}, {0, 5}), g.tensor({0, 5}, t)}, a));
        cases.push_back(one({x, ints({4}, {1, 1}), g.tensor({1, 1}, t)}, a));  // IndexError
        if (op == OpKind::Scatter) cases.push_back(one({x, ints({1, 2}, {1, 2}), g.tensor({}, t)}, a));
      }
    }
  return cases;
}

std::vector<Case> indexCases(OpKind op, Gen& g) {
  if (op != OpKind::IndexSelect && op != OpKind::Gather) return scatterCases(op, g);
  std::vector<Case> cases;
  for (DType t : kDTypes) {
    Tensor x = g.tensor({4, 5}, t);
    OpAttrs a;
    if (op == OpKind::IndexSelect) {
      a.dim = 0;
      cases.push_back(one({x, ints({3, -1, 0}, {3})}, a));
      a.dim = 1;
      cases.push_back(one({x.transpose(0, 1).transpose(0, 1), ints({4, 4, 2, 0}, {4})}, a));
      cases.push_back(one({x, ints({}, {0})}, a));
      cases.push_back(one({x, ints({5}, {1})}, a));  // IndexError
    } else {
      a.dim = 1;
      cases.push_back(one({x, ints({0, 4, 1, 1, 2, 3, -1, 0}, {4, 2})}, a));
      a.dim = 0;
      cases.push_back(one({x, ints({3, 2, 1, 0, 0}, {1, 5})}, a));
      cases.push_back(one({x, ints({9}, {1, 1})}, a));  // IndexError
    }
  }
  return cases;
}

std::vector<Case> nmsCases(Gen& g);

std::vector<Case> dataDependentCases(OpKind op, Gen& g) {
  if (op == OpKind::Nms) return nmsCases(g);
  std::vector<Case> cases;
  for (DType t : kDTypes)
    for (const Dims& s : std::vector<Dims>{{}, {0}, {7}, {3, 4}, {2, 3, 5}, {3000}}) {
      Tensor x = g.tensor(s, t);
      switch (op) {
        case OpKind::Nonzero:
        case OpKind::Unique:
          cases.push_back(one({x}));
          break;
        case OpKind::MaskedSelect:
          cases.push_back(one({x, g.tensor(s, DType::Bool)}));
          if (!s.empty()) cases.push_back(one({x, g.tensor({s.back()}, DType::Bool)}));
          break;
        case OpKind::MaskedScatter:
          cases.push_back(one({x, g.tensor(s, DType::Bool), g.tensor({numelOf(s)}, t)}));
          break;
        case OpKind::Item:  // one element, any rank (its value binds a symbol in a graph)
          if (numelOf(s) == 0) cases.push_back(one({g.tensor({1, 1}, t)}));
          if (s.empty()) cases.push_back(one({x}));
          break;
        default:
          break;
      }
    }
  if (op == OpKind::Unique) {
    std::vector<float> v = {3, 1, NAN, 2, 1, 3, NAN, -0.5f};
    cases.push_back(one({Tensor::fromData(std::span<const float>(v), {8})}));
  }
  return cases;
}

// argsort/topk: every dtype, each dim, both orders, ties (ints and bools), NaN and signed
// zeros, rows long enough for several merge passes, empty and 0-d inputs, k = 0 and k out of
// range (IndexError on both). searchsorted: 1-D and batched, both sides, mixed dtypes.
std::vector<Case> sortCases(OpKind op, Gen& g) {
  std::vector<Case> cases;
  if (op == OpKind::Searchsorted) {
    std::vector<float> s = {-1, 0, 0, 0.5f, 2, 2, 2, 7};
    Tensor seq = Tensor::fromData(std::span<const float>(s), {8});
    for (bool right : {false, true}) {
      OpAttrs a;
      a.right = right;
      cases.push_back(one({seq, g.tensor({4, 5}, DType::F32)}, a));
      cases.push_back(one({seq, ints({-3, 0, 2, 7, 9}, {5})}, a));
      cases.push_back(
          one({ints({1, 1, 3, 5, 2, 4, 4, 6}, {2, 4}), ints({1, 4, 0, 4, 7, 2}, {2, 3})}, a));
      cases.push_back(one({seq, g.tensor({}, DType::F32)}, a));
      cases.push_back(one({seq, g.tensor({0}, DType::F32)}, a));
    }
    return cases;
  }
  std::vector<float> special = {1, NAN, -0.0f, 0.0f, -INFINITY, 1, INFINITY, NAN, 0.0f, -2};
  Tensor sp = Tensor::fromData(std::span<const float>(special), {10});
  for (DType t : kDTypes)
    for (const Dims& s : std::vector<Dims>{{7}, {3, 4}, {2, 3, 5}, {2, 3000}, {0, 3}, {}})
      for (int64_t d : {0, -1})
        for (bool desc : {false, true}) {
          OpAttrs a;
          a.dim = d;
          a.descending = desc;
          const int64_t n = s.empty() ? 1 : s[size_t(d < 0 ? int64_t(s.size()) + d : d)];
          a.stop = shapes::SymInt(std::min<int64_t>(n, desc ? 3 : 1));
          cases.push_back(one({g.tensor(s, t)}, a));
        }
  for (bool desc : {false, true}) {
    OpAttrs a;
    a.dim = 0;
    a.descending = desc;
    a.stop = shapes::SymInt(4);
    cases.push_back(one({sp}, a));
    cases.push_back(one({g.tensor({5, 4}, DType::F32).transpose(0, 1)}, a));
  }
  OpAttrs bad;
  bad.stop = shapes::SymInt(op == OpKind::Topk ? 9 : 0);
  bad.dim = op == OpKind::Topk ? 0 : 2;
  cases.push_back(one({g.tensor({4, 5}, DType::F32)}, bad));  // IndexError
  if (op == OpKind::Topk) {
    bad.stop = shapes::SymInt(0);
    cases.push_back(one({g.tensor({4, 5}, DType::F32)}, bad));
  }
  return cases;
}

// nms: overlapping boxes (a dense cluster, so suppression happens), tied scores, no boxes,
// one box, thresholds 0 and 1, and the shape errors.
std::vector<Case> nmsCases(Gen& g) {
  std::vector<Case> cases;
  for (int64_t n : {0, 1, 6, 50, 300}) {
    Tensor xy = g.tensor({n, 2}, DType::F32);
    Tensor wh = g.tensor({n, 2}, DType::F32);
    std::vector<double> xs = xy.toDoubles(), ws = wh.toDoubles();
    std::vector<float> b;
    for (int64_t i = 0; i < n; ++i) {
      const float x = float(xs[size_t(2 * i)]) * 4, y = float(xs[size_t(2 * i + 1)]) * 4;
      b.insert(b.end(), {x, y, x + 1 + float(std::fabs(ws[size_t(2 * i)])) * 3,
                         y + 1 + float(std::fabs(ws[size_t(2 * i + 1)])) * 3});
    }
    Tensor boxes = Tensor::fromData(std::span<const float>(b), {n, 4});
    for (double thr : {0.0, 0.3, 0.7, 1.0}) {
      OpAttrs a;
      a.scalars = {thr};
      cases.push_back(one({boxes, g.tensor({n}, DType::F32)}, a));
    }
  }
  OpAttrs a;
  a.scalars = {0.5};
  std::vector<float> tied = {0.5f, 0.9f, 0.5f, 0.5f};
  std::vector<float> b4 = {0, 0, 2, 2, 5, 5, 6, 6, 0, 0, 2, 2, 1, 1, 3, 3};
  cases.push_back(one({Tensor::fromData(std::span<const float>(b4), {4, 4}),
                       Tensor::fromData(std::span<const float>(tied), {4})}, a));
  cases.push_back(one({g.tensor({3, 5}, DType::F32), g.tensor({3}, DType::F32)}, a));  // ShapeError
  cases.push_back(one({g.tensor({3, 4}, DType::F32), g.tensor({2}, DType::F32)}, a));  // ShapeError
  return cases;
}

// conv2d and its backward ops over odd image sizes, every option (stride, uneven padding,
// dilation, groups incl. depthwise), an empty batch, size-1 dims, a strided view, i32 input,
// and the shape errors (a kernel larger than the padded input, channels not matching groups).
struct ConvConfig {
  Dims x, w;
  std::array<int64_t, 2> stride, padBegin, padEnd, dilation;
  int64_t groups;
};
std::vector<Case> convCases(OpKind op, Gen& g) {
  const std::vector<ConvConfig> configs = {
      {{2, 3, 7, 9}, {4, 3, 3, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, 1},
      {{1, 4, 5, 6}, {6, 2, 3, 2}, {2, 1}, {1, 0}, {1, 1}, {1, 2}, 2},
      {{0, 3, 5, 5}, {2, 3, 3, 3}, {1, 1}, {0, 0}, {0, 0}, {1, 1}, 1},
      {{3, 1, 1, 1}, {1, 1, 1, 1}, {1, 1}, {0, 0}, {0, 0}, {1, 1}, 1},
      {{2, 6, 11, 8}, {6, 2, 3, 3}, {2, 3}, {0, 2}, {0, 2}, {2, 1}, 3},
      {{1, 4, 4, 5}, {4, 1, 1, 1}, {1, 1}, {0, 0}, {0, 0}, {1, 1}, 4},
      {{2, 8, 17, 13}, {16, 8, 5, 5}, {1, 1}, {2, 2}, {2, 2}, {1, 1}, 1},
      {{1, 3, 28, 28}, {5, 3, 3, 3}, {2, 2}, {1, 1}, {0, 0}, {1, 1}, 1},
      {{1, 2, 2, 2}, {2, 2, 3, 3}, {1, 1}, {0, 0}, {0, 0}, {1, 1}, 1},  // ShapeError: kernel
      {{1, 4, 5, 5}, {2, 3, 3, 3}, {1, 1}, {0, 0}, {0, 0}, {1, 1}, 1},  // ShapeError: channels
  };
  std::vector<Case> cases;
  for (const ConvConfig& k : configs) {
    OpAttrs a;
    a.conv = {k.stride, k.padBegin, k.padEnd, k.dilation, k.groups};
    Dims y = {k.x[0], k.w[0], 1, 1};
    for (int i = 0; i < 2; ++i)
      y[2 + i] = std::max<int64_t>(
          0, (k.x[2 + i] + k.padBegin[i] + k.padEnd[i] - k.dilation[i] * (k.w[2 + i] - 1) - 1) /
                     k.stride[i] + 1);
    Tensor x = g.tensor(k.x, DType::F32), w = g.tensor(k.w, DType::F32);
    Tensor gy = g.tensor(y, DType::F32);
    if (op == OpKind::Conv2d) {
      cases.push_back(one({x, w}, a));
      cases.push_back(one({x, w, g.tensor({k.w[0]}, DType::F32)}, a));
    } else if (op == OpKind::Conv2dBackwardInput) {
      a.shape = shapes::SymShape(k.x.begin(), k.x.end());
      cases.push_back(one({gy, w}, a));
    } else {
      a.shape = shapes::SymShape(k.w.begin(), k.w.end());
      cases.push_back(one({gy, x}, a));
    }
  }
  // A strided view (an NHWC tensor seen as NCHW) and an i32 input (computed in f32).
  OpAttrs a;
  a.conv.padBegin = a.conv.padEnd = {1, 1};
  Tensor nhwc = g.tensor({2, 5, 6, 3}, DType::F32).permute(Dims{0, 3, 1, 2});
  if (op == OpKind::Conv2d) {
    cases.push_back(one({nhwc, g.tensor({4, 3, 3, 3}, DType::F32)}, a));
    cases.push_back(one({g.tensor({1, 2, 4, 4}, DType::I32), g.tensor({3, 2, 2, 2}, DType::F32)}, a));
  } else if (op == OpKind::Conv2dBackwardWeight) {
    a.shape = {4, 3, 3, 3};
    cases.push_back(one({g.tensor({2, 4, 5, 6}, DType::F32), nhwc}, a));
  }
  return cases;
}

// Fused attention: T != S, causal with T != S, bool and additive masks of several broadcast
// shapes, batch dims that broadcast, Dv != D, tiles that do not divide T or S, size-1 and empty
// T and S, a given scale, a row whose every key is masked (NaN, forward only), and errors. The
// backward gets the cpu's own forward output and logsumexp (random ones would overflow exp).
std::vector<Case> attentionCases(OpKind op, Gen& g) {
  struct Spec {
    Dims q, k, v, mask;
    DType maskType = DType::F32;
    bool hasMask = false, causal = false, noKeysRow = false;
    double scale = 0;
  };
  const std::vector<Spec> specs = {
      {{5, 4}, {7, 4}, {7, 3}},
      {{2, 3, 5, 4}, {2, 3, 7, 4}, {2, 3, 7, 6}, {}, DType::F32, false, true},
      {{9, 4}, {3, 4}, {3, 2}, {}, DType::F32, false, true},
      {{2, 1, 70, 8}, {3, 65, 8}, {3, 65, 8}, {}, DType::F32, false, true},
      {{2, 3, 5, 4}, {3, 7, 4}, {1, 7, 4}, {5, 7}, DType::Bool, true},
      {{2, 3, 5, 4}, {3, 7, 4}, {1, 7, 4}, {2, 1, 5, 7}, DType::F32, true},
      {{2, 3, 5, 4}, {3, 7, 4}, {1, 7, 4}, {7}, DType::Bool, true},
      {{2, 3, 5, 4}, {3, 7, 4}, {1, 7, 4}, {3, 5, 1}, DType::F32, true},
      {{130, 20}, {150, 20}, {150, 33}, {130, 150}, DType::F32, true},
      {{1, 4}, {1, 4}, {1, 4}},
      {{0, 4}, {6, 4}, {6, 4}},
      {{3, 4}, {0, 4}, {0, 2}},
      {{4, 6}, {5, 6}, {5, 6}, {}, DType::F32, false, false, false, 0.3},
      {{4, 3}, {6, 3}, {6, 2}, {4, 6}, DType::Bool, true, false, true},
  };
  std::vector<Case> cases;
  for (const Spec& s : specs) {
    if (op == OpKind::AttentionBackward && s.noKeysRow) continue;
    OpAttrs a;
    a.causal = s.causal;
    if (s.scale != 0) a.scalars = {s.scale};
    std::vector<Tensor> in = {g.tensor(s.q, DType::F32), g.tensor(s.k, DType::F32),
                              g.tensor(s.v, DType::F32)};
    Tensor mask;
    if (s.hasMask) {
      mask = g.tensor(s.mask, s.maskType);
      if (s.maskType == DType::Bool && !s.noKeysRow) {
        // Keep key 0 in every row: a row without keys is NaN (tested on its own).
        std::vector<double> m = mask.toDoubles();
        std::vector<bool> b(m.size());
        const int64_t S = s.mask.back();
        for (size_t i = 0; i < m.size(); ++i) b[i] = m[i] != 0 || int64_t(i) % S == 0;
        mask = Tensor::fromBools(b, s.mask);
      } else if (s.noKeysRow) {
        std::vector<bool> b(size_t(numelOf(s.mask)), true);
        for (int64_t j = 0; j < s.mask.back(); ++j) b[size_t(s.mask.back() + j)] = false;
        mask = Tensor::fromBools(b, s.mask);
      }
    }
    if (op == OpKind::AttentionBackward) {
      std::vector<Tensor> fwd = in;
      if (s.hasMask) fwd.push_back(mask);
      Tensor out = dispatch(OpKind::Attention, fwd, a, Device::Cpu)[0];
      Tensor lse = dispatch(OpKind::AttentionLse, fwd, a, Device::Cpu)[0];
      in.push_back(out);
      in.push_back(g.tensor(out.shape(), DType::F32));
      in.push_back(lse);
    }
    if (s.hasMask) in.push_back(mask);
    cases.push_back(one(in, a));
  }
  // Errors: D differs, S differs, a mask that does not broadcast, an i32 mask.
  if (op != OpKind::AttentionBackward) {
    cases.push_back(one({g.tensor({3, 4}, DType::F32), g.tensor({5, 3}, DType::F32), g.tensor({5, 2}, DType::F32)}));
    cases.push_back(one({g.tensor({3, 4}, DType::F32), g.tensor({5, 4}, DType::F32), g.tensor({6, 2}, DType::F32)}));
    cases.push_back(one({g.tensor({3, 4}, DType::F32), g.tensor({5, 4}, DType::F32), g.tensor({5, 2}, DType::F32), g.tensor({4, 5}, DType::Bool)}));
    cases.push_back(one({g.tensor({3, 4}, DType::F32), g.tensor({5, 4}, DType::F32), g.tensor({5, 2}, DType::F32), g.tensor({3, 5}, DType::I32)}));
  }
  return cases;
}

std::vector<Case> nnCases(OpKind op, Gen& g) {
  std::vector<Case> cases;
  OpAttrs a;
  switch (op) {
    case OpKind::Conv2d:
    case OpKind::Conv2dBackwardInput:
    case OpKind::Conv2dBackwardWeight:
      return convCases(op, g);
    case OpKind::Matmul: {
      const std::vector<std::pair<Dims, Dims>> shapes = {
          {{3, 4}, {4, 5}},        {{4}, {4}},           {{2, 3, 4}, {4, 5}},
          {{2, 1, 3, 4}, {3, 4, 2}}, {{0, 3}, {3, 2}},   {{3, 0}, {0, 2}},
          {{70, 130}, {130, 65}},  {{5}, {5, 3}},        {{1, 1}, {1, 1}},
          // The vec4 tile-fill path (K, N multiples of 4): ragged M and K tiles, batched.
          {{70, 132}, {132, 68}},  {{2, 3, 9, 20}, {3, 20, 12}}, {{4, 4}, {4, 4}}};
      for (const auto& [sa, sb] : shapes)
        for (DType t : {DType::F32, DType::I32}) cases.push_back(one({g.tensor(sa, t), g.tensor(sb, t)}));
      cases.push_back(one({g.tensor({6, 5}, DType::F32).transpose(0, 1), g.tensor({6, 4}, DType::F32)}));
      cases.push_back(one({g.tensor({3, 4}, DType::Bool), g.tensor({4, 2}, DType::Bool)}));
      break;
    }
    case OpKind::Softmax:
    case OpKind::LogSoftmax:
      for (int64_t d : {0, 1, -1}) {
        a.dim = d;
        cases.push_back(one({g.tensor({3, 5}, DType::F32)}, a));
      }
      a.dim = 0;
      cases.push_back(one({g.tensor({}, DType::F32)}, a));
      cases.push_back(one({g.tensor({0, 4}, DType::F32)}, a));
      a.dim = 1;
      cases.push_back(one({g.tensor({4, 1000}, DType::I32)}, a));
      break;
    case OpKind::LayerNorm:
      a.shape = {5};
      cases.push_back(one({g.tensor({3, 5}, DType::F32)}, a));
      cases.push_back(one({g.tensor({3, 5}, DType::F32), g.tensor({5}, DType::F32)}, a));
      cases.push_back(one({g.tensor({2, 3, 5}, DType::F32), g.tensor({5}, DType::F32), g.tensor({5}, DType::F32)}, a));
      a.shape = {3, 5};
      cases.push_back(one({g.tensor({2, 3, 5}, DType::F32)}, a));
      break;
    case OpKind::LayerNormBackward:  // [grad, x, (weight)]
      a.shape = {5};
      cases.push_back(one({g.tensor({3, 5}, DType::F32), g.tensor({3, 5}, DType::F32)}, a));
      cases.push_back(one({g.tensor({2, 3, 5}, DType::F32), g.tensor({2, 3, 5}, DType::F32),
                           g.tensor({5}, DType::F32)}, a));
      cases.push_back(one({g.tensor({0, 5}, DType::F32), g.tensor({0, 5}, DType::F32),
                           g.tensor({5}, DType::F32)}, a));
      a.shape = {70};
      cases.push_back(one({g.tensor({4, 70}, DType::F32), g.tensor({4, 70}, DType::F32),
                           g.tensor({70}, DType::F32)}, a));
      a.shape = {3, 5};
      cases.push_back(one({g.tensor({2, 3, 5}, DType::F32), g.tensor({2, 3, 5}, DType::F32),
                           g.tensor({3, 5}, DType::F32)}, a));
      cases.push_back(one({g.tensor({2, 3, 4}, DType::F32), g.tensor({2, 3, 5}, DType::F32)}, a));
      break;
    case OpKind::Linear:
      cases.push_back(one({g.tensor({4, 3}, DType::F32), g.tensor({5, 3}, DType::F32)}));
      cases.push_back(one({g.tensor({2, 4, 3}, DType::F32), g.tensor({5, 3}, DType::F32), g.tensor({5}, DType::F32)}));
      cases.push_back(one({g.tensor({0, 3}, DType::F32), g.tensor({5, 3}, DType::F32), g.tensor({5}, DType::F32)}));
      break;
    case OpKind::MseLoss:
      cases.push_back(one({g.tensor({3, 4}, DType::F32), g.tensor({3, 4}, DType::F32)}));
      cases.push_back(one({g.tensor({3, 4}, DType::F32), g.tensor({4}, DType::I32)}));
      break;
    case OpKind::CrossEntropy:
      cases.push_back(one({g.tensor({4, 3}, DType::F32), ints({0, 2, 1, 2}, {4})}));
      cases.push_back(one({g.tensor({2, 300}, DType::F32), ints({299, 0}, {2})}));
      cases.push_back(one({g.tensor({2, 3}, DType::F32), ints({0, 3}, {2})}));  // IndexError
      // ignore_index: ignored rows leave the mean; all ignored gives nan; another
      // out-of-range label is still an IndexError.
      a.scalars = {2};
      cases.push_back(one({g.tensor({4, 3}, DType::F32), ints({0, 2, 1, 2}, {4})}, a));
      cases.push_back(one({g.tensor({2, 3}, DType::F32), ints({2, 2}, {2})}, a));
      cases.push_back(one({g.tensor({2, 3}, DType::F32), ints({2, -1}, {2})}, a));  // IndexError
      a.scalars = {-100};
      cases.push_back(one({g.tensor({70, 300}, DType::F32), ints(std::vector<int32_t>(70, -100), {70})}, a));
      cases.push_back(one({g.tensor({3, 300}, DType::F32), ints({-100, 299, 0}, {3})}, a));
      break;
    case OpKind::Dropout:
      for (double p : {0.0, 0.3, 1.0}) {
        a.p = p;
        cases.push_back(one({g.tensor({5, 7}, DType::F32)}, a));
      }
      break;
    case OpKind::Multinomial:
      for (bool replacement : {false, true}) {
        a.scalars = {replacement ? 1.0 : 0.0};
        a.shape = {3};
        cases.push_back(one({floats({1, 0, 2, 5}, {4})}, a));
        a.shape = {replacement ? 9 : 2};
        cases.push_back(one({floats({1, 0, 2, 5, 0, 0, 1, 1, 7}, {3, 3})}, a));
      }
      cases.push_back(one({floats({0, 0}, {2})}, a));  // ValueError: no mass
      break;
    case OpKind::Bernoulli:
      cases.push_back(one({floats({0, 1, 1, 0}, {4})}));
      cases.push_back(one({floats({0.1f, 0.5f, 0.9f, 0.3f, 0.7f, 0.2f}, {2, 3})}));
      break;
    case OpKind::Attention:
    case OpKind::AttentionLse:
    case OpKind::AttentionBackward:
      return attentionCases(op, g);
    default:
      if (shapes::isPoolOp(op))
        for (testing::PoolCase& c :
             testing::poolCases(op, [&](const Dims& s) { return g.tensor(s, DType::F32); }))
          cases.push_back({c.inputs, c.attrs, c.what});
      break;
  }
  return cases;
}

std::vector<Case> createCases(OpKind op, Gen&) {
  std::vector<Case> cases;
  for (DType t : kDTypes)
    for (const shapes::SymShape& s : std::vector<shapes::SymShape>{{}, {0}, {5}, {3, 4}, {1001}}) {
      OpAttrs a;
      a.dtype = t;
      a.shape = s;
      switch (op) {
        case OpKind::Full:
          a.scalars = {2.5};
          break;
        case OpKind::Arange:
          a.shape = {};
          a.start = -3;
          a.stop = int64_t(s.size() * 7);
          a.step = 2;
          break;
        case OpKind::Eye:
          if (s.empty() || s.size() > 2) continue;
          break;
        case OpKind::Rand:
        case OpKind::Randn:
          if (t != DType::F32) continue;
          break;
        case OpKind::Randperm:
          if (s.size() != 1 || t != DType::I32) continue;
          break;
        case OpKind::Randint:
          if (t == DType::Bool) continue;
          a.scalars = {-4, 9};
          break;
        default:
          break;
      }
      cases.push_back(one({}, a));
    }
  return cases;
}

std::vector<Case> convertCases(OpKind op, Gen& g) {
  std::vector<Case> cases;
  std::vector<float> special = {1e10f, -1e10f, NAN, 2.7f, -2.7f, 0.0f, -0.0f, 1.0f};
  Tensor sp = Tensor::fromData(std::span<const float>(special), {8});
  for (DType from : kDTypes)
    for (DType to : kDTypes) {
      OpAttrs a;
      a.dtype = to;
      Tensor x = g.tensor({3, 4}, from);
      cases.push_back(one({op == OpKind::Contiguous ? x.transpose(0, 1) : x}, a));
      if (from == DType::F32) cases.push_back(one({sp}, a));
      cases.push_back(one({g.tensor({0, 2}, from)}, a));
    }
  return cases;
}

// n random ints in [0, hi].
Tensor counts(Gen& g, int64_t n, int hi) {
  std::vector<int32_t> v(n);
  for (auto& x : v) x = g.pick(hi + 1);
  return ints(std::move(v), {n});
}

// The jagged ops: every dtype for repeat_interleave, empty and zero repeats/segments, every
// reduction with and without `initial`, other axes, and the errors (negative counts, lengths
// not summing to the size).
std::vector<Case> jaggedCases(OpKind op, Gen& g) {
  std::vector<Case> cases;
  OpAttrs a;
  if (op == OpKind::RepeatInterleave) {
    for (DType t : kDTypes) {
      a.dim = 0;
      cases.push_back(one({g.tensor({4, 3}, t), ints({2, 0, 3, 1}, {4})}, a));
      a.dim = 1;
      cases.push_back(one({g.tensor({2, 3, 2}, t).transpose(0, 2), ints({1, 4}, {2})}, a));
      cases.push_back(one({g.tensor({2, 3}, t), ints({0, 0, 0}, {3})}, a));
    }
    a.dim = 0;
    cases.push_back(one({g.tensor({0, 3}, DType::F32), ints({}, {0})}, a));
    cases.push_back(one({g.tensor({1000}, DType::F32), counts(g, 1000, 5)}, a));
    cases.push_back(one({g.tensor({2, 2}, DType::F32), ints({1, -1}, {2})}, a));  // ValueError
    a.shape = {5};
    cases.push_back(one({g.tensor({2, 2}, DType::F32), ints({1, 3}, {2})}, a));  // output_size
    return cases;
  }
  if (op == OpKind::Bincount) {
    cases.push_back(one({ints({1, 1, 3, 0, 7}, {5})}, a));
    cases.push_back(one({ints({}, {0})}, a));
    cases.push_back(one({counts(g, 5000, 300)}, a));
    a.scalars = {12};
    cases.push_back(one({ints({1, 1, 3}, {3})}, a));
    // Weights as i32 (exact sums in any order) and f32 (one weight per bin: no rounding order).
    cases.push_back(one({ints({0, 2, 2, 5}, {4}), ints({3, -1, 4, 2}, {4})}, a));
    cases.push_back(one({ints({0, 4, 2, 5}, {4}), g.tensor({4}, DType::F32)}, a));
    cases.push_back(one({ints({1, -2}, {2})}, a));  // ValueError
    return cases;
  }
  using shapes::ScatterMode;
  for (ScatterMode mode : {ScatterMode::Sum, ScatterMode::Mean, ScatterMode::Amax,
                           ScatterMode::Amin, ScatterMode::Prod})
    for (bool initial : {false, true}) {
      a.scatterMode = mode;
      a.scalars = initial ? std::vector<double>{0.5} : std::vector<double>{};
      a.dim = 0;
      cases.push_back(one({g.tensor({6, 3}, DType::F32), ints({2, 0, 3, 1}, {4})}, a));
      a.dim = -1;
      cases.push_back(one({g.tensor({3, 2, 5}, DType::F32).transpose(0, 1), ints({0, 5}, {2})}, a));
      a.dim = 1;
      cases.push_back(one({g.tensor({2, 2000}, DType::F32), ints({1500, 0, 500}, {3})}, a));
      a.dim = 0;
      cases.push_back(one({g.tensor({4}, DType::I32), ints({1, 3}, {2})}, a));  // cast to f32
      cases.push_back(one({g.tensor({0, 2}, DType::F32), ints({0, 0}, {2})}, a));
    }
  cases.push_back(one({g.tensor({6}, DType::F32), ints({2, 3}, {2})}, a));    // ShapeError
  cases.push_back(one({g.tensor({6}, DType::F32), ints({7, -1}, {2})}, a));   // ValueError
  return cases;
}

}  // namespace

std::vector<Case> casesFor(OpKind op, Gen& g) {
  if (op == OpKind::RepeatInterleave || op == OpKind::Bincount || op == OpKind::SegmentReduce)
    return jaggedCases(op, g);
  switch (shapes::opCategory(op)) {
    case shapes::OpCategory::Unary:
    case shapes::OpCategory::Binary:
    case shapes::OpCategory::Ternary:
      return elementwiseCases(op, g);
    case shapes::OpCategory::Reduce:
      return reduceCases(op, g);
    case shapes::OpCategory::Scan:
      return scanCases(op, g);
    case shapes::OpCategory::Shape:
      return shapeCases(op, g);
    case shapes::OpCategory::Index:
      return indexCases(op, g);
    case shapes::OpCategory::DataDependent:
      return dataDependentCases(op, g);
    case shapes::OpCategory::NN:
      return nnCases(op, g);
    case shapes::OpCategory::Create:
      return createCases(op, g);
    case shapes::OpCategory::Convert:
      return convertCases(op, g);
    case shapes::OpCategory::Sort:
      return sortCases(op, g);
  }
  return {};
}

std::string describe(const Case& c) {
  std::string s;
  for (const Tensor& t : c.inputs) {
    s += std::string(shapes::name(t.dtype())) + "[";
    for (int64_t d : t.shape()) s += std::to_string(d) + ",";
    s += "] ";
  }
  return s;
}


std::vector<OpKind> allOps() {
  return {
#define TESSEL_OP(e, n, c) OpKind::e,
#include "shapes/op_list.def"
  };
}

}  // namespace tessel::backends::testing
