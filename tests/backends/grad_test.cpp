// Autodiff: every differentiable op's gradient against central finite differences, plus
// broadcasting, unused inputs, higher order, and errors.
#include <cmath>
#include <functional>

#include "backends/autodiff/grad_formula.h"
#include "backends/autodiff/grad_rules.h"
#include "shapes/elementwise_defs.h"
#include "backends/autodiff/tape.h"
#include "backends/rng.h"
#include "test_util.h"

namespace tessel::backends::testing {
namespace {

using autodiff::Tape;
using autodiff::TapeScope;
using Fn = std::function<Tensor(const std::vector<Tensor>&)>;

// Deterministic weights so that loss = sum(f(x) * w) exercises every output element.
Tensor weightsLike(const Tensor& t) {
  std::vector<float> w(t.numel());
  for (size_t i = 0; i < w.size(); ++i) w[i] = 0.5f + 0.37f * std::sin(1.3f * float(i) + 0.2f);
  return F(w, t.shape());
}

Tensor lossOf(const Fn& f, const std::vector<Tensor>& in) {
  Tensor y = f(in);
  if (y.dtype() != DType::F32) y = ops::cast(y, DType::F32);
  return ops::sum(ops::mul(y, weightsLike(y)));
}

// Compares gradients() with central differences for every f32 input.
void checkGrad(const Fn& f, std::vector<Tensor> inputs, double tol = 2e-2, double h = 1e-2) {
  Tape tape;
  std::vector<Tensor> watched, wrt;
  for (const Tensor& t : inputs) {
    Tensor w = t.dtype() == DType::F32 ? tape.watch(t) : t;
    watched.push_back(w);
    if (t.dtype() == DType::F32) wrt.push_back(w);
  }
  Tensor loss;
  {
    TapeScope scope(tape);
    loss = lossOf(f, watched);
  }
  std::vector<Tensor> grads = autodiff::gradients(tape, loss, wrt);
  size_t k = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].dtype() != DType::F32) continue;
    const Tensor& g = grads[k++];
    ASSERT_EQ(g.shape(), inputs[i].shape()) << "input " << i;
    std::vector<double> got = g.toDoubles();
    std::vector<double> base = inputs[i].toDoubles();
    for (size_t j = 0; j < base.size(); ++j) {
      auto at = [&](double delta) {
        std::vector<float> v(base.begin(), base.end());
        v[j] += float(delta);
        std::vector<Tensor> in = inputs;
        in[i] = F(v, inputs[i].shape());
        return lossOf(f, in).item();
      };
      const double fd = (at(h) - at(-h)) / (2 * h);
      EXPECT_NEAR(got[j], fd, tol * std::max(1.0, std::fabs(fd)))
          << "input " << i << " element " << j;
    }
  }
}

Tensor smooth(Dims shape, float offset = 0.f) {
  std::vector<float> v(numelOf(shape));
  for (size_t i = 0; i < v.size(); ++i) v[i] = 0.9f * std::sin(0.7f * float(i) + 0.3f + offset);
  return F(v, shape);
}
Tensor positive(Dims shape) {
  Tensor s = smooth(shape);
  return ops::add(ops::mul(s, ops::scalar(0.5)), ops::scalar(1.0));
}

Fn unaryFn(OpKind op) {
  return [op](const std::vector<Tensor>& in) { return run(op, {in[0]}); };
}
Fn binaryFn(OpKind op) {
  return [op](const std::vector<Tensor>& in) { return run(op, {in[0], in[1]}); };
}
Fn withAttrs(OpKind op, OpAttrs a) {
  return [op, a](const std::vector<Tensor>& in) { return dispatch(op, in, a)[0]; };
}

TEST(Grad, Unary) {
  for (OpKind op : {OpKind::Neg, OpKind::Exp, OpKind::Abs, OpKind::Sin, OpKind::Cos, OpKind::Tanh,
                    OpKind::Sigmoid, OpKind::Relu, OpKind::Gelu}) {
    SCOPED_TRACE(std::string(shapes::opName(op)));
    checkGrad(unaryFn(op), {smooth({2, 3})});
  }
  for (OpKind op : {OpKind::Log, OpKind::Sqrt, OpKind::Rsqrt}) {
    SCOPED_TRACE(std::string(shapes::opName(op)));
    checkGrad(unaryFn(op), {positive({2, 3})});
  }
}

// The dense-model unary ops: the step functions have a zero gradient (finite differences agree away
// from their jumps); isnan/isinf/isfinite give bool and are not differentiable.
TEST(Grad, DenseUnary) {
  for (OpKind op : {OpKind::Erf, OpKind::Expm1, OpKind::Silu, OpKind::Softplus, OpKind::Floor,
                    OpKind::Ceil, OpKind::Round, OpKind::Trunc, OpKind::Sign}) {
    SCOPED_TRACE(std::string(shapes::opName(op)));
    checkGrad(unaryFn(op), {smooth({2, 3})});
    checkGrad(unaryFn(op), {ops::mul(smooth({2, 3}, 1.f), ops::scalar(3.0))});
  }
  checkGrad(unaryFn(OpKind::Log1p), {positive({2, 3})});
  checkGrad(unaryFn(OpKind::Softplus), {F({19.5f, 21.f, 40.f, -40.f})});
  for (OpKind op : {OpKind::Isnan, OpKind::Isinf, OpKind::Isfinite, OpKind::Detach})
    EXPECT_FALSE(autodiff::isDifferentiable(op)) << shapes::opName(op);
}

// Every op of ops/elementwise.ops with a gradient formula, on values drawn inside its
// definition's sample range (90% of it: central differences step over the ends otherwise),
// with the second and third arguments broadcast.
TEST(Grad, DefinedOpsMatchFiniteDifferences) {
  int checked = 0;
  for (const shapes::ElementwiseDef& d : shapes::elementwiseDefs()) {
    SCOPED_TRACE(d.name);
    for (int i = 0; i < d.arity; ++i) {
      const std::string problem =
          d.grads[i] ? autodiff::checkGradFormula(d.grads[i], {d.args, d.args + d.arity}) : "";
      EXPECT_EQ(problem, "");
    }
    EXPECT_EQ(autodiff::isDifferentiable(d.op), d.differentiable);
    if (!d.differentiable) continue;
    const Dims shapes[3] = {{2, 3}, {3}, {2, 1}};
    std::vector<Tensor> in;
    for (int i = 0; i < d.arity; ++i) {
      const float mid = 0.5f * (d.sampleLo[i] + d.sampleHi[i]);
      const float half = 0.45f * (d.sampleHi[i] - d.sampleLo[i]);
      Tensor s = smooth(shapes[i], float(i));  // in [-0.9, 0.9]
      in.push_back(ops::add(ops::mul(s, ops::scalar(half / 0.9)), ops::scalar(mid)));
    }
    const OpKind op = d.op;
    checkGrad([op](const std::vector<Tensor>& x) { return run(op, x); }, in);
    ++checked;
  }
  EXPECT_GT(checked, 15);
}

TEST(Grad, BinaryWithBroadcasting) {
  for (OpKind op : {OpKind::Add, OpKind::Sub, OpKind::Mul, OpKind::Maximum, OpKind::Minimum}) {
    SCOPED_TRACE(std::string(shapes::opName(op)));
    checkGrad(binaryFn(op), {smooth({2, 3}), smooth({3}, 1.f)});
    checkGrad(binaryFn(op), {smooth({2, 1}), smooth({1, 3}, 2.f)});
  }
  checkGrad(binaryFn(OpKind::Div), {smooth({2, 3}), positive({3})});
  // gelu's gradient op has its own (gelu's second derivative): both operands, broadcast.
  checkGrad(binaryFn(OpKind::GeluBackward), {smooth({2, 3}), smooth({2, 3}, 1.f)});
  checkGrad(binaryFn(OpKind::GeluBackward), {smooth({3}), smooth({2, 3}, 2.f)});
  checkGrad(binaryFn(OpKind::Pow), {positive({2, 3}), smooth({2, 3}, 1.f)});
  checkGrad(binaryFn(OpKind::Mod), {F({2.5f, -1.3f, 4.1f}), F({2.f, 2.f, 3.f})});
  // An integer operand gets no gradient, the f32 one does.
  checkGrad(binaryFn(OpKind::Mul), {smooth({3}), I({1, 2, 3})});
}

TEST(Grad, WhereClampCast) {
  Tensor c = B({true, false, true, false, false, true}, {2, 3});
  checkGrad(
      [c](const std::vector<Tensor>& in) {
        return run(OpKind::Where, {c, in[0], in[1]});
      },
      {smooth({2, 3}), smooth({3}, 1.f)});
  checkGrad(
      [](const std::vector<Tensor>& in) {
        return run(OpKind::Clamp, {in[0], in[1], in[2]});
      },
      {smooth({6}), F({-0.3f}, {}), F({0.4f}, {})});
  OpAttrs toF;
  toF.dtype = DType::F32;
  checkGrad(withAttrs(OpKind::Cast, toF), {smooth({3})});
  checkGrad(withAttrs(OpKind::Contiguous, {}), {smooth({2, 2})});
}

TEST(Grad, Reductions) {
  for (OpKind op : {OpKind::Sum, OpKind::Mean, OpKind::Max, OpKind::Min}) {
    SCOPED_TRACE(std::string(shapes::opName(op)));
    checkGrad(withAttrs(op, {}), {smooth({2, 3})});
    checkGrad(withAttrs(op, dimsAttr({1})), {smooth({2, 3})});
    checkGrad(withAttrs(op, dimsAttr({0}, true)), {smooth({2, 3})});
    checkGrad(withAttrs(op, dimsAttr({0, 2})), {smooth({2, 3, 2})});
  }
}

TEST(Grad, Scans) {
  for (OpKind op : {OpKind::Cumsum, OpKind::Cumprod}) {
    SCOPED_TRACE(std::string(shapes::opName(op)));
    checkGrad(withAttrs(op, dimAttr(1)), {smooth({2, 3})});
    checkGrad(withAttrs(op, dimAttr(0)), {smooth({3, 2})});
    checkGrad(withAttrs(op, dimAttr(-1)), {smooth({2, 2, 4})});
    checkGrad(withAttrs(op, dimAttr(0)), {F({1.5f}, {})});
  }
  // cumprod through zeros (Note [Cumprod gradient]): one zero, two zeros, a zero first or last.
  for (std::vector<float> v : {std::vector<float>{0.5f, 0.f, 2.f, 1.5f},
                               {1.2f, 0.f, 0.7f, 0.f, 1.1f}, {0.f, 1.3f, 0.8f}, {0.9f, 1.4f, 0.f},
                               {0.f, 0.f}}) {
    checkGrad(withAttrs(OpKind::Cumprod, dimAttr(0)), {F(v, {int64_t(v.size())})});
    checkGrad(withAttrs(OpKind::Cumprod, dimAttr(1)), {F(v, {1, int64_t(v.size())})});
  }
}

TEST(Grad, WritesAlongADim) {
  OpAttrs d0 = dimAttr(0), d1 = dimAttr(1);
  OpAttrs alpha = dimAttr(0);
  alpha.scalars = {-1.5};
  checkGrad(withAttrs(OpKind::IndexAdd, alpha), {smooth({3, 2}), I({2, 0, 2}), smooth({3, 2}, 1.f)});
  checkGrad(withAttrs(OpKind::IndexCopy, d1), {smooth({2, 3}), I({2, 0}), smooth({2, 2}, 1.f)});
  checkGrad(withAttrs(OpKind::Scatter, d1), {smooth({2, 3}), I({2, 0, 1, 2}, {2, 2}), smooth({2, 3}, 1.f)});
  checkGrad(withAttrs(OpKind::ScatterAdd, d0), {smooth({3, 2}), I({2, 2, 0, 1}, {2, 2}), smooth({3, 2}, 1.f)});
  for (auto mode : {shapes::ScatterMode::Sum, shapes::ScatterMode::Mean, shapes::ScatterMode::Amax,
                    shapes::ScatterMode::Amin})
    for (bool self : {true, false}) {
      SCOPED_TRACE(std::string(shapes::scatterModeName(mode)) + (self ? " self" : ""));
      OpAttrs a = dimAttr(1);
      a.scatterMode = mode;
      a.includeSelf = self;
      checkGrad(withAttrs(OpKind::ScatterReduce, a),
                {smooth({2, 4}), I({0, 0, 2, 1, 1, 1}, {2, 3}), smooth({2, 3}, 2.f)});
    }
}

TEST(Grad, JaggedOps) {
  OpAttrs d0 = dimAttr(0), d1 = dimAttr(1);
  checkGrad(withAttrs(OpKind::RepeatInterleave, d0), {smooth({3, 2}), I({2, 0, 3})});
  checkGrad(withAttrs(OpKind::RepeatInterleave, d1), {smooth({2, 3}), I({1, 2, 1})});
  using shapes::ScatterMode;
  for (auto mode : {ScatterMode::Sum, ScatterMode::Mean, ScatterMode::Amax, ScatterMode::Amin,
                    ScatterMode::Prod})
    for (bool initial : {false, true}) {
      SCOPED_TRACE(std::string(shapes::scatterModeName(mode)) + (initial ? " initial" : ""));
      OpAttrs a = dimAttr(0);
      a.scatterMode = mode;
      if (initial) a.scalars = {-0.5};  // wins in none of these segments but the empty-free ones' max
      // (An empty segment's -inf/NaN output would make the finite differences NaN: the
      // torch parity cases cover empty segments.)
      checkGrad(withAttrs(OpKind::SegmentReduce, a), {smooth({5, 2}), I({2, 1, 2})});
      a.dim = 1;
      checkGrad(withAttrs(OpKind::SegmentReduce, a), {smooth({2, 4}, 1.f), I({1, 3})});
    }
}

// sort and topk values are gather(x, dim, argsort/topk indices): the gradient reaches the
// elements the values came from (distinct values: a step of h never reorders them).
TEST(Grad, SortAndTopkValues) {
  for (bool desc : {false, true})
    for (int64_t d : {0, 1}) {
      OpAttrs a = dimAttr(d);
      a.descending = desc;
      a.stop = shapes::SymInt(2);
      for (OpKind op : {OpKind::Argsort, OpKind::Topk})
        checkGrad(
            [=](const std::vector<Tensor>& in) {
              Tensor idx = dispatch(op, std::vector<Tensor>{in[0]}, a)[0];
              return dispatch(OpKind::Gather, std::vector<Tensor>{in[0], idx}, a)[0];
            },
            {smooth({3, 4})});
    }
}

// Fused attention: dq, dk, dv from the fused backward against finite differences, with T != S,
// batch dims that broadcast (dk and dv summed over the heads they serve), causal with T != S,
// tiles that do not divide T or S, bool and additive masks (constants: no gradient), a scale.
TEST(Grad, Attention) {
  OpAttrs causal, scaled;
  causal.causal = true;
  scaled.scalars = {0.4};
  const Fn plain = withAttrs(OpKind::Attention, {});
  checkGrad(plain, {smooth({3, 4}), smooth({5, 4}, 1.f), smooth({5, 2}, 2.f)});
  checkGrad(plain, {smooth({2, 3, 4}), smooth({1, 5, 4}, 1.f), smooth({5, 3}, 2.f)});
  checkGrad(withAttrs(OpKind::Attention, causal), {smooth({6, 3}), smooth({4, 3}, 1.f), smooth({4, 2}, 2.f)});
  checkGrad(withAttrs(OpKind::Attention, causal), {smooth({3, 3}), smooth({5, 3}, 1.f), smooth({5, 2}, 2.f)});
  checkGrad(withAttrs(OpKind::Attention, scaled), {smooth({67, 3}), smooth({66, 3}, 1.f), smooth({66, 2}, 2.f)}, 3e-2);
  checkGrad(plain, {smooth({2, 3}), smooth({4, 3}, 1.f), smooth({4, 2}, 2.f),
                    B({true, false, true, true, false, true, true, false}, {2, 4})});
  const Tensor additive = smooth({3, 1, 4}, 3.f);
  const Fn masked = [additive](const std::vector<Tensor>& in) {
    return dispatch(OpKind::Attention, std::vector<Tensor>{in[0], in[1], in[2], additive}, {})[0];
  };
  checkGrad(masked, {smooth({3, 2, 3}), smooth({4, 3}, 1.f), smooth({4, 2}, 2.f)});
}

// Distinct values 0.1 apart in a scrambled order, so a finite difference of 1e-2 never moves
// a window's maximum.
Tensor distinct(Dims shape) {
  std::vector<float> v(numelOf(shape));
  for (size_t i = 0; i < v.size(); ++i) v[i] = 0.1f * float((i * 37 + 11) % v.size()) - 1.0f;
  return F(v, shape);
}

TEST(Grad, Pooling) {
  auto window = [](int64_t k, int64_t s, int64_t p, int64_t d = 1) {
    OpAttrs a;
    a.pool.kernel[0] = a.pool.kernel[1] = k;
    a.pool.stride[0] = a.pool.stride[1] = s;
    a.pool.padding[0] = a.pool.padding[1] = p;
    a.pool.dilation[0] = a.pool.dilation[1] = d;
    return a;
  };
  for (const OpAttrs& a : {window(3, 2, 1), window(2, 1, 0), window(2, 1, 1, 2)})
    checkGrad(withAttrs(OpKind::MaxPool2d, a), {distinct({1, 2, 5, 6})});
  for (bool include : {true, false}) {
    OpAttrs a = window(3, 2, 1);
    a.pool.countIncludePad = include;
    checkGrad(withAttrs(OpKind::AvgPool2d, a), {smooth({2, 1, 5, 6})});
    a.pool.divisor = 5;
    checkGrad(withAttrs(OpKind::AvgPool2d, a), {smooth({2, 5, 6})});
  }
  OpAttrs adaptive;
  adaptive.shape = {3, 4};
  checkGrad(withAttrs(OpKind::AdaptiveAvgPool2d, adaptive), {smooth({1, 2, 5, 7})});
  for (auto mode : {shapes::InterpMode::Nearest, shapes::InterpMode::Bilinear})
    for (bool align : {false, true}) {
      if (mode == shapes::InterpMode::Nearest && align) continue;
      OpAttrs a;
      a.shape = {7, 4};
      a.pool.mode = mode;
      a.pool.alignCorners = align;
      checkGrad(withAttrs(OpKind::Interpolate, a), {smooth({1, 2, 3, 5})});
      a.pool.scale[0] = a.pool.scale[1] = 2.5;
      a.shape = {7, 12};
      checkGrad(withAttrs(OpKind::Interpolate, a), {smooth({1, 3, 5})});
    }
  // The linear backward ops are differentiable too (double backward), in their grad operand.
  OpAttrs a = window(3, 2, 1);
  checkGrad(withAttrs(OpKind::AvgPool2dBackward, a), {smooth({1, 2, 3, 3}), smooth({1, 2, 5, 6})});
  checkGrad(withAttrs(OpKind::AdaptiveAvgPool2dBackward, adaptive),
            {smooth({1, 2, 3, 4}), smooth({1, 2, 5, 7})});
  OpAttrs bilinear;
  bilinear.shape = {7, 4};
  bilinear.pool.mode = shapes::InterpMode::Bilinear;
  checkGrad(withAttrs(OpKind::InterpolateBackward, bilinear),
            {smooth({1, 2, 7, 4}), smooth({1, 2, 3, 5})});
  // max_pool2d_backward is linear in its grad, its transpose max_pool2d_double_backward (the
  // gradient read at each argmax) and that one's max_pool2d_backward again; neither depends on
  // x other than through the argmax (zero gradient; x's values are 0.1 apart, so the
  // differences do not move an argmax). Padding and dilation change which taps count.
  for (const OpAttrs& w : {a, window(2, 2, 0), window(3, 1, 1, 2)}) {
    const Tensor x = distinct({1, 2, 5, 6});
    const Dims pooled = run(OpKind::MaxPool2d, {x}, w).shape();
    checkGrad(withAttrs(OpKind::MaxPool2dBackward, w), {smooth(pooled), x});
    checkGrad(withAttrs(OpKind::MaxPool2dDoubleBackward, w), {smooth({1, 2, 5, 6}), x});
  }
}

TEST(Grad, ShapeOps) {
  checkGrad(withAttrs(OpKind::Reshape, shapeAttr({3, 2})), {smooth({2, 3})});
  checkGrad(withAttrs(OpKind::Transpose, dimsAttr({0, 1})), {smooth({2, 3})});
  checkGrad(withAttrs(OpKind::Permute, dimsAttr({2, 0, 1})), {smooth({2, 3, 2})});
  checkGrad(withAttrs(OpKind::Unsqueeze, dimAttr(-1)), {smooth({2, 3})});
  checkGrad(withAttrs(OpKind::Squeeze, {}), {smooth({2, 1, 3})});
  OpAttrs fl;
  fl.dim = 1;
  fl.endDim = 2;
  checkGrad(withAttrs(OpKind::Flatten, fl), {smooth({2, 3, 2})});
  checkGrad(withAttrs(OpKind::Expand, shapeAttr({4, 2, 3})), {smooth({2, 1})});
  checkGrad(withAttrs(OpKind::Cat, dimAttr(1)), {smooth({2, 2}), smooth({2, 3}, 1.f)});
  checkGrad(withAttrs(OpKind::Stack, dimAttr(0)), {smooth({2, 2}), smooth({2, 2}, 1.f)});
  for (int64_t step : {1, 2, 3}) {
    OpAttrs s;
    s.dim = 1;
    s.start = shapes::SymInt(-6);
    s.stop = shapes::SymInt(6);
    s.step = step;
    checkGrad(withAttrs(OpKind::Slice, s), {smooth({2, 7})});
  }
  OpAttrs sel;
  sel.dim = 0;
  sel.index = -1;
  checkGrad(withAttrs(OpKind::Select, sel), {smooth({3, 2})});
}

TEST(Grad, Indexing) {
  checkGrad(withAttrs(OpKind::IndexSelect, dimAttr(1)), {smooth({2, 4}), I({3, 0, 3})});
  checkGrad(withAttrs(OpKind::Gather, dimAttr(0)), {smooth({3, 2}), I({2, 0, 1, 1}, {2, 2})});
  checkGrad(withAttrs(OpKind::Gather, dimAttr(1)), {smooth({2, 3}), I({2, 2, 0, 1}, {2, 2})});
  Tensor mask = B({true, false, true}, {3});
  checkGrad(
      [mask](const std::vector<Tensor>& in) {
        return run(OpKind::MaskedSelect, {in[0], mask});
      },
      {smooth({2, 3})});
  Tensor m2 = B({false, true, true, false}, {2, 2});
  checkGrad(
      [m2](const std::vector<Tensor>& in) {
        return run(OpKind::MaskedScatter, {in[0], m2, in[1]});
      },
      {smooth({2, 2}), smooth({3}, 1.f)});
}

// conv2d against central differences over every option, and its backward ops (whose rules
// are the second derivative: each is linear, its adjoints the other conv ops).
TEST(Grad, Conv2d) {
  auto conv = [](std::array<int64_t, 2> stride, std::array<int64_t, 2> padBegin,
                 std::array<int64_t, 2> padEnd, std::array<int64_t, 2> dilation, int64_t groups,
                 shapes::SymShape result = {}) {
    OpAttrs a;
    a.conv = {stride, padBegin, padEnd, dilation, groups};
    a.shape = std::move(result);
    return a;
  };
  const OpAttrs plain = conv({1, 1}, {1, 1}, {1, 1}, {1, 1}, 1);
  checkGrad(withAttrs(OpKind::Conv2d, plain),
            {smooth({2, 3, 4, 5}), smooth({2, 3, 3, 3}, 1.f), smooth({2}, 2.f)});
  const OpAttrs mixed = conv({2, 1}, {1, 0}, {0, 1}, {1, 2}, 2);
  checkGrad(withAttrs(OpKind::Conv2d, mixed), {smooth({1, 4, 5, 6}), smooth({4, 2, 2, 2}, 1.f)});
  // y of mixed: Ho = (5 + 1 - 2) // 2 + 1 = 3, Wo = (6 + 1 - 3) + 1 = 5.
  OpAttrs bi = mixed, bw = mixed;
  bi.shape = {1, 4, 5, 6};
  bw.shape = {4, 2, 2, 2};
  checkGrad(withAttrs(OpKind::Conv2dBackwardInput, bi),
            {smooth({1, 4, 3, 5}), smooth({4, 2, 2, 2}, 1.f)});
  checkGrad(withAttrs(OpKind::Conv2dBackwardWeight, bw),
            {smooth({1, 4, 3, 5}), smooth({1, 4, 5, 6}, 1.f)});
  checkGrad(withAttrs(OpKind::Conv2d, conv({1, 1}, {0, 0}, {0, 0}, {1, 1}, 1)),
            {smooth({0, 2, 3, 3}), smooth({2, 2, 2, 2}, 1.f), smooth({2}, 2.f)});
}

TEST(Grad, NN) {
  checkGrad(binaryFn(OpKind::Matmul), {smooth({2, 3}), smooth({3, 4}, 1.f)});
  checkGrad(binaryFn(OpKind::Matmul), {smooth({3}), smooth({3, 2}, 1.f)});
  checkGrad(binaryFn(OpKind::Matmul), {smooth({2, 3}), smooth({3}, 1.f)});
  checkGrad(binaryFn(OpKind::Matmul), {smooth({3}), smooth({3}, 1.f)});
  checkGrad(binaryFn(OpKind::Matmul), {smooth({2, 2, 3}), smooth({3, 2}, 1.f)});
  checkGrad(binaryFn(OpKind::Matmul), {smooth({2, 1, 2, 3}), smooth({3, 3, 2}, 1.f)});
  checkGrad(withAttrs(OpKind::Softmax, dimAttr(1)), {smooth({2, 3})});
  checkGrad(withAttrs(OpKind::Softmax, dimAttr(0)), {smooth({2, 3})});
  checkGrad(withAttrs(OpKind::LogSoftmax, dimAttr(-1)), {smooth({2, 3})});
  OpAttrs ln = shapeAttr({3});
  checkGrad(withAttrs(OpKind::LayerNorm, ln), {smooth({2, 3}), smooth({3}, 1.f), smooth({3}, 2.f)});
  checkGrad(withAttrs(OpKind::LayerNorm, shapeAttr({2, 2})), {smooth({3, 2, 2})});
  // Wider rows (16-float lanes and a tail) and a weight without a bias, through the one-pass
  // layer_norm_backward.
  checkGrad(withAttrs(OpKind::LayerNorm, shapeAttr({37})), {smooth({3, 37}), smooth({37}, 1.f)},
            3e-2);
  checkGrad(withAttrs(OpKind::Linear, {}), {smooth({2, 3}), smooth({4, 3}, 1.f), smooth({4}, 2.f)});
  checkGrad(withAttrs(OpKind::Linear, {}), {smooth({2, 2, 3}), smooth({4, 3}, 1.f)});
  checkGrad(binaryFn(OpKind::MseLoss), {smooth({2, 3}), smooth({2, 3}, 1.f)});
  checkGrad(
      [](const std::vector<Tensor>& in) {
        return run(OpKind::CrossEntropy, {in[0], in[1]});
      },
      {smooth({3, 4}), I({0, 3, 1})});
  checkGrad(  // ignore_index: the ignored row gets nothing, the mean is over 2 rows
      [](const std::vector<Tensor>& in) {
        OpAttrs ignore;
        ignore.scalars = {3};
        return run(OpKind::CrossEntropy, {in[0], in[1]}, ignore);
      },
      {smooth({3, 4}), I({0, 3, 1})});
}

TEST(Grad, DropoutUsesTheSameMask) {
  seed(11);
  OpAttrs a;
  a.p = 0.5;
  Tape tape;
  Tensor x = tape.watch(smooth({50}));
  Tensor y;
  {
    TapeScope scope(tape);
    y = run(OpKind::Dropout, {x}, a);
  }
  Tensor loss = ops::sum(y);
  // sum isn't on the tape (the scope closed), so differentiate y's sum through a second tape.
  Tape t2;
  Tensor x2 = t2.watch(smooth({50}));
  Tensor y2, l2;
  seed(11);
  {
    TapeScope scope(t2);
    y2 = run(OpKind::Dropout, {x2}, a);
    l2 = ops::sum(y2);
  }
  std::vector<double> g = autodiff::gradients(t2, l2, {&x2, 1})[0].toDoubles();
  std::vector<double> out = y2.toDoubles();
  for (size_t i = 0; i < g.size(); ++i) EXPECT_EQ(g[i], out[i] == 0 ? 0.0 : 2.0);
  EXPECT_EQ(y.toDoubles(), out);
}

TEST(Grad, UnusedInputGetsZerosAndSharedInputsAccumulate) {
  Tape tape;
  Tensor a = tape.watch(F({1, 2}));
  Tensor b = tape.watch(F({3, 4, 5}));
  Tensor loss;
  {
    TapeScope scope(tape);
    loss = ops::sum(ops::mul(a, a));  // uses a twice
  }
  std::vector<Tensor> wrt = {a, b};
  std::vector<Tensor> g = autodiff::gradients(tape, loss, wrt);
  expectValues(g[0], {2, 4});
  expectValues(g[1], {0, 0, 0});
}

TEST(Grad, SecondOrder) {
  // d/dx sum(x^3) = 3x^2; d/dx sum(3x^2) = 6x.
  Tape outer;
  Tensor x = outer.watch(F({1, -2}));
  Tensor d2;
  {
    TapeScope so(outer);
    Tape inner;
    Tensor xi = inner.watch(x);
    Tensor y;
    {
      TapeScope si(inner);
      y = ops::sum(ops::mul(xi, ops::mul(xi, xi)));
    }
    Tensor g = autodiff::gradients(inner, y, {&xi, 1})[0];
    expectValues(g, {3, 12});
    d2 = ops::sum(g);
  }
  expectValues(autodiff::gradients(outer, d2, {&x, 1})[0], {6, -12});
}

// A second derivative through layer_norm: while the outer tape records, the inner gradient is
// the composite formula (layer_norm_backward has no gradient of its own); the finite
// differences run the one-pass op. The two must agree.
TEST(Grad, SecondOrderThroughLayerNorm) {
  checkGrad(
      [](const std::vector<Tensor>& in) {
        Tape inner;
        Tensor x = inner.watch(in[0]), w = inner.watch(in[1]);
        Tensor y;
        {
          TapeScope scope(inner);
          OpAttrs ln = shapeAttr({4});
          y = ops::sum(ops::mul(run(OpKind::LayerNorm, {x, w}, ln), ops::mul(x, x)));
        }
        const Tensor wrt[] = {x, w};
        std::vector<Tensor> g = autodiff::gradients(inner, y, wrt);
        return ops::add(ops::sum(g[0]), ops::sum(ops::mul(g[1], g[1])));
      },
      {smooth({3, 4}), smooth({4}, 1.f)}, 3e-2);
}

TEST(Grad, GradientsInsideTheTapesOwnScope) {
  // The backward pass must not append to the tape it walks, even if it is still active.
  Tape tape;
  Tensor x = tape.watch(F({1, 2}));
  TapeScope scope(tape);
  Tensor y = ops::sum(ops::mul(x, x));
  const size_t before = tape.entries().size();
  expectValues(autodiff::gradients(tape, y, {&x, 1})[0], {2, 4});
  EXPECT_EQ(tape.entries().size(), before);
}

TEST(Grad, Errors) {
  Tape tape;
  Tensor x = tape.watch(F({1, 2}));
  Tensor y;
  {
    TapeScope scope(tape);
    y = ops::mul(x, x);
  }
  expectUserError([&] { autodiff::gradients(tape, y, {&x, 1}); }, ErrorKind::ShapeError, {"[2]"});
  Tensor n = I({1, 2});
  expectUserError([&] { autodiff::gradients(tape, ops::sum(y), {&n, 1}); }, ErrorKind::TypeError);
}

TEST(Grad, NonDifferentiableOpsAreMarked) {
  for (OpKind op : {OpKind::Eq, OpKind::Argmax, OpKind::Nonzero, OpKind::Randint,
                    OpKind::LogicalNot, OpKind::Unique, OpKind::FloorDiv, OpKind::Argsort,
                    OpKind::Topk, OpKind::Searchsorted, OpKind::Nms})
    EXPECT_FALSE(autodiff::isDifferentiable(op)) << shapes::opName(op);
  EXPECT_TRUE(autodiff::isDifferentiable(OpKind::CrossEntropy));
}

}  // namespace
}  // namespace tessel::backends::testing
