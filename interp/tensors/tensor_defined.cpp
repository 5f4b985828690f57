// The built-ins of the ops of ops/elementwise.ops, one per op, from the definitions: PyTorch's
// argument names (so keywords and their did-you-mean work as for every native), each argument a
// tensor or a number, and one emitted op. Every one is also a method (x.atan2(y)).
#include "interp/tensors/tensor_natives.h"
#include "shapes/elementwise_defs.h"

namespace tessel::interp {

namespace {

Value callDefined(const char* fn, OpKind op, const char* const* names, int arity, CallArgs& raw) {
  SelfArgs s(raw);
  // The definition's names are static, as the binder needs: every argument is required.
  const size_t n = static_cast<size_t>(arity);
  const ArgBinder b(NativeSignature{fn, names, n, n, n, false, nullptr}, s.args());
  std::vector<Value> xs;
  for (int i = 0; i < arity; ++i)
    xs.push_back(tensorArg(b.at(i), std::string(fn) + "(): " + names[i]));
  return emitOp(op, xs);
}

template <OpKind K>
Value definedNative(Interpreter&, CallArgs& raw) {
  static const shapes::ElementwiseDef& d = *shapes::elementwiseDef(K);
  return callDefined(d.name, K, d.args, d.arity, raw);
}

// A second spelling of a binary op of shapes/op_list.def (remainder for `%`).
template <OpKind K, const char* Name>
Value aliasNative(Interpreter&, CallArgs& raw) {
  static const char* const kNames[] = {"input", "other"};
  return callDefined(Name, K, kNames, 2, raw);
}

#define TESSEL_ALIAS(name, E) constexpr char kAlias_##name[] = #name;
#include "ops_gen/elementwise_aliases.def"

const TensorNative kDefined[] = {
#define TESSEL_OP(E, name, cat) {name, definedNative<OpKind::E>, true},
#include "ops_gen/elementwise_ops.def"
#undef TESSEL_OP
#define TESSEL_ALIAS(name, E) {#name, aliasNative<OpKind::E, kAlias_##name>, true},
#include "ops_gen/elementwise_aliases.def"
};

}  // namespace

std::span<const TensorNative> tensorDefinedNatives() {
  // An op whose decomposition shares its name (softplus) is bound by the decomposition.
  static const std::vector<TensorNative> bound = [] {
    std::vector<TensorNative> v;
    for (const TensorNative& n : kDefined) {
      bool shadowed = false;
      for (const shapes::DecompositionDef& d : shapes::decompositionDefs())
        shadowed = shadowed || std::string_view(d.name) == n.name;
      if (!shadowed) v.push_back(n);
    }
    return v;
  }();
  return bound;
}

}  // namespace tessel::interp
