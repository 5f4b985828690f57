// backward(): the walk itself, independent of where the ops run.
#include "backends/autodiff/backward.h"

#include <string>
#include <unordered_map>
#include <unordered_set>

#include "backends/autodiff/grad_ops.h"
#include "backends/autodiff/grad_rules.h"

namespace tessel::backends::autodiff {

namespace {

void checkOperands(const Var& output, std::span<const Var> wrt) {
  if (output.dtype() != DType::F32)
    throwUserError(ErrorKind::TypeError,
                   std::string("grad: the function must return an f32 tensor, got ") +
                       std::string(shapes::name(output.dtype())));
  if (!shapes::evaluate(output.numel() == SymInt(1)))
    throwUserError(ErrorKind::ShapeError,
                   "grad: the function must return a scalar (one element), got shape " +
                       shapes::errorText(output.shape()));
  for (const Var& w : wrt)
    if (w.dtype() != DType::F32)
      throwUserError(ErrorKind::TypeError,
                     std::string("grad: can only differentiate with respect to f32 tensors, got ") +
                         std::string(shapes::name(w.dtype())));
}

}  // namespace

std::vector<Var> backward(std::span<const GradEntry> entries, const Var& output,
                          std::span<const Var> wrt, const std::function<bool(Handle)>& tracked) {
  checkOperands(output, wrt);
  std::unordered_set<Handle> wanted;
  for (const Var& w : wrt) wanted.insert(w.handle());
  std::unordered_map<Handle, Var> grads;
  grads[output.handle()] = full(output, output.shape(), 1.0);
  std::vector<Handle> live;
  for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
    auto found = grads.find(it->outputs[0].handle());
    if (found == grads.end()) continue;
    const Var g = found->second;
    // Each output is produced once, so its gradient is complete here and no longer needed.
    if (!wanted.count(found->first)) grads.erase(found);
    std::vector<Var> inGrads = gradRule(it->op)(*it, g);
    for (size_t i = 0; i < it->inputs.size() && i < inGrads.size(); ++i) {
      const Var& in = it->inputs[i];
      if (!inGrads[i].defined() || !tracked(in.handle())) continue;
      Var gi = sumToShape(inGrads[i], in.shape());
      auto [slot, fresh] = grads.try_emplace(in.handle(), gi);
      if (!fresh) slot->second = add(slot->second, gi);
    }
    live.clear();
    for (const auto& [h, v] : grads) live.push_back(v.handle());
    output.emitter().release(live);
  }
  std::vector<Var> result;
  for (const Var& w : wrt) {
    auto found = grads.find(w.handle());
    result.push_back(found != grads.end() ? found->second : full(w, w.shape(), 0.0));
  }
  return result;
}

}  // namespace tessel::backends::autodiff
