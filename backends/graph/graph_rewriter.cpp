// GraphRewriter: copying values into a new graph with renumbered operands.
#include "backends/graph/graph_rewriter.h"

#include "shapes/user_error.h"

namespace tessel::graph {

GraphRewriter::GraphRewriter(const Graph& src)
    : src_(src), out_(src.env()), map_(src.size(), kNone) {
  out_.setRuntimeAsserts(src.runtimeAsserts());
}

ValueId GraphRewriter::mapped(ValueId old) const {
  TESSEL_ASSERT(map_.at(old) != kNone, "pass used %" + std::to_string(old) + " after dropping it");
  return map_[old];
}

ValueId GraphRewriter::copy(ValueId old) {
  const Value& v = src_.value(old);
  if (v.kind == ValueKind::Input) return map_[old] = out_.input(v.name, v.shape, v.dtype);
  Value c = v;
  for (ValueId& a : c.args) a = mapped(a);
  return map_[old] = out_.append(std::move(c));
}

ValueId GraphRewriter::replace(ValueId old, Value v) {
  return map_[old] = out_.append(std::move(v));
}

ValueId GraphRewriter::add(Value v) {
  return out_.append(std::move(v));
}

Graph GraphRewriter::finish(std::span<const ValueId> outputs,
                            std::vector<RuntimeAssert> asserts) {
  for (RuntimeAssert& a : asserts)
    a.origin = a.origin != RuntimeAssert::kNoOrigin && isMapped(a.origin) ? mapped(a.origin)
                                                                          : RuntimeAssert::kNoOrigin;
  out_.setRuntimeAsserts(std::move(asserts));
  for (ValueId o : outputs) out_.output(mapped(o));
  return out_.build();
}

Graph GraphRewriter::finish() {
  return finish(src_.outputs(), src_.runtimeAsserts());
}

}  // namespace tessel::graph
