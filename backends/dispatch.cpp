// dispatch(): device check, backend call, tape recording.
#include "backends/dispatch.h"

#include <string>

#include "backends/autodiff/tape.h"
#include "backends/backend.h"
#include "backends/rng.h"
#include "shapes/user_error.h"

namespace tessel::backends {

std::vector<Tensor> dispatch(shapes::OpKind op, std::span<const Tensor> inputs,
                             const shapes::OpAttrs& attrs, Device device) {
  if (!inputs.empty()) {
    device = inputs[0].device();
    for (const Tensor& t : inputs)
      if (t.device() != device)
        throwUserError(ErrorKind::DeviceError,
                       std::string(shapes::opName(op)) + ": tensors are on different devices (" +
                           std::string(deviceName(device)) + " and " +
                           std::string(deviceName(t.device())) + "); move them with .to()");
  }
  const bool taping = autodiff::anyTapeActive();
  // Random ops are replayed by their gradient rules (dropout), so note where the stream was.
  const RngState rng = taping ? rngState() : RngState{};
  std::vector<Tensor> outputs = backendFor(device).run(op, inputs, attrs);
  for (Tensor& out : outputs)
    for (const Tensor& in : inputs)
      if (out.id() == in.id()) out = out.alias();
  if (taping) autodiff::recordOnActiveTapes(op, inputs, attrs, outputs, rng);
  return outputs;
}

Tensor call(shapes::OpKind op, std::initializer_list<Tensor> inputs, const shapes::OpAttrs& attrs,
            Device device) {
  return dispatch(op, std::span<const Tensor>(inputs.begin(), inputs.size()), attrs, device)[0];
}

}  // namespace tessel::backends
