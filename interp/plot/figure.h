// A figure as data (series of numbers, labels, axis scales), and what both renderers share:
// the axis ranges and their ticks. Renderers: svg.h (notebooks, files), braille.h (terminals).
// No interpreter types here: the plot module (interp/natives/plot_module.cpp) fills a Figure.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tessel::plot {

enum class SeriesKind { Line, Scatter, Hist, Image };

struct Series {
  SeriesKind kind = SeriesKind::Line;
  std::string label;  // "" : not in the legend
  // Line, Scatter: the points. Hist: xs holds the bins' edges (one more than ys), ys the counts.
  std::vector<double> xs, ys;
  // Image: rows x cols pixels of `channels` values each (1: a heat map, 3: RGB), row-major
  // with the channels last, already scaled to [0, 1].
  int64_t rows = 0, cols = 0, channels = 1;
  std::vector<double> pixels;
};

struct Figure {
  std::string title, xlabel, ylabel;
  bool logx = false, logy = false;
  std::vector<Series> series;
};

/// An axis in axis space (log10 of the data on a log axis): the range and the ticks to label.
struct Axis {
  double lo = 0, hi = 1;
  bool log = false;
  std::vector<double> ticks;  // in axis space, within [lo, hi]
  /// Data value -> axis space; NaN where the value cannot be shown (<= 0 on a log axis).
  double toAxis(double v) const;
  /// A tick's label: the data value it stands for, in short form.
  std::string label(double tick) const;
};

struct Axes {
  Axis x, y;
};

/// The axes that hold every finite point of the figure's series (an image: its pixel grid,
/// y growing downward as rows do). A ValueError, its message starting with `what`, when no
/// point can be shown.
Axes figureAxes(const Figure& f, const std::string& what = "plot");

/// A number in at most `digits` significant digits, without trailing zeros ("0.25", "1e+04").
std::string shortNumber(double v, int digits = 4);

/// The colour of series `i` (matplotlib's tab10 cycle), as "#rrggbb".
const char* seriesColor(size_t i);

/// The RGB (0-255 each) a heat map shows value v in [0, 1] as (viridis, interpolated).
void heatColor(double v, int rgb[3]);

}  // namespace tessel::plot
