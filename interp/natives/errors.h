// Errors as values: the kinds' constructors in the prelude, and an error value's attributes
// (`e.kind`, `e.message`, `e.line`, `e.col`, `e.file`).
#pragma once

#include <string>
#include <vector>

#include "interp/values/objects.h"

namespace tessel::interp {

class Interpreter;

/// Defines `ValueError`, `ShapeError`, ... (every ErrorKind) in the prelude.
void registerErrorKinds(ModuleObj& prelude);
/// Sets `out` to the attribute `name` of an error value; false when it has none of that name.
bool errorAttribute(Interpreter& interp, const Value& error, const std::string& name, Value& out);
/// The names errorAttribute answers.
std::vector<std::string> errorAttributeNames();

}  // namespace tessel::interp
