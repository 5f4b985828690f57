// tessel::Interpreter: the embedding API over interp::Interpreter (spec: embedding.md).
#include <iostream>
#include <utility>

#include "api/interpreter_impl.h"
#include "backends/device.h"
#include "interp/tensors/device_support.h"
#include "interp/values/objects.h"

namespace tessel {

namespace {

// Every host function is one BuiltinObj whose `self` is its index in Impl::hosts.
interp::Value callHost(interp::Interpreter& vm, interp::CallArgs& args) {
  auto* impl = static_cast<Interpreter::Impl*>(vm.embedder);
  // Named, not a structured binding: clang (the sanitizer build) rejects capturing one.
  const auto& host = impl->hosts[static_cast<size_t>(args.self.asInt())];
  const std::string& name = host.first;
  const HostFunction& fn = host.second;
  if (!args.kwNames.empty())
    throwUserError(ErrorKind::TypeError, name + "() takes no keyword arguments (a host function)");
  std::vector<Value> in;
  in.reserve(args.positional.size());
  std::shared_ptr<void> owner = impl->owner();
  for (interp::Value& v : args.positional) in.push_back(api::wrap(v, owner));
  return api::guardHost(name + "()", [&] { return api::unwrap(fn(in)); });
}

// Options::device: "" leaves the choice to the interpreter (TESSEL_DEVICE, else cpu).
std::optional<backends::Device> checkedDevice(const std::string& name) {
  if (name.empty()) return std::nullopt;
  std::optional<backends::Device> device = backends::deviceFromName(name);
  if (!device)
    throw api::errorWithoutLocation(
        "ValueError", "Options.device names no device: '" + name + "' (cpu, vulkan, tpu)");
  try {
    interp::ensureDevice(*device);
  } catch (const UserError& e) {
    throw api::errorWithoutLocation(errorKindName(e.kind()), e.what());
  }
  return device;
}

}  // namespace

Interpreter::Interpreter(Options options) : impl_(std::make_shared<Impl>()) {
  interp::InterpreterOptions o;
  o.args = std::move(options.args);
  o.maxCallDepth = options.maxCallDepth > 0 ? options.maxCallDepth : 1;
  o.maxSteps = std::max<int64_t>(options.maxSteps, 0);
  o.maxMemoryBytes = std::max<int64_t>(options.maxMemoryBytes, 0);
  o.files.access = static_cast<backends::io::FilePolicy::Access>(options.files.access);
  o.files.folders = std::move(options.files.folders);
  o.device = checkedDevice(options.device);
  Impl& impl = *impl_;
  impl.vm = std::make_unique<interp::Interpreter>(std::move(o));
  impl.vm->embedder = impl_.get();
  impl.hostSource = impl.vm->sources().add("<host>", "host call");
  if (options.output)
    impl.outputBuffer = std::make_unique<api::OutputBuffer>(std::move(options.output));
  if (options.display || options.updatableDisplay) {
    api::HostOutput::Display display;
    if (options.display)
      display = [&impl, fn = std::move(options.display)](const interp::Value& v) {
        Value shown = api::wrap(v, impl.owner());
        api::guardHost("display()", [&] { fn(shown); });
      };
    api::HostOutput::Updatable updatable;
    if (options.updatableDisplay)
      updatable = [fn = std::move(options.updatableDisplay)](std::string_view id,
                                                             std::string_view text, bool first) {
        api::guardHost("progress()", [&] { fn(id, text, first); });
      };
    std::streambuf* text = impl.outputBuffer ? impl.outputBuffer.get() : std::cout.rdbuf();
    impl.output = std::make_unique<api::HostOutput>(text, impl.outputBuffer.get(),
                                                    std::move(display), std::move(updatable));
  } else if (impl.outputBuffer) {
    impl.output = std::make_unique<std::ostream>(impl.outputBuffer.get());
  }
  if (impl.output) impl.vm->setOutput(impl.output.get());
  if (options.errorOutput) {
    impl.errorBuffer = std::make_unique<api::OutputBuffer>(std::move(options.errorOutput));
    impl.errorOutput = std::make_unique<std::ostream>(impl.errorBuffer.get());
    impl.vm->setErrorOutput(impl.errorOutput.get());
  }
}

Interpreter::~Interpreter() = default;
Interpreter::Interpreter(Interpreter&&) noexcept = default;
Interpreter& Interpreter::operator=(Interpreter&&) noexcept = default;

namespace {

Interpreter::Impl& checked(const std::shared_ptr<Interpreter::Impl>& impl) {
  if (!impl)
    throw api::errorWithoutLocation("ValueError", "this Interpreter was moved from");
  return *impl;
}

}  // namespace

Value Interpreter::run(std::string_view source, std::string_view name) {
  Impl& impl = checked(impl_);
  return impl.enter([&] {
    return api::wrap(impl.vm->runSource(std::string(name), std::string(source), true),
                     impl.owner());
  });
}

Value Interpreter::runFile(const std::string& path) {
  Impl& impl = checked(impl_);
  return impl.enter([&] { return api::wrap(impl.vm->runFile(path, true), impl.owner()); });
}

void Interpreter::exec(std::string_view source, std::string_view name) {
  Impl& impl = checked(impl_);
  impl.enter([&] { impl.vm->runSource(std::string(name), std::string(source)); });
}

void Interpreter::execFile(const std::string& path) {
  Impl& impl = checked(impl_);
  impl.enter([&] { impl.vm->runFile(path); });
}

void Interpreter::reset() {
  Impl& impl = checked(impl_);
  impl.inspect([&] { impl.vm->resetMain(); });
}

Value Interpreter::get(std::string_view global) const {
  Impl& impl = checked(impl_);
  interp::Value* v = impl.vm->mainModule().lookup(std::string(global));
  if (!v || v->is(interp::Type::Undefined))
    throw api::errorWithoutLocation("NameError",
                                    "no global named '" + std::string(global) + "'");
  return api::wrap(*v, impl.owner());
}

void Interpreter::set(std::string_view global, Value value) {
  Impl& impl = checked(impl_);
  impl.vm->mainModule().define(std::string(global), api::unwrap(value));
}

Value Interpreter::call(std::string_view function, std::initializer_list<Value> args) {
  Value callee = get(function);
  return call(callee, std::span<const Value>(args.begin(), args.size()));
}

Value Interpreter::call(const Value& function, std::span<const Value> args) {
  Impl& impl = checked(impl_);
  if (!function.isCallable())
    throw api::errorWithoutLocation("TypeError",
                                    "'" + function.typeName() + "' is not callable");
  return impl.enter([&] {
    std::vector<interp::Value> positional;
    positional.reserve(args.size());
    for (const Value& a : args) positional.push_back(api::unwrap(a));
    return api::wrap(impl.vm->call(api::unwrap(function), positional, impl.hostSite()),
                     impl.owner());
  });
}

void Interpreter::define(std::string_view name, HostFunction fn) {
  Impl& impl = checked(impl_);
  if (!fn) throw api::errorWithoutLocation("ValueError", "define: an empty host function");
  impl.hosts.emplace_back(std::string(name), std::move(fn));
  auto index = static_cast<int64_t>(impl.hosts.size() - 1);
  impl.vm->mainModule().define(
      std::string(name),
      interp::Value::object(new interp::BuiltinObj(std::string(name), callHost,
                                                   interp::Value::integer(index))));
}

int64_t Interpreter::collect() {
  Impl& impl = checked(impl_);
  interp::Interpreter::Entry entry(*impl.vm);  // collecting runs no script: nothing to catch
  return impl.vm->gcHeap().collect();
}

void Interpreter::interrupt() {
  if (Impl* impl = impl_.get()) impl->vm->interrupt();
}

}  // namespace tessel
