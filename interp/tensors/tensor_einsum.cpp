// einsum(equation, *operands) with PyTorch's equation language: letters [a-zA-Z] as
// subscripts, spaces ignored, at most one "..." per term (the broadcast batch dims, aligned
// right), an explicit output after "->" or, without one, the implicit output: the ellipsis
// dims, then the subscripts that occur once, in alphabetical order (upper case first). A
// subscript repeated within a term takes the diagonal; one missing from the output is summed.
// Sizes of a subscript must agree across terms, or be 1 (broadcast), as PyTorch.
//
// It is lowered to table ops, so every device, @compile (sizes stay symbolic) and gradients
// come with them: diagonals as a product with eye and a sum, subscripts only one operand
// has and the output lacks are summed first, then operands are contracted a pair at a time,
// each pair as permute + reshape + one batched matmul ([b, l, k] @ [b, k, r]) or, with
// nothing to contract, a broadcast mul. The pair order is opt_einsum's greedy one: the pair
// whose result is smallest relative to its operands (size(out) - size(a) - size(b)), sizes
// taken from the hints when symbolic.
#include <algorithm>
#include <map>
#include <set>

#include "interp/tensors/op_compose.h"
#include "interp/tensors/tensor_natives.h"
#include "interp/tensors/tensor_value.h"
#include "shapes/user_error.h"

namespace tessel::interp {

namespace {

using shapes::SymInt;
using shapes::SymShape;
using namespace compose;

// Subscripts are ints: a letter is its character, ellipsis dim e (of E, aligned right) is
// kEllipsis + e; in that order they sort as PyTorch's implicit output wants (ellipsis first is
// arranged separately).
constexpr int kEllipsis = 256;

struct Term {
  std::vector<int> labels;  // letters, with kEllipsisMark where "..." stands
  bool ellipsis = false;
};
constexpr int kEllipsisMark = -1;

[[noreturn]] void parseError(const std::string& what) {
  throwUserError(ErrorKind::ValueError, "einsum(): " + what);
}

std::string labelName(int l) {
  return l >= kEllipsis ? "... dim " + std::to_string(l - kEllipsis) : std::string(1, char(l));
}

Term parseTerm(const std::string& eq, size_t from, size_t to) {
  Term t;
  for (size_t i = from; i < to; ++i) {
    const char c = eq[i];
    if (c == ' ') continue;
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      t.labels.push_back(c);
    } else if (c == '.') {
      if (eq.compare(i, 3, "...") != 0 || i + 3 > to)
        parseError("'.' at index " + std::to_string(i) + " of \"" + eq +
                   "\" is not part of an ellipsis \"...\"");
      if (t.ellipsis)
        parseError("more than one ellipsis \"...\" in one term of \"" + eq + "\"");
      t.ellipsis = true;
      t.labels.push_back(kEllipsisMark);
      i += 2;
    } else {
      parseError("invalid subscript '" + std::string(1, c) + "' at index " + std::to_string(i) +
                 " of \"" + eq + "\": subscripts must be letters [a-zA-Z]");
    }
  }
  return t;
}

// An operand on its way through the contraction: its value and one subscript per dim.
struct Operand {
  Value v;
  std::vector<int> labels;
};

struct Einsum {
  std::map<int, SymInt> size;  // the broadcast size of each subscript
  std::vector<int> output;

  // Size of a subscript for cost: the constant, else the hint, else a guess.
  double cost(int l) const {
    const SymInt& s = size.at(l);
    if (auto c = s.maybeConstant()) return double(*c);
    if (auto h = s.hint()) return double(*h);
    return 64.0;  // an unbacked size: no hint to go by
  }
  double cost(const std::vector<int>& ls) const {
    double n = 1;
    for (int l : ls) n *= cost(l);
    return n;
  }

  static int64_t pos(const std::vector<int>& ls, int l) {
    return std::find(ls.begin(), ls.end(), l) - ls.begin();
  }
  static bool has(const std::vector<int>& ls, int l) {
    return std::find(ls.begin(), ls.end(), l) != ls.end();
  }

  // Permutes o's dims into `order` (no op when they already are).
  static Value permuted(const Operand& o, const std::vector<int>& order) {
    std::vector<int64_t> perm;
    for (int l : order) perm.push_back(pos(o.labels, l));
    bool identity = true;
    for (size_t i = 0; i < perm.size(); ++i) identity = identity && perm[i] == int64_t(i);
    if (identity) return o.v;
    OpAttrs a;
    a.dims = perm;
    return emitOp(OpKind::Permute, {o.v}, a);
  }

  SymInt product(const std::vector<int>& ls) const {
    SymInt n = 1;
    for (int l : ls) n = n * size.at(l);
    return n;
  }
  SymShape shape(const std::vector<int>& ls) const {
    SymShape s;
    for (int l : ls) s.push_back(size.at(l));
    return s;
  }

  // Sums the subscripts of o that nothing else needs (`needed`: the output's and the other
  // operands' subscripts).
  static void sumUnneeded(Operand& o, const std::set<int>& needed) {
    std::vector<int64_t> dims;
    std::vector<int> kept;
    for (size_t i = 0; i < o.labels.size(); ++i) {
      if (needed.count(o.labels[i]))
        kept.push_back(o.labels[i]);
      else
        dims.push_back(int64_t(i));
    }
    if (dims.empty()) return;
    o.v = reduceOp(OpKind::Sum, o.v, dims, false);
    o.labels = kept;
  }

  // The diagonal over each subscript a term repeats: x * eye(n) (placed on the two dims),
  // summed over the second one.
  void takeDiagonals(Operand& o) const {
    for (size_t p = 0; p < o.labels.size(); ++p) {
      for (size_t q = p + 1; q < o.labels.size();) {
        if (o.labels[q] != o.labels[p]) {
          ++q;
          continue;
        }
        const SymShape xs = shapeOf(o.v);
        OpAttrs e;
        e.shape = {xs[p], xs[q]};
        e.dtype = dtypeOf(o.v);
        SymShape placed(xs.size(), SymInt(1));
        placed[p] = xs[p];
        placed[q] = xs[q];
        Value eye = reshapeTo(emitOp(OpKind::Eye, {}, e), placed);
        o.v = reduceOp(OpKind::Sum, op(OpKind::Mul, o.v, eye), {int64_t(q)}, false);
        o.labels.erase(o.labels.begin() + q);
      }
    }
  }

  // Expands dims of size 1 whose subscript has another size elsewhere (broadcast).
  void broadcast(Operand& o) const {
    const SymShape xs = shapeOf(o.v);
    SymShape target = xs;
    bool any = false;
    for (size_t i = 0; i < xs.size(); ++i) {
      const SymInt& want = size.at(o.labels[i]);
      if (xs[i].maybeConstant() == 1 && want.maybeConstant() != 1) {
        target[i] = want;
        any = true;
      }
    }
    if (!any) return;
    OpAttrs a;
    a.shape = target;
    o.v = emitOp(OpKind::Expand, {o.v}, a);
  }

  // a and b into one operand with the subscripts `keep` needs: batch (both, kept), left
  // (a only), contracted (both, not kept), right (b only).
  Operand contract(const Operand& a, const Operand& b, const std::set<int>& keep) const {
    std::vector<int> batch, left, inner, right;
    for (int l : a.labels) {
      if (has(b.labels, l))
        (keep.count(l) ? batch : inner).push_back(l);
      else
        left.push_back(l);
    }
    for (int l : b.labels)
      if (!has(a.labels, l)) right.push_back(l);
    std::vector<int> outLabels = batch;
    outLabels.insert(outLabels.end(), left.begin(), left.end());
    outLabels.insert(outLabels.end(), right.begin(), right.end());
    auto cat = [](std::vector<int> x, const std::vector<int>& y) {
      x.insert(x.end(), y.begin(), y.end());
      return x;
    };
    if (inner.empty()) {  // nothing to sum: a broadcast product [B, L, 1..] * [B, 1.., R]
      SymShape sa = shape(cat(batch, left)), sb = shape(batch);
      sa.insert(sa.end(), right.size(), SymInt(1));
      sb.insert(sb.end(), left.size(), SymInt(1));
      for (int l : right) sb.push_back(size.at(l));
      Value va = reshapeTo(permuted(a, cat(batch, left)), sa);
      Value vb = reshapeTo(permuted(b, cat(batch, right)), sb);
      return {op(OpKind::Mul, va, vb), outLabels};
    }
    // Batch dims stay as they are (matmul takes leading batch dims), and a group of one
    // subscript needs no reshape: a permuted operand then reaches matmul as a strided view
    // (no copy; "bhqd,bhkd->bhqk" is one batched matmul of k's transposed view).
    Value va = grouped(permuted(a, cat(cat(batch, left), inner)), batch, left, inner);
    Value vb = grouped(permuted(b, cat(cat(batch, inner), right)), batch, inner, right);
    Value out = op(OpKind::Matmul, va, vb);
    if (left.size() != 1 || right.size() != 1) out = reshapeTo(out, shape(outLabels));
    return {out, outLabels};
  }

  // v's dims [batch..., rows..., cols...] as [batch..., product(rows), product(cols)].
  Value grouped(const Value& v, const std::vector<int>& batch, const std::vector<int>& rows,
                const std::vector<int>& cols) const {
    if (rows.size() == 1 && cols.size() == 1) return v;
    SymShape s = shape(batch);
    s.push_back(product(rows));
    s.push_back(product(cols));
    return reshapeTo(v, s);
  }

  std::set<int> neededBesides(const std::vector<Operand>& ops, size_t i, size_t j) const {
    std::set<int> need(output.begin(), output.end());
    for (size_t k = 0; k < ops.size(); ++k)
      if (k != i && k != j) need.insert(ops[k].labels.begin(), ops[k].labels.end());
    return need;
  }

  Value run(std::vector<Operand> ops) {
    for (Operand& o : ops) {
      takeDiagonals(o);
      broadcast(o);
    }
    for (size_t i = 0; i < ops.size(); ++i) sumUnneeded(ops[i], neededBesides(ops, i, i));
    while (ops.size() > 1) {
      // Greedy: the pair whose result is smallest against its operands (opt_einsum).
      size_t bi = 0, bj = 1;
      double best = 0, bestSize = 0;
      bool first = true;
      for (size_t i = 0; i < ops.size(); ++i)
        for (size_t j = i + 1; j < ops.size(); ++j) {
          const std::set<int> keep = neededBesides(ops, i, j);
          std::set<int> res;
          for (const Operand* o : {&ops[i], &ops[j]})
            for (int l : o->labels)
              if (keep.count(l)) res.insert(l);
          const double sz = cost(std::vector<int>(res.begin(), res.end()));
          const double c = sz - cost(ops[i].labels) - cost(ops[j].labels);
          if (first || c < best || (c == best && sz < bestSize)) {
            best = c;
            bestSize = sz;
            bi = i;
            bj = j;
            first = false;
          }
        }
      Operand merged = contract(ops[bi], ops[bj], neededBesides(ops, bi, bj));
      ops.erase(ops.begin() + bj);
      ops[bi] = std::move(merged);
      for (size_t i = 0; i < ops.size(); ++i) sumUnneeded(ops[i], neededBesides(ops, i, i));
    }
    Operand& last = ops[0];
    sumUnneeded(last, std::set<int>(output.begin(), output.end()));
    return permuted(last, output);
  }
};

Value nativeEinsum(Interpreter&, CallArgs& raw) {
  ArgBinder b(sig::einsum, raw);
  const std::string eq = b.toStr(0);
  std::vector<Value> operands(b.rest().begin(), b.rest().end());
  // einsum(eq, [a, b]) as PyTorch also accepts: the operands as one list.
  if (operands.size() == 1 && (operands[0].is(Type::List) || operands[0].is(Type::Tuple)))
    operands = iterate(operands[0], "einsum(): operands");
  for (size_t i = 0; i < operands.size(); ++i) {
    const Value& v = tensorArg(operands[i], "einsum(): operand " + std::to_string(i));
    if (!v.is(Type::Tensor) || dtypeOf(v) != DType::F32)
      throwUserError(ErrorKind::TypeError, "einsum(): operand " + std::to_string(i) +
                                               " must be a floating (f32) tensor");
  }

  // Terms.
  const size_t arrow = eq.find("->");
  if (arrow != std::string::npos && eq.find("->", arrow + 2) != std::string::npos)
    parseError("more than one \"->\" in \"" + eq + "\"");
  const size_t inEnd = arrow == std::string::npos ? eq.size() : arrow;
  std::vector<Term> terms;
  for (size_t from = 0;;) {
    const size_t comma = eq.find(',', from);
    const size_t to = comma == std::string::npos || comma > inEnd ? inEnd : comma;
    terms.push_back(parseTerm(eq, from, to));
    if (to == inEnd) break;
    from = to + 1;
  }
  if (arrow != std::string::npos && eq.find(',', arrow) != std::string::npos)
    parseError("the output of \"" + eq + "\" must be one term (a ',' follows \"->\")");
  if (terms.size() != operands.size())
    parseError("\"" + eq + "\" has " + std::to_string(terms.size()) + " operand term" +
               (terms.size() == 1 ? "" : "s") + " but " + std::to_string(operands.size()) +
               " operand" + (operands.size() == 1 ? " was" : "s were") + " given");

  // Ranks and the ellipsis' dims.
  int64_t ellDims = 0;
  std::vector<int64_t> ellOf(terms.size(), 0);
  for (size_t i = 0; i < terms.size(); ++i) {
    const int64_t letters = int64_t(terms[i].labels.size()) - (terms[i].ellipsis ? 1 : 0);
    const int64_t rank = rankOf(operands[i]);
    if (terms[i].ellipsis ? rank < letters : rank != letters)
      throwUserError(ErrorKind::ShapeError,
                     "einsum(): operand " + std::to_string(i) + " has " + std::to_string(rank) +
                         " dims (shape " + shapes::errorText(shapeOf(operands[i])) +
                         ") but its term in \"" + eq + "\" names " + std::to_string(letters) +
                         (terms[i].ellipsis ? " and an ellipsis" : ""));
    ellOf[i] = terms[i].ellipsis ? rank - letters : 0;
    ellDims = std::max(ellDims, ellOf[i]);
  }

  // Subscripts per dim, and their broadcast sizes.
  Einsum ein;
  std::vector<Operand> ops;
  std::map<int, int> count;
  for (size_t i = 0; i < terms.size(); ++i) {
    Operand o{operands[i], {}};
    for (int l : terms[i].labels) {
      if (l != kEllipsisMark) {
        o.labels.push_back(l);
        continue;
      }
      for (int64_t e = 0; e < ellOf[i]; ++e) o.labels.push_back(kEllipsis + ellDims - ellOf[i] + e);
    }
    const SymShape xs = shapeOf(o.v);
    for (size_t d = 0; d < xs.size(); ++d) {
      const int l = o.labels[d];
      ++count[l];
      auto it = ein.size.find(l);
      if (it == ein.size.end()) {
        ein.size[l] = xs[d];
      } else if (xs[d].maybeConstant() == 1) {
      } else if (it->second.maybeConstant() == 1) {
        it->second = xs[d];
      } else if (!shapes::evaluate(it->second == xs[d])) {
        throwUserError(ErrorKind::ShapeError,
                       "einsum(): subscript " + labelName(l) + " has size " +
                           shapes::errorText(xs[d]) + " in operand " + std::to_string(i) +
                           " (shape " + shapes::errorText(xs) + "), which does not broadcast "
                           "with its size " + shapes::errorText(it->second) + " elsewhere in \"" +
                           eq + "\"");
      }
    }
    ops.push_back(std::move(o));
  }

  // The output's subscripts.
  if (arrow != std::string::npos) {
    const Term out = parseTerm(eq, arrow + 2, eq.size());
    for (int l : out.labels) {
      if (l == kEllipsisMark) {
        for (int64_t e = 0; e < ellDims; ++e) ein.output.push_back(kEllipsis + e);
        continue;
      }
      if (!ein.size.count(l))
        parseError("output subscript " + labelName(l) + " of \"" + eq +
                   "\" appears in no operand's term");
      if (Einsum::has(ein.output, l))
        parseError("output subscript " + labelName(l) + " appears more than once in \"" + eq +
                   "\"");
      ein.output.push_back(l);
    }
  } else {
    for (int64_t e = 0; e < ellDims; ++e) ein.output.push_back(kEllipsis + e);
    for (const auto& [l, n] : count)  // std::map: ascending, 'A'..'Z' before 'a'..'z'
      if (l < kEllipsis && n == 1) ein.output.push_back(l);
  }
  if (ops.empty()) parseError("needs at least one operand");
  return ein.run(std::move(ops));
}

const TensorNative kEinsum[] = {
    {"einsum", nativeEinsum, false},
};

}  // namespace

std::span<const TensorNative> tensorEinsumNatives() {
  return kEinsum;
}

}  // namespace tessel::interp
