// Shape rules of pooling and resizing: max_pool2d, avg_pool2d, adaptive_avg_pool2d,
// interpolate (input [N, C, H, W] or [C, H, W]) and their backward ops. Output sizes are
// expressions of the input's symbols, (H + 2p - d(k - 1) - 1) // s + 1, so one graph serves
// every image size; the checks are PyTorch's (pool2d_shape_check), with the sizes named.
#include "shapes/pool_geometry.h"
#include "shapes/shape_rules_util.h"

namespace tessel::shapes {

std::string poolAttrsText(OpKind op, const OpAttrs& a) {
  const PoolAttrs& p = a.pool;
  auto pair = [](const int64_t* v) {
    return "[" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + "]";
  };
  std::string s;
  auto field = [&](const char* name, const std::string& value) {
    s += std::string(", ") + name + "=" + value;
  };
  switch (poolForward(op)) {
    case OpKind::MaxPool2d:
    case OpKind::AvgPool2d:
      field("kernel_size", pair(p.kernel));
      field("stride", pair(p.stride));
      field("padding", pair(p.padding));
      if (poolForward(op) == OpKind::MaxPool2d) {
        field("dilation", pair(p.dilation));
      } else {
        field("count_include_pad", p.countIncludePad ? "true" : "false");
        if (p.divisor) field("divisor_override", std::to_string(p.divisor));
      }
      break;
    case OpKind::Interpolate:
      field("size", toString(a.shape));
      field("mode", p.mode == InterpMode::Nearest ? "nearest" : "bilinear");
      if (p.alignCorners) field("align_corners", "true");
      if (p.scale[0] > 0 || p.scale[1] > 0)
        field("scale_factor",
              "[" + std::to_string(p.scale[0]) + ", " + std::to_string(p.scale[1]) + "]");
      break;
    default:
      field("output_size", toString(a.shape));
      break;
  }
  return s;
}

namespace rules {

namespace {

// "1x4x4", PyTorch's way of writing the sizes of one image.
std::string sizesText(const SymShape& s, size_t from) {
  std::string t;
  for (size_t i = from; i < s.size(); ++i) t += (i > from ? "x" : "") + s[i].toString();
  return t;
}

void checkWindow(std::string_view nm, const PoolAttrs& p, bool max) {
  for (int d = 0; d < 2; ++d) {
    const std::string k = std::to_string(p.kernel[d]), pd = std::to_string(p.padding[d]);
    if (p.kernel[d] <= 0)
      fail(ErrorKind::ValueError, nm, "kernel_size must be greater than zero, got " + k);
    if (p.stride[d] <= 0)
      fail(ErrorKind::ValueError, nm,
           "stride must be greater than zero, got " + std::to_string(p.stride[d]));
    if (max && p.dilation[d] <= 0)
      fail(ErrorKind::ValueError, nm,
           "dilation must be greater than zero, got " + std::to_string(p.dilation[d]));
    if (p.padding[d] < 0) fail(ErrorKind::ValueError, nm, "padding must be >= 0, got " + pd);
    if (p.padding[d] > p.kernel[d] / 2)
      fail(ErrorKind::ValueError, nm,
           "pad should be at most half of kernel size, but got padding=" + pd +
               " and kernel_size=" + k);
  }
  if (!max && p.divisor < 0) fail(ErrorKind::ValueError, nm, "divisor_override must be non-zero");
}

// max_pool2d / avg_pool2d: (H + 2p - d(k - 1) - 1) // s + 1 per spatial dim, at least 1.
SymShape windowed(std::string_view nm, const SymShape& x, const PoolAttrs& p, bool max) {
  checkWindow(nm, p, max);
  SymShape out = x;
  const size_t h = x.size() - 2;
  auto span = [&](int d) { return (max ? p.dilation[d] : 1) * (p.kernel[d] - 1) + 1; };
  for (int d = 0; d < 2; ++d)
    out[h + d] = floorDiv(x[h + d] + 2 * p.padding[d] - span(d), SymInt(p.stride[d])) + 1;
  for (int d = 0; d < 2; ++d) {
    const SymInt padded = x[h + d] + 2 * p.padding[d];
    require(padded >= span(d), ErrorKind::ShapeError, [&] {
      return std::string(nm) + ": given input size (" + sizesText(x, h - 1) +
             "), the calculated output size (" + sizesText(out, h - 1) +
             ") is too small: the kernel spans " + std::to_string(span(d)) +
             " but the padded input " + (d ? "width" : "height") + " is " + padded.toString();
    });
  }
  return out;
}

SymShape resized(std::string_view nm, const SymShape& x, const SymShape& size, bool interp) {
  if (size.size() != 2)
    fail(ErrorKind::ValueError, nm, "output size must have 2 entries, got " + str(size));
  SymShape out = x;
  const size_t h = x.size() - 2;
  for (int d = 0; d < 2; ++d) {
    const SymInt lo = interp ? 1 : 0;
    require(size[d] >= lo, ErrorKind::ValueError, [&] {
      return std::string(nm) + ": output size " + str(size) + " must be " +
             (interp ? "greater than 0" : ">= 0") + " (input " + str(x) + ")";
    });
    out[h + d] = size[d];
  }
  return out;
}

Outputs forward(OpKind op, const OpSignature& xs, const OpAttrs& a) {
  const std::string_view nm = opName(op);
  const SymShape& x = xs.shape;
  if (x.size() != 3 && x.size() != 4)
    fail(ErrorKind::ShapeError, nm,
         "expects a 3-D [C, H, W] or 4-D [N, C, H, W] input, got " + str(x));
  if (xs.dtype != DType::F32)
    fail(ErrorKind::TypeError, nm,
         std::string("expects a f32 input, got ") + std::string(name(xs.dtype)));
  // PyTorch: only the batch dim of a 4-D input may be empty.
  for (size_t d = x.size() == 4 ? 1 : 0; d < x.size(); ++d)
    require(x[d] >= 1, ErrorKind::ShapeError, [&] {
      return std::string(nm) + ": expects non-empty sizes apart from the batch, got input " +
             str(x);
    });
  switch (op) {
    case OpKind::MaxPool2d:
    case OpKind::AvgPool2d:
      return {{windowed(nm, x, a.pool, op == OpKind::MaxPool2d), DType::F32}};
    case OpKind::AdaptiveAvgPool2d:
    case OpKind::Interpolate:
      return {{resized(nm, x, a.shape, op == OpKind::Interpolate), DType::F32}};
    default:
      break;
  }
  TESSEL_ASSERT(false, "poolOp: not a forward pooling op");
  return {};
}

}  // namespace

Outputs poolOp(OpKind op, Inputs in, const OpAttrs& a) {
  if (op == OpKind::MaxPool2dDoubleBackward) {
    // [gg, x]: gg has x's shape; the result has the forward's output shape.
    arity(op, in, 2, 2);
    const OpSignature fwd = forward(OpKind::MaxPool2d, in[1], a)[0];
    const SymShape& gg = in[0].shape;
    const SymShape& x = in[1].shape;
    if (gg.size() != x.size())
      fail(ErrorKind::ShapeError, opName(op),
           "the gradient " + str(gg) + " must have the input's shape " + str(x));
    for (size_t d = 0; d < gg.size(); ++d)
      requireEq(gg[d], x[d], opName(op),
                "the gradient " + str(gg) + " must have the input's shape " + str(x));
    return {fwd};
  }
  if (!isPoolBackward(op)) {
    arity(op, in, 1, 1);
    return forward(op, in[0], a);
  }
  // [grad, x]: grad has the forward's output shape; the result has x's.
  arity(op, in, 2, 2);
  const OpSignature fwd = forward(poolForward(op), in[1], a)[0];
  const SymShape& g = in[0].shape;
  if (g.size() != fwd.shape.size())
    fail(ErrorKind::ShapeError, opName(op),
         "grad " + str(g) + " must have the forward's output shape " + str(fwd.shape));
  for (size_t d = 0; d < g.size(); ++d)
    requireEq(g[d], fwd.shape[d], opName(op),
              "grad " + str(g) + " must have the forward's output shape " + str(fwd.shape));
  return {{in[1].shape, DType::F32}};
}

}  // namespace rules
}  // namespace tessel::shapes
