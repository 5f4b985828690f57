// The tensor seam of the generic operators: arithmetic, comparison, truthiness, printing,
// shapes as values, properties and method lookup, and registration of the tensor built-ins.
#include "interp/tensors/tensor_bridge.h"

#include "backends/backend.h"
#include "backends/format.h"
#include "interp/tensors/device_support.h"
#include "interp/eval/graph_break.h"
#include "interp/values/operators.h"
#include "interp/values/printer.h"
#include "interp/values/sym_value.h"
#include "interp/tensors/tensor_natives.h"
#include "shapes/user_error.h"

namespace tessel::interp {
namespace {

OpKind binaryKind(BinaryOp op) {
  switch (op) {
    case BinaryOp::Add:
      return OpKind::Add;
    case BinaryOp::Sub:
      return OpKind::Sub;
    case BinaryOp::Mul:
      return OpKind::Mul;
    case BinaryOp::Div:
      return OpKind::Div;
    case BinaryOp::FloorDiv:
      return OpKind::FloorDiv;
    case BinaryOp::Mod:
      return OpKind::Mod;
    case BinaryOp::Pow:
      return OpKind::Pow;
    case BinaryOp::MatMul:
      return OpKind::Matmul;
  }
  return OpKind::Add;
}

std::string operandName(BinaryOp op) {
  return std::string("operand of ") + binaryOpSymbol(op);
}

}  // namespace

Value tensorBinary(BinaryOp op, const Value& a, const Value& b) {
  // The operand check builds its message only on failure: this is the hottest eager path.
  auto check = [&](const Value& v) -> const Value& {
    if (v.is(Type::Tensor) || v.isNumber() || v.is(Type::Bool) || v.is(Type::SymInt)) [[likely]]
      return v;
    return tensorArg(v, operandName(op));
  };
  return emitOp(binaryKind(op), {check(a), check(b)});
}

Value tensorUnary(UnaryOp op, const Value& a) {
  if (op == UnaryOp::Pos) return a;
  return emitOp(OpKind::Neg, {a});
}

Value tensorCompare(CompareOp op, const Value& a, const Value& b) {
  OpKind kind = OpKind::Eq;
  switch (op) {
    case CompareOp::Eq:
      kind = OpKind::Eq;
      break;
    case CompareOp::Ne:
      kind = OpKind::Ne;
      break;
    case CompareOp::Lt:
      kind = OpKind::Lt;
      break;
    case CompareOp::Le:
      kind = OpKind::Le;
      break;
    case CompareOp::Gt:
      kind = OpKind::Gt;
      break;
    case CompareOp::Ge:
      kind = OpKind::Ge;
      break;
    case CompareOp::In:
    case CompareOp::NotIn: {
      bool found = contains(b, a);
      return Value::boolean(op == CompareOp::In ? found : !found);
    }
  }
  return emitOp(kind, {tensorArg(a, "comparison operand"), tensorArg(b, "comparison operand")});
}

bool tensorTruthy(const Value& v) {
  if (isFake(v))
    graphBreak(ErrorKind::DataDependentError,
               "the truth value of a tensor depends on its data (a branch on data; where() "
               "keeps it in the graph)");
  const Tensor& t = asTensor(v);
  if (t.numel() != 1)
    throwUserError(ErrorKind::ValueError, "the truth value of a tensor with " +
                                              std::to_string(t.numel()) +
                                              " elements is ambiguous; use .any() or .all()");
  return hostTensor(t).item() != 0;
}

std::string tensorRepr(const Value& v) {
  switch (v.type()) {
    case Type::Tensor:
      if (auto& f = v.as<TensorObj>()->fake) {
        // Its values are unknown until the graph runs: shown while tracing, they would be
        // the placeholder below at every call.
        graphBreak(ErrorKind::DataDependentError, "a tensor as text needs its data");
        return "<traced tensor " + std::string(shapes::name(f->dtype)) + shapes::toString(f->shape) + ">";
      }
      {
        const Tensor& t = asTensor(v);
        std::string text = backends::formatTensor(hostTensor(t));
        // Like PyTorch's device='cuda:0': a tensor off the host says where it lives.
        if (t.device() != backends::Device::Cpu && !text.empty() && text.back() == ')')
          text.insert(text.size() - 1,
                      ", device=\"" + std::string(backends::deviceName(t.device())) + "\"");
        return text;
      }
    case Type::Shape: {
      const ShapeObj& s = *v.as<ShapeObj>();
      if (!s.segment) {
        if (tracing())
          for (const shapes::SymInt& d : s.dims)
            if (d.isSymbolic())
              graphBreak(ErrorKind::DataDependentError, "a traced shape as text needs its sizes");
        return "shape(" + shapes::toString(s.dims) + ")";
      }
      std::string out = "shape([";
      for (size_t i = 0; i < s.dims.size(); ++i)
        out += (i ? ", " : "") + boundedSizeText(s.dims[i], s.segment);
      return out + "])";
    }
    case Type::DType:
      return std::string(shapes::name(v.as<DTypeObj>()->dtype));
    default:
      return "?";
  }
}

bool objectsEqual(const Value& a, const Value& b) {
  if (a.is(Type::Shape)) {
    const auto& x = a.as<ShapeObj>()->dims;
    const auto& y = b.as<ShapeObj>()->dims;
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i)
      if (!shapes::evaluate(x[i] == y[i])) return false;
    return true;
  }
  if (a.is(Type::DType)) return a.as<DTypeObj>()->dtype == b.as<DTypeObj>()->dtype;
  return false;
}

int64_t shapeLength(const Value& v) {
  if (v.is(Type::Shape)) return static_cast<int64_t>(v.as<ShapeObj>()->dims.size());
  if (rankOf(v) == 0) throwUserError(ErrorKind::TypeError, "len() of a 0-d tensor");
  return concreteDim(v, 0);
}

Value shapeIndex(const Value& shape, const Value& index) {
  const auto& dims = shape.as<ShapeObj>()->dims;
  if (!index.is(Type::Int))
    throwUserError(ErrorKind::TypeError,
                   "shape indices must be int, not '" + std::string(typeName(index.type())) + "'");
  return shapeDim(*shape.as<ShapeObj>(),
                  normalizeIndex(index.asInt(), static_cast<int64_t>(dims.size()), "shape"));
}

Value shapeDim(const ShapeObj& shape, int64_t i) {
  const shapes::SymInt& d = shape.dims[i];
  if (shape.segment) return makeBoundedSize(d, shape.segment);
  return makeSymInt(d);
}

Value shapeSlice(const Value& shape, std::optional<int64_t> lo, std::optional<int64_t> hi,
                 std::optional<int64_t> step) {
  const auto& dims = shape.as<ShapeObj>()->dims;
  SliceBounds b = resolveSlice(lo, hi, step, static_cast<int64_t>(dims.size()));
  shapes::SymShape out;
  for (int64_t i = 0, k = b.start; i < b.length; ++i, k += b.step) out.push_back(dims[k]);
  auto* s = new ShapeObj(std::move(out));
  s->segment = shape.as<ShapeObj>()->segment;
  return Value::object(s);
}

bool shapeContains(const Value& shape, const Value& item) {
  if (!isIntLike(item)) return false;
  for (const shapes::SymInt& d : shape.as<ShapeObj>()->dims)
    if (shapes::evaluate(d == toSymInt(item))) return true;
  return false;
}

std::vector<Value> iterateTensorLike(const Value& v) {
  std::vector<Value> out;
  if (v.is(Type::Shape)) {
    const ShapeObj& s = *v.as<ShapeObj>();
    for (size_t i = 0; i < s.dims.size(); ++i) out.push_back(shapeDim(s, int64_t(i)));
    return out;
  }
  if (rankOf(v) == 0) throwUserError(ErrorKind::TypeError, "iteration over a 0-d tensor");
  int64_t rows = concreteDim(v, 0);  // the loop needs a concrete count
  for (int64_t i = 0; i < rows; ++i) {
    OpAttrs at;
    at.index = i;
    out.push_back(emitOp(OpKind::Select, {v}, at));
  }
  return out;
}

namespace {

// Every table of tensor natives, in one place: registration, method lookup and dir() read it.
const std::vector<std::span<const TensorNative>>& tensorNativeTables() {
  static const std::vector<std::span<const TensorNative>> tables = {
      tensorCreationNatives(), tensorOpNatives(),       tensorGradNatives(),
      tensorSparseNatives(),   tensorJaggedNatives(),   tensorLossNatives(),
      tensorDenseUtilNatives(), tensorDenseNatives(),   tensorConvNatives(),
      tensorAttentionNatives(), tensorNormNatives(),    tensorEinsumNatives(),
      tensorPoolNatives(),     tensorDefinedNatives(),  tensorDecompositionNatives(),
      tensorDecompositionDefinedNatives()};
  return tables;
}

}  // namespace

Value tensorReduceBuiltin(Interpreter& interp, const char* name, CallArgs& args) {
  for (std::span<const TensorNative> table : tensorNativeTables())
    for (const TensorNative& n : table)
      if (std::string_view(n.name) == name) return n.fn(interp, args);
  TESSEL_ASSERT(false, std::string("no tensor built-in named ") + name);
}

NativeFn findTensorMethod(const std::string& name) {
  for (std::span<const TensorNative> table : tensorNativeTables())
    for (const TensorNative& n : table)
      if (n.isMethod && name == n.name) return n.fn;
  return nullptr;
}

std::vector<std::string> tensorMethodNames() {
  std::vector<std::string> names;
  for (std::span<const TensorNative> table : tensorNativeTables())
    for (const TensorNative& n : table)
      if (n.isMethod) names.push_back(n.name);
  return names;
}

// Kept next to tensorProperty, which answers exactly these.
std::vector<std::string> tensorPropertyNames(bool shape) {
  if (shape) return {"rank"};
  return {"shape", "ndim", "dtype", "device", "T"};
}

bool tensorProperty(const Value& object, const std::string& name, Value& out) {
  if (object.is(Type::Shape)) {
    if (name == "rank") {
      out = Value::integer(static_cast<int64_t>(object.as<ShapeObj>()->dims.size()));
      return true;
    }
    return false;
  }
  auto& fake = object.as<TensorObj>()->fake;
  if (name == "shape")
    out = shapeValue(object);
  else if (name == "ndim")
    out = Value::integer(rankOf(object));
  else if (name == "dtype")
    out = Value::object(new DTypeObj(dtypeOf(object)));
  else if (name == "device")
    out =
        makeStr(std::string(backends::deviceName(fake ? fake->device
                                                 : object.as<TensorObj>()->lazy
                                                     ? backends::Device::Tpu
                                                     : asTensor(object).device())));
  else if (name == "T") {
    std::vector<int64_t> dims;
    for (int64_t d = rankOf(object) - 1; d >= 0; --d) dims.push_back(d);
    OpAttrs attrs;
    attrs.dims = dims;
    out = emitOp(OpKind::Permute, {object}, attrs);
  } else {
    return false;
  }
  return true;
}

void installTensorHooks() {
  static const bool installed = [] {
    setTensorHooks(TensorHooks{
        tensorBinary, tensorCompare, tensorUnary, tensorTruthy, tensorIndex, tensorRepr,
        objectsEqual, shapeLength, shapeIndex, shapeSlice, shapeContains, tensorSignature,
        isFake, tensorItem, iterateTensorLike});
    return true;
  }();
  (void)installed;
}

bool tensorSignature(const Value& v, std::string& dtype, shapes::SymShape& dims) {
  if (!v.is(Type::Tensor)) return false;
  dtype = std::string(shapes::name(dtypeOf(v)));
  dims = shapeOf(v);
  return true;
}

Value tensorItem(const Value& t, bool asInt) {
  if (isFake(t))
    graphBreak(ErrorKind::DataDependentError,
               std::string(asInt ? "int()" : "float()") + " of a tensor needs its data");
  Value v = tensorItemValue(asTensor(t));
  if (asInt)
    return v.is(Type::Float) ? Value::integer(static_cast<int64_t>(v.asFloat()))
                             : Value::integer(v.is(Type::Bool) ? v.asBool() : v.asInt());
  return Value::real(v.is(Type::Float)
                         ? v.asFloat()
                         : static_cast<double>(v.is(Type::Bool) ? v.asBool() : v.asInt()));
}

namespace {

Value nativeDevice(Interpreter&, CallArgs& a) {
  ArgBinder b(sig::device, a);
  if (const char* env = std::getenv("TESSEL_DEVICE"); env && *env && !backends::deviceFromName(env))
    throwUserError(ErrorKind::ValueError,
                   std::string("TESSEL_DEVICE names no device: '") + env + "' (cpu, vulkan, tpu)");
  return makeStr(std::string(backends::deviceName(defaultDevice())));
}

Value nativeDevices(Interpreter&, CallArgs& a) {
  ArgBinder b(sig::devices, a);
  return listDevices();
}

}  // namespace

void registerTensorBuiltins(Interpreter&, ModuleObj& prelude) {
  for (std::span<const TensorNative> table : tensorNativeTables())
    for (const TensorNative& n : table)
      // The core's sum/min/max/abs stay: they forward tensors to these natives.
      if (!prelude.lookup(n.name)) defineNative(prelude, n.name, n.fn);
  prelude.define("f32", Value::object(new DTypeObj(DType::F32)));
  prelude.define("i32", Value::object(new DTypeObj(DType::I32)));
  defineNative(prelude, "device", nativeDevice);
  defineNative(prelude, "devices", nativeDevices);
}

}  // namespace tessel::interp
