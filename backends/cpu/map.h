// Elementwise map templates: one output, one to three broadcast inputs, contiguous fast paths.
#pragma once

#include "backends/cpu/loops.h"
#include "shapes/user_error.h"

namespace tessel::backends::cpu {

/// out[i] = f(x[i]); `out` is freshly allocated (contiguous) with x's shape.
template <class Out, class In, class F>
void mapUnary(const Tensor& x, const Tensor& out, F f) {
  auto plan = makeRowPlan<2>(out.shape(), {&out.strides(), &x.strides()},
                             {int64_t(sizeof(Out)), int64_t(sizeof(In))});
  forEachRow(plan,
             {reinterpret_cast<char*>(out.data<Out>()), reinterpret_cast<char*>(x.data<In>())},
             [&](std::array<char*, 2> p, int64_t n, std::array<int64_t, 2> s) {
               Out* __restrict o = reinterpret_cast<Out*>(p[0]);
               if (s[1] == int64_t(sizeof(In))) {
                 const In* __restrict a = reinterpret_cast<const In*>(p[1]);
                 for (int64_t i = 0; i < n; ++i) o[i] = f(a[i]);
               } else {
                 const char* a = p[1];
                 for (int64_t i = 0; i < n; ++i)
                   o[i] = f(*reinterpret_cast<const In*>(a + i * s[1]));
               }
             });
}

/// out[i] = f(a[i], b[i]) with NumPy broadcasting of a and b to out's shape.
template <class Out, class In, class F>
void mapBinary(const Tensor& a, const Tensor& b, const Tensor& out, F f) {
  // Fast path without a loop plan: same-shape contiguous operands, or one 0-d scalar. Small
  // eager ops are dominated by bookkeeping, so skipping the plan's allocations matters.
  const int64_t n = out.numel();
  const bool ca = a.isContiguous() && (a.shape() == out.shape() || a.numel() == 1);
  const bool cb = b.isContiguous() && (b.shape() == out.shape() || b.numel() == 1);
  if (ca && cb && out.isContiguous()) {
    Out* __restrict o = out.data<Out>();
    const In* __restrict x = a.data<In>();
    const In* __restrict y = b.data<In>();
    if (a.numel() == n && b.numel() == n) {
      for (int64_t i = 0; i < n; ++i) o[i] = f(x[i], y[i]);
      return;
    }
    if (a.numel() == n) {
      const In yv = *y;
      for (int64_t i = 0; i < n; ++i) o[i] = f(x[i], yv);
      return;
    }
    if (b.numel() == n) {
      const In xv = *x;
      for (int64_t i = 0; i < n; ++i) o[i] = f(xv, y[i]);
      return;
    }
  }
  Dims sa = broadcastStrides(a, out.shape());
  Dims sb = broadcastStrides(b, out.shape());
  constexpr int64_t kIn = sizeof(In);
  auto plan =
      makeRowPlan<3>(out.shape(), {&out.strides(), &sa, &sb}, {int64_t(sizeof(Out)), kIn, kIn});
  forEachRow(plan,
             {reinterpret_cast<char*>(out.data<Out>()), reinterpret_cast<char*>(a.data<In>()),
              reinterpret_cast<char*>(b.data<In>())},
             [&](std::array<char*, 3> p, int64_t n, std::array<int64_t, 3> s) {
               Out* __restrict o = reinterpret_cast<Out*>(p[0]);
               const In* __restrict x = reinterpret_cast<const In*>(p[1]);
               const In* __restrict y = reinterpret_cast<const In*>(p[2]);
               if (s[1] == kIn && s[2] == kIn) {
                 for (int64_t i = 0; i < n; ++i) o[i] = f(x[i], y[i]);
               } else if (s[1] == kIn && s[2] == 0) {
                 const In yv = *y;
                 for (int64_t i = 0; i < n; ++i) o[i] = f(x[i], yv);
               } else if (s[1] == 0 && s[2] == kIn) {
                 const In xv = *x;
                 for (int64_t i = 0; i < n; ++i) o[i] = f(xv, y[i]);
               } else {
                 for (int64_t i = 0; i < n; ++i)
                   o[i] = f(*reinterpret_cast<const In*>(p[1] + i * s[1]),
                            *reinterpret_cast<const In*>(p[2] + i * s[2]));
               }
             });
}

/// The contiguous loop of mapTernary: each operand full (index i) or one scalar (index 0), fixed
/// at compile time so the loop vectorizes (where's select becomes a blend, no branch per element).
template <bool FA, bool FB, bool FC, class Out, class A, class B, class C, class F>
void ternaryLoop(Out* __restrict o, const A* __restrict x, const B* __restrict y,
                 const C* __restrict z, int64_t n, F f) {
  for (int64_t i = 0; i < n; ++i) o[i] = f(x[FA ? i : 0], y[FB ? i : 0], z[FC ? i : 0]);
}

/// out[i] = f(a[i], b[i], c[i]) with broadcasting; A, B, C are the three storage types.
template <class Out, class A, class B, class C, class F>
void mapTernary(const Tensor& a, const Tensor& b, const Tensor& c, const Tensor& out, F f) {
  // Fast path (as mapBinary's): contiguous operands of the output's shape or 0-d scalars.
  const int64_t n = out.numel();
  auto fits = [&](const Tensor& t) {
    return t.isContiguous() && (t.shape() == out.shape() || t.numel() == 1);
  };
  if (n > 0 && out.isContiguous() && fits(a) && fits(b) && fits(c)) {
    Out* o = out.data<Out>();
    const A* x = a.data<A>();
    const B* y = b.data<B>();
    const C* z = c.data<C>();
    const int full = (a.numel() == n ? 4 : 0) | (b.numel() == n ? 2 : 0) | (c.numel() == n ? 1 : 0);
    switch (full) {
      case 7: return ternaryLoop<true, true, true>(o, x, y, z, n, f);
      case 6: return ternaryLoop<true, true, false>(o, x, y, z, n, f);
      case 5: return ternaryLoop<true, false, true>(o, x, y, z, n, f);
      case 4: return ternaryLoop<true, false, false>(o, x, y, z, n, f);
      case 3: return ternaryLoop<false, true, true>(o, x, y, z, n, f);
      case 2: return ternaryLoop<false, true, false>(o, x, y, z, n, f);
      case 1: return ternaryLoop<false, false, true>(o, x, y, z, n, f);
      default: return ternaryLoop<false, false, false>(o, x, y, z, n, f);
    }
  }
  Dims sa = broadcastStrides(a, out.shape());
  Dims sb = broadcastStrides(b, out.shape());
  Dims sc = broadcastStrides(c, out.shape());
  auto plan = makeRowPlan<4>(
      out.shape(), {&out.strides(), &sa, &sb, &sc},
      {int64_t(sizeof(Out)), int64_t(sizeof(A)), int64_t(sizeof(B)), int64_t(sizeof(C))});
  forEachRow(plan,
             {reinterpret_cast<char*>(out.data<Out>()), reinterpret_cast<char*>(a.data<A>()),
              reinterpret_cast<char*>(b.data<B>()), reinterpret_cast<char*>(c.data<C>())},
             [&](std::array<char*, 4> p, int64_t n, std::array<int64_t, 4> s) {
               Out* __restrict o = reinterpret_cast<Out*>(p[0]);
               for (int64_t i = 0; i < n; ++i)
                 o[i] = f(*reinterpret_cast<const A*>(p[1] + i * s[1]),
                          *reinterpret_cast<const B*>(p[2] + i * s[2]),
                          *reinterpret_cast<const C*>(p[3] + i * s[3]));
             });
}

}  // namespace tessel::backends::cpu
