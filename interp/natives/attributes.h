// Attribute access (`x.name`) and method lookup for every value type.
#pragma once

#include <string>
#include <vector>

#include "interp/values/objects.h"

namespace tessel::interp {

/// The native implementing `value.name(...)`, or nullptr.
NativeFn findMethod(Type type, const std::string& name);
/// The names findMethod finds for `type`, in table order.
std::vector<std::string> methodNames(Type type);
/// `value.name`: a module global, a tensor property, or a bound method.
Value getAttribute(Interpreter& interp, const Value& object, const std::string& name);
/// `object.name = v`: module fields (including the built-in `config`).
void setAttribute(Interpreter& interp, const Value& object, const std::string& name, Value v);
/// Hands the three above to the engine (eval/attribute_hooks.h); the Interpreter's constructor
/// calls it. Idempotent and thread-safe.
void installAttributeHooks();

}  // namespace tessel::interp
