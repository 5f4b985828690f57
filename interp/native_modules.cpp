// The registry of non-core built-ins and built-in modules.
#include "interp/native_modules.h"

#include "interp/tensor_bridge.h"

namespace tessel::interp {

void registerNativeBuiltins(Interpreter& interp, ModuleObj& prelude) {
  registerTensorBuiltins(interp, prelude);
}

Value findNativeModule(Interpreter&, const std::string&) { return Value::none(); }

}  // namespace tessel::interp
