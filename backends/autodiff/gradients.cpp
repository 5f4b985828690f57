// The rule table (generated from op_list.def) and the reverse-mode walk over a tape.
#include <string>
#include <unordered_map>

#include "backends/autodiff/grad_rules.h"
#include "backends/ops.h"
#include "shapes/user_error.h"

namespace tessel::backends::autodiff {

namespace {

template <shapes::OpKind K>
constexpr GradRule kRule = nullptr;
#define TESSEL_X(Op) \
  template <>        \
  constexpr GradRule kRule<shapes::OpKind::Op> = &grad##Op;
TESSEL_DIFFERENTIABLE_OPS(TESSEL_X)
#undef TESSEL_X

constexpr GradRule kRules[] = {
#define TESSEL_OP(Enum, name, cat) kRule<shapes::OpKind::Enum>,
#include "shapes/op_list.def"
};

std::string shapeText(const Dims& s) {
  std::string t = "[";
  for (size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
  return t + "]";
}

}  // namespace

GradRule gradRule(shapes::OpKind op) {
  return kRules[static_cast<size_t>(op)];
}
bool isDifferentiable(shapes::OpKind op) {
  return gradRule(op) != nullptr;
}

std::vector<Tensor> gradients(const Tape& tape, const Tensor& output, std::span<const Tensor> wrt) {
  if (output.dtype() != DType::F32)
    throwUserError(ErrorKind::TypeError, std::string("grad: the function must return an f32 "
                                                     "tensor, got ") +
                                             std::string(shapes::name(output.dtype())));
  if (output.numel() != 1)
    throwUserError(ErrorKind::ShapeError,
                   "grad: the function must return a scalar (one element), got shape " +
                       shapeText(output.shape()));
  for (const Tensor& w : wrt)
    if (w.dtype() != DType::F32)
      throwUserError(ErrorKind::TypeError,
                     std::string("grad: can only differentiate with respect to f32 tensors, got ") +
                         std::string(shapes::name(w.dtype())));

  SuspendTape suspend(tape);
  std::unordered_map<const TensorImpl*, Tensor> grads;
  grads[output.id()] = ops::full(output.shape(), 1.0);
  const auto& entries = tape.entries();
  for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
    auto found = grads.find(it->outputs[0].id());
    if (found == grads.end()) continue;
    const Tensor g = found->second;
    std::vector<Tensor> inGrads = gradRule(it->op)(*it, g);
    for (size_t i = 0; i < it->inputs.size() && i < inGrads.size(); ++i) {
      const Tensor& in = it->inputs[i];
      if (!inGrads[i].defined() || !tape.tracks(in)) continue;
      Tensor gi = ops::sumToShape(inGrads[i], in.shape());
      auto [slot, fresh] = grads.try_emplace(in.id(), gi);
      if (!fresh) slot->second = ops::add(slot->second, gi);
    }
  }
  std::vector<Tensor> result;
  for (const Tensor& w : wrt) {
    auto found = grads.find(w.id());
    result.push_back(found != grads.end() ? found->second : ops::full(w.shape(), 0.0));
  }
  return result;
}

}  // namespace tessel::backends::autodiff
