// Var ops: OpAttrs construction over Emitter::op, and sumToShape.
#include "backends/autodiff/grad_ops.h"

#include "shapes/user_error.h"

namespace tessel::backends::autodiff {

using shapes::OpAttrs;

namespace {
Var emit(OpKind op, std::initializer_list<Var> xs, const OpAttrs& a = {}) {
  std::vector<Handle> hs;
  for (const Var& x : xs) hs.push_back(x.handle());
  Emitter& em = xs.begin()->emitter();
  return Var(&em, em.op(op, hs, a));
}
// An op without operands (full, arange) in like's emitter.
Var create(const Var& like, OpKind op, const OpAttrs& a) {
  Emitter& em = like.emitter();
  return Var(&em, em.create(op, a, like.handle()));
}
}  // namespace

shapes::SymInt Var::size(int64_t d) const {
  shapes::SymShape s = shape();
  return s[d < 0 ? d + static_cast<int64_t>(s.size()) : d];
}

Var lit(const Var& like, double v, DType dtype) {
  Emitter& em = like.emitter();
  return Var(&em, em.constant(v, dtype, like.handle()));
}

Var sizeScalar(const Var& like, const SymInt& n, DType dtype) {
  if (auto c = n.maybeConstant()) return lit(like, double(*c), dtype);
  OpAttrs a;  // arange(n, n + 1) reshaped to 0-d, as the tracer turns a size into a tensor
  a.start = n;
  a.stop = n + 1;
  a.dtype = DType::I32;
  Var v = reshape(create(like, OpKind::Arange, a), {});
  return dtype == DType::I32 ? v : cast(v, dtype);
}

Var unary(OpKind op, const Var& x) {
  return emit(op, {x});
}
Var binary(OpKind op, const Var& a, const Var& b) {
  return emit(op, {a, b});
}

Var reduce(OpKind op, const Var& x, Dims dims, bool keepdim) {
  OpAttrs a;
  a.dims = std::move(dims);
  a.keepdim = keepdim;
  return emit(op, {x}, a);
}

Var scan(OpKind op, const Var& x, int64_t dim) {
  OpAttrs a;
  a.dim = dim;
  return emit(op, {x}, a);
}

Var reshape(const Var& x, const SymShape& shape) {
  OpAttrs a;
  a.shape = shape;
  return emit(OpKind::Reshape, {x}, a);
}
Var expand(const Var& x, const SymShape& shape) {
  OpAttrs a;
  a.shape = shape;
  return emit(OpKind::Expand, {x}, a);
}
Var unsqueeze(const Var& x, int64_t dim) {
  OpAttrs a;
  a.dim = dim;
  return emit(OpKind::Unsqueeze, {x}, a);
}
Var squeeze(const Var& x, Dims dims) {
  OpAttrs a;
  a.dims = std::move(dims);
  return emit(OpKind::Squeeze, {x}, a);
}
Var transpose(const Var& x, int64_t d0, int64_t d1) {
  OpAttrs a;
  a.dims = {d0, d1};
  return emit(OpKind::Transpose, {x}, a);
}
Var permute(const Var& x, Dims dims) {
  OpAttrs a;
  a.dims = std::move(dims);
  return emit(OpKind::Permute, {x}, a);
}
Var slice(const Var& x, int64_t dim, const SymInt& start, const SymInt& stop) {
  OpAttrs a;
  a.dim = dim;
  a.start = start;
  a.stop = stop;
  return emit(OpKind::Slice, {x}, a);
}
Var select(const Var& x, int64_t dim, const SymInt& index) {
  OpAttrs a;
  a.dim = dim;
  a.index = index;
  return emit(OpKind::Select, {x}, a);
}
Var cat(const std::vector<Var>& xs, int64_t dim) {
  OpAttrs a;
  a.dim = dim;
  std::vector<Handle> hs;
  for (const Var& x : xs) hs.push_back(x.handle());
  Emitter& em = xs.front().emitter();
  return Var(&em, em.op(OpKind::Cat, hs, a));
}
Var full(const Var& like, const SymShape& shape, double value, DType dtype) {
  OpAttrs a;
  a.shape = shape;
  a.scalars = {value};
  a.dtype = dtype;
  return create(like, OpKind::Full, a);
}
Var arange(const Var& like, const SymInt& n, DType dtype) {
  OpAttrs a;
  a.start = SymInt(0);
  a.stop = n;
  a.dtype = dtype;
  return create(like, OpKind::Arange, a);
}
Var cast(const Var& x, DType dtype) {
  OpAttrs a;
  a.dtype = dtype;
  return emit(OpKind::Cast, {x}, a);
}
Var where(const Var& c, const Var& a, const Var& b) {
  return emit(OpKind::Where, {c, a, b});
}
Var matmul(const Var& a, const Var& b) {
  return emit(OpKind::Matmul, {a, b});
}
Var softmax(const Var& x, int64_t dim) {
  OpAttrs a;
  a.dim = dim;
  return emit(OpKind::Softmax, {x}, a);
}
Var indexSelect(const Var& x, int64_t dim, const Var& idx) {
  OpAttrs a;
  a.dim = dim;
  return emit(OpKind::IndexSelect, {x, idx}, a);
}
Var gather(const Var& x, int64_t dim, const Var& idx) {
  OpAttrs a;
  a.dim = dim;
  return emit(OpKind::Gather, {x, idx}, a);
}
Var scatterOp(OpKind op, const Var& x, int64_t dim, const Var& idx, const Var& src,
              OpAttrs attrs) {
  attrs.dim = dim;
  return emit(op, {x, idx, src}, attrs);
}
Var segmentReduce(const Var& data, const Var& lengths, int64_t axis, shapes::ScatterMode mode,
                  std::vector<double> initial) {
  OpAttrs a;
  a.dim = axis;
  a.scatterMode = mode;
  a.scalars = std::move(initial);
  return emit(OpKind::SegmentReduce, {data, lengths}, a);
}
Var repeatInterleave(const Var& x, const Var& repeats, int64_t dim, const SymInt& outputSize) {
  OpAttrs a;
  a.dim = dim;
  a.shape = {outputSize};
  return emit(OpKind::RepeatInterleave, {x, repeats}, a);
}
Var conv(OpKind op, const Var& a, const Var& b, const shapes::ConvParams& params,
         const SymShape& shape) {
  OpAttrs attrs;
  attrs.conv = params;
  attrs.shape = shape;
  return emit(op, {a, b}, attrs);
}

Var poolOp(OpKind op, std::initializer_list<Var> args, const OpAttrs& attrs) {
  return emit(op, args, attrs);
}
Var maskedSelect(const Var& x, const Var& mask) {
  return emit(OpKind::MaskedSelect, {x, mask});
}
Var maskedScatter(const Var& x, const Var& mask, const Var& src) {
  return emit(OpKind::MaskedScatter, {x, mask, src});
}

namespace {
// The broadcasting shape rule's "is this size 1" (shapes/shape_rules.cpp): constants directly,
// symbols size-obliviously (an unbacked size is never 1).
bool isOne(const SymInt& d) {
  if (auto c = d.maybeConstant()) return *c == 1;
  return shapes::evaluateSizeOblivious(d == SymInt(1));
}
}  // namespace

Var opOf(OpKind op, const std::vector<Var>& xs, const OpAttrs& attrs) {
  std::vector<Handle> hs;
  for (const Var& x : xs) hs.push_back(x.handle());
  Emitter& em = xs.front().emitter();
  return Var(&em, em.op(op, hs, attrs));
}

Var sumToShape(const Var& g, const SymShape& shape) {
  const SymShape gs = g.shape();
  if (shapes::sameShape(gs, shape)) return g;
  const int64_t extra = static_cast<int64_t>(gs.size()) - static_cast<int64_t>(shape.size());
  Dims dims;
  for (int64_t d = 0; d < static_cast<int64_t>(gs.size()); ++d) {
    if (d < extra) {
      dims.push_back(d);
      continue;
    }
    const SymInt& want = shape[d - extra];
    if (!want.sameAs(gs[d]) && isOne(want) && !isOne(gs[d])) dims.push_back(d);
  }
  Var s = dims.empty() ? g : sum(g, dims, true);
  return reshape(s, shape);
}

}  // namespace tessel::backends::autodiff
