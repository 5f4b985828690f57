// Shape rules of the jagged ops: repeat_interleave and bincount (data-dependent output sizes:
// an unbacked symbol under a trace, the counted size eagerly) and segment_reduce (one row per
// segment: the length of `lengths`, symbolic). Values (negative repeats, lengths that do not
// sum to the size) are data: the kernels check them.
#include "shapes/shape_env.h"
#include "shapes/shape_rules_util.h"

namespace tessel::shapes::rules {

namespace {

void needI32(std::string_view nm, const OpSignature& s, const char* what) {
  if (s.dtype != DType::I32)
    fail(ErrorKind::TypeError, nm,
         std::string(what) + " must be an i32 tensor, got " + std::string(name(s.dtype)));
}

// A data-dependent size with no bound the inputs give (sum(repeats), max(x) + 1): the counted
// size eagerly, else a fresh unbacked size in [0, inf]. Its bound, where a backend needs one
// (the tpu), comes from the facts the program adds (check(), `where`) or from output_size.
SymInt unboundedSize(std::string_view nm, Inputs in, const OpAttrs& a) {
  if (a.outputSize) {
    if (*a.outputSize < 0) fail(ErrorKind::ValueError, nm, "negative output size");
    return *a.outputSize;
  }
  ShapeEnv* env = envOf(in);
  if (!env)
    fail(ErrorKind::DataDependentError, nm,
         "the output size depends on the data; eager callers pass attrs.outputSize");
  return env->createUnbacked(true);
}

Outputs repeatInterleave(Inputs in, const OpAttrs& a) {
  const std::string_view nm = "repeat_interleave";
  arity(OpKind::RepeatInterleave, in, 2, 2);
  needI32(nm, in[1], "repeats");
  const SymShape& x = in[0].shape;
  if (x.empty()) fail(ErrorKind::ShapeError, nm, "x must have at least one dimension here");
  const int64_t dim = normalizeDim(a.dim, rank(x), nm);
  if (in[1].shape.size() != 1)
    fail(ErrorKind::ShapeError, nm,
         "repeats must be a 0-d or 1-D tensor, got shape " + str(in[1].shape));
  requireEq(in[1].shape[0], x[dim], nm,
            "repeats " + str(in[1].shape) + " must have the size of x " + str(x) + " along dim " +
                std::to_string(dim));
  SymShape out = x;
  if (!a.shape.empty()) {
    if (a.shape.size() != 1) fail(ErrorKind::ValueError, nm, "output_size must be one size");
    require(a.shape[0] >= 0, ErrorKind::ValueError,
            [&] { return std::string(nm) + ": output_size must be >= 0"; });
    out[dim] = a.shape[0];
  } else {
    out[dim] = unboundedSize(nm, in, a);
  }
  return {{out, in[0].dtype}};
}

Outputs bincount(Inputs in, const OpAttrs& a) {
  const std::string_view nm = "bincount";
  arity(OpKind::Bincount, in, 1, 2);
  needI32(nm, in[0], "x");
  if (in[0].shape.size() != 1)
    fail(ErrorKind::ShapeError, nm, "x must be 1-D, got shape " + str(in[0].shape));
  const int64_t minlength = a.scalars.empty() ? 0 : int64_t(a.scalars[0]);
  if (minlength < 0)
    fail(ErrorKind::ValueError, nm, "minlength must be >= 0, got " + std::to_string(minlength));
  DType out = DType::I32;
  if (in.size() == 2) {
    if (in[1].shape.size() != 1)
      fail(ErrorKind::ShapeError, nm, "weights must be 1-D, got shape " + str(in[1].shape));
    requireEq(in[1].shape[0], in[0].shape[0], nm,
              "weights " + str(in[1].shape) + " must have x's length " + str(in[0].shape));
    if (in[1].dtype == DType::Bool)
      fail(ErrorKind::TypeError, nm, "weights must be f32 or i32, got bool");
    out = DType::F32;
  }
  SymInt n = unboundedSize(nm, in, a);
  // max(x) + 1 vs minlength: the larger. An unbacked size carries the fact n >= minlength.
  if (!n.isConstant() && minlength > 0) n.env()->check(n >= minlength);
  return {{{n}, out}};
}

}  // namespace

Outputs segmentReduce(OpKind op, Inputs in, const OpAttrs& a) {
  const std::string_view nm = opName(op);
  arity(op, in, 2, 2);
  needI32(nm, in[1], "lengths");
  if (in[0].dtype != DType::F32)
    fail(ErrorKind::TypeError, nm,
         "data must be an f32 tensor, got " + std::string(name(in[0].dtype)) +
             " (PyTorch implements it for floating types only)");
  const SymShape& data = in[0].shape;
  if (data.empty()) fail(ErrorKind::ShapeError, nm, "data must have at least one dimension");
  if (in[1].shape.size() != 1)
    fail(ErrorKind::ShapeError, nm, "lengths must be 1-D, got shape " + str(in[1].shape));
  const int64_t axis = normalizeDim(a.dim, rank(data), nm);
  if (a.scatterMode == ScatterMode::Assign)
    fail(ErrorKind::ValueError, nm,
         "reduce must be \"sum\", \"mean\", \"max\", \"min\" or \"prod\"");
  SymShape out = data;
  out[axis] = in[1].shape[0];
  return {{out, DType::F32}};
}

Outputs jaggedOp(OpKind op, Inputs in, const OpAttrs& a) {
  switch (op) {
    case OpKind::RepeatInterleave:
      return repeatInterleave(in, a);
    case OpKind::Bincount:
      return bincount(in, a);
    case OpKind::SegmentReduce:
      return segmentReduce(op, in, a);
    default:
      break;
  }
  TESSEL_ASSERT(false, "jaggedOp: not a jagged op");
  return {};
}

}  // namespace tessel::shapes::rules
