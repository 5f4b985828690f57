// Shape-polymorphic signatures checked at call time (language.md): parameter types and named
// dimensions, the where-clause, and the declared result.
#pragma once

#include <span>

#include "interp/eval/evaluator.h"

namespace tessel::interp {

/// Checks the arguments already bound in `frame` against the fn's annotations, binds the named
/// dimensions, and evaluates the where-clause. Throws ScriptError at `site` on a mismatch.
void checkSignature(Interpreter& interp, FunctionObj& fn, Frame& frame, Span site);
/// checkSignature for a call about to be compiled or to hit a compiled entry: the arguments
/// are checked with their concrete sizes before any work.
void checkCallSignature(Interpreter& interp, FunctionObj& fn, std::span<const Value> args,
                        Span site);
/// Checks a returned value against the declared result type (dims bound by the arguments).
void checkResult(Interpreter& interp, FunctionObj& fn, Frame& frame, const Value& result,
                 Span site);

}  // namespace tessel::interp
