// dispatch(): the one entry point for running an op eagerly.
#pragma once

#include <initializer_list>
#include <span>
#include <vector>

#include "backends/tensor.h"
#include "shapes/op_attrs.h"
#include "shapes/op_kind.h"

namespace tessel::backends {

/// Runs `op` on the backend of its inputs' device (`device` for ops without tensor inputs, such
/// as creation ops) and records it on every active autodiff tape (autodiff/tape.h). Inputs on
/// different devices are a DeviceError; shape and dtype errors come from the op's shape rule.
/// Every output is a new tensor identity, never one of the inputs.
std::vector<Tensor> dispatch(shapes::OpKind op, std::span<const Tensor> inputs,
                             const shapes::OpAttrs& attrs, Device device = Device::Cpu);

/// The single output of an op (every op in op_list.def has one).
Tensor call(shapes::OpKind op, std::initializer_list<Tensor> inputs,
            const shapes::OpAttrs& attrs = {}, Device device = Device::Cpu);

}  // namespace tessel::backends
