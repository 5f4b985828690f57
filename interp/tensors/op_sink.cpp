// emitOp: eager dispatch unless a tracer's sink is installed.
#include "interp/tensors/op_sink.h"

#include <vector>

#include "backends/backend.h"
#include "backends/dispatch.h"
#include "backends/tpu/lazy.h"
#include "interp/tensors/device_support.h"
#include "interp/tensors/tensor_value.h"
#include "interp/values/trace_context.h"
#include "interp/tensors/trace_tape.h"
#include "interp/values/sym_value.h"

namespace tessel::interp {
OpSink* currentOpSink() {
  return traceContext().sink;
}

ScopedOpSink::ScopedOpSink(OpSink* sink) : previous_(traceContext().sink) {
  traceContext().sink = sink;
}
ScopedOpSink::~ScopedOpSink() {
  traceContext().sink = previous_;
}

// Ops on tpu tensors are recorded in the lazy segment (backends/tpu/lazy.h), never run here;
// size attributes of earlier segments are imported into it (attrsOfCurrentSegment).

Value emitLazyOp(shapes::OpKind op, std::span<const Value> operands, const shapes::OpAttrs& attrs) {
  ensureDevice(backends::Device::Tpu);
  std::vector<backends::tpu::LazyOperand> in;
  std::vector<Value> values;  // the operands as tpu tensor values (what trace tapes see)
  in.reserve(operands.size());
  values.reserve(operands.size());
  for (const Value& v : operands) {
    if (v.is(Type::Tensor) && v.as<TensorObj>()->lazy) {
      in.push_back({v.as<TensorObj>()->lazy, {}});
      values.push_back(v);
      continue;
    }
    if (v.is(Type::SymInt)) {
      // A bounded size as an operand (flip and roll of x[mask] subtract from its length):
      // computed on the tpu from its symbol, as a trace computes a size operand (arange(s,
      // s + 1) as a 0-d tensor), so the program needs no host value.
      shapes::OpAttrs range;
      range.start = toSymInt(v);
      range.stop = *range.start + 1;
      range.step = 1;
      range.dtype = shapes::DType::I32;
      const Value one = emitLazyOp(shapes::OpKind::Arange, {}, range);
      values.push_back(emitLazyOp(shapes::OpKind::Reshape, std::span(&one, 1), shapes::OpAttrs{}));
      in.push_back({values.back().as<TensorObj>()->lazy, {}});
      continue;
    }
    // A number (its 0-d tensor) or a host tensor meeting tpu ones: a transfer to the tpu.
    Tensor host = v.is(Type::Tensor) ? asTensor(v)
                                     : toTensor(v, std::string(shapes::opName(op)) + "() operand");
    values.push_back(makeTensor(backends::toDevice(host, backends::Device::Tpu)));
    in.push_back({values.back().as<TensorObj>()->lazy, {}});
  }
  Value out = Value::object(new TensorObj(
      backends::tpu::recordOp(op, in, backends::tpu::attrsOfCurrentSegment(attrs))));
  if (anyTraceTapeActive()) recordOnTraceTapes(op, values, attrs, out);
  return out;
}

Value emitOp(shapes::OpKind op, std::span<const Value> operands, const shapes::OpAttrs& attrs) {
  if (traceContext().sink) return traceContext().sink->emit(op, operands, attrs);
  // The device of the first tensor operand; ops without one (creation) use the default device.
  // Any tpu operand makes the op a tpu op (the others are moved there).
  backends::Device device = defaultDevice();
  bool sawTensor = false, lazy = false;
  for (const Value& v : operands) {
    // Outside a trace a symbolic size is a tpu tensor's bounded size (flip of x[mask] computes
    // from its length): the op is a tpu op too.
    if (v.is(Type::SymInt)) lazy = true;
    if (!v.is(Type::Tensor)) continue;
    const bool isLazy = v.as<TensorObj>()->lazy != nullptr;
    lazy = lazy || isLazy;
    if (!sawTensor) device = isLazy ? backends::Device::Tpu : asTensor(v).device();
    sawTensor = true;
  }
  if (lazy || device == backends::Device::Tpu) [[unlikely]]
    return emitLazyOp(op, operands, attrs);
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
  // Outside a trace a symbolic size can only be a tpu tensor's bounded size: its real value.
  bool symbolic = attrs.step.isSymbolic() || attrs.index.isSymbolic() ||
                  (attrs.start && attrs.start->isSymbolic()) ||
                  (attrs.stop && attrs.stop->isSymbolic());
  for (const auto& d : attrs.shape) symbolic = symbolic || d.isSymbolic();
  if (symbolic) [[unlikely]]
    return makeTensor(backends::dispatch(
                          op, inputs, backends::tpu::attrsOfCurrentSegment(attrs, /*realValues=*/true),
                          device)
                          .at(0));
  return makeTensor(backends::dispatch(op, inputs, attrs, device).at(0));
}

}  // namespace tessel::interp
