// display() and the rich forms: Note [Rich display].
#include "interp/natives/display.h"

#include <mutex>

#include "interp/values/graph_break.h"
#include "interp/eval/session.h"
#include "interp/natives/builtins.h"
#include "interp/values/native_args.h"
#include "interp/values/printer.h"

namespace tessel::interp {
namespace {

struct RichForm {
  std::string name, mimeType;
  RichRender render;
};

struct Registry {
  std::mutex mutex;
  std::vector<RichForm> forms;
};

Registry& registry() {
  static Registry r;
  return r;
}

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

void registerRichForm(const std::string& name, const std::string& mimeType, RichRender render) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (RichForm& f : r.forms)
    if (f.name == name) {
      f = {name, mimeType, std::move(render)};
      return;
    }
  r.forms.push_back({name, mimeType, std::move(render)});
}

std::vector<std::pair<std::string, std::string>> richForms(Interpreter& interp,
                                                           const Value& value) {
  std::vector<RichForm> forms;
  {
    // Copied out: a render may run Tessel code (a plot's), which may register forms itself.
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    forms = r.forms;
  }
  std::vector<std::pair<std::string, std::string>> out;
  for (const RichForm& f : forms)
    if (std::optional<std::string> text = f.render(interp, value))
      out.emplace_back(f.mimeType, std::move(*text));
  return out;
}

void registerDisplayBuiltins(ModuleObj& prelude) {
  defineNative(prelude, "display", builtinDisplay);
}

}  // namespace tessel::interp
