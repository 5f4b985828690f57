// Calls: argument binding, frames on the value stack, method calls, tracebacks.
#include "interp/attributes.h"
#include "interp/diagnostics.h"
#include "interp/evaluator.h"
#include "interp/interpreter.h"
#include "interp/printer.h"
#include "interp/signature.h"
#include "interp/stack_guard.h"

namespace tessel::interp {
namespace {

constexpr size_t kValueStackSize = 1 << 20;

// Pops a frame's slots when a call ends, normally or by an exception.
struct StackFrameGuard {
  std::vector<Value>& stack;
  size_t& sp;
  size_t base;
  int& depth;
  ~StackFrameGuard() {
    for (size_t i = base; i < sp; ++i) stack[i] = Value();
    sp = base;
    --depth;
  }
};

}  // namespace

Evaluator::Evaluator(Interpreter& interp) : interp_(interp) { stack_.resize(kValueStackSize); }

void Evaluator::checkInterrupt(Span span) {
  if (interp_.interruptFlag().load(std::memory_order_relaxed)) [[unlikely]] {
    interp_.interruptFlag().store(false);
    raise(ErrorKind::Interrupted, "interrupted", span);
  }
}

Value Evaluator::evalCall(Call* c, Frame& f) {
  checkStack(c->span);
  // Arguments are evaluated into a small local buffer; most calls have few.
  Value self;
  Value callee;
  NativeFn method = nullptr;
  if (c->callee->kind == ExprKind::Attr) {
    // `obj.method(...)`: call the native directly with its receiver, without building a
    // bound-method object.
    auto* attr = static_cast<Attr*>(c->callee);
    Value object = eval(attr->object, f);
    if (!object.is(Type::Module)) method = findMethod(object.type(), attr->name);
    if (method) self = std::move(object);
    else {
      try {
        callee = getAttribute(interp_, object, attr->name);
      } catch (const ScriptError&) {
        throw;
      } catch (const UserError& err) {
        throw ScriptError(err.kind(), err.what(), attr->span);
      }
    }
  } else {
    callee = eval(c->callee, f);
  }
  size_t n = c->args.size();
  Value small[8];
  std::vector<Value> big;
  Value* args = small;
  if (n > 8) {
    big.resize(n);
    args = big.data();
  }
  for (size_t i = 0; i < n; ++i) args[i] = eval(c->args[i], f);
  size_t np = c->numPositional();
  std::span<Value> positional(args, np);
  std::span<Value> kwValues(args + np, n - np);
  if (method) {
    CallArgs ca{positional, c->kwNames, kwValues, std::move(self), c->span};
    try {
      return method(interp_, ca);
    } catch (const ScriptError&) {
      throw;
    } catch (const UserError& err) {
      throw ScriptError(err.kind(), err.what(), c->span);
    }
  }
  return callValue(callee, positional, c->kwNames, kwValues, c->span);
}

Value Evaluator::callValue(const Value& callee, std::span<Value> positional,
                           std::span<const std::string> kwNames, std::span<Value> kwValues,
                           Span site) {
  switch (callee.type()) {
    case Type::Function:
      return callFunction(callee.as<FunctionObj>(), positional, kwNames, kwValues, site);
    case Type::Builtin: {
      auto* b = callee.as<BuiltinObj>();
      CallArgs ca{positional, kwNames, kwValues, b->self, site};
      try {
        return b->fn(interp_, ca);
      } catch (const ScriptError&) {
        throw;
      } catch (const UserError& err) {
        throw ScriptError(err.kind(), err.what(), site);
      }
    }
    default:
      raise(ErrorKind::TypeError, "'" + std::string(typeName(callee.type())) + "' is not callable", site);
  }
}

Value Evaluator::callFunction(FunctionObj* fn, std::span<Value> positional,
                              std::span<const std::string> kwNames, std::span<Value> kwValues,
                              Span site) {
  FnProto* proto = fn->proto;
  checkInterrupt(site);
  checkStack(site);
  if (depth_ >= interp_.options().maxCallDepth)
    raise(ErrorKind::LimitError,
          "maximum recursion depth exceeded (" + std::to_string(interp_.options().maxCallDepth) +
              " calls) in " + proto->name + "()",
          site);
  if (sp_ + proto->numSlots > stack_.size())
    raise(ErrorKind::LimitError, "out of interpreter stack in " + proto->name + "()", site);
  size_t nparams = proto->params.size();
  if (positional.size() > nparams)
    raise(ErrorKind::TypeError,
          proto->name + "() takes " + std::to_string(nparams) + " argument" +
              (nparams == 1 ? "" : "s") + " but " + std::to_string(positional.size()) +
              " were given",
          site);

  size_t base = sp_;
  ++depth_;
  sp_ += proto->numSlots;
  StackFrameGuard guard{stack_, sp_, base, depth_};
  Value* slots = stack_.data() + base;
  for (size_t i = 0; i < proto->numSlots; ++i) slots[i] = Value::undefined();
  for (size_t i = 0; i < positional.size(); ++i) slots[i] = std::move(positional[i]);
  for (size_t k = 0; k < kwNames.size(); ++k) {
    size_t i = 0;
    while (i < nparams && proto->params[i].name != kwNames[k]) ++i;
    if (i == nparams)
      raise(ErrorKind::TypeError, proto->name + "() got an unexpected keyword argument '" + kwNames[k] + "'",
            site);
    if (!slots[i].is(Type::Undefined))
      raise(ErrorKind::TypeError, proto->name + "() got multiple values for argument '" + kwNames[k] + "'",
            site);
    slots[i] = std::move(kwValues[k]);
  }
  for (size_t i = 0; i < nparams; ++i) {
    if (slots[i].is(Type::Undefined)) {
      if (fn->defaults[i].is(Type::Undefined))
        raise(ErrorKind::TypeError,
              proto->name + "() missing argument '" + proto->params[i].name + "'", site);
      slots[i] = fn->defaults[i];
    }
    if (proto->params[i].isCell) slots[i] = make<CellObj>(std::move(slots[i])).value();
  }

  Frame frame{slots, fn, fn->module.get(), Value()};
  try {
    if (proto->hasSignature) checkSignature(interp_, *fn, frame, site);
    execBlock(proto->body, frame);
    if (proto->result) checkResult(interp_, *fn, frame, frame.result, site);
  } catch (ScriptError& err) {
    err.trace.push_back(TraceFrame{proto->name + "()", site});
    throw;
  }
  return std::move(frame.result);
}

}  // namespace tessel::interp
