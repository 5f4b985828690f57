// conv2d and conv1d built-ins with PyTorch's names, argument order and semantics
// (F.conv2d(input, weight, bias = None, stride = 1, padding = 0, dilation = 1, groups = 1)).
// conv2d is one op of the table (its backward ops come from the gradient rules); conv1d is
// conv2d over an unsqueezed height of 1, and an unbatched input ([C, H, W] / [C, L]) gets a
// batch of 1, as PyTorch's. Sizes stay symbolic, so one compiled graph serves every image size.
#include "interp/tensors/op_compose.h"
#include "interp/tensors/tensor_natives.h"
#include "interp/tensors/tensor_value.h"
#include "shapes/shape_rules.h"
#include "shapes/user_error.h"

namespace tessel::interp {

namespace {

using shapes::ConvParams;

// One int for every spatial dim, or a list of exactly `dims` ints (stride, padding, dilation).
std::vector<int64_t> perDim(const ArgBinder& b, size_t i, int64_t dflt, size_t dims,
                            const std::string& what) {
  if (!b.has(i)) return std::vector<int64_t>(dims, dflt);
  std::vector<int64_t> v = toDimList(b.at(i), what);
  if (b.at(i).is(Type::Int)) v.assign(dims, v[0]);
  if (v.size() != dims)
    throwUserError(ErrorKind::ValueError, what + " must be an int or " + std::to_string(dims) +
                                              " ints, got " + std::to_string(v.size()));
  return v;
}

// The options of conv{dims}d for a weight of shape ws (kernel sizes at its last `dims` dims):
// parameters 3..6 of the binder are stride, padding, dilation, groups.
ConvParams convParams(const ArgBinder& b, size_t dims, const shapes::SymShape& ws,
                      const std::string& fn) {
  std::vector<int64_t> stride = perDim(b, 3, 1, dims, fn + "(): stride");
  std::vector<int64_t> dilation = perDim(b, 5, 1, dims, fn + "(): dilation");
  std::vector<int64_t> padBegin(dims, 0), padEnd(dims, 0);
  if (b.has(4) && b.at(4).is(Type::Str)) {
    const std::string& mode = b.toStr(4);
    if (mode == "same") {
      for (int64_t s : stride)
        if (s != 1)
          throwUserError(ErrorKind::ValueError,
                         fn + "(): padding='same' is not supported for strided convolutions");
      // PyTorch pads dilation (k - 1) in all, the odd one after.
      for (size_t d = 0; d < dims; ++d) {
        const int64_t k = shapes::evaluateInt(ws[ws.size() - dims + d]);
        const int64_t total = dilation[d] * (k - 1);
        padBegin[d] = total / 2;
        padEnd[d] = total - padBegin[d];
      }
    } else if (mode != "valid") {
      throwUserError(
          ErrorKind::ValueError,
          fn + "(): padding must be an int, ints, \"same\" or \"valid\", got \"" + mode + "\"");
    }
  } else {
    padBegin = padEnd = perDim(b, 4, 0, dims, fn + "(): padding");
  }
  // conv1d's options apply to the width; its unsqueezed height takes the defaults.
  const size_t off = 2 - dims;
  ConvParams c;
  for (size_t d = 0; d < dims; ++d) {
    c.stride[off + d] = stride[d];
    c.dilation[off + d] = dilation[d];
    c.padBegin[off + d] = padBegin[d];
    c.padEnd[off + d] = padEnd[d];
  }
  c.groups = b.intOr(6, 1);
  return c;
}

// conv{dims}d(input, weight, bias = none, stride = 1, padding = 0, dilation = 1, groups = 1).
template <size_t Dims>
Value nativeConv(Interpreter&, CallArgs& raw) {
  const std::string fn = Dims == 2 ? "conv2d" : "conv1d";
  ArgBinder b(Dims == 2 ? sig::conv2d : sig::conv1d, raw);
  Value x = tensorArg(b.at(0), fn + "(): input");
  Value w = tensorArg(b.at(1), fn + "(): weight");
  const shapes::SymShape xs = shapeOf(x), ws = shapeOf(w);
  const size_t rank = Dims + 2;
  if (xs.size() != rank && xs.size() != rank - 1)
    throwUserError(ErrorKind::ShapeError, fn + "(): expected " + std::to_string(rank - 1) +
                                              "-D (unbatched) or " + std::to_string(rank) +
                                              "-D (batched) input, got " + shapes::errorText(xs));
  if (ws.size() != rank)
    throwUserError(ErrorKind::ShapeError, fn + "(): expected a " + std::to_string(rank) +
                                              "-D weight [out_channels, in_channels / groups, " +
                                              (Dims == 2 ? "kH, kW" : "kW") + "], got " +
                                              shapes::errorText(ws));
  OpAttrs attrs;
  attrs.conv = convParams(b, Dims, ws, fn);
  const bool unbatched = xs.size() == rank - 1;
  if (unbatched) x = compose::unsqueeze(x, 0);
  if (Dims == 1) {
    x = compose::unsqueeze(x, 2);
    w = compose::unsqueeze(w, 2);
  }
  std::vector<Value> operands = {x, w};
  if (b.has(2) && !b.at(2).is(Type::None)) operands.push_back(tensorArg(b.at(2), fn + "(): bias"));
  Value y = emitOp(OpKind::Conv2d, std::span<const Value>(operands), attrs);
  if (Dims == 1) y = compose::squeeze(y, 2);
  if (unbatched) y = compose::squeeze(y, 0);
  return y;
}

const TensorNative kConv[] = {
    {"conv2d", nativeConv<2>, false},
    {"conv1d", nativeConv<1>, false},
};

}  // namespace

std::span<const TensorNative> tensorConvNatives() {
  return kConv;
}

}  // namespace tessel::interp
