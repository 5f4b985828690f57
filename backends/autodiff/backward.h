// The reverse-mode walk over recorded ops, shared by eager gradients() and traced grad.
#pragma once

#include <functional>
#include <span>
#include <vector>

#include "backends/autodiff/emitter.h"

namespace tessel::backends::autodiff {

/// Gradient of `output` (a one-element f32 value) with respect to each of `wrt`, shaped like
/// it: the rules of `entries` (in the order the ops ran) are applied backwards, emitting their
/// ops into the Vars' emitter; zeros for a value the output does not depend on. Gradients only
/// flow into inputs for which `tracked` is true. Errors: ShapeError when output has more than
/// one element, TypeError when it or a wrt value is not f32.
std::vector<Var> backward(std::span<const GradEntry> entries, const Var& output,
                          std::span<const Var> wrt, const std::function<bool(Handle)>& tracked);

}  // namespace tessel::backends::autodiff
