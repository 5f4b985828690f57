// What tools ask an interpreter (tessel.h, "For tools"): the names in scope, the value a dotted
// name is bound to, documentation and compiled-function reports. Nothing here runs a script:
// the REPL completes and shows help while the user types, so looking must have no effect.
#include "api/interpreter_impl.h"
#include "interp/compile/compiled_frame.h"
#include "interp/natives/help.h"
#include "interp/syntax/parser.h"
#include "interp/tensors/tensor_bridge.h"
#include "interp/values/objects.h"

namespace tessel {

using interp::Type;

namespace {

void addBoundGlobals(const interp::ModuleObj& m, std::vector<std::string>& out) {
  for (size_t i = 0; i < m.globalNames.size() && i < m.globals.size(); ++i)
    if (!m.globals[i].is(Type::Undefined)) out.push_back(m.globalNames[i]);
}

std::vector<std::string> dottedParts(std::string_view name) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    size_t dot = name.find('.', start);
    parts.emplace_back(name.substr(start, dot == std::string_view::npos ? dot : dot - start));
    if (dot == std::string_view::npos) return parts;
    start = dot + 1;
  }
}

// `a.b.c` through globals, module members and tensor (or shape) properties only: the
// attributes whose reading runs no code. False when a part is not bound.
bool resolve(interp::Interpreter& vm, const std::vector<std::string>& parts, interp::Value& out) {
  interp::Value* first = vm.mainModule().lookup(parts.front());
  if (!first) first = vm.prelude().lookup(parts.front());
  if (!first || first->is(Type::Undefined)) return false;
  interp::Value v = *first;
  for (size_t i = 1; i < parts.size(); ++i) {
    interp::Value next;
    if (v.is(Type::Module)) {
      interp::Value* g = v.as<interp::ModuleObj>()->lookup(parts[i]);
      if (!g || g->is(Type::Undefined)) return false;
      next = *g;
    } else if (v.is(Type::Tensor) || v.is(Type::Shape)) {
      if (!interp::tensorProperty(v, parts[i], next)) return false;
    } else {
      return false;
    }
    v = std::move(next);
  }
  out = std::move(v);
  return true;
}

Interpreter::Impl& checkedImpl(const std::shared_ptr<Interpreter::Impl>& impl) {
  if (!impl) throw api::errorWithoutLocation("ValueError", "this Interpreter was moved from");
  return *impl;
}

}  // namespace

std::vector<std::string> Value::attributeNames() const {
  return interp::attributeNames(api::unwrap(*this));
}

std::vector<std::string> Interpreter::globalNames() const {
  Impl& impl = checkedImpl(impl_);
  std::vector<std::string> names;
  addBoundGlobals(impl.vm->prelude(), names);
  addBoundGlobals(impl.vm->mainModule(), names);
  return names;
}

std::optional<Value> Interpreter::lookup(std::string_view dottedName) const {
  Impl& impl = checkedImpl(impl_);
  return impl.inspect([&]() -> std::optional<Value> {
    interp::Value v;
    if (dottedName.empty() || !resolve(*impl.vm, dottedParts(dottedName), v)) return std::nullopt;
    return api::wrap(std::move(v), impl.owner());
  });
}

std::string Interpreter::help(const Value& value) const {
  Impl& impl = checkedImpl(impl_);
  return impl.inspect([&] { return interp::helpText(*impl.vm, api::unwrap(value)); });
}

std::string Interpreter::docSummary(std::string_view name) const {
  Impl& impl = checkedImpl(impl_);
  return impl.inspect([&] { return interp::docLine(*impl.vm, nullptr, std::string(name)); });
}

std::string Interpreter::docSummary(const Value& object, std::string_view name) const {
  Impl& impl = checkedImpl(impl_);
  return impl.inspect(
      [&] { return interp::docLine(*impl.vm, &api::unwrap(object), std::string(name)); });
}

std::string Interpreter::referenceMarkdown() const {
  Impl& impl = checkedImpl(impl_);
  return impl.inspect([&] { return interp::referenceMarkdown(*impl.vm); });
}

std::optional<std::string> Interpreter::describeCompiled(const Value& function,
                                                         CompiledView view) const {
  Impl& impl = checkedImpl(impl_);
  return impl.inspect([&]() -> std::optional<std::string> {
    interp::FrameObj* frame = interp::frameOf(api::unwrap(function));
    if (!frame) return std::nullopt;
    return view == CompiledView::Guards ? interp::describeGuards(*frame)
                                        : interp::describeGraphs(*frame);
  });
}

bool isIncomplete(std::string_view source) {
  return interp::needsMoreInput(source);
}

}  // namespace tessel
