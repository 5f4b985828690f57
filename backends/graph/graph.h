// Graph: the compiled form of a traced function. Values with symbolic shapes, defined by
// inputs, constants, ops and fused elementwise programs. Backend neutral: nothing here
// assumes cpu (architecture.md, "Backends consume graphs").
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "backends/tensor.h"
#include "shapes/op_attrs.h"
#include "shapes/op_kind.h"
#include "shapes/sym_int.h"

namespace tessel::shapes {
class ShapeEnv;
}

namespace tessel::graph {

using backends::Tensor;
using shapes::DType;
using shapes::OpAttrs;
using shapes::OpKind;
using shapes::SymInt;
using shapes::SymShape;

struct FusedProgram;  // graph/fused_program.h

/// How a value is defined. Every per-kind table (printing, passes, executors) switches on
/// this one list.
#define TESSEL_VALUE_KINDS(X)                                                             \
  X(Input)    /* a placeholder: one argument tensor of the traced function */             \
  X(Constant) /* a concrete tensor captured at trace time (closed-over weight, scalar) */ \
  X(Op)       /* one op of op_list.def applied to earlier values */                       \
  X(Fused)    /* a fused elementwise program over earlier values (passes/fusion) */

enum class ValueKind : uint8_t {
#define TESSEL_X(k, ...) k,
  TESSEL_VALUE_KINDS(TESSEL_X)
#undef TESSEL_X
};
const char* valueKindName(ValueKind k);

/// Index of a value in its graph. Values are in topological order: a value's operands always
/// have smaller ids.
using ValueId = uint32_t;

/// One value and its definition. Immutable once it is in a Graph; passes build new graphs.
/// Fields a kind does not use keep their defaults.
struct Value {
  ValueKind kind = ValueKind::Op;
  SymShape shape;  ///< symbolic sizes under the graph's ShapeEnv
  DType dtype = DType::F32;
  std::string name;                           ///< Input: source name ("x")
  int inputIndex = -1;                        ///< Input: position in Graph::inputs()
  Tensor constant;                            ///< Constant: the data (concrete shape)
  OpKind op = OpKind::Add;                    ///< Op: which op
  OpAttrs attrs;                              ///< Op: attributes (may hold SymInts)
  std::vector<ValueId> args;                  ///< Op, Fused: operands
  std::shared_ptr<const FusedProgram> fused;  ///< Fused: the program (shared, immutable)

  bool isNode() const { return kind == ValueKind::Op || kind == ValueKind::Fused; }
};

/// A condition on unbacked sizes that tracing could not prove (ShapeEnv::runtimeAsserts):
/// checked by executors once every symbol in it is bound.
struct RuntimeAssert {
  shapes::SymBool cond;
  std::string text;  ///< with source names, for the error message
  /// What a failure is: the shape rule's error (a ShapeError naming both shapes for a
  /// broadcast of unbacked sizes) or, for check(), an AssertionError with no message.
  ErrorKind failKind = ErrorKind::AssertionError;
  std::string failMessage = {};
  /// The op whose shape rule made it (kNoOrigin when unknown): the results that do not need
  /// that op can be computed without it (graph::keepOutputs).
  static constexpr uint32_t kNoOrigin = ~uint32_t{0};
  uint32_t origin = kNoOrigin;
};

/// A traced function: inputs, values, outputs. Its SymInts point into `env()`, so a Graph
/// must not outlive that ShapeEnv. Cheap to copy (constants share storage).
class Graph {
 public:
  const std::vector<Value>& values() const { return values_; }
  const Value& value(ValueId v) const { return values_.at(v); }
  size_t size() const { return values_.size(); }
  /// Input placeholders in argument order.
  const std::vector<ValueId>& inputs() const { return inputs_; }
  const std::vector<ValueId>& outputs() const { return outputs_; }
  const std::vector<RuntimeAssert>& runtimeAsserts() const { return asserts_; }
  /// The ShapeEnv the symbolic sizes belong to (nullptr when every size is constant).
  shapes::ShapeEnv* env() const { return env_; }
  /// Symbols of env() when the graph was built: executors take one value per symbol.
  size_t numSymbols() const { return numSymbols_; }
  /// Op and Fused values (what "node count" means in stats and logs).
  size_t numNodes() const;
  /// The readable text form (graph/graph_print.h).
  std::string toString() const;

 private:
  friend class GraphBuilder;
  std::vector<Value> values_;
  std::vector<ValueId> inputs_;
  std::vector<ValueId> outputs_;
  std::vector<RuntimeAssert> asserts_;
  shapes::ShapeEnv* env_ = nullptr;
  size_t numSymbols_ = 0;
};

/// True for the ops whose result depends on the random stream (never folded or removed:
/// results must equal eager execution, which draws from the same stream).
bool isRandomOp(OpKind op);
/// How many Philox words a random op reserves: one per output element, except multinomial
/// without replacement, one per category of its input (the exponential race's keys). The
/// kernels of every backend reserve this many, and the tpu reserves it at record time.
shapes::SymInt randomWordCount(OpKind op, const shapes::OpAttrs& attrs,
                               const shapes::SymShape& firstInput, const shapes::SymShape& out);
/// True for a node whose kernel can raise on the data it gets (an integer division by zero or
/// negative power, an index out of range, a masked_scatter source too short): never removed,
/// since eager execution raises there even when nothing uses the result.
bool mayRaiseOnData(const Value& v);
/// Unary, Binary and Ternary ops and cast: one output element from the same-index elements
/// of the (broadcast) operands. What fusion may merge.
bool isElementwise(OpKind op);

/// The unbacked symbols that `v` has in its shape, and for a captured item() the symbol its
/// value binds (attrs.index): what a run binds when it makes v.
std::vector<uint32_t> unbackedSymbolsOf(const Value& v);
/// Per symbol of g's ShapeEnv: 1 for the unbacked symbols that a value of g (of the values
/// `live` marks, when given) has in its shape, i.e. the symbols a run of g binds.
std::vector<uint8_t> unbackedSymbolsBound(const Graph& g, std::span<const uint8_t> live = {});
/// True when every unbacked symbol of `cond` is one `bound` marks: a runtime assert a run
/// binding those symbols can check.
bool checkableWith(const shapes::SymBool& cond, std::span<const uint8_t> bound);

}  // namespace tessel::graph
