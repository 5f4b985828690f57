// Helpers shared by the decompositions (tensor_decompositions_shape.cpp,
// tensor_decompositions_compare.cpp): dim wrapping with errors that name the function,
// constant blocks on the input's device, and calls of other natives.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "interp/tensors/op_compose.h"
#include "interp/tensors/tensor_natives.h"

namespace tessel::interp::decomp {

/// A dim in [-rank, rank) made non-negative; an IndexError naming fn otherwise. With
/// `scalarOk` a 0-d tensor takes dims 0 and -1 (PyTorch's wrap_scalar).
int64_t wrapDim(int64_t d, int64_t rank, const char* fn, bool scalarOk);
/// A ValueError naming fn and what when a (wrapped) dim list repeats a dim.
void requireDistinct(std::vector<int64_t> dims, const char* fn, const char* what);
/// An int or a symbolic size as a SymInt; a TypeError naming what otherwise (a float too).
shapes::SymInt intArg(const Value& v, const std::string& what);
/// arange(n) as i32.
Value arangeI32(const shapes::SymInt& n);
/// A constant block like x (its dtype, device and tpu segment) of the given shape.
Value fullLike(const Value& x, const shapes::SymShape& shape, double value);
/// A zero of the dtype, so where(m, x, zero) keeps x's dtype.
Value zeroOf(DType t);
/// x as another dtype (itself when it already is).
Value castTo(const Value& x, DType t);
/// The native `name` of a table called with positional arguments (a composition reusing
/// another built-in whole).
Value callNative(std::span<const TensorNative> table, std::string_view name, Interpreter& in,
                 std::vector<Value> args);

}  // namespace tessel::interp::decomp
