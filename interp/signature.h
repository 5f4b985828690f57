// Shape-polymorphic signatures checked at call time (language.md): parameter types and named
// dimensions, the where-clause, and the declared result.
#pragma once

#include "interp/evaluator.h"

namespace tessel::interp {

/// Checks the arguments already bound in `frame` against the fn's annotations, binds the named
/// dimensions, and evaluates the where-clause. Throws ScriptError at `site` on a mismatch.
void checkSignature(Interpreter& interp, FunctionObj& fn, Frame& frame, Span site);
/// Checks a returned value against the declared result type (dims bound by the arguments).
void checkResult(Interpreter& interp, FunctionObj& fn, Frame& frame, const Value& result, Span site);

}  // namespace tessel::interp
