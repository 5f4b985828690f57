// The seam between generic value operators and tensor/shape values: values/ and eval/ reach
// these through the TensorHooks (values/tensor_hooks.h) that installTensorHooks fills in, when
// an operand is a tensor, a shape or a dtype, and never see backends/ types; natives/ calls
// them directly.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "interp/syntax/ast.h"
#include "interp/values/objects.h"
#include "interp/values/tensor_hooks.h"
#include "shapes/sym_int.h"

namespace tessel::interp {

class Interpreter;

/// Fills in the TensorHooks (values/tensor_hooks.h) with the functions below; the Interpreter's
/// constructor calls it. Idempotent and thread-safe.
void installTensorHooks();

Value tensorIndex(const Value& tensor, const std::vector<IndexItem>& items);
/// Elementwise comparison with at least one tensor operand.
Value tensorCompare(CompareOp op, const Value& a, const Value& b);
Value tensorBinary(BinaryOp op, const Value& a, const Value& b);
Value tensorUnary(UnaryOp op, const Value& a);
bool tensorTruthy(const Value& t);
/// repr of a Tensor, Shape or DType value.
std::string tensorRepr(const Value& v);
/// Equality of two Shape values or two DType values.
bool objectsEqual(const Value& a, const Value& b);

int64_t shapeLength(const Value& shape);
Value shapeIndex(const Value& shape, const Value& index);
/// Dim i of a shape as a value: a bounded size when the shape is a tpu tensor's.
Value shapeDim(const struct ShapeObj& shape, int64_t i);
Value shapeSlice(const Value& shape, std::optional<int64_t> lo, std::optional<int64_t> hi,
                 std::optional<int64_t> step);
bool shapeContains(const Value& shape, const Value& item);
/// The dtype name and sizes of a tensor value; false if `v` is not a tensor.
bool tensorSignature(const Value& v, std::string& dtype, shapes::SymShape& dims);
/// Adds the tensor built-ins (tensor, zeros, matmul, ...) to the prelude.
void registerTensorBuiltins(Interpreter& interp, ModuleObj& prelude);
/// x.item() as int or float, for int(x) and float(x).
Value tensorItem(const Value& t, bool asInt);
/// Built-ins that also take a tensor (sum, min, max, abs) forward here.
Value tensorReduceBuiltin(Interpreter& interp, const char* name, CallArgs& args);
/// The native implementing a tensor method (`x.sum`), or nullptr.
NativeFn findTensorMethod(const std::string& name);
/// The names findTensorMethod finds, in table order (dir(), help, the docs test).
std::vector<std::string> tensorMethodNames();
/// The names tensorProperty answers for a tensor (`shape` false) or a shape (`shape` true).
std::vector<std::string> tensorPropertyNames(bool shape);
/// A property of a tensor or shape (`x.shape`, `x.T`); false if there is none.
bool tensorProperty(const Value& object, const std::string& name, Value& out);
/// The rows of a tensor (or the sizes of a shape), for `for` loops and unpacking.
std::vector<Value> iterateTensorLike(const Value& v);

}  // namespace tessel::interp
