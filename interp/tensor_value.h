// Tensor, shape and dtype values: the interpreter's handles on backends/ tensors.
#pragma once

#include <string>
#include <vector>

#include "backends/tensor.h"
#include "shapes/sym_int.h"
#include "interp/objects.h"

namespace tessel::interp {

using backends::Tensor;
using shapes::DType;

struct TensorObj : Object {
  explicit TensorObj(Tensor t) : Object(Type::Tensor), tensor(std::move(t)) {}
  Tensor tensor;
};

/// `x.shape`: a tuple-like sequence of sizes that prints as `shape([4, 8])`.
struct ShapeObj : Object {
  explicit ShapeObj(std::vector<int64_t> d) : Object(Type::Shape), dims(std::move(d)) {}
  std::vector<int64_t> dims;
};

/// `f32`, `i32`, `bool` as values (x.dtype, tensor(xs, dtype = f32)).
struct DTypeObj : Object {
  explicit DTypeObj(DType d) : Object(Type::DType), dtype(d) {}
  DType dtype;
};

inline Value makeTensor(Tensor t) { return Value::object(new TensorObj(std::move(t))); }
inline const Tensor& asTensor(const Value& v) { return v.as<TensorObj>()->tensor; }

/// A tensor from a tensor value, or a 0-d tensor from a number/bool (ints give i32, floats
/// f32, bools bool). TypeError naming `what` for anything else.
Tensor toTensor(const Value& v, const std::string& what);
/// The rank and sizes of a tensor value.
int64_t rankOf(const Value& v);
shapes::SymShape shapeOf(const Value& v);
/// The dtype of a tensor value, or of the 0-d tensor a number becomes.
DType dtypeOf(const Value& v);
/// A tensor from nested lists/tuples of numbers (dtype inferred unless given).
Tensor tensorFromNested(const Value& v, std::optional<DType> dtype);
/// Sizes from a list/tuple of ints, a shape value, or a single int.
std::vector<int64_t> toDims(const Value& v, const std::string& what);
/// A dtype from a dtype value or a name ("f32").
DType toDType(const Value& v, const std::string& what);
/// x.tolist(): nested lists of int/float/bool (a scalar for 0-d).
Value tensorToList(const Tensor& t);
/// x.item(): the element of a one-element tensor as int, float or bool.
Value tensorItemValue(const Tensor& t);

}  // namespace tessel::interp
