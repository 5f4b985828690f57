// Tensor, shape and dtype values: the interpreter's handles on backends/ tensors.
#pragma once

#include <string>
#include <vector>

#include "backends/tensor.h"
#include "interp/values/objects.h"
#include "shapes/sym_int.h"

namespace tessel::backends::tpu {
class LazyTensor;
class Segment;
}  // namespace tessel::backends::tpu

namespace tessel::interp {

using backends::Tensor;
using shapes::DType;

/// A tensor seen while a @compile function is traced: no data, symbolic sizes, and the graph
/// value that will compute it (compiler.md, "Tracing").
struct FakeTensor {
  uint32_t value = 0;  ///< graph::ValueId in the tracer's graph
  shapes::SymShape shape;
  DType dtype = DType::F32;
  backends::Device device = backends::Device::Cpu;
  const void* tracer = nullptr;  ///< the tracer that made it (fakes must not escape it)
  /// A number kept in the graph (x.item() under config.capture_scalar_outputs, and arithmetic
  /// on such numbers): a 0-d tensor inside the graph, a number again when it leaves it.
  bool scalarItem = false;
};

/// How mark_dynamic & co. marked one dimension (compiler.md, policy 2-3).
struct DimMark {
  enum class Kind : uint8_t { None, Static, Dynamic, MaybeDynamic, Unbacked } kind = Kind::None;
  std::optional<int64_t> min, max;
};

struct TensorObj : Object {
  explicit TensorObj(Tensor t) : Object(Type::Tensor), tensor(std::move(t)) {}
  explicit TensorObj(FakeTensor f)
      : Object(Type::Tensor), fake(std::make_shared<FakeTensor>(std::move(f))) {}
  explicit TensorObj(std::shared_ptr<backends::tpu::LazyTensor> l)
      : Object(Type::Tensor), lazy(std::move(l)) {}
  Tensor tensor;                     ///< the data; undefined for fake and tpu tensors
  std::shared_ptr<FakeTensor> fake;  ///< set while tracing
  /// A tpu tensor: pending or materialized (backends/tpu/lazy.h); asTensor() syncs it.
  std::shared_ptr<backends::tpu::LazyTensor> lazy;
  std::vector<DimMark> marks;        ///< per dim; metadata on this value (mark_dynamic)
};

/// `x.shape`: a tuple-like sequence of sizes that prints as `shape([4, 8])`; sizes are
/// symbolic (`shape([s0, 8])`) while tracing.
struct ShapeObj : Object {
  explicit ShapeObj(shapes::SymShape d) : Object(Type::Shape), dims(std::move(d)) {}
  explicit ShapeObj(const std::vector<int64_t>& d)
      : Object(Type::Shape), dims(d.begin(), d.end()) {}
  shapes::SymShape dims;
  /// Set for a tpu tensor's shape: its symbolic dims are bounded sizes of this segment
  /// (printed `<=N`).
  std::shared_ptr<backends::tpu::Segment> segment;
};

/// `f32`, `i32`, `bool` as values (x.dtype, tensor(xs, dtype = f32)).
struct DTypeObj : Object {
  explicit DTypeObj(DType d) : Object(Type::DType), dtype(d) {}
  DType dtype;
};

/// A tensor value; tpu tensors are wrapped as materialized lazy tensors.
Value makeTensor(Tensor t);
/// x.shape as a value (bounded sizes of tpu tensors keep their segment).
Value shapeValue(const Value& tensor);
/// The real size of dim `d` (a tpu tensor's bounded size runs what is pending if needed; a
/// symbolic size while tracing is specialized with a guard).
int64_t concreteDim(const Value& tensor, int64_t d);
inline bool isFake(const Value& v) {
  return v.is(Type::Tensor) && v.as<TensorObj>()->fake != nullptr;
}
/// The data of a real tensor value; a UserError for a fake one that escaped its trace.
const Tensor& asTensor(const Value& v);

/// `value` as an element of `dtype`: an OverflowError naming `what`, the value and the dtype
/// when the dtype cannot represent it (an int outside i32, a finite float beyond f32's range;
/// fractions truncate toward zero as in PyTorch, and inf and NaN stay themselves in f32).
double checkRepresentable(double value, DType dtype, const std::string& what);
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
/// Sizes from a list/tuple of ints, a shape value, or a single int (symbolic sizes are
/// specialized to their values).
std::vector<int64_t> toDims(const Value& v, const std::string& what);
/// Like toDims, keeping symbolic sizes symbolic (shape arguments of ops while tracing).
shapes::SymShape toSymDims(const Value& v, const std::string& what);
/// A dtype from a dtype value or a name ("f32").
DType toDType(const Value& v, const std::string& what);
/// x.tolist(): nested lists of int/float/bool (a scalar for 0-d).
Value tensorToList(const Tensor& t);
/// x.item(): the element of a one-element tensor as int, float or bool.
Value tensorItemValue(const Tensor& t);

}  // namespace tessel::interp
