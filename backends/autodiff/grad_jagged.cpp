// Gradient rules of the jagged ops, as PyTorch 1.13 defines them. repeat_interleave's gradient
// is a segment sum of the output's gradient; segment_reduce's spreads each segment's gradient
// back over its rows with repeat_interleave, its size given (data's size along the axis), so
// the backward has no data-dependent size. Written with Var ops: eager and traced alike.
#include "backends/autodiff/grad_ops.h"
#include "backends/autodiff/grad_rules.h"

namespace tessel::backends::autodiff {

namespace {

using shapes::ScatterMode;

int64_t wrap(int64_t d, int64_t rank) {
  return d < 0 ? d + rank : d;
}

// [S] lengths shaped to broadcast against [..., S, ...] at `axis` of a rank-`rank` tensor.
Var alongAxis(const Var& lengths, int64_t axis, int64_t rank) {
  SymShape shape{lengths.size(0)};
  for (int64_t d = axis + 1; d < rank; ++d) shape.push_back(1);
  return reshape(lengths, shape);
}

}  // namespace

std::vector<Var> gradRepeatInterleave(const GradEntry& e, const Var& g) {
  const Var &x = e.inputs[0], &reps = e.inputs[1];
  if (x.dtype() != DType::F32) return {Var(), Var()};
  return {segmentReduce(g, reps, wrap(e.attrs.dim, x.ndim()), ScatterMode::Sum), Var()};
}

// Note [Segment reduce gradient]
// sum: every row of a segment gets the segment's gradient. mean: divided by the length (with
// `initial` too: PyTorch's mean is (initial + sum) / length). max/min: shared equally by the
// rows equal to the result (none when `initial` won). prod: where a row is non-zero, g * y / x
// (0 when another row is 0, since then y is 0); at a segment's only zero, g times the product
// of the other rows (and initial); at a zero of a segment with several, 0.
std::vector<Var> gradSegmentReduce(const GradEntry& e, const Var& g) {
  const Var &data = e.inputs[0], &lengths = e.inputs[1];
  const Var& y = e.outputs[0];
  const int64_t rank = data.ndim();
  const int64_t axis = wrap(e.attrs.dim, rank);
  const SymInt N = data.size(axis);
  auto back = [&](const Var& perSegment) { return repeatInterleave(perSegment, lengths, axis, N); };
  auto f32 = [](const Var& v) { return cast(v, DType::F32); };
  switch (e.attrs.scatterMode) {
    case ScatterMode::Sum:
      return {back(g), Var()};
    case ScatterMode::Mean: {
      Var count = binary(OpKind::Maximum, f32(alongAxis(lengths, axis, rank)), lit(g, 1));
      return {back(div(g, count)), Var()};
    }
    case ScatterMode::Amax:
    case ScatterMode::Amin: {
      Var hit = binary(OpKind::Eq, data, back(y));
      Var ties = segmentReduce(f32(hit), lengths, axis, ScatterMode::Sum);
      return {where(hit, back(div(g, ties)), lit(g, 0)), Var()};
    }
    case ScatterMode::Prod: {
      Var isZero = binary(OpKind::Eq, data, lit(data, 0));
      Var safe = where(isZero, lit(data, 1), data);
      Var zeros = segmentReduce(f32(isZero), lengths, axis, ScatterMode::Sum);
      Var others = segmentReduce(safe, lengths, axis, ScatterMode::Prod, e.attrs.scalars);
      Var atZero = where(binary(OpKind::Eq, zeros, lit(zeros, 1)), mul(g, others), lit(g, 0));
      return {where(isZero, back(atZero), div(back(mul(g, y)), safe)), Var()};
    }
    case ScatterMode::Assign:
      break;
  }
  return {Var(), Var()};
}

}  // namespace tessel::backends::autodiff
