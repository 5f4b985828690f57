// formatTensor: PyTorch's _tensor_str rules (uniform format per tensor, aligned columns,
// summarization), with Tessel's words for bools and dtypes.
#include "backends/format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace tessel::backends {

namespace {

// One format for every element of a tensor, chosen from the values that will be printed
// (PyTorch's _Formatter): floats that are all whole print as "3.", otherwise with `precision`
// decimals, and in scientific notation when the magnitudes span more than 1000x or leave the
// range [1e-4, 1e8].
class ElementFormatter {
 public:
  ElementFormatter(DType dtype, const std::vector<double>& values, int precision)
      : dtype_(dtype), precision_(precision) {
    if (dtype == DType::F32) chooseFloatMode(values);
    // As in PyTorch, a float tensor's column width comes from its finite nonzero values only.
    for (double v : values)
      if (dtype != DType::F32 || (std::isfinite(v) && v != 0))
        width_ = std::max(width_, format(v).size());
  }

  std::string format(double v) const {
    if (dtype_ == DType::Bool) return v != 0 ? "true" : "false";
    char buf[64];
    if (dtype_ == DType::I32) {
      std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
      return buf;
    }
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    if (sci_) {
      std::snprintf(buf, sizeof buf, "%.*e", precision_, v);
    } else if (intMode_) {
      std::snprintf(buf, sizeof buf, "%.0f.", v);
    } else {
      std::snprintf(buf, sizeof buf, "%.*f", precision_, v);
    }
    return buf;
  }

  size_t width() const { return width_; }

 private:
  void chooseFloatMode(const std::vector<double>& values) {
    double lo = INFINITY, hi = 0;
    bool any = false;
    for (double v : values) {
      if (!std::isfinite(v) || v == 0) continue;
      any = true;
      double a = std::fabs(v);
      lo = std::min(lo, a);
      hi = std::max(hi, a);
      if (std::ceil(v) != v) intMode_ = false;
    }
    if (!any) return;
    if (intMode_) {
      sci_ = hi / lo > 1000.0 || hi > 1e8;
    } else {
      sci_ = hi / lo > 1000.0 || hi > 1e8 || lo < 1e-4;
    }
  }

  DType dtype_;
  int precision_;
  bool intMode_ = true;
  bool sci_ = false;
  size_t width_ = 1;
};

// Row-major values of a (possibly summarized) tensor, and how to lay them out.
struct Printer {
  const Tensor& t;
  const PrintOptions& opt;
  bool summarize;
  const ElementFormatter* fmt = nullptr;

  // The indices of dim `d` that are printed (all, or the edges of a summarized dim); -1 marks
  // the "..." in between.
  std::vector<int64_t> indices(int64_t d) const {
    int64_t n = t.shape()[d];
    std::vector<int64_t> idx;
    if (summarize && n > 2 * opt.edgeItems) {
      for (int64_t i = 0; i < opt.edgeItems; ++i) idx.push_back(i);
      idx.push_back(-1);
      for (int64_t i = n - opt.edgeItems; i < n; ++i) idx.push_back(i);
    } else {
      for (int64_t i = 0; i < n; ++i) idx.push_back(i);
    }
    return idx;
  }

  // Collects the printed values (for choosing the format).
  void collect(const Tensor& sub, int64_t d, std::vector<double>& out) const {
    if (sub.ndim() == 0) {
      out.push_back(sub.item());
      return;
    }
    for (int64_t i : indices(d))
      if (i >= 0) collect(sub.select(0, i), d + 1, out);
  }

  std::string vector(const Tensor& sub, int64_t d, size_t indent) const {
    std::vector<std::string> elems;
    for (int64_t i : indices(d)) {
      if (i < 0) {
        elems.push_back(" ...");
        continue;
      }
      std::string s = fmt->format(sub.select(0, i).item());
      elems.push_back(std::string(fmt->width() - std::min(fmt->width(), s.size()), ' ') + s);
    }
    size_t elemLen = fmt->width() + 2;
    size_t perLine =
        std::max<size_t>(1, (opt.lineWidth - std::min<size_t>(indent, opt.lineWidth)) / elemLen);
    std::string out = "[";
    for (size_t i = 0; i < elems.size(); ++i) {
      if (i > 0) out += i % perLine == 0 ? ",\n" + std::string(indent + 1, ' ') : ", ";
      out += elems[i];
    }
    return out + "]";
  }

  std::string block(const Tensor& sub, int64_t d, size_t indent) const {
    if (sub.ndim() == 1) return vector(sub, d, indent);
    std::string sep = "," + std::string(sub.ndim() - 1, '\n') + std::string(indent + 1, ' ');
    std::string out = "[";
    bool first = true;
    for (int64_t i : indices(d)) {
      if (!first) out += sep;
      first = false;
      out += i < 0 ? "..." : block(sub.select(0, i), d + 1, indent + 1);
    }
    return out + "]";
  }
};

std::string shapeText(const Dims& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

}  // namespace

std::string formatTensor(const Tensor& t, const PrintOptions& opt) {
  const std::string prefix = "tensor(";
  std::string body;
  std::vector<std::string> suffixes;
  if (t.numel() == 0) {
    body = "[]";
    if (t.ndim() != 1) suffixes.push_back("shape=" + shapeText(t.shape()));
    // An empty tensor shows no elements, so its dtype is printed unless it is the default f32.
    if (t.dtype() != DType::F32)
      suffixes.push_back(std::string("dtype=") + std::string(shapes::name(t.dtype())));
  } else {
    Printer p{t, opt, t.numel() > opt.threshold};
    std::vector<double> values;
    p.collect(t, 0, values);
    ElementFormatter fmt(t.dtype(), values, opt.precision);
    p.fmt = &fmt;
    body = t.ndim() == 0 ? fmt.format(values[0]) : p.block(t, 0, prefix.size());
    // A summarized tensor hides its sizes, so they are shown.
    if (p.summarize) suffixes.push_back("shape=" + shapeText(t.shape()));
  }
  std::string out = prefix + body;
  for (const std::string& s : suffixes) out += ", " + s;
  return out + ")";
}

PrintedElements printedElements(const Tensor& t, const PrintOptions& opt) {
  PrintedElements out;
  if (t.numel() == 0) {
    for (int64_t d = 0; d < t.ndim(); ++d) out.indices.emplace_back();
    return out;
  }
  Printer p{t, opt, t.numel() > opt.threshold};
  for (int64_t d = 0; d < t.ndim(); ++d) out.indices.push_back(p.indices(d));
  std::vector<double> values;
  p.collect(t, 0, values);
  ElementFormatter fmt(t.dtype(), values, opt.precision);
  for (double v : values) out.texts.push_back(fmt.format(v));
  return out;
}

}  // namespace tessel::backends
