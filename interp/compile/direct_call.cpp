// The direct path of a cache-hit call (Note [Direct cache-hit calls] in direct_call.h).
#include "interp/compile/direct_call.h"

#include "interp/compile/compiled_frame.h"
#include "interp/tensors/tensor_value.h"

namespace tessel::interp {
namespace {

enum class Outcome : uint8_t {
  Ran,       // the entry applies: the call ran
  Rejected,  // the entry does not apply, as matchArgs or its guards would say too
  Unknown,   // for the generic path to decide
};

// Whether the result can be rebuilt from graph outputs alone (no symbol values, no region).
bool plainOutput(const OutputTemplate& t) {
  if (t.kind == OutputTemplate::Kind::Size || t.kind == OutputTemplate::Kind::Input ||
      t.kind == OutputTemplate::Kind::Float)
    return false;
  for (const OutputTemplate& c : t.children)
    if (!plainOutput(c)) return false;
  return true;
}

bool plainArguments(const ArgPlan& plan) {
  for (const ArgNode& node : plan.args)
    if (node.kind != ArgNode::Kind::Tensor && node.kind != ArgNode::Kind::Int) return false;
  return true;
}

// matchArgs for plain arguments, without messages: fills `flat`.
Outcome flatten(const ArgPlan& plan, std::span<const Value> args, FlatArgs& flat) {
  if (args.size() != plan.args.size()) return Outcome::Rejected;
  for (size_t i = 0; i < args.size(); ++i) {
    const ArgNode& node = plan.args[i];
    const Value& v = args[i];
    if (node.kind == ArgNode::Kind::Int) {
      if (!v.is(Type::Int)) return Outcome::Rejected;
      flat.sources.push_back(v.asInt());
      continue;
    }
    if (!v.is(Type::Tensor) || isFake(v)) return Outcome::Rejected;
    if (!v.as<TensorObj>()->marks.empty()) return Outcome::Unknown;  // matchArgs checks marks
    const Tensor& t = asTensor(v);
    if (t.ndim() != node.rank || t.dtype() != node.dtype) return Outcome::Rejected;
    if (t.device() != node.device) return Outcome::Unknown;  // a pinned backend moves it
    for (int64_t d = 0; d < node.rank; ++d)
      if (!node.unbackedDims[d]) flat.sources.push_back(t.size(d));
    flat.inputs.push_back(t);
  }
  return Outcome::Ran;
}

Outcome tryEntry(FrameObj& frame, Entry& entry, std::span<const Value> args, Value& result) {
  DirectCall& direct = entry.direct;
  if (!direct.run) return Outcome::Unknown;
  FlatArgs& flat = direct.flat;
  struct Empty {  // the arguments' references go with the call, also when a kernel throws
    DirectCall& d;
    ~Empty() {
      d.flat.inputs.clear();
      d.flat.sources.clear();
      d.outs.clear();
    }
  } empty{direct};
  Outcome o = flatten(entry.plan, args, flat);
  if (o != Outcome::Ran) return o;
  if (!globalsHold(entry.globals) || !entry.guards.passes(flat.sources)) return Outcome::Rejected;
  if (!direct.run->accepts(flat.inputs)) return Outcome::Unknown;
  countHit(frame, entry);
  ++frame.stats.directHits;
  direct.used = true;
  GraphRun run;
  run.outs = std::move(direct.outs);
  direct.run->run(flat.inputs, run.outs);
  result = rebuildOutput(entry.output, run);
  direct.outs = std::move(run.outs);
  return Outcome::Ran;
}

}  // namespace

std::optional<Value> callDirect(FrameObj& frame, std::span<const Value> args) {
  for (size_t i = frame.entries.size(); i-- > 0;) {
    Value result;
    switch (tryEntry(frame, *frame.entries[i], args, result)) {
      case Outcome::Ran:
        return result;
      case Outcome::Rejected:
        continue;
      case Outcome::Unknown:
        return std::nullopt;
    }
  }
  return std::nullopt;
}

void prepareDirect(Entry& entry, const FlatArgs& flat) {
  DirectCall& direct = entry.direct;
  if (direct.never || (direct.run && direct.run->accepts(flat.inputs))) return;
  if (direct.run) {
    direct.unusedPrepares = direct.used ? 0 : direct.unusedPrepares + 1;
    // Sizes that change at every call: preparing costs, and serves nothing.
    direct.never = direct.unusedPrepares >= DirectCall::kMaxUnusedPrepares;
    direct.run = nullptr;
    if (direct.never) return;
  }
  direct.never = entry.flow != Flow::Return || !entry.slotOutputs.empty() ||
                 !plainArguments(entry.plan) || !plainOutput(entry.output) ||
                 !entry.derivedInputs.empty();  // computed per call (Note [Symbolic floats])
  if (!direct.never) direct.run = entry.executable->prepare(flat.inputs);
  // A graph that cannot be prepared for these inputs cannot be for any the entry admits.
  direct.never = !direct.run;
  direct.used = false;
}

}  // namespace tessel::interp
