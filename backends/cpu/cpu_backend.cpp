// CpuBackend::run: ask the op's shape rule, then hand off to the kernel for its category.
#include "backends/cpu/cpu_backend.h"

#include "backends/cpu/kernels.h"
#include "backends/eager_signature.h"
#include "shapes/shape_rules.h"
#include "shapes/user_error.h"

namespace tessel::backends::cpu {

std::vector<Tensor> CpuBackend::run(OpKind op, std::span<const Tensor> inputs,
                                    const OpAttrs& attrs) {
  const std::optional<OpSignature> sig = eagerSignature(op, inputs, attrs);
  if (!sig) return {runDataDependent(op, inputs, attrs)};
  const OpSignature& out = *sig;
  const shapes::OpCategory cat = shapes::opCategory(op);
  switch (cat) {
    case shapes::OpCategory::Unary:
      return {runUnary(op, inputs[0], out)};
    case shapes::OpCategory::Binary:
      return {runBinary(op, inputs[0], inputs[1], out)};
    case shapes::OpCategory::Ternary:
      return {runTernary(op, inputs, out)};
    case shapes::OpCategory::Reduce:
      return {runReduce(op, inputs[0], attrs, out)};
    case shapes::OpCategory::Scan:
      return {runScan(op, inputs[0], attrs, out)};
    case shapes::OpCategory::Shape:
      return {runShapeOp(op, inputs, attrs, out)};
    case shapes::OpCategory::Index:
      return {runIndexOp(op, inputs, attrs, out)};
    case shapes::OpCategory::NN:
      return {runNN(op, inputs, attrs, out)};
    case shapes::OpCategory::Create:
      return {runCreate(op, attrs, out)};
    case shapes::OpCategory::Sort:
      return {runSort(op, inputs, attrs, out)};
    case shapes::OpCategory::Convert:
      if (op == OpKind::Cast) return {castTo(inputs[0], out.dtype)};
      // contiguous() always returns a new tensor identity (autodiff relies on it to watch an
      // argument separately from other uses of the same tensor, autodiff/tape.h).
      return {inputs[0].contiguous().alias()};
    case shapes::OpCategory::DataDependent:
      break;
  }
  TESSEL_ASSERT(false, "op category without kernels");
  return {};
}

}  // namespace tessel::backends::cpu
