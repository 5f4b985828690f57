// Constant folding with the eager cpu kernels.
#include "backends/graph/constant_folding.h"

#include "backends/backend.h"
#include "backends/graph/graph_rewriter.h"
#include "backends/graph/sym_eval.h"
#include "shapes/user_error.h"

namespace tessel::graph {

namespace {

bool foldable(const Value& v, const std::vector<const Tensor*>& operands, const FoldOptions& o) {
  if (v.kind != ValueKind::Op || isRandomOp(v.op)) return false;
  if (shapes::opCategory(v.op) == shapes::OpCategory::DataDependent) return false;
  if (!isConstantShape(v.shape) || !attrsAreConstant(v.attrs)) return false;
  for (const Tensor* t : operands)
    if (!t) return false;
  int64_t numel = 1, largest = 0;
  for (const SymInt& d : v.shape) numel *= d.constant();
  for (const Tensor* t : operands) largest = std::max(largest, t->numel());
  return numel <= o.maxNewElements || numel <= largest;
}

}  // namespace

Graph foldConstants(const Graph& g, const FoldOptions& options) {
  GraphRewriter rw(g);
  // The data of every value that is (or became) a constant, by old id.
  std::vector<Tensor> known(g.size());
  for (ValueId id = 0; id < g.size(); ++id) {
    const Value& v = g.value(id);
    if (v.kind == ValueKind::Constant) known[id] = v.constant;
    std::vector<const Tensor*> operands;
    for (ValueId a : v.args) operands.push_back(known[a].defined() ? &known[a] : nullptr);
    if (foldable(v, operands, options)) {
      std::vector<Tensor> in;
      // The cpu kernels read host memory: a constant captured from another device (a vulkan
      // tensor a compiled function closes over) is copied to the cpu first.
      for (const Tensor* t : operands) in.push_back(backends::toDevice(*t, backends::Device::Cpu));
      try {
        known[id] = backends::backendFor(backends::Device::Cpu).run(v.op, in, v.attrs).at(0);
      } catch (const UserError&) {
        known[id] = Tensor();  // raise at run time, where eager would
      }
      if (known[id].defined()) {
        Value c;
        c.kind = ValueKind::Constant;
        c.shape = v.shape;
        c.dtype = v.dtype;
        c.constant = known[id];
        rw.replace(id, std::move(c));
        continue;
      }
    }
    rw.copy(id);
  }
  return rw.finish();
}

}  // namespace tessel::graph
