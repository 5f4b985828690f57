// Losses with PyTorch's names, argument order and semantics: mse_loss, l1_loss,
// smooth_l1_loss, huber_loss, binary_cross_entropy(_with_logits), nll_loss, cross_entropy, each
// with reduction = "mean" | "sum" | "none". They are composed of existing ops through emitOp, so
// one native runs eagerly on every device and under @compile, sizes stay symbolic and the
// gradients come from the ops' own rules. mse_loss and cross_entropy of [N, C] logits with
// "mean" (and no label smoothing) keep their fused ops.
#include <cmath>
#include <functional>
#include <iostream>
#include <set>
#include <tuple>

#include "interp/eval/session.h"
#include "interp/tensors/op_compose.h"
#include "interp/tensors/tensor_natives.h"
#include "interp/tensors/tensor_value.h"
#include "interp/values/sym_value.h"
#include "shapes/shape_rules.h"
#include "shapes/user_error.h"

namespace tessel::interp {

namespace {

using shapes::SymInt;
using shapes::SymShape;

using namespace compose;

Value toF32(const Value& x) {
  if (dtypeOf(x) == DType::F32) return x;
  OpAttrs a;
  a.dtype = DType::F32;
  return emitOp(OpKind::Cast, {x}, a);
}

enum class Reduction { Mean, Sum, None };

Reduction reductionArg(const ArgBinder& b, size_t i, const char* fn) {
  if (!b.has(i)) return Reduction::Mean;
  const std::string& r = expectStr(b.at(i), std::string(fn) + "(): reduction");
  if (r == "mean") return Reduction::Mean;
  if (r == "sum") return Reduction::Sum;
  if (r == "none") return Reduction::None;
  throwUserError(ErrorKind::ValueError, std::string(fn) + "(): reduction must be \"mean\", " +
                                            "\"sum\" or \"none\", got \"" + r + "\"");
}

// Elementwise losses reduce over every element.
Value reduce(const Value& loss, Reduction r) {
  if (r == Reduction::None) return loss;
  return emitOp(r == Reduction::Sum ? OpKind::Sum : OpKind::Mean, {loss});
}

// Equal shapes, compared as the shape rules compare sizes (docs/shapes.md): a require() per
// size, a guard on backed sizes and a run-time assert on unbacked ones.
void requireSameShape(const SymShape& xs, const SymShape& ys, ErrorKind kind,
                      const std::function<std::string()>& message) {
  if (xs.size() != ys.size()) throwUserError(kind, message());
  for (size_t i = 0; i < xs.size(); ++i) shapes::require(xs[i] == ys[i], kind, message);
}

// Whether two shapes are known to differ in this call: by rank, by a provably different size,
// or by sizes whose values differ. Sizes without a value (unbacked) count as equal here; this
// only decides a warning.
bool knownToDiffer(const SymShape& xs, const SymShape& ys) {
  if (xs.size() != ys.size()) return true;
  for (size_t i = 0; i < xs.size(); ++i) {
    if (shapes::definitelyFalse(xs[i] == ys[i])) return true;
    const auto a = xs[i].hint(), b = ys[i].hint();
    if (a && b && *a != *b) return true;
  }
  return false;
}

// Input and target of an elementwise loss: PyTorch broadcasts sizes that differ and warns
// ("Using a target size that is different to the input size"), once per call site as Python's
// warnings do; sizes that do not broadcast are a ShapeError naming both. Symbolic sizes are
// compared as the shape rules compare them (docs/shapes.md): binary_cross_entropy's equality
// is a require(), a guard on backed sizes and a run-time assert on unbacked ones.
void checkPair(Interpreter& interp, const CallArgs& args, const char* fn, const Value& x,
               const Value& y, bool strict) {
  const SymShape xs = shapeOf(x), ys = shapeOf(y);
  if (shapes::sameShape(xs, ys)) return;
  if (strict)  // binary_cross_entropy(_with_logits) raise in PyTorch
    return requireSameShape(xs, ys, ErrorKind::ValueError, [&] {
      return std::string(fn) + "(): target size " + shapes::errorText(ys) +
             " must be the same as input size " + shapes::errorText(xs);
    });
  const SymShape out = shapes::broadcastShapes(xs, ys, fn);
  if (!knownToDiffer(xs, ys)) return;
  static std::set<std::tuple<uint32_t, uint32_t, uint32_t>> warned;
  if (!warned.insert({args.site.file, args.site.line, args.site.col}).second) return;
  std::cerr << "tessel: warning: ";
  if (args.site.line)
    std::cerr << interp.sources().name(args.site.file) << ":" << args.site.line << ":"
              << args.site.col << ": ";
  std::cerr << fn << "(): target size " << shapes::errorText(ys) << " differs from input size "
            << shapes::errorText(xs) << "; they broadcast to " << shapes::errorText(out)
            << ", which is likely not what you want\n";
}

struct Pair {
  Value x, y;
  Reduction reduction;
};

// Binds (input, target, [extra...], reduction) of an elementwise loss.
Pair bindPair(Interpreter& interp, CallArgs& a, const ArgBinder& b, const char* fn,
              size_t reductionAt, bool strict = false) {
  Pair p{toF32(tensorArg(b.at(0), std::string(fn) + "(): input")),
         toF32(tensorArg(b.at(1), std::string(fn) + "(): target")),
         reductionArg(b, reductionAt, fn)};
  checkPair(interp, a, fn, p.x, p.y, strict);
  return p;
}

Value nativeMseLoss(Interpreter& interp, CallArgs& a) {
  ArgBinder b(sig::mse_loss, a);
  Pair p = bindPair(interp, a, b, "mse_loss", 2);
  if (p.reduction == Reduction::Mean) return emitOp(OpKind::MseLoss, {p.x, p.y});
  Value d = op(OpKind::Sub, p.x, p.y);
  return reduce(op(OpKind::Mul, d, d), p.reduction);
}

Value nativeL1Loss(Interpreter& interp, CallArgs& a) {
  ArgBinder b(sig::l1_loss, a);
  Pair p = bindPair(interp, a, b, "l1_loss", 2);
  return reduce(op(OpKind::Abs, op(OpKind::Sub, p.x, p.y)), p.reduction);
}

// Where a piecewise loss is quadratic: not |d| >= bound, so a NaN difference takes the
// quadratic branch as in PyTorch's backward kernels (its gradient is NaN there, not the linear
// branch's sign(NaN) = 0).
Value nearZero(const Value& d, double bound) {
  return op(OpKind::LogicalNot, op(OpKind::Ge, d, real(bound)));
}

// The |d| a piecewise loss squares: d where `near`, else 0. The branch where() does not pick
// still gets a zero gradient, and 0 * (an infinite d) would make it NaN (PyTorch's fused
// kernels give the linear branch's gradient, -1 or 1, for an infinite difference).
Value quadraticPart(const Value& near, const Value& d) {
  return emitOp(OpKind::Where, {near, d, real(0.0)});
}

// |d| < beta: 0.5 d^2 / beta, else |d| - 0.5 beta (beta = 0 is l1_loss, as PyTorch).
Value nativeSmoothL1Loss(Interpreter& interp, CallArgs& a) {
  ArgBinder b(sig::smooth_l1_loss, a);
  Pair p = bindPair(interp, a, b, "smooth_l1_loss", 3);
  const double beta = b.has(2) ? b.toFloat(2) : 1.0;
  if (!(beta >= 0))
    throwUserError(ErrorKind::ValueError,
                   "smooth_l1_loss(): beta must be non-negative, got " + std::to_string(beta));
  Value d = op(OpKind::Abs, op(OpKind::Sub, p.x, p.y));
  if (beta == 0) return reduce(d, p.reduction);
  Value near = nearZero(d, beta);
  Value dq = quadraticPart(near, d);
  Value quad = op(OpKind::Mul, op(OpKind::Mul, dq, dq), real(0.5 / beta));
  Value lin = op(OpKind::Sub, d, real(0.5 * beta));
  return reduce(emitOp(OpKind::Where, {near, quad, lin}), p.reduction);
}

// |d| <= delta: 0.5 d^2, else delta (|d| - 0.5 delta).
Value nativeHuberLoss(Interpreter& interp, CallArgs& a) {
  ArgBinder b(sig::huber_loss, a);
  Pair p = bindPair(interp, a, b, "huber_loss", 3);
  const double delta = b.has(2) ? b.toFloat(2) : 1.0;
  if (!(delta > 0))
    throwUserError(ErrorKind::ValueError,
                   "huber_loss(): delta must be positive, got " + std::to_string(delta));
  Value d = op(OpKind::Abs, op(OpKind::Sub, p.x, p.y));
  Value near = nearZero(d, delta);
  Value dq = quadraticPart(near, d);
  Value quad = op(OpKind::Mul, op(OpKind::Mul, dq, dq), real(0.5));
  Value lin = op(OpKind::Mul, op(OpKind::Sub, d, real(0.5 * delta)), real(delta));
  return reduce(emitOp(OpKind::Where, {near, quad, lin}), p.reduction);
}

// -(y log x + (1 - y) log(1 - x)), each log clamped at -100 as PyTorch does.
Value nativeBinaryCrossEntropy(Interpreter& interp, CallArgs& a) {
  ArgBinder b(sig::binary_cross_entropy, a);
  Pair p = bindPair(interp, a, b, "binary_cross_entropy", 2, true);
  Value logx = op(OpKind::Maximum, op(OpKind::Log, p.x), real(-100.0));
  Value log1mx =
      op(OpKind::Maximum, op(OpKind::Log, op(OpKind::Sub, real(1.0), p.x)), real(-100.0));
  Value pos = op(OpKind::Mul, p.y, logx);
  Value neg = op(OpKind::Mul, op(OpKind::Sub, real(1.0), p.y), log1mx);
  return reduce(op(OpKind::Neg, op(OpKind::Add, pos, neg)), p.reduction);
}

// PyTorch's stable form: (1 - y) x + w (log(1 + exp(-|x|)) + max(-x, 0)), w = 1 + (pw - 1) y.
Value nativeBceWithLogits(Interpreter& interp, CallArgs& a) {
  ArgBinder b(sig::binary_cross_entropy_with_logits, a);
  Pair p = bindPair(interp, a, b, "binary_cross_entropy_with_logits", 3, true);
  const Value& x = p.x;
  Value softplusNeg = op(OpKind::Add,
                         op(OpKind::Log, op(OpKind::Add, real(1.0),
                                            op(OpKind::Exp, op(OpKind::Neg, op(OpKind::Abs, x))))),
                         op(OpKind::Maximum, op(OpKind::Neg, x), real(0.0)));
  Value lin = op(OpKind::Mul, op(OpKind::Sub, real(1.0), p.y), x);
  if (b.has(2) && !b.at(2).is(Type::None)) {
    Value pw = toF32(tensorArg(b.at(2), "binary_cross_entropy_with_logits(): pos_weight"));
    Value w = op(OpKind::Add, real(1.0), op(OpKind::Mul, op(OpKind::Sub, pw, real(1.0)), p.y));
    softplusNeg = op(OpKind::Mul, w, softplusNeg);
  }
  return reduce(op(OpKind::Add, lin, softplusNeg), p.reduction);
}

// nll_loss and cross_entropy over log-probabilities logp: [C] with a target [], or [N, C, d...]
// with a target [N, d...] of class indices (i32). Targets equal to ignore_index add nothing,
// and "mean" divides by the number of the others (nan when there are none, as PyTorch).
// smoothing mixes in the mean over classes of -logp (cross_entropy's label_smoothing).
Value classLoss(const char* fn, const Value& logp, const Value& target, int64_t ignoreIndex,
                double smoothing, Reduction reduction) {
  const int64_t rank = rankOf(logp), classDim = rank == 1 ? 0 : 1;
  const SymShape ls = shapeOf(logp), ts = shapeOf(target);
  if (rank == 0)
    throwUserError(ErrorKind::ShapeError,
                   std::string(fn) + "(): input must have a class dim, " + "got a 0-d tensor");
  SymShape want = ls;
  want.erase(want.begin() + classDim);
  requireSameShape(ts, want, ErrorKind::ShapeError, [&] {
    return std::string(fn) + "(): expects a target of size " + shapes::errorText(want) +
           " for input " + shapes::errorText(ls) + ", got " + shapes::errorText(ts);
  });
  if (dtypeOf(target) != DType::I32)
    throwUserError(ErrorKind::TypeError, std::string(fn) + "(): target must hold class indices " +
                                             "(i32), got " +
                                             std::string(shapes::name(dtypeOf(target))));
  // Ignored targets read class 0 and are masked out below. gather wraps negative indices, but
  // a negative class is an error in PyTorch: it becomes C, which gather reports (IndexError).
  Value valid = op(OpKind::Ne, target, Value::integer(ignoreIndex));
  Value inRange = emitOp(
      OpKind::Where, {op(OpKind::Lt, target, Value::integer(0)), makeSymInt(ls[classDim]), target});
  Value safe = emitOp(OpKind::Where, {valid, inRange, Value::integer(0)});
  OpAttrs g;
  g.dim = classDim;
  Value picked = squeeze(emitOp(OpKind::Gather, {logp, unsqueeze(safe, classDim)}, g), classDim);
  Value loss = op(OpKind::Neg, picked);
  if (smoothing > 0) {
    OpAttrs m;
    m.dims = {classDim};
    Value smooth = op(OpKind::Neg, emitOp(OpKind::Mean, {logp}, m));
    loss = op(OpKind::Add, op(OpKind::Mul, loss, real(1.0 - smoothing)),
              op(OpKind::Mul, smooth, real(smoothing)));
  }
  loss = emitOp(OpKind::Where, {valid, loss, real(0.0)});
  if (reduction == Reduction::None) return loss;
  Value total = sumAll(loss);
  if (reduction == Reduction::Sum) return total;
  return op(OpKind::Div, total, sumAll(toF32(valid)));
}

Value nativeNllLoss(Interpreter&, CallArgs& a) {
  ArgBinder b(sig::nll_loss, a);
  Value logp = toF32(tensorArg(b.at(0), "nll_loss(): input"));
  return classLoss("nll_loss", logp, tensorArg(b.at(1), "nll_loss(): target"), b.intOr(2, -100),
                   0.0, reductionArg(b, 3, "nll_loss"));
}

// Class-index targets go through classLoss; a floating target of the input's shape holds class
// probabilities: -sum_c y_c log softmax(x)_c per row ("mean" over rows), as PyTorch.
Value nativeCrossEntropy(Interpreter&, CallArgs& a) {
  ArgBinder b(sig::cross_entropy, a);
  const Value& x = tensorArg(b.at(0), "cross_entropy(): input");
  const Value& y = tensorArg(b.at(1), "cross_entropy(): target");
  const double smoothing = b.has(3) ? b.toFloat(3) : 0.0;
  if (!(smoothing >= 0 && smoothing <= 1))
    throwUserError(ErrorKind::ValueError,
                   "cross_entropy(): label_smoothing must be in [0, 1], "
                   "got " +
                       std::to_string(smoothing));
  const Reduction r = reductionArg(b, 4, "cross_entropy");
  const int64_t rank = rankOf(x);
  if (rank == 0)
    throwUserError(ErrorKind::ShapeError,
                   "cross_entropy(): input must have a class dim, got a "
                   "0-d tensor");
  const int64_t classDim = rank == 1 ? 0 : 1;
  if (rank == 2 && dtypeOf(y) == DType::I32 && smoothing == 0 && r == Reduction::Mean) {
    OpAttrs fused;  // the common case keeps the fused op (one pass over the logits)
    fused.scalars = {static_cast<double>(b.intOr(2, -100))};
    return emitOp(OpKind::CrossEntropy, {x, y}, fused);
  }
  OpAttrs sm;
  sm.dim = classDim;
  Value logp = emitOp(OpKind::LogSoftmax, {x}, sm);
  if (dtypeOf(y) != DType::F32)
    return classLoss("cross_entropy", logp, y, b.intOr(2, -100), smoothing, r);
  requireSameShape(shapeOf(x), shapeOf(y), ErrorKind::ShapeError, [&] {
    return "cross_entropy(): probability targets must have the input's size " +
           shapes::errorText(shapeOf(x)) + ", got " + shapes::errorText(shapeOf(y));
  });
  Value probs = y;
  if (smoothing > 0) {
    const SymInt classes = shapeOf(x)[classDim];
    probs = op(OpKind::Add, op(OpKind::Mul, y, real(1.0 - smoothing)),
               op(OpKind::Div, real(smoothing), makeSymInt(classes)));
  }
  Value loss = op(OpKind::Neg, sumDim(op(OpKind::Mul, probs, logp), classDim));
  if (r == Reduction::None) return loss;
  return emitOp(r == Reduction::Sum ? OpKind::Sum : OpKind::Mean, {loss});
}

const TensorNative kLosses[] = {
    {"mse_loss", nativeMseLoss, false},
    {"l1_loss", nativeL1Loss, false},
    {"smooth_l1_loss", nativeSmoothL1Loss, false},
    {"huber_loss", nativeHuberLoss, false},
    {"binary_cross_entropy", nativeBinaryCrossEntropy, false},
    {"binary_cross_entropy_with_logits", nativeBceWithLogits, false},
    {"nll_loss", nativeNllLoss, false},
    {"cross_entropy", nativeCrossEntropy, false},
};

}  // namespace

std::span<const TensorNative> tensorLossNatives() {
  return kLosses;
}

}  // namespace tessel::interp
