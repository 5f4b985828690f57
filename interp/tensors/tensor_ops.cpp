// Tensor op built-ins (language.md, "Tensors"): each parses its arguments into OpAttrs and runs
// the op through backends::dispatch. Every one is also a method: x.sum(dim = 1).
#include <limits>

#include "backends/backend.h"
#include "backends/tpu/lazy.h"
#include "interp/tensors/device_support.h"
#include "interp/eval/evaluator.h"
#include "interp/values/graph_break.h"
#include "interp/values/sym_value.h"
#include "interp/tensors/tensor_natives.h"
#include "interp/tensors/trace_tape.h"
#include "shapes/shape_env.h"
#include "shapes/user_error.h"

namespace tessel::interp {

SelfArgs::SelfArgs(CallArgs& a) {
  if (a.self.is(Type::Tensor)) {
    positional_.reserve(a.positional.size() + 1);
    positional_.push_back(a.self);
    positional_.insert(positional_.end(), a.positional.begin(), a.positional.end());
    args_ = CallArgs{positional_, a.kwNames, a.kwValues, Value(), a.site};
  } else {
    args_ = a;
  }
}

const Value& tensorArg(const Value& v, const std::string& what) {
  if (v.is(Type::Tensor) || v.isNumber() || v.is(Type::Bool) || v.is(Type::SymInt) ||
      v.is(Type::SymFloat))
    return v;
  throwUserError(ErrorKind::TypeError, what + " must be a tensor or a number, not '" +
                                           std::string(typeName(v.type())) + "'");
}

std::vector<int64_t> toDimList(const Value& v, const std::string& what) {
  if (v.is(Type::Int)) return {v.asInt()};
  return toDims(v, what);
}

SizesArgs bindSizes(CallArgs& a, const NativeSignature& signature) {
  if (a.kwNames.empty() && a.positional.size() > signature.count)
    return {a.positional[0], std::vector<Value>(a.positional.begin() + 1, a.positional.end())};
  ArgBinder b(signature, a);
  return {b.at(0), {b.at(1)}};
}

namespace {

std::string argName(const char* fn, const char* arg) {
  return std::string(fn) + "(): " + arg;
}

// The tensor forms of built-ins documented in interp/natives/docs/core.txt (sum, all, any, max,
// min) have no entry of their own in ops/tensor_functions.txt: each binds by the signature of
// its family (mean's, argmax's) under its own name, and its core.txt entry describes that form.
constexpr NativeSignature kTensorSum = sig::mean.named("sum");
constexpr NativeSignature kTensorAll = sig::mean.named("all");
constexpr NativeSignature kTensorAny = sig::mean.named("any");
constexpr NativeSignature kTensorMax = sig::argmax.named("max");
constexpr NativeSignature kTensorMin = sig::argmax.named("min");

template <OpKind K, const NativeSignature& S>
Value unaryNative(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  const char* fn = S.name;
  ArgBinder b(S, s.args());
  return emitOp(K, {tensorArg(b.at(0), argName(fn, "x"))});
}

template <OpKind K, const NativeSignature& S>
Value binaryNative(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  const char* fn = S.name;
  ArgBinder b(S, s.args());
  return emitOp(K, {tensorArg(b.at(0), argName(fn, "a")), tensorArg(b.at(1), argName(fn, "b"))});
}

Value nativeWhere(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::where, s.args());
  return emitOp(OpKind::Where,
                {tensorArg(b.at(0), "where(): cond"), tensorArg(b.at(1), "where(): a"),
                 tensorArg(b.at(2), "where(): b")});
}

// clamp(x, lo, hi): a missing bound is the dtype's extreme, so one ternary op serves all.
Value nativeClamp(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::clamp, s.args());
  const Value& x = tensorArg(b.at(0), "clamp(): x");
  auto bound = [&](size_t i, bool upper) -> Value {
    if (b.has(i) && !b.at(i).is(Type::None))
      return tensorArg(b.at(i), i == 1 ? "clamp(): lo" : "clamp(): hi");
    if (dtypeOf(x) == DType::F32)
      return Value::real(upper ? std::numeric_limits<double>::infinity()
                               : -std::numeric_limits<double>::infinity());
    return Value::integer(upper ? std::numeric_limits<int32_t>::max()
                                : std::numeric_limits<int32_t>::min());
  };
  return emitOp(OpKind::Clamp, {x, bound(1, false), bound(2, true)});
}

template <OpKind K, const NativeSignature& S>
Value reduceNative(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  const char* fn = S.name;
  ArgBinder b(S, s.args());
  OpAttrs attrs;
  if (b.has(1) && !b.at(1).is(Type::None)) attrs.dims = toDimList(b.at(1), argName(fn, "dim"));
  // An index into several dims has no meaning of its own (PyTorch takes one int).
  if ((K == OpKind::Argmax || K == OpKind::Argmin) && attrs.dims.size() > 1)
    throwUserError(ErrorKind::TypeError, std::string(fn) + "(): dim must be one int, got " +
                                             std::to_string(attrs.dims.size()) + " dims");
  attrs.keepdim = b.has(2) && b.toBool(2);
  return emitOp(K, {tensorArg(b.at(0), argName(fn, "x"))}, attrs);
}

// max/min of a tensor: its extremum, or with `dim` a (values, indices) tuple, as torch.max and
// torch.min (the indices of the first extremum, like argmax); amax/amin keep the plain
// reduction over several dims.
template <OpKind K, OpKind ArgK, const NativeSignature& S>
Value extremumNative(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  const char* fn = S.name;
  ArgBinder b(S, s.args());
  OpAttrs attrs;
  attrs.keepdim = b.has(2) && b.toBool(2);
  const Value x = tensorArg(b.at(0), argName(fn, "x"));
  if (!b.has(1) || b.at(1).is(Type::None)) return emitOp(K, {x}, attrs);
  attrs.dims = toDimList(b.at(1), argName(fn, "dim"));
  if (attrs.dims.size() != 1)
    throwUserError(ErrorKind::TypeError, std::string(fn) + "(): dim must be one int, got " +
                                             std::to_string(attrs.dims.size()) +
                                             " dims (amax/amin reduce several)");
  return makeTuple({emitOp(K, {x}, attrs), emitOp(ArgK, {x}, attrs)});
}

// Shape arguments may be one list or several ints: x.reshape([2, 3]) or x.reshape(2, 3).
shapes::SymShape shapeArgs(const SizesArgs& a, const NativeSignature& signature) {
  const std::string what = argName(signature.name, signature.params[1]);
  const Value& v = a.sizes[0];
  if (a.sizes.size() == 1 && !v.is(Type::Int) && !v.is(Type::SymInt)) return toSymDims(v, what);
  shapes::SymShape dims;
  for (const Value& d : a.sizes) {
    if (!d.is(Type::Int) && !d.is(Type::SymInt)) expectInt(d, what);
    dims.push_back(toSymInt(d));
  }
  return dims;
}

// Dims of permute are plain ints (they index dimensions; they are never symbolic).
std::vector<int64_t> concreteDims(const shapes::SymShape& dims) {
  std::vector<int64_t> out;
  for (const auto& d : dims) out.push_back(shapes::evaluateInt(d));
  return out;
}

Value nativeReshape(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  const SizesArgs a = bindSizes(s.args(), sig::reshape);
  OpAttrs attrs;
  attrs.shape = shapeArgs(a, sig::reshape);
  return emitOp(OpKind::Reshape, {tensorArg(a.x, "reshape(): x")}, attrs);
}

Value nativeExpand(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  const SizesArgs a = bindSizes(s.args(), sig::expand);
  OpAttrs attrs;
  attrs.shape = shapeArgs(a, sig::expand);
  return emitOp(OpKind::Expand, {tensorArg(a.x, "expand(): x")}, attrs);
}

Value nativePermute(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  const SizesArgs a = bindSizes(s.args(), sig::permute);
  OpAttrs attrs;
  attrs.dims = concreteDims(shapeArgs(a, sig::permute));
  return emitOp(OpKind::Permute, {tensorArg(a.x, "permute(): x")}, attrs);
}

Value nativeTranspose(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::transpose, s.args());
  const Value& x = tensorArg(b.at(0), "transpose(): x");
  OpAttrs attrs;
  attrs.dims = {b.intOr(1, 0), b.intOr(2, 1)};
  return emitOp(OpKind::Transpose, {x}, attrs);
}

Value nativeUnsqueeze(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::unsqueeze, s.args());
  OpAttrs attrs;
  attrs.dim = b.toInt(1);
  return emitOp(OpKind::Unsqueeze, {tensorArg(b.at(0), "unsqueeze(): x")}, attrs);
}

Value nativeSqueeze(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::squeeze, s.args());
  OpAttrs attrs;
  if (b.has(1) && !b.at(1).is(Type::None)) attrs.dims = toDimList(b.at(1), "squeeze(): dim");
  return emitOp(OpKind::Squeeze, {tensorArg(b.at(0), "squeeze(): x")}, attrs);
}

Value nativeFlatten(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::flatten, s.args());
  OpAttrs attrs;
  attrs.dim = b.intOr(1, 0);
  attrs.endDim = b.intOr(2, -1);
  return emitOp(OpKind::Flatten, {tensorArg(b.at(0), "flatten(): x")}, attrs);
}

template <OpKind K, const NativeSignature& S>
Value joinNative(Interpreter&, CallArgs& a) {
  const char* fn = S.name;
  ArgBinder b(S, a);
  std::vector<Value> inputs;
  for (const Value& v : iterate(b.at(0), argName(fn, "tensors")))
    inputs.push_back(tensorArg(v, argName(fn, "tensors")));
  if (inputs.empty())
    throwUserError(ErrorKind::ValueError, std::string(fn) + "(): needs at least one tensor");
  OpAttrs attrs;
  attrs.dim = b.intOr(1, 0);
  return emitOp(K, inputs, attrs);
}

Value nativeIndexSelect(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::index_select, s.args());
  OpAttrs attrs;
  attrs.dim = b.toInt(1);
  return emitOp(
      OpKind::IndexSelect,
      {tensorArg(b.at(0), "index_select(): x"), tensorArg(b.at(2), "index_select(): index")},
      attrs);
}

Value nativeGather(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::gather, s.args());
  OpAttrs attrs;
  attrs.dim = b.toInt(1);
  return emitOp(OpKind::Gather,
                {tensorArg(b.at(0), "gather(): x"), tensorArg(b.at(2), "gather(): index")}, attrs);
}

Value nativeMaskedSelect(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::masked_select, s.args());
  return emitOp(OpKind::MaskedSelect, {tensorArg(b.at(0), "masked_select(): x"),
                                       tensorArg(b.at(1), "masked_select(): mask")});
}

Value nativeMaskedScatter(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::masked_scatter, s.args());
  Value x = tensorArg(b.at(0), "masked_scatter(): x");
  const Value& mask = tensorArg(b.at(1), "masked_scatter(): mask");
  // x and the mask broadcast against each other (PyTorch): x is expanded to the common shape
  // first, so the op only ever broadcasts the mask (expand's gradient sums x's back).
  const shapes::SymShape common =
      shapes::broadcastShapes(shapeOf(x), shapeOf(mask), "masked_scatter");
  if (!shapes::sameShape(common, shapeOf(x))) {
    OpAttrs e;
    e.shape = common;
    x = emitOp(OpKind::Expand, {x}, e);
  }
  return emitOp(OpKind::MaskedScatter, {x, mask, tensorArg(b.at(2), "masked_scatter(): source")});
}

Value nativeSoftmaxLike(CallArgs& raw, OpKind op, const NativeSignature& signature) {
  const char* fn = signature.name;
  SelfArgs s(raw);
  ArgBinder b(signature, s.args());
  OpAttrs attrs;
  attrs.dim = b.intOr(1, -1);
  return emitOp(op, {tensorArg(b.at(0), argName(fn, "x"))}, attrs);
}
Value nativeSoftmax(Interpreter&, CallArgs& a) {
  return nativeSoftmaxLike(a, OpKind::Softmax, sig::softmax);
}
Value nativeLogSoftmax(Interpreter&, CallArgs& a) {
  return nativeSoftmaxLike(a, OpKind::LogSoftmax, sig::log_softmax);
}

Value nativeLayerNorm(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::layer_norm, s.args());
  OpAttrs attrs;
  attrs.shape = toSymDims(b.at(1), "layer_norm(): shape");
  if (b.has(4)) attrs.eps = b.toFloat(4);
  std::vector<Value> inputs{tensorArg(b.at(0), "layer_norm(): x")};
  bool hasW = b.has(2) && !b.at(2).is(Type::None), hasB = b.has(3) && !b.at(3).is(Type::None);
  if (hasB && !hasW) throwUserError(ErrorKind::TypeError, "layer_norm(): a bias needs a weight");
  if (hasW) inputs.push_back(tensorArg(b.at(2), "layer_norm(): weight"));
  if (hasB) inputs.push_back(tensorArg(b.at(3), "layer_norm(): bias"));
  return emitOp(OpKind::LayerNorm, inputs, attrs);
}

Value nativeLinear(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::linear, s.args());
  std::vector<Value> inputs{tensorArg(b.at(0), "linear(): x"),
                            tensorArg(b.at(1), "linear(): weight")};
  if (b.has(2) && !b.at(2).is(Type::None)) inputs.push_back(tensorArg(b.at(2), "linear(): bias"));
  return emitOp(OpKind::Linear, inputs);
}

// Note [Traced dropout]: a trace tape (grad on the tpu, grad inside @compile) records ops,
// not the eager tape's random state, so it cannot replay dropout's mask for the backward.
// There dropout is spelled with its mask as a value, drawing the same random words as the
// dropout kernel (one uniform per element, dropped below p): where(rand(x.shape) >= p,
// x * (1 / (1 - p)), 0). The backward then reads the mask like any other value, and results
// equal eager dropout's bit for bit.
Value traceableDropout(const Value& x, double p) {
  OpAttrs shape;
  shape.shape = shapeValue(x).as<ShapeObj>()->dims;
  const bool onTpu = x.as<TensorObj>()->lazy != nullptr;
  Value u = onTpu ? emitLazyOp(OpKind::Rand, {}, shape) : emitOp(OpKind::Rand, {}, shape);
  Value keep = emitOp(OpKind::Ge, {u, Value::real(p)});
  Value scaled = emitOp(OpKind::Mul, {x, Value::real(p < 1 ? 1.0 / (1.0 - p) : 0.0)});
  return emitOp(OpKind::Where, {keep, scaled, Value::real(0.0)});
}

Value nativeDropout(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::dropout, s.args());
  OpAttrs attrs;
  attrs.p = b.has(1) ? b.toFloat(1) : 0.5;
  if (attrs.p < 0 || attrs.p > 1)
    throwUserError(ErrorKind::ValueError,
                   "dropout(): p must be in [0, 1], got " + std::to_string(attrs.p));
  const Value x = tensorArg(b.at(0), "dropout(): x");
  if (anyTraceTapeActive()) return traceableDropout(x, attrs.p);
  return emitOp(OpKind::Dropout, {x}, attrs);
}

// Methods that are not ops.
Value methodNumel(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::numel, s.args());
  const Value shape = shapeValue(tensorArg(b.at(0), "numel(): x"));
  const ShapeObj& dims = *shape.as<ShapeObj>();
  if (dims.segment) {
    // A tpu tensor's element count is a bounded size like its dims (PyTorch: a SymInt).
    shapes::ScopedShapeEnv scope(backends::tpu::segmentEnv(dims.segment));
    return makeBoundedSize(shapes::product(dims.dims), dims.segment);
  }
  return makeSymInt(shapes::product(dims.dims));
}
// item() and tolist() need the data, which a traced tensor does not have: a graph break.
void requireData(const Value& v, const char* what) {
  if (isFake(v))
    graphBreak(ErrorKind::DataDependentError, std::string(what) + " needs the tensor's data");
}

Value methodItem(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::item, s.args());
  if (TraceHooks* hooks = activeTraceHooks(); hooks && isFake(b.at(0)))
    if (Value kept = hooks->captureItem(b.at(0)); !kept.is(Type::None)) return kept;
  requireData(b.at(0), "x.item()");
  return tensorItemValue(toTensor(b.at(0), "item(): x"));
}
Value methodTolist(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::tolist, s.args());
  requireData(b.at(0), "x.tolist()");
  return tensorToList(toTensor(b.at(0), "tolist(): x"));
}
Value methodContiguous(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::contiguous, s.args());
  return emitOp(OpKind::Contiguous, {tensorArg(b.at(0), "contiguous(): x")});
}
// x.to("cpu") moves between devices; x.to(i32) converts the dtype.
Value methodTo(Interpreter&, CallArgs& raw) {
  SelfArgs s(raw);
  ArgBinder b(sig::to, s.args());
  const Value& xv = tensorArg(b.at(0), "to(): x");
  const Value& target = b.at(1);
  if (target.is(Type::DType) || target.is(Type::Builtin) ||
      (target.is(Type::Str) && shapes::dtypeFromName(target.as<StrObj>()->str))) {
    OpAttrs attrs;
    attrs.dtype = toDType(target, "to(): dtype");
    if (attrs.dtype == dtypeOf(xv)) return b.at(0);
    return emitOp(OpKind::Cast, {xv}, attrs);
  }
  Tensor x = toTensor(xv, "to(): x");
  const std::string& name = expectStr(target, "to(): target");
  auto device = backends::deviceFromName(name);
  if (!device)
    throwUserError(ErrorKind::ValueError,
                   "to(): unknown device or dtype '" + name + "' (devices: cpu, vulkan, tpu)");
  if (*device == x.device()) return b.at(0);
  return makeTensor(onDevice(x, *device));
}

const TensorNative kOps[] = {
    {"add", binaryNative<OpKind::Add, sig::add>, true},
    {"sub", binaryNative<OpKind::Sub, sig::sub>, true},
    {"mul", binaryNative<OpKind::Mul, sig::mul>, true},
    {"div", binaryNative<OpKind::Div, sig::div>, true},
    {"pow", binaryNative<OpKind::Pow, sig::pow>, true},
    {"maximum", binaryNative<OpKind::Maximum, sig::maximum>, true},
    {"minimum", binaryNative<OpKind::Minimum, sig::minimum>, true},
    {"logical_and", binaryNative<OpKind::LogicalAnd, sig::logical_and>, true},
    {"logical_or", binaryNative<OpKind::LogicalOr, sig::logical_or>, true},
    {"matmul", binaryNative<OpKind::Matmul, sig::matmul>, true},
    {"where", nativeWhere, false},
    {"clamp", nativeClamp, true},
    {"sum", reduceNative<OpKind::Sum, kTensorSum>, true},
    {"mean", reduceNative<OpKind::Mean, sig::mean>, true},
    {"max", extremumNative<OpKind::Max, OpKind::Argmax, kTensorMax>, true},
    {"min", extremumNative<OpKind::Min, OpKind::Argmin, kTensorMin>, true},
    {"argmax", reduceNative<OpKind::Argmax, sig::argmax>, true},
    {"argmin", reduceNative<OpKind::Argmin, sig::argmin>, true},
    {"all", reduceNative<OpKind::All, kTensorAll>, true},
    {"any", reduceNative<OpKind::Any, kTensorAny>, true},
    {"reshape", nativeReshape, true},
    {"expand", nativeExpand, true},
    {"permute", nativePermute, true},
    {"transpose", nativeTranspose, true},
    {"unsqueeze", nativeUnsqueeze, true},
    {"squeeze", nativeSqueeze, true},
    {"flatten", nativeFlatten, true},
    {"cat", joinNative<OpKind::Cat, sig::cat>, false},
    {"stack", joinNative<OpKind::Stack, sig::stack>, false},
    {"index_select", nativeIndexSelect, true},
    {"gather", nativeGather, true},
    {"nonzero", unaryNative<OpKind::Nonzero, sig::nonzero>, true},
    {"masked_select", nativeMaskedSelect, true},
    {"masked_scatter", nativeMaskedScatter, true},
    {"unique", unaryNative<OpKind::Unique, sig::unique>, true},
    {"softmax", nativeSoftmax, true},
    {"log_softmax", nativeLogSoftmax, true},
    {"layer_norm", nativeLayerNorm, false},
    {"linear", nativeLinear, false},
    {"dropout", nativeDropout, false},
    {"numel", methodNumel, true},
    {"item", methodItem, true},
    {"tolist", methodTolist, true},
    {"contiguous", methodContiguous, true},
    {"to", methodTo, true},
};

}  // namespace

std::span<const TensorNative> tensorOpNatives() {
  return kOps;
}

}  // namespace tessel::interp
