// The elementwise op definitions of ops/elementwise.ops as data: what every layer that does not
// compile a formula reads (the dtype rule here, the backends' op codes and checks, the gradient
// rules, the interpreter's bindings and help, the op sweep). tools/opgen.py generates the rows.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "shapes/dtype.h"
#include "shapes/op_kind.h"

namespace tessel::shapes {

/// The result dtype of a defined op: Float computes in f32 whatever the arguments (PyTorch's
/// float ops); Same keeps the arguments' promoted dtype (bool computes in i32); Bool is a test
/// (isnan), computed in the arguments' dtype (i32 for bool) and stored as bool.
enum class EwResult : uint8_t { Float, Same, Bool };

struct ElementwiseDef {
  OpKind op;
  const char* name;
  uint8_t arity;  // 1 to 3 tensor arguments
  EwResult result;
  bool hasInt;       // an i32 formula exists (Same ops)
  bool boolToI32;    // bool arguments give i32 (square), not bool
  bool rejectBool;   // bool arguments are a TypeError (floor, as torch)
  bool intDivisor;   // an i32 zero in argument b is a ZeroDivisionError
  bool differentiable;
  uint8_t code;             // the op code of the vulkan elementwise shader
  const char* args[3];      // PyTorch's argument names
  const char* grads[3];     // gradient formula per argument (nullptr: none flows)
  float sampleLo[3];        // where the op sweep draws each argument
  float sampleHi[3];
  const char* torch;        // PyTorch's spelling, over the argument names
  const char* help;
  const char* example;      // a runnable call, run by the docs test
};

/// An op written as a formula over others (`decomp` in ops/elementwise.ops): selu, hardtanh...
/// Arguments whose default is kTensorArg are tensors (or numbers); the others are numbers.
inline constexpr double kTensorArg = -1e308;
struct DecompositionDef {
  const char* name;
  uint8_t numArgs;
  const char* args[4];
  double defaults[4];
  const char* formula;  // shapes/op_formula.h
  const char* torch;    // PyTorch's spelling, over the tensor arguments
  const char* help;
  const char* example;
  /// The op of the same name (softplus), which the built-in calls when every number argument
  /// has its default: one kernel instead of the formula's chain.
  std::optional<OpKind> op;
};
std::span<const DecompositionDef> decompositionDefs();

/// The dtype op's formula runs in for arguments whose promoted dtype is `args`: f32 for Float
/// ops and f32 arguments, i32 otherwise (bool as 0/1). Every backend asks this.
DType computeDType(const ElementwiseDef& d, DType args);

/// Every defined op, in definition order.
std::span<const ElementwiseDef> elementwiseDefs();
/// The definition of op, or nullptr for an op of shapes/op_list.def's own.
const ElementwiseDef* elementwiseDef(OpKind op);

}  // namespace tessel::shapes
