// grad(f, argnums) and value_and_grad(f, argnums) (language.md, "Differentiation"). The
// arguments being differentiated may be tensors or nested lists/tuples/dicts of tensors (like
// JAX pytrees), so a model's parameters can travel as one list.
#include "backends/autodiff/tape.h"
#include "interp/interpreter.h"
#include "interp/tensor_natives.h"
#include "shapes/user_error.h"

namespace tessel::interp {
namespace {

namespace ad = backends::autodiff;

// Replaces every tensor leaf of `v` by tape.watch(leaf), collecting the watched tensors.
Value watchLeaves(ad::Tape& tape, const Value& v, std::vector<Tensor>& leaves, const std::string& what) {
  switch (v.type()) {
    case Type::Tensor: {
      const Tensor& t = asTensor(v);
      if (t.dtype() != DType::F32)
        throwUserError(ErrorKind::TypeError, what + " must be f32 to be differentiated, got " +
                                                 std::string(shapes::name(t.dtype())));
      Tensor w = tape.watch(t);
      leaves.push_back(w);
      return makeTensor(w);
    }
    case Type::Float: {
      Tensor w = tape.watch(Tensor::scalar(v.asFloat(), DType::F32));
      leaves.push_back(w);
      return makeTensor(w);
    }
    case Type::List:
    case Type::Tuple: {
      std::vector<Value> out;
      const auto& items = v.is(Type::List) ? v.as<ListObj>()->items : v.as<TupleObj>()->items;
      for (const Value& item : items) out.push_back(watchLeaves(tape, item, leaves, what));
      return v.is(Type::List) ? makeList(std::move(out)) : makeTuple(std::move(out));
    }
    case Type::Dict: {
      Ref<DictObj> out = make<DictObj>();
      for (auto& [k, item] : v.as<DictObj>()->entries) out->set(k, watchLeaves(tape, item, leaves, what));
      return out.value();
    }
    default:
      throwUserError(ErrorKind::TypeError, what + " must be a tensor, a float, or a list/tuple/dict of them, not '" +
                                               std::string(typeName(v.type())) + "'");
  }
}

// Rebuilds the structure of `v` with the next gradients in place of its leaves.
Value fillLeaves(const Value& v, const std::vector<Tensor>& grads, size_t& next) {
  switch (v.type()) {
    case Type::Tensor:
    case Type::Float: return makeTensor(grads[next++]);
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
    default: return Value::none();
  }
}

// The closure state lives in the returned built-in's `self`: (f, argnums, withValue).
Value callGrad(Interpreter& interp, CallArgs& a) {
  const auto& state = a.self.as<TupleObj>()->items;
  const Value& f = state[0];
  const Value& argnums = state[1];
  bool withValue = state[2].asBool();
  std::vector<int64_t> nums;
  bool single = argnums.is(Type::Int);
  if (single) nums.push_back(argnums.asInt());
  else
    for (const Value& n : argnums.as<TupleObj>()->items) nums.push_back(n.asInt());

  std::vector<Value> args(a.positional.begin(), a.positional.end());
  ad::Tape tape;
  std::vector<Tensor> leaves;
  std::vector<size_t> leafCounts;
  for (int64_t n : nums) {
    if (n < 0 || n >= static_cast<int64_t>(args.size()))
      throwUserError(ErrorKind::IndexError, "grad: argnums " + std::to_string(n) + " is out of range for " +
                                                std::to_string(args.size()) + " positional arguments");
    size_t before = leaves.size();
    args[n] = watchLeaves(tape, args[n], leaves, "argument " + std::to_string(n));
    leafCounts.push_back(leaves.size() - before);
  }
  Value result;
  {
    ad::TapeScope scope(tape);
    std::vector<Value> kw(a.kwValues.begin(), a.kwValues.end());
    result = interp.call(f, args, a.site, a.kwNames, kw);
  }
  if (!result.is(Type::Tensor))
    throwUserError(ErrorKind::TypeError, "grad: the function must return a one-element f32 tensor, not '" +
                                             std::string(typeName(result.type())) + "'");
  std::vector<Tensor> grads = ad::gradients(tape, asTensor(result), leaves);
  std::vector<Value> perArg;
  size_t next = 0;
  for (int64_t n : nums) perArg.push_back(fillLeaves(a.positional[n], grads, next));
  Value g = single ? perArg[0] : makeTuple(std::move(perArg));
  return withValue ? makeTuple({result, g}) : g;
}

Value makeGrad(CallArgs& a, const char* name, bool withValue) {
  ArgBinder b(name, a, {"f", "argnums"}, 1);
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

Value nativeGrad(Interpreter&, CallArgs& a) { return makeGrad(a, "grad", false); }
Value nativeValueAndGrad(Interpreter&, CallArgs& a) { return makeGrad(a, "value_and_grad", true); }

const TensorNative kGrad[] = {
    {"grad", nativeGrad, false},
    {"value_and_grad", nativeValueAndGrad, false},
};

}  // namespace

std::span<const TensorNative> tensorGradNatives() { return kGrad; }

}  // namespace tessel::interp
