// AttributeHooks: attribute access and method lookup, which the engine runs for `x.name`,
// `x.name = v` and `x.name(...)` but natives/ implements (natives/attributes.h, above eval/).
// natives/ fills the table in (installAttributeHooks) from the Interpreter's constructor, before
// the first script runs.
#pragma once

#include <string>

#include "interp/values/objects.h"

namespace tessel::interp {

struct AttributeHooks {
  /// The native implementing `value.name(...)`, or nullptr.
  NativeFn (*findMethod)(Type type, const std::string& name) = nullptr;
  /// `object.name`; AttributeError when there is none.
  Value (*get)(Interpreter& interp, const Value& object, const std::string& name) = nullptr;
  /// `object.name = v`.
  void (*set)(Interpreter& interp, const Value& object, const std::string& name,
              Value v) = nullptr;
};

namespace detail {
inline AttributeHooks gAttributeHooks;
}

inline const AttributeHooks& attributeHooks() {
  return detail::gAttributeHooks;
}
inline void setAttributeHooks(const AttributeHooks& hooks) {
  detail::gAttributeHooks = hooks;
}

}  // namespace tessel::interp
