// ArgPlan: how the arguments of a compiled call are checked against an entry and flattened
// into graph inputs and guard inputs. Built while tracing (one node per argument, recursing
// into lists, tuples and dicts so a model's parameter tree can be an argument); walked again
// at every call in the same order, so the sizes it collects line up with the ShapeEnv's
// sources and the guard program's input slots.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "backends/tensor.h"
#include "interp/values/objects.h"
#include "shapes/sym_float.h"
#include "shapes/sym_int.h"

namespace tessel::interp {

struct ArgNode {
  enum class Kind : uint8_t {
    Tensor,      // graph input; rank/dtype/device must match; sizes are guard sources
    Int,         // a guard source (static or symbolic)
    Float,       // specialized: must equal `expected`
    FloatSym,    // dynamic float: a float input of the call (Note [Symbolic floats])
    Exact,       // bool, str, none: must equal `expected`
    Function,    // a Tessel function: the same code and module; captures and defaults
                 // are matched as children (captures first), so a closure made afresh for
                 // each call does not recompile and an int it captures can become dynamic
    Identity,    // built-ins, modules, ...: must be the same object
    Unbound,     // a region's variable that is not set yet (regions.h)
    List,
    Tuple,
    Dict,
  };
  Kind kind = Kind::Exact;
  std::string path;  // "x", "params[0][\"w\"]": for messages
  // Tensor
  int64_t rank = 0;
  shapes::DType dtype = shapes::DType::F32;
  backends::Device device = backends::Device::Cpu;
  std::vector<bool> unbackedDims;  // dims marked unbacked: not guard sources
  // Dims this entry compiled as constants: a call whose tensor has since been marked dynamic
  // there misses the entry (PyTorch's _dynamo_dynamic_indices guard).
  std::vector<bool> staticDims;
  // Float, Exact, Identity
  Value expected;
  // List, Tuple, Dict
  std::vector<std::string> keys;
  std::vector<ArgNode> children;
};

struct ArgPlan {
  std::vector<ArgNode> args;
  // How many graph inputs and size sources the last match flattened: the next match reserves
  // that much at once instead of growing its vectors 1, 2, 4, ... at every call.
  mutable size_t inputsSeen = 0, sourcesSeen = 0;
};

/// A global the traced body read, and what it must still be for the entry to apply (compiler.md:
/// globals read by the traced body are guarded like arguments).
struct GlobalGuard {
  Ref<ModuleObj> module;
  uint32_t slot = 0;
  std::string name;
  Value expected;
  bool byIdentity = false;  // tensors, functions, containers: the same object; scalars: equal
};
/// "" when every global still matches, else the reason.
std::string matchGlobals(const std::vector<GlobalGuard>& globals);
/// Whether every global still matches (matchGlobals without the reason).
bool globalsHold(const std::vector<GlobalGuard>& globals);

/// The flattened view of one call: graph inputs and guard inputs.
struct FlatArgs {
  std::vector<backends::Tensor> inputs;
  std::vector<int64_t> sources;
  std::vector<double> floats;  // float inputs, in the ShapeEnv's order
};

/// Checks `args` against the plan. On success fills `flat` and returns ""; otherwise returns
/// the reason ("x.dtype: expected f32, got i32"). With `pinned` (compile(backend = "vulkan")),
/// tensors elsewhere are moved there instead of failing the device check.
std::string matchArgs(const ArgPlan& plan, std::span<const Value> args, FlatArgs& flat,
                      std::optional<backends::Device> pinned = std::nullopt);

/// How a traced function's result is rebuilt from graph outputs at each call.
struct OutputTemplate {
  enum class Kind : uint8_t {
    Output,    // a graph output
    Number,    // a graph output read back as a number (a kept item(), a data-dependent size)
    Constant,
    Size,      // a size of the inputs
    Float,     // a float computed from the call's sizes and float inputs
    Input,     // a region's input, unchanged (the same list, not a copy)
    List,
    Tuple,
    Dict
  } kind = Kind::Constant;
  size_t output = 0;    // Output, Number: index into the graph's outputs; Input: the slot
  Value constant;       // Constant
  shapes::SymInt size;  // Size: evaluated under the call's symbol values
  shapes::FloatExpr floatExpr;  // Float: evaluated under them and the float inputs
  // Float over unbacked sizes: each such symbol and the graph output (a Number) holding it.
  std::vector<std::pair<uint32_t, size_t>> unbacked;
  std::vector<std::string> keys;
  std::vector<OutputTemplate> children;
};

}  // namespace tessel::interp
