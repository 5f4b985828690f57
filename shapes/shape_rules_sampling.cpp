// Shape rules of the sampling ops that read a tensor of probabilities: multinomial and
// bernoulli. Their values (negative or all-zero probabilities, too few categories to sample
// without replacement) are checked by the kernels; here only what the shapes decide.
#include "shapes/shape_rules_util.h"

namespace tessel::shapes::rules {

Outputs samplingOp(OpKind op, Inputs in, const OpAttrs& a) {
  arity(op, in, 1, 1);
  const std::string_view nm = opName(op);
  const SymShape& p = in[0].shape;
  if (!isFloating(in[0].dtype))
    fail(ErrorKind::TypeError, nm,
         "probabilities must be a floating tensor, got " + std::string(name(in[0].dtype)));
  if (op == OpKind::Bernoulli) return {{p, DType::F32}};

  // multinomial: probs [k] -> [n], probs [rows, k] -> [rows, n].
  if (p.size() != 1 && p.size() != 2)
    fail(ErrorKind::ShapeError, nm, "probs must be 1-D or 2-D, got shape " + str(p));
  if (a.shape.size() != 1) fail(ErrorKind::ValueError, nm, "expects shape {num_samples}");
  const SymInt& n = a.shape[0];
  require(n >= SymInt(0), ErrorKind::ValueError, [&] {
    return std::string(nm) + ": number of samples must be non-negative, got " + sizeStr(n);
  });
  const SymInt& k = p.back();
  require(k >= SymInt(1), ErrorKind::ValueError,
          [&] { return std::string(nm) + ": probs has no categories (shape " + str(p) + ")"; });
  const bool replacement = !a.scalars.empty() && a.scalars[0] != 0;
  if (!replacement)
    require(n <= k, ErrorKind::ValueError, [&] {
      return std::string(nm) + ": cannot draw " + sizeStr(n) + " samples from " + sizeStr(k) +
             " categories without replacement";
    });
  if (p.size() == 1) return {{{n}, DType::I32}};
  return {{{p[0], n}, DType::I32}};
}

}  // namespace tessel::shapes::rules
