// tessel::Interpreter: the embedding API over interp::Interpreter (spec: embedding.md).
#include <ostream>
#include <streambuf>
#include <utility>

#include "api/api_internal.h"
#include "backends/device.h"
#include "interp/natives/builtins.h"
#include "interp/syntax/diagnostics.h"
#include "interp/tensors/device_support.h"
#include "interp/interpreter.h"
#include "interp/values/objects.h"
#include "shapes/user_error.h"

namespace tessel {

namespace {

/// print() output for Options::output: handed over a line at a time, and whatever is left
/// when control returns to the app (OutputBuffer::flushPending).
class OutputBuffer : public std::streambuf {
 public:
  explicit OutputBuffer(std::function<void(std::string_view)> sink) : sink_(std::move(sink)) {}
  void flushPending() {
    if (!pending_.empty()) {
      std::string out = std::move(pending_);
      pending_.clear();
      sink_(out);
    }
  }

 protected:
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    pending_.append(s, static_cast<size_t>(n));
    if (pending_.find('\n') != std::string::npos) {
      size_t last = pending_.rfind('\n') + 1;
      std::string lines = pending_.substr(0, last);
      pending_.erase(0, last);
      sink_(lines);
    }
    return n;
  }
  int_type overflow(int_type c) override {
    if (c != traits_type::eof()) {
      char ch = traits_type::to_char_type(c);
      xsputn(&ch, 1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override {
    flushPending();
    return 0;
  }

 private:
  std::function<void(std::string_view)> sink_;
  std::string pending_;
};

}  // namespace

struct Interpreter::Impl : std::enable_shared_from_this<Interpreter::Impl> {
  std::unique_ptr<interp::Interpreter> vm;
  std::unique_ptr<OutputBuffer> outputBuffer;
  std::unique_ptr<std::ostream> output;
  std::unique_ptr<OutputBuffer> errorBuffer;  // Options::errorOutput
  std::unique_ptr<std::ostream> errorOutput;
  std::vector<std::pair<std::string, HostFunction>> hosts;
  uint32_t hostSource = 0;  // "<host>": the span of calls the app makes (Impl::hostSite)

  interp::Span hostSite() const { return interp::Span{hostSource, 1, 1, 1, 10}; }
  std::shared_ptr<void> owner() { return shared_from_this(); }

  /// Runs `body` as one entry into the interpreter: internal errors become tessel::Error,
  /// print output is handed over, and the interpreter stays usable whatever happens.
  template <class F>
  Value enter(F&& body) {
    struct Flush {
      OutputBuffer* buffer;
      std::ostream* out;
      ~Flush() {
        out->flush();
        if (buffer) buffer->flushPending();
      }
    } flush{outputBuffer.get(), &vm->out()};
    try {
      return body();
    } catch (const interp::ScriptError& e) {
      throw api::toError(e, vm->sources());
    } catch (const interp::ExitRequest& e) {
      throw api::errorWithoutLocation("SystemExit",
                                      "the script called exit(" + std::to_string(e.status) + ")");
    } catch (const UserError& e) {
      throw api::errorWithoutLocation(errorKindName(e.kind()), e.what());
    } catch (const std::bad_alloc&) {
      throw api::errorWithoutLocation("DeviceError", "out of memory");
    } catch (const InternalError& e) {
      throw api::errorWithoutLocation("InternalError", e.what());
    }
  }
};

namespace {

// Every host function is one BuiltinObj whose `self` is its index in Impl::hosts.
interp::Value callHost(interp::Interpreter& vm, interp::CallArgs& args) {
  auto* impl = static_cast<Interpreter::Impl*>(vm.embedder);
  const auto& [name, fn] = impl->hosts[static_cast<size_t>(args.self.asInt())];
  if (!args.kwNames.empty())
    throwUserError(ErrorKind::TypeError, name + "() takes no keyword arguments (a host function)");
  std::vector<Value> in;
  in.reserve(args.positional.size());
  std::shared_ptr<void> owner = impl->owner();
  for (interp::Value& v : args.positional) in.push_back(api::wrap(v, owner));
  try {
    return api::unwrap(fn(in));
  } catch (const Error& e) {
    throwUserError(errorKindFromName(e.kind()).value_or(ErrorKind::HostError), e.message());
  } catch (const std::exception& e) {
    throwUserError(ErrorKind::HostError, name + "() failed: " + e.what());
  } catch (...) {
    throwUserError(ErrorKind::HostError, name + "() failed with an exception that is not a "
                                                "std::exception");
  }
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
  std::optional<backends::Device> device = backends::deviceFromName(options.device);
  if (!device)
    throw api::errorWithoutLocation("ValueError", "Options.device names no device: '" +
                                                      options.device + "' (cpu, vulkan, tpu)");
  o.device = device;
  try {
    interp::ensureDevice(*device);
  } catch (const UserError& e) {
    throw api::errorWithoutLocation(errorKindName(e.kind()), e.what());
  }
  impl_->vm = std::make_unique<interp::Interpreter>(std::move(o));
  impl_->vm->embedder = impl_.get();
  impl_->hostSource = impl_->vm->sources().add("<host>", "host call");
  if (options.output) {
    impl_->outputBuffer = std::make_unique<OutputBuffer>(std::move(options.output));
    impl_->output = std::make_unique<std::ostream>(impl_->outputBuffer.get());
    impl_->vm->setOutput(impl_->output.get());
  }
  if (options.errorOutput) {
    impl_->errorBuffer = std::make_unique<OutputBuffer>(std::move(options.errorOutput));
    impl_->errorOutput = std::make_unique<std::ostream>(impl_->errorBuffer.get());
    impl_->vm->setErrorOutput(impl_->errorOutput.get());
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
