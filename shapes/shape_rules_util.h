// Internal to shapes/: helpers shared by the shape-rule files (errors, dims, size reasoning).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shapes/shape_rules.h"

namespace tessel::shapes::rules {

using Inputs = std::span<const OpSignature>;
using Outputs = std::vector<OpSignature>;

/// UserError(kind) "op: message".
[[noreturn]] void fail(ErrorKind kind, std::string_view op, const std::string& message);
/// Checks the operand count is in [lo, hi].
void arity(OpKind op, Inputs in, size_t lo, size_t hi);
/// Shapes and sizes as errors show them (errorText in shapes/sym_int.h).
inline std::string str(const SymShape& s) {
  return errorText(s);
}
inline std::string sizeStr(const SymInt& d) {
  return errorText(d);
}
inline int64_t rank(const SymShape& s) {
  return static_cast<int64_t>(s.size());
}

/// a <= b / a == b decided without a guard when possible (intervals, solver), else nullopt.
bool knownLe(const SymInt& a, const SymInt& b);
/// min/max that drops the operand the ranges already order.
SymInt smin(const SymInt& a, const SymInt& b);
SymInt smax(const SymInt& a, const SymInt& b);
/// Size-oblivious "is this dim 1?" (unbacked sizes are never 1).
bool isOne(const SymInt& d);
/// require(a == b) with a ShapeError built lazily.
void requireEq(const SymInt& a, const SymInt& b, std::string_view op, const std::string& what);
/// A ShapeError "<what> <got> must have shape <want>" unless the shapes are equal.
void requireShape(const SymShape& got, const SymShape& want, std::string_view nm,
                  const char* what);
/// A fresh unbacked size in [0, maxSize] for data-dependent ops; attrs.outputSize wins.
SymInt dataDependentSize(std::string_view op, Inputs in, const OpAttrs& attrs,
                         const SymInt& maxSize);
/// The ShapeEnv of any symbolic size among the inputs, else the current one (may be null).
ShapeEnv* envOf(Inputs in, const SymShape* extra = nullptr);

Outputs elementwise(OpKind op, Inputs in, const OpAttrs& a);
Outputs reduce(OpKind op, Inputs in, const OpAttrs& a);
Outputs scan(OpKind op, Inputs in, const OpAttrs& a);
Outputs shapeOp(OpKind op, Inputs in, const OpAttrs& a);
Outputs indexOp(OpKind op, Inputs in, const OpAttrs& a);
Outputs scatterOp(OpKind op, Inputs in, const OpAttrs& a);
/// repeat_interleave, bincount, segment_reduce (shape_rules_jagged.cpp).
Outputs jaggedOp(OpKind op, Inputs in, const OpAttrs& a);
Outputs nnOp(OpKind op, Inputs in, const OpAttrs& a);
/// scaled_dot_product_attention, attention_logsumexp, attention_backward
/// (shape_rules_attention.cpp).
Outputs attentionOp(OpKind op, Inputs in, const OpAttrs& a);
/// max_pool2d ... interpolate and their backward ops (shape_rules_pool.cpp).
Outputs poolOp(OpKind op, Inputs in, const OpAttrs& a);
/// multinomial, bernoulli (shape_rules_sampling.cpp).
Outputs samplingOp(OpKind op, Inputs in, const OpAttrs& a);
/// conv2d and its backward ops (shape_rules_conv.cpp).
Outputs convOp(OpKind op, Inputs in, const OpAttrs& a);
Outputs createOp(OpKind op, Inputs in, const OpAttrs& a);
/// argsort, topk, searchsorted and nms (shape_rules_sort.cpp).
Outputs sortOp(OpKind op, Inputs in, const OpAttrs& a);

}  // namespace tessel::shapes::rules
