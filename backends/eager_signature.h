// eagerSignature: what every Backend::run asks the op's shape rule before its kernels run.
#pragma once

#include <optional>
#include <span>

#include "backends/tensor.h"
#include "shapes/op_attrs.h"
#include "shapes/op_kind.h"
#include "shapes/shape_rules.h"

namespace tessel::backends {

/// The output signature shapes::inferShape gives `op` on `inputs` (eager shapes are constants,
/// so no ShapeEnv is touched). A data-dependent op is only validated (with outputSize 0 when
/// unset) and std::nullopt comes back: its kernel counts and asks the rule again with the real
/// size. Errors are the rule's.
std::optional<shapes::OpSignature> eagerSignature(shapes::OpKind op,
                                                  std::span<const Tensor> inputs,
                                                  const shapes::OpAttrs& attrs);

}  // namespace tessel::backends
