// The jagged ops' shared checks (jagged_checks.h).
#include "backends/jagged_checks.h"

#include <string>
#include <vector>

#include "shapes/user_error.h"

namespace tessel::backends::jagged {

shapes::OpSignature sizedRule(shapes::OpKind op, std::span<const Tensor> in,
                              const shapes::OpAttrs& attrs, int64_t size) {
  std::vector<shapes::OpSignature> sigs;
  for (const Tensor& t : in)
    sigs.push_back({shapes::SymShape(t.shape().begin(), t.shape().end()), t.dtype()});
  shapes::OpAttrs a = attrs;
  a.outputSize = size;
  return shapes::inferShape(op, sigs, a).at(0);
}

void splitAround(const Tensor& x, int64_t dim, int64_t& outer, int64_t& inner) {
  outer = inner = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= x.size(d);
  for (int64_t d = dim + 1; d < x.ndim(); ++d) inner *= x.size(d);
}

void requireNonNegative(const int32_t* values, int64_t n, const char* op, const char* what) {
  for (int64_t i = 0; i < n; ++i)
    if (values[i] < 0)
      throwUserError(ErrorKind::ValueError,
                     std::string(op) + ": " + what + " must be non-negative, got " +
                         std::to_string(values[i]) + " at index " + std::to_string(i));
}

void checkOutputSize(const shapes::OpAttrs& attrs, int64_t total) {
  if (attrs.shape.empty()) return;
  if (auto want = attrs.shape[0].maybeConstant(); want && *want != total)
    throwUserError(ErrorKind::ValueError,
                   "repeat_interleave: output_size " + std::to_string(*want) +
                       " does not match sum(repeats) = " + std::to_string(total));
}

void checkSegmentTotal(int64_t total, int64_t size, int64_t axis) {
  if (total != size)
    throwUserError(ErrorKind::ShapeError,
                   "segment_reduce: lengths sum to " + std::to_string(total) + " but data has " +
                       std::to_string(size) + " rows along axis " + std::to_string(axis));
}

}  // namespace tessel::backends::jagged
