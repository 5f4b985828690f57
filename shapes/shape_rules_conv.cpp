// Shape rules of conv2d and its backward ops. Output sizes are expressions of the input's
// symbols, Ho = (H + padBegin + padEnd - dilation (kH - 1) - 1) // stride + 1, so one graph
// serves every image size and batch; the checks (channels, groups, a kernel larger than the
// padded input) are require()s, so they guard or raise a ShapeError naming the sizes.
#include "shapes/shape_rules_util.h"

namespace tessel::shapes::rules {

namespace {

std::string pairStr(const std::array<int64_t, 2>& p) {
  return "(" + std::to_string(p[0]) + ", " + std::to_string(p[1]) + ")";
}

void checkParams(std::string_view nm, const ConvParams& c) {
  for (int i = 0; i < 2; ++i) {
    if (c.stride[i] < 1)
      fail(ErrorKind::ValueError, nm, "stride must be positive, got " + pairStr(c.stride));
    if (c.dilation[i] < 1)
      fail(ErrorKind::ValueError, nm, "dilation must be positive, got " + pairStr(c.dilation));
    if (c.padBegin[i] < 0 || c.padEnd[i] < 0)
      fail(ErrorKind::ValueError, nm, "padding must be non-negative, got " + pairStr(c.padBegin));
  }
  if (c.groups < 1)
    fail(ErrorKind::ValueError, nm, "groups must be positive, got " + std::to_string(c.groups));
}

void need4d(std::string_view nm, const SymShape& s, const char* what, const char* layout) {
  if (s.size() != 4)
    fail(ErrorKind::ShapeError, nm,
         std::string("expected ") + what + " " + layout + " (4-D), got " + str(s));
}

// Checks x [N, C, H, W] against w [O, C/groups, kH, kW] and returns [N, O, Ho, Wo].
SymShape forwardShape(std::string_view nm, const SymShape& x, const SymShape& w,
                      const ConvParams& c) {
  need4d(nm, x, "input", "[N, C, H, W]");
  need4d(nm, w, "weight", "[out_channels, in_channels / groups, kH, kW]");
  const SymInt g(c.groups);
  requireEq(x[1], w[1] * g, nm,
            "weight " + str(w) + " with groups=" + std::to_string(c.groups) + " expects input " +
                str(x) + " to have " + (w[1] * g).toString() + " channels, got " + x[1].toString());
  require(w[0] - floorDiv(w[0], g) * g == SymInt(0), ErrorKind::ShapeError, [&] {
    return std::string(nm) + ": out_channels " + w[0].toString() + " (weight " + str(w) +
           ") is not divisible by groups=" + std::to_string(c.groups);
  });
  SymShape out = {x[0], w[0]};
  for (int i = 0; i < 2; ++i) {
    const SymInt padded = x[2 + i] + SymInt(c.padBegin[i] + c.padEnd[i]);
    const SymInt span = SymInt(c.dilation[i]) * (w[2 + i] - SymInt(1)) + SymInt(1);
    require(span <= padded, ErrorKind::ShapeError, [&] {
      return std::string(nm) + ": kernel " + str(w) + " with dilation " + pairStr(c.dilation) +
             " spans " + span.toString() + " but the padded input " + str(x) + " is only " +
             padded.toString() + " along dim " + std::to_string(2 + i);
    });
    out.push_back(floorDiv(padded - span, SymInt(c.stride[i])) + SymInt(1));
  }
  return out;
}

void requireShape(std::string_view nm, const SymShape& got, const SymShape& want,
                  const std::string& what) {
  for (size_t d = 0; d < 4; ++d)
    requireEq(got[d], want[d], nm, what + " " + str(got) + " must have shape " + str(want));
}

}  // namespace

Outputs convOp(OpKind op, Inputs in, const OpAttrs& a) {
  std::string_view nm = opName(op);
  checkParams(nm, a.conv);
  for (const OpSignature& s : in)
    if (s.dtype == DType::Bool) fail(ErrorKind::TypeError, nm, "not supported for bool tensors");
  switch (op) {
    case OpKind::Conv2d: {
      arity(op, in, 2, 3);
      SymShape out = forwardShape(nm, in[0].shape, in[1].shape, a.conv);
      if (in.size() == 3) {
        const SymShape& b = in[2].shape;
        if (b.size() != 1)
          fail(ErrorKind::ShapeError, nm, "bias must be 1-D [out_channels], got " + str(b));
        requireEq(b[0], in[1].shape[0], nm,
                  "bias " + str(b) + " does not match weight " + str(in[1].shape));
      }
      return {{out, DType::F32}};
    }
    case OpKind::Conv2dBackwardInput: {  // [gy, w], attrs.shape = x's shape
      arity(op, in, 2, 2);
      need4d(nm, in[0].shape, "grad_output", "[N, O, Ho, Wo]");
      SymShape y = forwardShape(nm, a.shape, in[1].shape, a.conv);
      requireShape(nm, in[0].shape, y, "grad_output");
      return {{a.shape, DType::F32}};
    }
    case OpKind::Conv2dBackwardWeight: {  // [gy, x], attrs.shape = w's shape
      arity(op, in, 2, 2);
      need4d(nm, in[0].shape, "grad_output", "[N, O, Ho, Wo]");
      SymShape y = forwardShape(nm, in[1].shape, a.shape, a.conv);
      requireShape(nm, in[0].shape, y, "grad_output");
      return {{a.shape, DType::F32}};
    }
    default:
      break;
  }
  TESSEL_ASSERT(false, "convOp: not a conv op");
  return {};
}

}  // namespace tessel::shapes::rules
