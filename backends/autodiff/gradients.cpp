// The rule table (generated from op_list.def) and eager gradients(): the tape's tensors become
// values of an EagerEmitter and backward() walks them.
#include "backends/autodiff/backward.h"
#include "backends/autodiff/eager_emitter.h"
#include "backends/autodiff/grad_formula.h"
#include "backends/autodiff/grad_rules.h"
#include "shapes/elementwise_defs.h"

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

std::vector<Var> wrapAll(EagerEmitter& em, const std::vector<Tensor>& ts) {
  std::vector<Var> out;
  out.reserve(ts.size());
  for (const Tensor& t : ts) out.push_back(em.wrap(t));
  return out;
}

}  // namespace

GradRule gradRule(shapes::OpKind op) {
  if (GradRule r = kRules[static_cast<size_t>(op)]) return r;
  // The ops of ops/elementwise.ops carry their gradients as formulas (grad_formula.h).
  const shapes::ElementwiseDef* d = shapes::elementwiseDef(op);
  return d && d->differentiable ? &gradDefined : nullptr;
}
bool isDifferentiable(shapes::OpKind op) {
  return gradRule(op) != nullptr;
}

std::vector<Tensor> gradients(const Tape& tape, const Tensor& output, std::span<const Tensor> wrt) {
  SuspendTape suspend(tape);
  EagerEmitter em;
  std::vector<GradEntry> entries;
  entries.reserve(tape.entries().size());
  for (const TapeEntry& e : tape.entries())
    entries.push_back({e.op, wrapAll(em, e.inputs), e.attrs, wrapAll(em, e.outputs), e.rng});
  std::vector<Var> wrtVars = wrapAll(em, std::vector<Tensor>(wrt.begin(), wrt.end()));
  Var out = em.wrap(output);
  auto tracked = [&](Handle h) { return tape.tracks(em.tensor(h)); };
  std::vector<Tensor> result;
  for (const Var& g : backward(entries, out, wrtVars, tracked)) result.push_back(em.tensor(g));
  return result;
}

}  // namespace tessel::backends::autodiff
