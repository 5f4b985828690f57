// emitOp: eager dispatch unless a tracer's sink is installed.
#include "interp/op_sink.h"

#include <vector>

#include "backends/dispatch.h"
#include "interp/tensor_value.h"

namespace tessel::interp {
namespace {
thread_local OpSink* gSink = nullptr;
}

OpSink* currentOpSink() { return gSink; }

ScopedOpSink::ScopedOpSink(OpSink* sink) : previous_(gSink) { gSink = sink; }
ScopedOpSink::~ScopedOpSink() { gSink = previous_; }

Value emitOp(shapes::OpKind op, std::span<const Value> operands, const shapes::OpAttrs& attrs) {
  if (gSink) return gSink->emit(op, operands, attrs);
  std::vector<Tensor> inputs;
  inputs.reserve(operands.size());
  backends::Device device = backends::Device::Cpu;
  for (const Value& v : operands) {
    inputs.push_back(toTensor(v, std::string(shapes::opName(op)) + "() operand"));
    if (v.is(Type::Tensor)) device = inputs.back().device();
  }
  return makeTensor(backends::dispatch(op, inputs, attrs, device).at(0));
}

}  // namespace tessel::interp
