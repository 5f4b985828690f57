// Ops whose output size depends on the values: nonzero, masked_select, masked_scatter, unique.
// Eager execution simply counts first; the shape rule is asked for validation and the dtype
// with the counted size (OpAttrs::outputSize).
#include <algorithm>
#include <cmath>

#include "backends/cpu/kernels.h"
#include "backends/cpu/loops.h"
#include "shapes/user_error.h"

namespace tessel::backends::cpu {

namespace {

// The mask as contiguous bytes broadcast to `shape`.
std::vector<uint8_t> maskBytes(const Tensor& mask, const Dims& shape) {
  Tensor m = castTo(mask, DType::Bool).expand(shape).contiguous();
  const uint8_t* p = m.data<uint8_t>();
  return std::vector<uint8_t>(p, p + m.numel());
}

Dims broadcastPair(const Tensor& a, const Tensor& b) {
  auto sig = shapes::broadcastShapes(shapes::SymShape(a.shape().begin(), a.shape().end()),
                                     shapes::SymShape(b.shape().begin(), b.shape().end()),
                                     "masked_select");
  return concreteShape(sig);
}

OpSignature ruleWithSize(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs,
                         int64_t size) {
  std::vector<OpSignature> sigs;
  for (const Tensor& t : in)
    sigs.push_back({shapes::SymShape(t.shape().begin(), t.shape().end()), t.dtype()});
  OpAttrs a = attrs;
  a.outputSize = size;
  return shapes::inferShape(op, sigs, a).at(0);
}

Tensor nonzero(const Tensor& x, const OpAttrs& attrs) {
  std::vector<uint8_t> m = maskBytes(x, x.shape());
  const int64_t count = std::count(m.begin(), m.end(), uint8_t{1});
  const Tensor in[] = {x};
  Tensor out = emptyLike(ruleWithSize(OpKind::Nonzero, in, attrs, count));
  int32_t* o = out.data<int32_t>();
  const int64_t rank = x.ndim();
  Dims pos(rank, 0);
  for (size_t e = 0; e < m.size(); ++e) {
    if (m[e])
      for (int64_t d = 0; d < rank; ++d) *o++ = static_cast<int32_t>(pos[d]);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++pos[d] < x.size(d)) break;
      pos[d] = 0;
    }
  }
  return out;
}

Tensor maskedSelect(const Tensor& x, const Tensor& mask, const OpAttrs& attrs) {
  Dims shape = broadcastPair(x, mask);
  std::vector<uint8_t> m = maskBytes(mask, shape);
  const int64_t count = std::count(m.begin(), m.end(), uint8_t{1});
  const Tensor in[] = {x, mask};
  Tensor out = emptyLike(ruleWithSize(OpKind::MaskedSelect, in, attrs, count));
  Tensor xs = castTo(x.expand(shape).contiguous(), out.dtype());
  visitDType(out.dtype(), [&](auto t) {
    using T = decltype(t);
    const T* src = xs.data<T>();
    T* dst = out.data<T>();
    for (size_t e = 0; e < m.size(); ++e)
      if (m[e]) *dst++ = src[e];
  });
  return out;
}

Tensor maskedScatter(std::span<const Tensor> in, const OpAttrs& attrs) {
  const Tensor& x = in[0];
  std::vector<uint8_t> m = maskBytes(in[1], x.shape());
  const int64_t count = std::count(m.begin(), m.end(), uint8_t{1});
  Tensor out = emptyLike(ruleWithSize(OpKind::MaskedScatter, in, attrs, count));
  if (in[2].numel() < count)
    throwUserError(ErrorKind::ValueError,
                   "masked_scatter: the mask selects " + std::to_string(count) +
                       " elements but the source has only " + std::to_string(in[2].numel()));
  Tensor xs = castTo(x, out.dtype()).contiguous();
  Tensor src = castTo(in[2], out.dtype()).contiguous();
  visitDType(out.dtype(), [&](auto t) {
    using T = decltype(t);
    const T* a = xs.data<T>();
    const T* s = src.data<T>();
    T* o = out.data<T>();
    for (size_t e = 0; e < m.size(); ++e) o[e] = m[e] ? *s++ : a[e];
  });
  return out;
}

Tensor unique(const Tensor& x, const OpAttrs& attrs) {
  return visitDType(x.dtype(), [&](auto t) {
    using T = decltype(t);
    Tensor c = x.contiguous();
    std::vector<T> v(c.data<T>(), c.data<T>() + c.numel());
    // Sorted ascending like torch.unique; NaNs are kept (each NaN is distinct) at the end.
    auto nanLast = [](T a, T b) { return a < b || (a == a && b != b); };
    std::sort(v.begin(), v.end(), nanLast);
    v.erase(std::unique(v.begin(), v.end(), [](T a, T b) { return a == b; }), v.end());
    const Tensor in[] = {x};
    Tensor out = emptyLike(ruleWithSize(OpKind::Unique, in, attrs, int64_t(v.size())));
    std::copy(v.begin(), v.end(), out.data<T>());
    return out;
  });
}

}  // namespace

Tensor runDataDependent(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs) {
  switch (op) {
    case OpKind::Nonzero:
      return nonzero(in[0], attrs);
    case OpKind::MaskedSelect:
      return maskedSelect(in[0], in[1], attrs);
    case OpKind::MaskedScatter:
      return maskedScatter(in, attrs);
    case OpKind::Unique:
      return unique(in[0], attrs);
    case OpKind::Item:  // the element as a 0-d tensor; the executor reads it (executor_base.h)
      return in[0].reshape(std::vector<int64_t>{});
    case OpKind::RepeatInterleave:
    case OpKind::Bincount:
      return runJagged(op, in, attrs);
    case OpKind::Nms:
      return nms(in, attrs);
    default:
      TESSEL_ASSERT(false, "not a data-dependent op");
  }
  return {};
}

}  // namespace tessel::backends::cpu
