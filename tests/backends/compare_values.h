// Element-wise comparison of two backends' (or two layouts') results, shared by the vulkan
// parity test and the layout sweep.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "backends/tensor.h"

namespace tessel::backends::testing {

/// Each element of `got` equals `want`'s, is NaN where it is, or lies within
/// absTol + relTol * |want| (both 0: exact). The first element that does not is a failure
/// naming both labels. Shapes and dtypes must already agree.
inline void expectCloseElements(const Tensor& want, const Tensor& got, double absTol,
                                double relTol, const std::string& wantLabel,
                                const std::string& gotLabel) {
  const std::vector<double> a = want.toDoubles(), b = got.toDoubles();
  for (size_t e = 0; e < a.size(); ++e) {
    if (a[e] == b[e] || (std::isnan(a[e]) && std::isnan(b[e]))) continue;
    if (!(std::fabs(a[e] - b[e]) <= absTol + relTol * std::fabs(a[e]))) {
      ADD_FAILURE() << "element " << e << ": " << wantLabel << " " << a[e] << ", " << gotLabel
                    << " " << b[e];
      return;
    }
  }
}

}  // namespace tessel::backends::testing
