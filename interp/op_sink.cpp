// emitOp: eager dispatch unless a tracer's sink is installed.
#include "interp/op_sink.h"

#include <vector>

#include "backends/dispatch.h"
#include "interp/device_support.h"
#include "interp/tensor_value.h"

namespace tessel::interp {
namespace {
thread_local OpSink* gSink = nullptr;
}

OpSink* currentOpSink() {
  return gSink;
}

ScopedOpSink::ScopedOpSink(OpSink* sink) : previous_(gSink) {
  gSink = sink;
}
ScopedOpSink::~ScopedOpSink() {
  gSink = previous_;
}

Value emitOp(shapes::OpKind op, std::span<const Value> operands, const shapes::OpAttrs& attrs) {
  if (gSink) return gSink->emit(op, operands, attrs);
  // The device of the first tensor operand; ops without one (creation) use the default device.
  backends::Device device = defaultDevice();
  for (const Value& v : operands)
    if (v.is(Type::Tensor)) {
      device = asTensor(v).device();
      break;
    }
  ensureDevice(device);
  std::vector<Tensor> inputs;
  inputs.reserve(operands.size());
  for (const Value& v : operands) {
    if (v.is(Type::Tensor)) [[likely]] {
      inputs.push_back(asTensor(v));
      continue;
    }
    Tensor t = toTensor(v, std::string(shapes::opName(op)) + "() operand");
    // Numbers become 0-d tensors on the op's device, as Python scalars do in PyTorch.
    if (!v.is(Type::Tensor) && device != backends::Device::Cpu) t = onDevice(t, device);
    inputs.push_back(std::move(t));
  }
  return makeTensor(backends::dispatch(op, inputs, attrs, device).at(0));
}

}  // namespace tessel::interp
