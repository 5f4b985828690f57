// Evaluating a graph's symbolic sizes and attributes under the symbol values of one run.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "backends/tensor.h"
#include "shapes/op_attrs.h"
#include "shapes/sym_int.h"

namespace tessel::graph {

/// The symbols (indices into the ShapeEnv) an expression mentions, sorted.
std::vector<uint32_t> freeSymbols(const shapes::SymInt& v);
/// The unbacked symbols among the sizes of `shape`.
std::vector<uint32_t> unbackedSymbolsOf(const shapes::SymShape& shape);
/// Every symbol an op's attributes mention (shape, start, stop, step, index).
std::vector<uint32_t> attrSymbols(const shapes::OpAttrs& attrs);
/// True when no SymInt in the attributes is symbolic.
bool attrsAreConstant(const shapes::OpAttrs& attrs);
/// True when every size is a constant.
bool isConstantShape(const shapes::SymShape& shape);

/// Concrete values of a ShapeEnv's symbols during one run: one slot per symbol. Backed symbols
/// come from the caller (the guard program's bindSymbols) or from the input sizes; unbacked
/// ones are bound as the ops that produce them run.
class SymbolValues {
 public:
  /// Forgets every binding and sizes the table for `n` symbols.
  void reset(size_t n);
  size_t size() const { return values_.size(); }
  bool bound(uint32_t s) const { return s < bound_.size() && bound_[s]; }
  void bind(uint32_t s, int64_t v);
  std::span<const int64_t> values() const { return values_; }

  /// The value of v. Every symbol in it must be bound (an internal error otherwise);
  /// arithmetic overflow is a UserError(OverflowError).
  int64_t eval(const shapes::SymInt& v) const;
  bool eval(const shapes::SymBool& c) const;
  backends::Dims evalShape(const shapes::SymShape& shape) const;
  /// A copy of attrs with every SymInt replaced by its value (what eager kernels take).
  shapes::OpAttrs evalAttrs(const shapes::OpAttrs& attrs) const;

 private:
  std::vector<int64_t> values_;
  std::vector<uint8_t> bound_;
};

}  // namespace tessel::graph
