// Lazy tensors: eager ops on tpu tensors are recorded, not run (PyTorch/XLA's model). A sync
// (a value the host needs, or sync()) turns every live pending tensor into data with one
// program, found in a cache keyed by the program's structure, static sizes and bounds, never
// by data (backends.md, "tpu").
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "backends/tensor.h"
#include "backends/tpu/program.h"
#include "shapes/op_attrs.h"
#include "shapes/op_kind.h"
#include "shapes/sym_int.h"

namespace tessel::backends::tpu {

class Segment;

/// A size of a tpu tensor, or arithmetic on such sizes: an expression over the symbols of the
/// segment it was made in (which it keeps alive). Its bound is the solver's maximum of the
/// expression; its value needs the data when it depends on a pending data-dependent size.
struct LazySize {
  shapes::SymInt expr;
  std::shared_ptr<Segment> segment;
};

/// A tpu tensor: pending (a node of the segment being recorded) or materialized (its data,
/// with real sizes, in a buffer sized at the bounds, and the bound of each dynamic dim).
class LazyTensor {
 public:
  /// A materialized tensor from data already on the tpu; `bounds` per dim, -1 for static
  /// (empty: every dim static).
  static std::shared_ptr<LazyTensor> fromData(Tensor data, DimBounds bounds = {});

  bool pending() const { return !data_.defined(); }
  DType dtype() const { return pending() ? dtype_ : data_.dtype(); }
  int64_t rank() const;
  /// The data, with real sizes; a pending tensor first runs every pending tensor (sync).
  const Tensor& data();
  /// The sizes as the segment being recorded sees them: constants for static dims and symbols
  /// (bound = the dim's bound, value = its real size) for dynamic ones. `segment` receives the
  /// segment those symbols belong to.
  shapes::SymShape shape(std::shared_ptr<Segment>* segment = nullptr);
  /// Per dim: its bound, or -1 when static (materialized tensors only).
  const DimBounds& bounds() const { return bounds_; }
  /// A materialized tensor with a bounded dim (it enters segments with symbolic sizes).
  bool hasBoundedDims() const {
    for (int64_t b : bounds_)
      if (b >= 0) return true;
    return false;
  }

 private:
  friend class Segment;
  friend class LazyRuntime;
  friend struct LazyRecorder;
  // Pending.
  std::shared_ptr<Segment> segment_;
  uint32_t id_ = 0;
  shapes::SymShape shape_;
  DType dtype_ = DType::F32;
  std::string error_;  ///< set when the program that was to make it failed
  ErrorKind errorKind_ = ErrorKind::DeviceError;
  // Materialized.
  Tensor data_;
  DimBounds bounds_;
  // Its input node in the segment being recorded.
  std::weak_ptr<Segment> inputSegment_;
  uint32_t inputId_ = 0;
  shapes::SymShape inputShape_;
};

/// An operand of a recorded op: a tpu tensor, or a host tensor (a number) that goes to the
/// tpu as a program input (never as a constant: programs are keyed by structure, not data).
struct LazyOperand {
  std::shared_ptr<LazyTensor> tensor;
  Tensor host;
};

/// Records `op` in the segment being recorded and returns its pending result. Shape errors
/// come at once; a shape question only the data can answer runs what is pending first. With
/// tpuConfig().boundedDynamic off, a data-dependent op runs what is pending and gets the
/// static size its data gives.
std::shared_ptr<LazyTensor> recordOp(shapes::OpKind op, std::span<const LazyOperand> operands,
                                     const shapes::OpAttrs& attrs);
/// Runs every live pending tpu tensor with one program (XLA's mark_step).
void syncAll();

/// `size` as an expression of the segment being recorded (sizes of earlier segments become
/// symbols bounded by their bound, with their value as hint).
shapes::SymInt importSize(const LazySize& size);
/// importSize for a SymInt of any live segment (found by its ShapeEnv).
shapes::SymInt importSymInt(const shapes::SymInt& size);
/// sizeValue for a SymInt of any live segment (a bounded size used by a cpu op).
int64_t symIntValue(const shapes::SymInt& size);
/// `attrs` with every size attribute (shape, start, stop, step, index) of another segment
/// imported into the segment being recorded, or with `realValues`, replaced by its value (for
/// an op that runs on the cpu).
shapes::OpAttrs attrsOfCurrentSegment(const shapes::OpAttrs& attrs, bool realValues = false);
/// The bound of a size (the solver's maximum under its segment's facts).
int64_t sizeBound(const LazySize& size);
/// The real value of a size; runs what is pending when it depends on pending data.
int64_t sizeValue(const LazySize& size);
/// The segment being recorded (for sizes taken from tensor shapes).
std::shared_ptr<Segment> currentSegment();
/// The ShapeEnv of a segment (to scope symbolic arithmetic on its sizes).
shapes::ShapeEnv* segmentEnv(const std::shared_ptr<Segment>& segment);

}  // namespace tessel::backends::tpu
