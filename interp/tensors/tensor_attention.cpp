// scaled_dot_product_attention(q, k, v, attn_mask = none, is_causal = false, scale = none):
// one fused op of the op table (Note [Fused attention] in backends/cpu/attention_kernel.cpp),
// with torch.nn.functional's names and semantics.
#include "interp/tensors/tensor_natives.h"
#include "interp/tensors/tensor_value.h"
#include "shapes/user_error.h"

namespace tessel::interp {

namespace {

Value nativeScaledDotProductAttention(Interpreter&, CallArgs& raw) {
  ArgBinder b(sig::scaled_dot_product_attention, raw);
  std::vector<Value> inputs = {tensorArg(b.at(0), "scaled_dot_product_attention(): q"),
                               tensorArg(b.at(1), "scaled_dot_product_attention(): k"),
                               tensorArg(b.at(2), "scaled_dot_product_attention(): v")};
  OpAttrs attrs;
  const bool hasMask = b.has(3) && !b.at(3).is(Type::None);
  if (hasMask) inputs.push_back(tensorArg(b.at(3), "scaled_dot_product_attention(): attn_mask"));
  attrs.causal = b.has(4) && b.toBool(4);
  // PyTorch 1.13 ignores is_causal when a mask is given; 2.x refuses the pair. Refused here:
  // a silently dropped causal mask is a bug that trains fine.
  if (hasMask && attrs.causal)
    throwUserError(ErrorKind::ValueError,
                   "scaled_dot_product_attention(): give attn_mask or is_causal = true, not "
                   "both (fold the causal mask into attn_mask)");
  if (b.has(5) && !b.at(5).is(Type::None)) attrs.scalars = {b.toFloat(5)};
  return emitOp(OpKind::Attention, std::span<const Value>(inputs), attrs);
}

const TensorNative kAttention[] = {
    {"scaled_dot_product_attention", nativeScaledDotProductAttention, false},
};

}  // namespace

std::span<const TensorNative> tensorAttentionNatives() {
  return kAttention;
}

}  // namespace tessel::interp
