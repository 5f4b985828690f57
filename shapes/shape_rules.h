// Shape rules: the output shape and dtype of every op in op_list.def, on constant or
// symbolic shapes (the constant path never touches a ShapeEnv or the solver).
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "shapes/dtype.h"
#include "shapes/op_attrs.h"
#include "shapes/op_kind.h"
#include "shapes/sym_int.h"

namespace tessel::shapes {

/// The shape and dtype of a tensor operand or result.
struct OpSignature {
  SymShape shape;
  DType dtype = DType::F32;
};

/// Output signatures of `op` applied to `inputs` (one output for every op today). Errors are
/// UserErrors naming the op: ShapeError for incompatible shapes
/// ("matmul: shapes [2, 3] and [4, 5] are incompatible (3 != 4)"), TypeError for dtype misuse,
/// IndexError for out-of-range dims, ValueError for bad attributes. Symbolic conditions go
/// through require()/evaluate() (guards or runtime asserts); unbacked sizes are reasoned about
/// size-obliviously (never 0 or 1).
std::vector<OpSignature> inferShape(OpKind op, std::span<const OpSignature> inputs,
                                    const OpAttrs& attrs);

/// NumPy broadcasting of two shapes; `op` names the op in errors.
SymShape broadcastShapes(const SymShape& a, const SymShape& b, std::string_view op);
/// Python-style dim normalization into [0, rank); IndexError naming op otherwise. A 0-d tensor
/// accepts dim 0 and -1 like PyTorch, so the result can be 0 where rank is 0: callers that
/// index per-dim arrays with it must treat rank 0 first.
int64_t normalizeDim(int64_t dim, int64_t rank, std::string_view op);
/// Which of `rank` dims a reduction over `dims` covers (empty dims = all). The dims are already
/// checked by the shape rule; on a 0-d tensor they name no dim (the mask is empty).
std::vector<bool> reducedDimsMask(std::span<const int64_t> dims, int64_t rank);

}  // namespace tessel::shapes
