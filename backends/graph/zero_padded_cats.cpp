// sumZeroPaddedCats: tracks which parts of each cat are zeros and merges the sums of such cats.
#include "backends/graph/zero_padded_cats.h"

#include <algorithm>
#include <optional>

#include "backends/graph/graph_rewriter.h"

namespace tessel::graph {

// Note [Sums of zero-padded cats]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The gradient of a view of part of a value (select, slice, chunk, the rows of an unbind) is
// zeros with the part's gradient in its place: a cat of `full` zeros and the part. When several
// parts are used, their gradients are added up. A transformer's q, k and v are three selects of
// one projection, so its backward built cat(0, 0, dq) + cat(0, dk, 0) + cat(dv, 0, 0): four
// zero fills, three cats and a sum over three times the projection's size, where cat(dv, dk,
// dq) is the same value (x + 0 is x; only the sign of a zero can differ: -0 + 0 is +0 where
// the result now keeps -0). This pass follows, for each cat along a dim of constant part
// sizes, which parts are zeros, and rewrites an add of two such values, when no position has
// a non-zero part in both, into one cat of the non-zero parts (a zero part may be cut where the
// other side's parts end; a non-zero one is kept whole), zero parts filled with fresh `full`s.
// Sums of more terms follow: the result of a rewritten add is tracked like a cat.

namespace {

constexpr ValueId kZero = ~ValueId{0};

struct Part {
  int64_t size = 0;
  ValueId value = kZero;  ///< the part, a new id; kZero: zeros
};

/// The parts of a value that is a cat along `dim`, for values with at least one zero part.
struct Parts {
  int64_t dim = -1;
  std::vector<Part> parts;
};

// A `full` of 0, or a host constant of zeros (constant folding turns fills of constant shape
// into constants).
bool isZeroFill(const Value& v) {
  if (v.kind == ValueKind::Op)
    return v.op == OpKind::Full && !v.attrs.scalars.empty() && v.attrs.scalars[0] == 0.0;
  if (v.kind != ValueKind::Constant || !v.constant.defined() ||
      v.constant.device() != backends::Device::Cpu || !v.constant.isContiguous())
    return false;
  const std::byte* p = v.constant.bytes();
  const size_t n = size_t(v.constant.numel()) * shapes::elementSize(v.constant.dtype());
  return std::all_of(p, p + n, [](std::byte c) { return c == std::byte{0}; });
}

void appendPart(std::vector<Part>& out, const Part& p) {
  if (p.value == kZero && !out.empty() && out.back().value == kZero)
    out.back().size += p.size;
  else
    out.push_back(p);
}

// The parts of a + b, or nothing when some position has a non-zero part in both.
std::optional<std::vector<Part>> sumOf(const std::vector<Part>& a, const std::vector<Part>& b) {
  std::vector<Part> out;
  size_t i = 0, j = 0;
  int64_t pos = 0, aEnd = a.empty() ? 0 : a[0].size, bEnd = b.empty() ? 0 : b[0].size;
  // The non-zero part last appended, by side and index (a part spans several segments when
  // the other side's zeros are cut finer).
  int lastSide = -1;
  size_t lastIndex = 0;
  while (i < a.size() && j < b.size()) {
    const int64_t end = std::min(aEnd, bEnd);
    const bool za = a[i].value == kZero, zb = b[j].value == kZero;
    if (!za && !zb) return std::nullopt;
    if (za && zb) {
      appendPart(out, {end - pos, kZero});
      lastSide = -1;
    } else {
      const int side = za ? 1 : 0;
      const size_t index = za ? j : i;
      if (side != lastSide || index != lastIndex) out.push_back(za ? b[j] : a[i]);
      lastSide = side;
      lastIndex = index;
    }
    pos = end;
    if (aEnd == end && ++i < a.size()) aEnd += a[i].size;
    if (bEnd == end && ++j < b.size()) bEnd += b[j].size;
  }
  if (i != a.size() || j != b.size()) return std::nullopt;  // sizes differ: not expected
  return out;
}

// A cat of `parts` along `dim` with v's shape and dtype (zero parts as new fills).
Value catOf(GraphRewriter& rw, const Value& v, int64_t dim, const std::vector<Part>& parts) {
  Value c;
  c.kind = ValueKind::Op;
  c.op = OpKind::Cat;
  c.shape = v.shape;
  c.dtype = v.dtype;
  c.attrs.dim = dim;
  for (const Part& p : parts) {
    if (p.value != kZero) {
      c.args.push_back(p.value);
      continue;
    }
    Value z;
    z.kind = ValueKind::Op;
    z.op = OpKind::Full;
    z.shape = v.shape;
    z.shape[static_cast<size_t>(dim)] = SymInt(p.size);
    z.dtype = v.dtype;
    z.attrs.shape = z.shape;
    z.attrs.scalars = {0.0};
    z.attrs.dtype = v.dtype;
    c.args.push_back(rw.add(std::move(z)));
  }
  return c;
}

}  // namespace

Graph sumZeroPaddedCats(const Graph& g) {
  GraphRewriter rw(g);
  std::vector<std::optional<Parts>> parts(g.size());
  for (ValueId id = 0; id < g.size(); ++id) {
    const Value& v = g.value(id);
    if (v.kind == ValueKind::Op && v.op == OpKind::Cat && !v.shape.empty()) {
      const int64_t nd = static_cast<int64_t>(v.shape.size());
      const int64_t dim = v.attrs.dim < 0 ? v.attrs.dim + nd : v.attrs.dim;
      rw.copy(id);
      Parts p{dim, {}};
      bool known = dim >= 0 && dim < nd, anyZero = false;
      for (ValueId a : v.args) {
        const Value& av = g.value(a);
        if (!known || static_cast<int64_t>(av.shape.size()) != nd ||
            !av.shape[static_cast<size_t>(dim)].isConstant()) {
          known = false;
          break;
        }
        if (isZeroFill(av)) {
          appendPart(p.parts, {av.shape[static_cast<size_t>(dim)].constant(), kZero});
          anyZero = true;
        } else if (parts[a] && parts[a]->dim == dim) {
          for (const Part& q : parts[a]->parts) appendPart(p.parts, q);
          anyZero = true;
        } else {
          p.parts.push_back({av.shape[static_cast<size_t>(dim)].constant(), rw.mapped(a)});
        }
      }
      if (known && anyZero) parts[id] = std::move(p);
      continue;
    }
    if (v.kind == ValueKind::Op && v.op == OpKind::Add && v.args.size() == 2) {
      const ValueId a = v.args[0], b = v.args[1];
      const bool same = parts[a] && parts[b] && parts[a]->dim == parts[b]->dim &&
                        shapes::sameShape(g.value(a).shape, v.shape) &&
                        shapes::sameShape(g.value(b).shape, v.shape) &&
                        g.value(a).dtype == v.dtype && g.value(b).dtype == v.dtype;
      std::optional<std::vector<Part>> sum;
      if (same) sum = sumOf(parts[a]->parts, parts[b]->parts);
      if (sum) {
        const int64_t dim = parts[a]->dim;
        if (sum->size() == 1 && sum->front().value != kZero)
          rw.alias(id, sum->front().value);
        else
          rw.replace(id, catOf(rw, v, dim, *sum));
        parts[id] = Parts{dim, std::move(*sum)};
        continue;
      }
    }
    rw.copy(id);
  }
  return rw.finish();
}

}  // namespace tessel::graph
