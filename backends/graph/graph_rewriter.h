// GraphRewriter: how a pass builds its result graph from the old one, value by value, with
// operands renumbered (values are immutable; passes never edit a graph in place).
#pragma once

#include <span>
#include <vector>

#include "backends/graph/graph_builder.h"

namespace tessel::graph {

class GraphRewriter {
 public:
  explicit GraphRewriter(const Graph& src);

  /// Copies value `old` (operands renumbered); inputs stay inputs.
  ValueId copy(ValueId old);
  /// Emits `v` (operands already in new ids) as the replacement of `old`.
  ValueId replace(ValueId old, Value v);
  /// Emits a value (operands in new ids) that replaces no old value: a pass's helper value.
  ValueId add(Value v);
  /// Makes the new value `now` stand for the old value `old` (a pass found it equal).
  void alias(ValueId old, ValueId now) { map_[old] = now; }
  /// The new id of an old value that was copied or replaced.
  ValueId mapped(ValueId old) const;
  bool isMapped(ValueId old) const { return map_[old] != kNone; }
  /// The new graph: outputs renumbered, runtime asserts kept (their origins renumbered).
  Graph finish();
  /// The new graph with only `outputs` (old ids, all copied) and `asserts`.
  Graph finish(std::span<const ValueId> outputs, std::vector<RuntimeAssert> asserts);

 private:
  static constexpr ValueId kNone = ~ValueId{0};
  const Graph& src_;
  GraphBuilder out_;
  std::vector<ValueId> map_;
};

}  // namespace tessel::graph
