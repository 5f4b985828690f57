// display(): Note [Rich display].
#include "interp/natives/display.h"

#include "interp/eval/graph_break.h"
#include "interp/interpreter.h"
#include "interp/natives/builtins.h"
#include "interp/natives/native_args.h"
#include "interp/values/printer.h"

namespace tessel::interp {
namespace {

Value builtinDisplay(Interpreter& interp, CallArgs& a) {
  // Like print, a side effect a trace would run only once.
  graphBreak(ErrorKind::ValueError, "display() is a side effect");
  ArgBinder b("display", a, {"value"}, 1);
  const Value& value = b.at(0);
  if (auto* rich = dynamic_cast<RichOutput*>(&interp.out())) {
    rich->display(value);
  } else {
    interp.out() << repr(value) << "\n";
    interp.out().flush();
  }
  return Value::none();
}

}  // namespace

void registerDisplayBuiltins(ModuleObj& prelude) {
  defineNative(prelude, "display", builtinDisplay);
}

}  // namespace tessel::interp
