// Conversions between interpreter values and tensors.
#include "interp/tensors/tensor_value.h"

#include <cmath>
#include <limits>

#include "backends/tpu/lazy.h"
#include "interp/tensors/device_support.h"
#include "interp/values/graph_break.h"
#include "interp/values/printer.h"
#include "interp/values/sym_value.h"
#include "shapes/user_error.h"

namespace tessel::interp {

Value makeTensor(Tensor t) {
  if (t.device() == backends::Device::Tpu) [[unlikely]]
    return Value::object(new TensorObj(backends::tpu::LazyTensor::fromData(std::move(t))));
  return Value::object(new TensorObj(std::move(t)));
}

Value shapeValue(const Value& tensor) {
  auto* t = tensor.as<TensorObj>();
  if (!t->lazy) return Value::object(new ShapeObj(shapeOf(tensor)));
  std::shared_ptr<backends::tpu::Segment> seg;
  auto* s = new ShapeObj(t->lazy->shape(&seg));
  s->segment = std::move(seg);
  return Value::object(s);
}

int64_t concreteDim(const Value& tensor, int64_t d) {
  auto* t = tensor.as<TensorObj>();
  if (!t->lazy) return shapes::evaluateInt(shapeOf(tensor)[d]);
  std::shared_ptr<backends::tpu::Segment> seg;
  shapes::SymInt dim = t->lazy->shape(&seg)[d];
  if (auto c = dim.maybeConstant()) return *c;
  return backends::tpu::sizeValue({dim, seg});
}

const Tensor& asTensor(const Value& v) {
  auto* t = v.as<TensorObj>();
  if (t->lazy) [[unlikely]]
    return t->lazy->data();
  if (t->fake) {
    // Inside its trace, a native that needs the data: the statement runs eagerly instead.
    if (tracing()) graphBreak(ErrorKind::DataDependentError, "this needs a tensor's data");
    throwUserError(ErrorKind::ValueError,
                   "a tensor traced inside a @compile function was used outside of its trace "
                   "(stored in a global or an outer list?)");
  }
  return t->tensor;
}

double checkRepresentable(double value, DType dtype, const std::string& what) {
  bool fits = true;
  if (dtype == DType::I32)
    fits = !std::isnan(value) && std::trunc(value) >= std::numeric_limits<int32_t>::min() &&
           std::trunc(value) <= std::numeric_limits<int32_t>::max();
  else if (dtype == DType::F32)
    fits = !std::isfinite(value) || std::fabs(value) <= std::numeric_limits<float>::max() ||
           std::isfinite(static_cast<float>(value));  // rounds down to FLT_MAX
  if (!fits)
    throwUserError(ErrorKind::OverflowError, what + ": " + formatFloat(value) +
                                                 " does not fit in " +
                                                 std::string(shapes::name(dtype)));
  return value;
}

Tensor toTensor(const Value& v, const std::string& what) {
  switch (v.type()) {
    case Type::Tensor:
      return asTensor(v);
    case Type::Int: {
      int64_t i = v.asInt();
      if (i < std::numeric_limits<int32_t>::min() || i > std::numeric_limits<int32_t>::max())
        throwUserError(ErrorKind::OverflowError,
                       what + ": " + std::to_string(i) + " does not fit in i32");
      return Tensor::scalar(static_cast<double>(i), DType::I32);
    }
    case Type::Float:
      return Tensor::scalar(checkRepresentable(v.asFloat(), DType::F32, what), DType::F32);
    case Type::Bool:
      return Tensor::scalar(v.asBool() ? 1.0 : 0.0, DType::Bool);
    default:
      throwUserError(ErrorKind::TypeError, what + " must be a tensor or a number, not '" +
                                               std::string(typeName(v.type())) + "'");
  }
}

int64_t rankOf(const Value& v) {
  if (!v.is(Type::Tensor)) return 0;
  if (auto& f = v.as<TensorObj>()->fake) return static_cast<int64_t>(f->shape.size());
  if (auto& l = v.as<TensorObj>()->lazy) return l->rank();
  return asTensor(v).ndim();
}

shapes::SymShape shapeOf(const Value& v) {
  if (!v.is(Type::Tensor)) return {};
  if (auto& f = v.as<TensorObj>()->fake) return f->shape;
  if (auto& l = v.as<TensorObj>()->lazy) return l->shape();
  const auto& dims = asTensor(v).shape();
  return shapes::SymShape(dims.begin(), dims.end());
}

DType dtypeOf(const Value& v) {
  if (v.is(Type::Tensor)) {
    if (auto& f = v.as<TensorObj>()->fake) return f->dtype;
    if (auto& l = v.as<TensorObj>()->lazy) return l->dtype();
    return asTensor(v).dtype();
  }
  if (v.is(Type::Float)) return DType::F32;
  if (v.is(Type::Bool)) return DType::Bool;
  return DType::I32;
}

namespace {

const std::vector<Value>* seqItems(const Value& v) {
  if (v.is(Type::List)) return &v.as<ListObj>()->items;
  if (v.is(Type::Tuple)) return &v.as<TupleObj>()->items;
  return nullptr;
}

// Walks nested lists depth-first, fixing the shape from the first element at each depth and
// checking every other element against it.
void flatten(const Value& v, size_t depth, std::vector<int64_t>& shape, std::vector<double>& out,
             DType& kind, bool& shapeFixed) {
  if (const auto* items = seqItems(v)) {
    if (depth == shape.size()) {
      if (shapeFixed)
        throwUserError(ErrorKind::ValueError,
                       "tensor(): ragged nested list (a list where a number was expected)");
      shape.push_back(static_cast<int64_t>(items->size()));
    } else if (shape[depth] != static_cast<int64_t>(items->size())) {
      throwUserError(ErrorKind::ValueError, "tensor(): ragged nested list: expected " +
                                                std::to_string(shape[depth]) +
                                                " elements at depth " + std::to_string(depth) +
                                                ", got " + std::to_string(items->size()));
    }
    if (items->empty()) shapeFixed = true;
    for (const Value& item : *items) flatten(item, depth + 1, shape, out, kind, shapeFixed);
    return;
  }
  if (depth < shape.size())
    throwUserError(ErrorKind::ValueError,
                   "tensor(): ragged nested list (a number where a list was expected)");
  shapeFixed = true;
  switch (v.type()) {
    case Type::Bool:
      out.push_back(v.asBool());
      break;
    case Type::Int:
      out.push_back(static_cast<double>(v.asInt()));
      if (kind == DType::Bool) kind = DType::I32;
      break;
    case Type::Float:
      out.push_back(v.asFloat());
      kind = DType::F32;
      break;
    case Type::Tensor: {
      const Tensor& t = asTensor(v);
      if (t.numel() != 1 || t.ndim() != 0)
        throwUserError(ErrorKind::ValueError,
                       "tensor(): only 0-d tensors can be list elements; use stack()");
      out.push_back(hostTensor(t).item());
      kind = shapes::promote(kind, t.dtype());
      break;
    }
    default:
      throwUserError(ErrorKind::TypeError, "tensor(): elements must be numbers or bools, not '" +
                                               std::string(typeName(v.type())) + "'");
  }
}

}  // namespace

Tensor tensorFromNested(const Value& v, std::optional<DType> dtype) {
  std::vector<int64_t> shape;
  std::vector<double> data;
  DType kind = DType::Bool;
  bool shapeFixed = false;
  flatten(v, 0, shape, data, kind, shapeFixed);
  if (data.empty() && !dtype) kind = DType::F32;  // tensor([]) is f32, like PyTorch
  DType target = dtype.value_or(kind);
  switch (target) {
    case DType::F32: {
      std::vector<float> f;
      f.reserve(data.size());
      for (double d : data) f.push_back(static_cast<float>(checkRepresentable(d, target, "tensor()")));
      return Tensor::fromData(std::span<const float>(f), shape);
    }
    case DType::I32: {
      std::vector<int32_t> i;
      i.reserve(data.size());
      for (double d : data) i.push_back(static_cast<int32_t>(checkRepresentable(d, target, "tensor()")));
      return Tensor::fromData(std::span<const int32_t>(i), shape);
    }
    case DType::Bool: {
      std::vector<bool> b;
      for (double d : data) b.push_back(d != 0);
      return Tensor::fromBools(b, shape);
    }
  }
  return {};
}

shapes::SymShape toSymDims(const Value& v, const std::string& what) {
  if (v.is(Type::Shape)) return v.as<ShapeObj>()->dims;
  if (v.is(Type::Int) || v.is(Type::SymInt)) return {toSymInt(v)};
  const auto* items = seqItems(v);
  if (!items)
    throwUserError(ErrorKind::TypeError, what + " must be a list or tuple of ints, not '" +
                                             std::string(typeName(v.type())) + "'");
  shapes::SymShape dims;
  for (const Value& item : *items) {
    if (!item.is(Type::Int) && !item.is(Type::SymInt))
      throwUserError(ErrorKind::TypeError,
                     what + " must contain ints, not '" + std::string(typeName(item.type())) + "'");
    dims.push_back(toSymInt(item));
  }
  return dims;
}

std::vector<int64_t> toDims(const Value& v, const std::string& what) {
  std::vector<int64_t> dims;
  for (const shapes::SymInt& d : toSymDims(v, what)) dims.push_back(shapes::evaluateInt(d));
  return dims;
}

DType toDType(const Value& v, const std::string& what) {
  if (v.is(Type::DType)) return v.as<DTypeObj>()->dtype;
  // `bool` is both the built-in function and a dtype name, as in NumPy.
  if (v.is(Type::Builtin) && v.as<BuiltinObj>()->name == "bool") return DType::Bool;
  if (v.is(Type::Str))
    if (auto d = shapes::dtypeFromName(v.as<StrObj>()->str)) return *d;
  throwUserError(ErrorKind::TypeError, what + " must be a dtype (f32, i32, bool), not " + repr(v));
}

namespace {

Value elementValue(double d, DType dtype) {
  switch (dtype) {
    case DType::F32:
      return Value::real(d);
    case DType::I32:
      return Value::integer(static_cast<int64_t>(d));
    case DType::Bool:
      return Value::boolean(d != 0);
  }
  return Value::none();
}

Value nestedList(const std::vector<double>& flat, const std::vector<int64_t>& shape, size_t dim,
                 size_t& pos, DType dtype) {
  if (dim == shape.size()) return elementValue(flat[pos++], dtype);
  std::vector<Value> items;
  items.reserve(shape[dim]);
  for (int64_t i = 0; i < shape[dim]; ++i)
    items.push_back(nestedList(flat, shape, dim + 1, pos, dtype));
  return makeList(std::move(items));
}

}  // namespace

Value tensorToList(const Tensor& t) {
  std::vector<double> flat = hostTensor(t).toDoubles();
  size_t pos = 0;
  return nestedList(flat, t.shape(), 0, pos, t.dtype());
}

Value tensorItemValue(const Tensor& t) {
  if (t.numel() != 1)
    throwUserError(ErrorKind::ValueError,
                   "item(): the tensor has " + std::to_string(t.numel()) + " elements, not 1");
  return elementValue(hostTensor(t).item(), t.dtype());
}

}  // namespace tessel::interp
