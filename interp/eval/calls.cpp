// Calls: argument binding, frames on the value stack, method calls, tracebacks.
#include "interp/eval/attribute_hooks.h"
#include "interp/eval/engine.h"
#include "interp/eval/session.h"
#include "interp/values/native_object.h"
#include "interp/values/printer.h"
#include "interp/eval/signature.h"
#include "interp/syntax/suggest.h"

namespace tessel::interp {
namespace {

// A call's arguments, evaluated into an inline buffer: most calls have few, and the heap is
// used only past that. Only the n Values in use are constructed (and destroyed).
struct ArgBuffer {
  explicit ArgBuffer(size_t n) : n(n) {
    data = n <= kInline ? reinterpret_cast<Value*>(inline_)
                        : static_cast<Value*>(::operator new(n * sizeof(Value)));
    for (size_t i = 0; i < n; ++i) new (data + i) Value();
  }
  ~ArgBuffer() {
    for (size_t i = 0; i < n; ++i) data[i].~Value();
    if (n > kInline) ::operator delete(data);
  }
  ArgBuffer(const ArgBuffer&) = delete;
  ArgBuffer& operator=(const ArgBuffer&) = delete;
  static constexpr size_t kInline = 8;
  alignas(Value) unsigned char inline_[kInline * sizeof(Value)];
  size_t n;
  Value* data;
};

constexpr size_t kValueStackSize = 1 << 20;

}  // namespace

// Note [Value stack]
// Frames are windows of one preallocated vector of Values. Every slot at or above top_ is
// Undefined, so a new frame needs no initialization: arguments are evaluated straight into
// their slots (callDirect), and FrameGuard resets a frame's slots to Undefined when it ends.
// The top is a pointer, not an index, so that a call computes no addresses from it (the
// vector never moves).
std::unique_ptr<Evaluator> Evaluator::create(Interpreter& interp) {
  return std::make_unique<Engine>(interp);
}

Engine::Engine(Interpreter& interp)
    : interp_(interp),
      interruptFlag_(&interp.interruptFlag()),
      maxCallDepth_(interp.options().maxCallDepth),
      maxSteps_(interp.options().maxSteps),
      stepsLeft_(maxSteps_ > 0 ? maxSteps_ : INT64_MAX),
      stack_(static_cast<Value*>(std::calloc(kValueStackSize, sizeof(Value)))),
      stackEnd_(stack_.get() + kValueStackSize),
      top_(stack_.get()) {
  static_assert(static_cast<int>(Type::Undefined) == 0);  // calloc's zeros are Undefined
  if (!stack_) throw std::bad_alloc();
  interp.gcHeap().poll = [](void* engine) { static_cast<Engine*>(engine)->requestPoll(); };
  interp.gcHeap().pollCtx = this;
}

Engine::~Engine() {
  interp_.gcHeap().poll = nullptr;
}

// Note [Polls]
// The cycle collector must run where the engine is between two things it does (Note [When] in
// interp/values/gc.cpp), and the engine already tests one counter at every statement, loop
// iteration and call: the steps left. A heap with a collection due calls requestPoll, which
// banks the steps left and sets the counter to zero, so the next step takes the slow path
// here; it puts the banked steps back (the step count stays exact) and collects. Fast paths
// pay nothing for it.
void Engine::stepsRanOut(const Span& span) {
  if (pollRequested_) {
    pollRequested_ = false;
    stepsLeft_ += banked_;
    banked_ = 0;
    interp_.gcHeap().collectDue();
    if (stepsLeft_ >= 0) return;
  }
  stepLimitExceeded(span);
}

void Engine::interrupted(const Span& span) {
  interruptFlag_->store(false);
  raise(ErrorKind::Interrupted, "interrupted", span);
}

void Engine::stepLimitExceeded(const Span& span) {
  stepsLeft_ = INT64_MAX;  // the error's own handling (a caller's cleanup) must not trip again
  raise(ErrorKind::LimitError,
        "step limit exceeded: more than " + std::to_string(maxSteps_) +
            " steps (statements, loop iterations and calls; maxSteps, --max-steps)",
        span);
}

// Note [Cold call paths]
// Every call checks its limits (the value stack, the recursion depth) and adds a TraceFrame to
// errors that leave it. Built in line, their messages (std::to_string, string concatenations)
// put a few std::string temporaries and their cleanups in the caller's frame, which then saves
// more registers and spills more values on every call, errors or not. They are functions of
// their own, marked cold, so that a call's fast path (callPlain) keeps a small frame.
void Engine::outOfValueStack(const FnProto& proto, const Span& site) {
  raise(ErrorKind::LimitError, "out of interpreter stack in " + proto.name + "()", site);
}

void Engine::recursionTooDeep(const FnProto& proto, const Span& site) {
  raise(ErrorKind::LimitError,
        "maximum recursion depth exceeded (" + std::to_string(maxCallDepth_) + " calls) in " +
            proto.name + "()",
        site);
}

void Engine::addTraceFrame(ScriptError& err, const FnProto& proto, const Span& site) {
  err.trace.push_back(TraceFrame{proto.name + "()", site});
}

// Runs fn's body in the frame at `base`, whose first `nargs` slots hold the positional
// arguments. The caller's FrameGuard pops the frame and the depth. Inlined into both callers:
// it is the prologue of every call.
[[gnu::always_inline]] inline Value Engine::enterFunction(FunctionObj* fn, Value* base,
                                                             size_t nargs, const Span& site) {
  FnProto* proto = fn->proto;
  checkInterrupt(site);
  checkStack(site);
  countStep(site);
  if (depth_ >= maxCallDepth_) recursionTooDeep(*proto, site);
  ++depth_;
  top_ = base + proto->numSlots;
  Value* slots = base;
  size_t nparams = proto->params.size();
  for (size_t i = nargs; i < nparams; ++i) {
    if (slots[i].is(Type::Undefined)) {
      if (fn->defaults[i].is(Type::Undefined))
        raise(ErrorKind::TypeError,
              proto->name + "() missing argument '" + proto->params[i].name + "'", site);
      slots[i] = fn->defaults[i];
    }
  }
  if (proto->hasCellParams)
    for (size_t i = 0; i < nparams; ++i)
      if (proto->params[i].isCell) slots[i] = make<CellObj>(std::move(slots[i])).value();

  Frame frame{slots, fn, fn->module.get(), Value()};
  try {
    if (proto->hasSignature) checkSignature(interp_, *fn, frame, site);
    runBody(*proto, frame);
    if (proto->result) checkResult(interp_, *fn, frame, frame.result, site);
  } catch (ScriptError& err) {
    addTraceFrame(err, *proto, site);
    throw;
  }
  return std::move(frame.result);
}

// Positional arguments are evaluated into the slots of the new frame (Note [Value stack]).
// `evalArg(i)` gives the i-th argument.
template <class EvalArg>
[[gnu::always_inline]] inline Value Engine::callDirect(FunctionObj* fn, Call* c,
                                                       EvalArg&& evalArg) {
  FnProto* proto = fn->proto;
  Value* base = top_;
  if (!hasRoomFor(proto->numSlots)) outOfValueStack(*proto, c->span);
  FrameGuard guard{*this, base};
  size_t n = c->args.size();
  for (size_t i = 0; i < n; ++i) {
    // Not built in place: the slot may belong to a frame that a call in this argument
    // pushes and pops while the argument's value is being returned.
    Value v = evalArg(i);
    base[i] = std::move(v);
    top_ = base + i + 1;  // calls made by later arguments build their frames above this one
  }

  guard.entered = true;
  return enterFunction(fn, base, n, c->span);
}

// Any call but `obj.method(...)`, with the callee evaluated. The common case, a Tessel fn
// called with positional arguments only, goes straight to its frame.
template <class EvalArg>
inline Value Engine::callGeneric(Call* c, Value callee, EvalArg&& evalArg) {
  if (callee.is(Type::Function) && c->kwNames.empty()) {
    auto* fn = callee.as<FunctionObj>();
    if (!fn->proto->hasSignature && c->args.size() <= fn->proto->params.size())
      return callDirect(fn, c, evalArg);
  }
  size_t n = c->args.size();
  ArgBuffer buffer(n);
  Value* args = buffer.data;
  for (size_t i = 0; i < n; ++i) args[i] = evalArg(i);
  size_t np = c->numPositional();
  return callAny(callee, std::span<Value>(args, np), c->kwNames,
                 std::span<Value>(args + np, n - np), c->span);
}

Value Engine::callCompiled(Call* c, Value callee, const CExpr* const* args, Frame& f) {
  return callGeneric(c, std::move(callee), [&](size_t i) { return args[i]->run(*args[i], f, *this); });
}

// `obj.method(...)`: the native is called directly with its receiver, without building a
// bound-method object; the Call node caches the lookup per receiver type.
template <class EvalArg>
inline Value Engine::methodCall(Call* c, Value object, EvalArg&& evalArg) {
  auto* attr = static_cast<Attr*>(c->callee);
  NativeFn method = nullptr;
  if (object.type() == c->cachedType) {
    method = c->cachedMethod;
  } else if (object.is(Type::Native)) {
    // Not cached: native objects of every kind share their type (Note [Native objects]).
    method = object.as<NativeObj>()->method(attr->name);
  } else if (!object.is(Type::Module)) {
    method = attributeHooks().findMethod(object.type(), attr->name);
    if (method) {
      c->cachedType = object.type();
      c->cachedMethod = method;
    }
  }
  Value callee;
  if (!method) {
    at(attr->span);
    callee = attributeHooks().get(interp_, object, attr->name);
  }
  size_t n = c->args.size();
  ArgBuffer buffer(n);
  Value* args = buffer.data;
  for (size_t i = 0; i < n; ++i) args[i] = evalArg(i);
  size_t np = c->numPositional();
  std::span<Value> positional(args, np);
  std::span<Value> kwValues(args + np, n - np);
  if (!method) return callAny(callee, positional, c->kwNames, kwValues, c->span);
  CallArgs ca{positional, c->kwNames, kwValues, std::move(object), c->span};
  at(c->span);
  return method(interp_, ca);
}

Value Engine::callMethodCompiled(Call* c, Value object, const CExpr* const* args, Frame& f) {
  return methodCall(c, std::move(object), [&](size_t i) { return args[i]->run(*args[i], f, *this); });
}

// From outside the engine (a native calling back into Tessel code): the caller's error site
// is restored when the call returns (Note [Spans] in engine.h).
Value Engine::callValue(const Value& callee, std::span<Value> positional,
                        std::span<const std::string> kwNames, std::span<Value> kwValues,
                        Span site) {
  struct Restore {  // also when it throws: `site` is this frame's
    Engine& e;
    const Span* saved;
    ~Restore() { e.site_ = saved; }
  } restore{*this, site_};
  return callAny(callee, positional, kwNames, kwValues, site);
}

Value Engine::callAny(const Value& callee, std::span<Value> positional,
                      std::span<const std::string> kwNames, std::span<Value> kwValues,
                      const Span& site) {
  switch (callee.type()) {
    case Type::Function:
      return callFunction(callee.as<FunctionObj>(), positional, kwNames, kwValues, site);
    case Type::Builtin: {
      auto* b = callee.as<BuiltinObj>();
      CallArgs ca{positional, kwNames, kwValues, b->self, site};
      at(site);
      return b->fn(interp_, ca);
    }
    default:
      raise(ErrorKind::TypeError, "'" + std::string(typeName(callee.type())) + "' is not callable",
            site);
  }
}

namespace {
std::vector<std::string> paramNames(const FnProto& proto) {
  std::vector<std::string> names;
  for (const auto& p : proto.params) names.push_back(p.name);
  return names;
}
}  // namespace

Value Engine::callFunction(FunctionObj* fn, std::span<Value> positional,
                              std::span<const std::string> kwNames, std::span<Value> kwValues,
                              Span site) {
  FnProto* proto = fn->proto;
  if (!hasRoomFor(proto->numSlots)) outOfValueStack(*proto, site);
  size_t nparams = proto->params.size();
  if (positional.size() > nparams)
    raise(ErrorKind::TypeError,
          proto->name + "() takes " + std::to_string(nparams) + " argument" +
              (nparams == 1 ? "" : "s") + " but " + std::to_string(positional.size()) +
              " were given",
          site);
  Value* base = top_;
  FrameGuard guard{*this, base};
  top_ = base + nparams;  // the parameters' slots are being filled
  Value* slots = base;
  for (size_t i = 0; i < positional.size(); ++i) slots[i] = std::move(positional[i]);
  for (size_t k = 0; k < kwNames.size(); ++k) {
    size_t i = 0;
    while (i < nparams && proto->params[i].name != kwNames[k]) ++i;
    if (i == nparams)
      raise(ErrorKind::TypeError,
            proto->name + "() got an unexpected keyword argument '" + kwNames[k] + "'" +
                didYouMean(kwNames[k], paramNames(*proto)),
            site);
    if (!slots[i].is(Type::Undefined))
      raise(ErrorKind::TypeError,
            proto->name + "() got multiple values for argument '" + kwNames[k] + "'", site);
    slots[i] = std::move(kwValues[k]);
  }
  guard.entered = true;
  return enterFunction(fn, base, positional.size(), site);
}

}  // namespace tessel::interp
