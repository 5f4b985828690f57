// Errors as values (language.md, "Errors you can catch"): the constructors `ValueError("...")`
// and friends, one per error kind, and the attributes of an error value.
#include "interp/natives/errors.h"

#include "interp/eval/session.h"
#include "interp/natives/builtins.h"
#include "interp/values/native_args.h"

namespace tessel::interp {
namespace {

// `ValueError(message = "")`: the kind is the built-in's bound value.
Value makeError(Interpreter&, CallArgs& a) {
  auto kind = static_cast<ErrorKind>(a.self.asInt());
  ArgBinder args(errorKindName(kind).data(), a, {"message"}, 0);  // names of literals
  std::string message = args.has(0) ? args.toStr(0) : "";
  return Value::object(new ErrorObj(ScriptError(kind, std::move(message), a.site)));
}

}  // namespace

void registerErrorKinds(ModuleObj& prelude) {
#define TESSEL_X(k)                                                                      \
  prelude.define(#k, Value::object(new BuiltinObj(#k, makeError,                         \
                                                  Value::integer(static_cast<int>(ErrorKind::k)))));
  TESSEL_ERROR_KINDS(TESSEL_X)
#undef TESSEL_X
}

// Kept next to errorAttribute, which answers exactly these.
std::vector<std::string> errorAttributeNames() {
  return {"kind", "message", "line", "col", "file"};
}

bool errorAttribute(Interpreter& interp, const Value& error, const std::string& name, Value& out) {
  const ScriptError& e = error.as<ErrorObj>()->error;
  if (name == "kind")
    out = makeStr(std::string(errorKindName(e.kind())));
  else if (name == "message")
    out = makeStr(e.what());
  else if (name == "line")
    out = Value::integer(e.span.line);
  else if (name == "col")
    out = Value::integer(e.span.col);
  else if (name == "file")
    out = makeStr(std::string(interp.sources().name(e.span.file)));
  else
    return false;
  return true;
}

}  // namespace tessel::interp
