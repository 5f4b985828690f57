// See decomposition_util.h.
#include "interp/tensors/decomposition_util.h"

#include <algorithm>

#include "interp/tensors/device_support.h"
#include "interp/tensors/tensor_value.h"
#include "interp/values/sym_value.h"
#include "shapes/user_error.h"

namespace tessel::interp::decomp {

int64_t wrapDim(int64_t d, int64_t rank, const char* fn, bool scalarOk) {
  const int64_t r = scalarOk ? std::max<int64_t>(rank, 1) : rank;
  if (d < -r || d >= r)
    throwUserError(ErrorKind::IndexError, std::string(fn) + "(): dim " + std::to_string(d) +
                                              " is out of range for a tensor of rank " +
                                              std::to_string(rank));
  return d < 0 ? d + r : d;
}

void requireDistinct(std::vector<int64_t> dims, const char* fn, const char* what) {
  std::sort(dims.begin(), dims.end());
  if (std::adjacent_find(dims.begin(), dims.end()) != dims.end())
    throwUserError(ErrorKind::ValueError, std::string(fn) + "(): " + what + " lists a dim twice");
}

shapes::SymInt intArg(const Value& v, const std::string& what) {
  if (!v.is(Type::Int) && !v.is(Type::SymInt)) expectInt(v, what);
  return toSymInt(v);
}

Value arangeI32(const shapes::SymInt& n) {
  OpAttrs a;
  a.start = shapes::SymInt(0);
  a.stop = n;
  a.step = 1;
  a.dtype = DType::I32;
  return emitOp(OpKind::Arange, {}, a);
}

Value fullLike(const Value& x, const shapes::SymShape& shape, double value) {
  OpAttrs f;
  f.shape = shape;
  f.dtype = dtypeOf(x);
  f.scalars = {value};
  if (x.is(Type::Tensor) && x.as<TensorObj>()->lazy) return emitLazyOp(OpKind::Full, {}, f);
  Value v = emitOp(OpKind::Full, {}, f);
  if (!isFake(v) && x.is(Type::Tensor) && !isFake(x) &&
      asTensor(v).device() != asTensor(x).device())
    return makeTensor(onDevice(asTensor(v), asTensor(x).device()));
  return v;
}

Value zeroOf(DType t) {
  return t == DType::F32   ? Value::real(0.0)
         : t == DType::I32 ? Value::integer(0)
                           : Value::boolean(false);
}

Value castTo(const Value& x, DType t) {
  if (x.is(Type::Tensor) && dtypeOf(x) == t) return x;
  OpAttrs c;
  c.dtype = t;
  return emitOp(OpKind::Cast, {x}, c);
}

Value callNative(std::span<const TensorNative> table, std::string_view name, Interpreter& in,
                 std::vector<Value> args) {
  for (const TensorNative& n : table)
    if (name == n.name) {
      CallArgs a;
      a.positional = args;
      return n.fn(in, a);
    }
  TESSEL_ASSERT(false, "no tensor built-in named " + std::string(name));
}

}  // namespace tessel::interp::decomp
