// grad(f, argnums) and value_and_grad(f, argnums) (language.md, "Differentiation"). The
// arguments being differentiated may be tensors or nested lists/tuples/dicts of tensors (like
// JAX pytrees), so a model's parameters can travel as one list.
#include <functional>

#include "backends/autodiff/tape.h"
#include "interp/eval/session.h"
#include "interp/tensors/op_sink.h"
#include "interp/tensors/tensor_natives.h"
#include "interp/tensors/tensor_value.h"
#include "interp/tensors/trace_tape.h"
#include "shapes/user_error.h"

namespace tessel::interp {
namespace {

namespace ad = backends::autodiff;

// Makes a leaf differentiable: returns the watched value standing for it.
using WatchFn = std::function<Value(const Value& leaf)>;

// Replaces every tensor/float leaf of `v` by watch(leaf), collecting the watched values.
Value watchLeaves(const WatchFn& watch, const Value& v, std::vector<Value>& leaves,
                  const std::string& what) {
  switch (v.type()) {
    case Type::Tensor: {
      DType dtype = dtypeOf(v);
      if (dtype != DType::F32)
        throwUserError(ErrorKind::TypeError, what + " must be f32 to be differentiated, got " +
                                                 std::string(shapes::name(dtype)));
      leaves.push_back(watch(v));
      return leaves.back();
    }
    case Type::Float:
      leaves.push_back(watch(v));
      return leaves.back();
    case Type::List:
    case Type::Tuple: {
      std::vector<Value> out;
      const auto& items = v.is(Type::List) ? v.as<ListObj>()->items : v.as<TupleObj>()->items;
      for (const Value& item : items) out.push_back(watchLeaves(watch, item, leaves, what));
      return v.is(Type::List) ? makeList(std::move(out)) : makeTuple(std::move(out));
    }
    case Type::Dict: {
      Ref<DictObj> out = make<DictObj>();
      for (auto& [k, item] : v.as<DictObj>()->entries)
        out->set(k, watchLeaves(watch, item, leaves, what));
      return out.value();
    }
    default:
      throwUserError(ErrorKind::TypeError,
                     what + " must be a tensor, a float, or a list/tuple/dict of them, not '" +
                         std::string(typeName(v.type())) + "'");
  }
}

// Rebuilds the structure of `v` with the next gradients in place of its leaves.
Value fillLeaves(const Value& v, const std::vector<Value>& grads, size_t& next) {
  switch (v.type()) {
    case Type::Tensor:
    case Type::Float:
      return grads[next++];
    case Type::List:
    case Type::Tuple: {
      std::vector<Value> out;
      const auto& items = v.is(Type::List) ? v.as<ListObj>()->items : v.as<TupleObj>()->items;
      for (const Value& item : items) out.push_back(fillLeaves(item, grads, next));
      return v.is(Type::List) ? makeList(std::move(out)) : makeTuple(std::move(out));
    }
    case Type::Dict: {
      Ref<DictObj> out = make<DictObj>();
      for (auto& [k, item] : v.as<DictObj>()->entries) out->set(k, fillLeaves(item, grads, next));
      return out.value();
    }
    default:
      return Value::none();
  }
}

// True when a differentiated argument holds a tpu tensor.
bool onTpu(const Value& v) {
  switch (v.type()) {
    case Type::Tensor:
      return v.as<TensorObj>()->lazy != nullptr;
    case Type::List:
    case Type::Tuple:
      for (const Value& item : v.is(Type::List) ? v.as<ListObj>()->items : v.as<TupleObj>()->items)
        if (onTpu(item)) return true;
      return false;
    case Type::Dict:
      for (auto& [k, item] : v.as<DictObj>()->entries)
        if (onTpu(item)) return true;
      return false;
    default:
      return false;
  }
}

void checkResult(const Value& result) {
  if (!result.is(Type::Tensor))
    throwUserError(ErrorKind::TypeError,
                   "grad: the function must return a one-element f32 tensor, not '" +
                       std::string(typeName(result.type())) + "'");
}

// Differentiation of one call, eagerly (a Tape over dispatch) or, while a @compile function is
// traced, in the graph (a TraceTape over the tracer's ops).
struct Differentiate {
  Interpreter& interp;
  CallArgs& a;
  std::vector<Value> args;    // with the differentiated leaves watched
  std::vector<int64_t> nums;  // the differentiated arguments
  std::vector<Value> leaves;
  Value result;

  // Runs f on the watched arguments; returns the gradients of the leaves.
  std::vector<Value> eager(const Value& f) {
    ad::Tape tape;
    watchAll([&](const Value& leaf) {
      return makeTensor(tape.watch(leaf.is(Type::Float) ? Tensor::scalar(leaf.asFloat(), DType::F32)
                                                        : asTensor(leaf)));
    });
    {
      ad::TapeScope scope(tape);
      call(f);
    }
    std::vector<Tensor> wrt;
    for (const Value& l : leaves) wrt.push_back(asTensor(l));
    std::vector<Value> grads;
    for (const Tensor& g : ad::gradients(tape, asTensor(result), wrt))
      grads.push_back(makeTensor(g));
    return grads;
  }

  std::vector<Value> traced(const Value& f) {
    TraceTape tape;
    watchAll([&](const Value& leaf) { return tape.watch(leaf); });
    {
      TraceTapeScope scope(tape);
      call(f);
    }
    return tape.gradients(result, leaves);
  }

  void watchAll(const WatchFn& watch) {
    for (int64_t n : nums)
      args[n] = watchLeaves(watch, args[n], leaves, "argument " + std::to_string(n));
  }
  void call(const Value& f) {
    std::vector<Value> kw(a.kwValues.begin(), a.kwValues.end());
    result = interp.call(f, args, a.site, a.kwNames, kw);
    checkResult(result);
  }
};

// The closure state lives in the returned built-in's `self`: (f, argnums, withValue).
Value callGrad(Interpreter& interp, CallArgs& a) {
  const auto& state = a.self.as<TupleObj>()->items;
  const Value& f = state[0];
  const Value& argnums = state[1];
  bool withValue = state[2].asBool();
  Differentiate d{interp, a,  std::vector<Value>(a.positional.begin(), a.positional.end()),
                  {},     {}, {}};
  bool single = argnums.is(Type::Int);
  if (single)
    d.nums.push_back(argnums.asInt());
  else
    for (const Value& n : argnums.as<TupleObj>()->items) d.nums.push_back(n.asInt());
  for (int64_t n : d.nums)
    if (n < 0 || n >= static_cast<int64_t>(d.args.size()))
      throwUserError(ErrorKind::IndexError,
                     "grad: argnums " + std::to_string(n) + " is out of range for " +
                         std::to_string(d.args.size()) + " positional arguments");

  // On the tpu, eager ops are recorded lazily: gradients are recorded the same way, with the
  // tape that @compile uses (TraceTape), so the backward joins the forward's program.
  bool tpu = false;
  for (int64_t n : d.nums) tpu = tpu || onTpu(d.args[n]);
  std::vector<Value> grads = currentOpSink() || tpu ? d.traced(f) : d.eager(f);
  std::vector<Value> perArg;
  size_t next = 0;
  for (int64_t n : d.nums) perArg.push_back(fillLeaves(a.positional[n], grads, next));
  Value g = single ? perArg[0] : makeTuple(std::move(perArg));
  return withValue ? makeTuple({d.result, g}) : g;
}

Value makeGrad(CallArgs& a, const NativeSignature& signature, bool withValue) {
  const char* name = signature.name;
  ArgBinder b(signature, a);
  Value argnums = b.has(1) ? b.at(1) : Value::integer(0);
  if (!argnums.is(Type::Int)) {
    std::vector<Value> nums;
    for (const Value& n : iterate(argnums, std::string(name) + "(): argnums"))
      nums.push_back(Value::integer(expectInt(n, std::string(name) + "(): argnums")));
    argnums = makeTuple(std::move(nums));
  }
  const Value& f = b.at(0);
  if (!f.is(Type::Function) && !f.is(Type::Builtin))
    throwUserError(ErrorKind::TypeError, std::string(name) + "(): f must be a function");
  Value state = makeTuple({f, argnums, Value::boolean(withValue)});
  return Value::object(new BuiltinObj(std::string(name) + "(f)", callGrad, state));
}

Value nativeGrad(Interpreter&, CallArgs& a) {
  return makeGrad(a, sig::grad, false);
}
Value nativeValueAndGrad(Interpreter&, CallArgs& a) {
  return makeGrad(a, sig::value_and_grad, true);
}

const TensorNative kGrad[] = {
    {"grad", nativeGrad, false},
    {"value_and_grad", nativeValueAndGrad, false},
};

}  // namespace

std::span<const TensorNative> tensorGradNatives() {
  return kGrad;
}

}  // namespace tessel::interp
