// TensorHooks: what the generic operators, printing and the engine call on tensor, shape and
// dtype values. Declared here, below eval/ and tensors/, so that values/ and eval/ need not
// include tensors/; tensors/ fills the table in (installTensorHooks, tensor_bridge.h), which
// the Interpreter's constructor calls before any tensor exists.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "interp/syntax/ast.h"
#include "interp/values/objects.h"
#include "shapes/sym_int.h"

namespace tessel::interp {

/// One subscript of a tensor index expression, evaluated: x[1, 2:5, ..., mask].
struct IndexItem {
  Subscript::Kind kind = Subscript::Kind::Single;
  Value index;                           // Single: an int, a bool/int tensor, or none (a new axis)
  std::optional<shapes::SymInt> lo, hi;  // sizes stay symbolic while tracing: x[:n]
  std::optional<int64_t> step;
};

/// Plain function pointers, not std::function: tensor operators run in loops, and a call
/// through the table costs one load more than a direct call.
struct TensorHooks {
  /// Arithmetic, comparison and negation with at least one tensor operand.
  Value (*binary)(BinaryOp op, const Value& a, const Value& b);
  Value (*compare)(CompareOp op, const Value& a, const Value& b);
  Value (*unary)(UnaryOp op, const Value& a);
  bool (*truthy)(const Value& t);
  /// x[...] of a tensor.
  Value (*index)(const Value& tensor, const std::vector<IndexItem>& items);
  /// repr of a Tensor, Shape or DType value.
  std::string (*repr)(const Value& v);
  /// Equality of two Shape values or two DType values.
  bool (*objectsEqual)(const Value& a, const Value& b);
  int64_t (*shapeLength)(const Value& shape);
  Value (*shapeIndex)(const Value& shape, const Value& index);
  Value (*shapeSlice)(const Value& shape, std::optional<int64_t> lo, std::optional<int64_t> hi,
                      std::optional<int64_t> step);
  bool (*shapeContains)(const Value& shape, const Value& item);
  /// The dtype name and sizes of a tensor value; false if `v` is not a tensor.
  bool (*signature)(const Value& v, std::string& dtype, shapes::SymShape& dims);
  /// Whether a tensor value is a tracer's fake (it has sizes but no data).
  bool (*isFake)(const Value& v);
  /// x.item() as int or float, for int(x) and float(x).
  Value (*item)(const Value& t, bool asInt);
  /// The rows of a tensor (or the sizes of a shape), for `for` loops and unpacking.
  std::vector<Value> (*iterate)(const Value& v);
};

namespace detail {
extern TensorHooks gTensorHooks;  // tensor_hooks.cpp; until installed, each one throws
}

/// The installed table (read in line: a hook call is one load and an indirect call).
inline const TensorHooks& tensorHooks() {
  return detail::gTensorHooks;
}
/// Installs the table; tensors/ does, once (installTensorHooks).
void setTensorHooks(const TensorHooks& hooks);

}  // namespace tessel::interp
