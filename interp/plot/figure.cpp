// Axis ranges and ticks, number labels and colours, shared by the SVG and braille renderers.
#include "interp/plot/figure.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "shapes/user_error.h"

namespace tessel::plot {

using tessel::ErrorKind;
using tessel::throwUserError;

double Axis::toAxis(double v) const {
  if (!log) return v;
  return v > 0 ? std::log10(v) : std::numeric_limits<double>::quiet_NaN();
}

std::string Axis::label(double tick) const {
  return shortNumber(log ? std::pow(10.0, tick) : tick);
}

// std::to_chars in general form writes what printf's %.*g writes, without printf's locale and
// format parsing: a progress bar's postfix formats a loss at every line it draws.
std::string shortNumber(double v, int digits) {
  if (v == 0) return "0";  // also -0
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, digits);
  return std::string(buf, r.ptr);
}

namespace {

struct Extent {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -std::numeric_limits<double>::infinity();
  void add(double v) {
    if (!std::isfinite(v)) return;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  bool empty() const { return lo > hi; }
};

// Ticks at 1, 2 or 5 times a power of ten, about five of them (Heckbert's "nice numbers").
std::vector<double> niceTicks(double lo, double hi) {
  double raw = (hi - lo) / 5;
  double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double norm = raw / mag;
  double step = (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
  std::vector<double> ticks;
  for (double t = std::ceil(lo / step) * step; t <= hi + step * 1e-9; t += step)
    ticks.push_back(std::abs(t) < step * 1e-9 ? 0 : t);
  return ticks;
}

void finish(Axis& a, const Extent& e) {
  a.lo = e.lo;
  a.hi = e.hi;
  if (a.lo == a.hi) {  // one value: a unit-wide range around it
    a.lo -= 0.5;
    a.hi += 0.5;
  }
  if (a.log) {
    for (double p = std::ceil(a.lo); p <= a.hi; ++p) a.ticks.push_back(p);
    if (a.ticks.size() >= 2) return;
    a.ticks.clear();
  }
  a.ticks = niceTicks(a.lo, a.hi);
}

}  // namespace

Axes figureAxes(const Figure& f, const std::string& what) {
  Axes axes;
  axes.x.log = f.logx;
  axes.y.log = f.logy;
  Extent ex, ey;
  for (const Series& s : f.series) {
    switch (s.kind) {
      case SeriesKind::Line:
      case SeriesKind::Scatter:
        for (size_t i = 0; i < s.ys.size(); ++i) {
          double x = axes.x.toAxis(s.xs[i]), y = axes.y.toAxis(s.ys[i]);
          if (!std::isfinite(x) || !std::isfinite(y)) continue;  // a gap, as matplotlib does
          ex.add(x);
          ey.add(y);
        }
        break;
      case SeriesKind::Hist:
        for (double e : s.xs) ex.add(axes.x.toAxis(e));
        // Bars stand on zero; on a log axis, on the smallest count they show.
        if (!f.logy) ey.add(0);
        for (double c : s.ys) ey.add(axes.y.toAxis(c));
        break;
      case SeriesKind::Image:
        ex.add(0);
        ex.add(static_cast<double>(s.cols));
        ey.add(0);
        ey.add(static_cast<double>(s.rows));
        break;
    }
  }
  if (ex.empty() || ey.empty())
    throwUserError(ErrorKind::ValueError,
                   what + ": no point to show (every value is NaN or infinite" +
                       (f.logx || f.logy ? ", or not positive on a log axis)" : ")"));
  finish(axes.x, ex);
  finish(axes.y, ey);
  return axes;
}

const char* seriesColor(size_t i) {
  static const char* kColors[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                  "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
  return kColors[i % 10];
}

void heatColor(double v, int rgb[3]) {
  // viridis at nine stops; linear in between.
  static const int kStops[9][3] = {{68, 1, 84},    {71, 44, 122},  {59, 81, 139},
                                   {44, 113, 142}, {33, 144, 141}, {39, 173, 129},
                                   {92, 200, 99},  {170, 220, 50}, {253, 231, 37}};
  if (!std::isfinite(v)) v = 0;
  v = std::clamp(v, 0.0, 1.0) * 8;
  int i = std::min(static_cast<int>(v), 7);
  double t = v - i;
  for (int c = 0; c < 3; ++c)
    rgb[c] = static_cast<int>(std::lround(kStops[i][c] + t * (kStops[i + 1][c] - kStops[i][c])));
}

}  // namespace tessel::plot
