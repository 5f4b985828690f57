// Braille charts (braille.h).
#include "interp/plot/braille.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace tessel::plot {

// Note [Braille charts]
// A braille character U+2800 + bits is a 2-wide, 4-high grid of dots, one bit per dot, so a
// terminal cell holds 8 pixels: a 60 x 15 character chart is 120 x 60 dots, enough for the shape
// of a loss curve. Lines are drawn between consecutive points (Bresenham), so a steep drop stays
// connected; every series shares the dots (a terminal chart has no colours to tell them apart,
// and the legend only names them). An image is shown one shade character per cell instead.

namespace {

const int kDotBit[4][2] = {{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}};

struct Canvas {
  int cols, rows;  // in characters
  std::vector<int> bits;
  Canvas(int c, int r) : cols(c), rows(r), bits(static_cast<size_t>(c) * r, 0) {}
  int width() const { return cols * 2; }
  int height() const { return rows * 4; }
  void set(int x, int y) {
    if (x < 0 || y < 0 || x >= width() || y >= height()) return;
    bits[static_cast<size_t>(y / 4) * cols + x / 2] |= kDotBit[y % 4][x % 2];
  }
  void line(int x0, int y0, int x1, int y1) {
    int dx = std::abs(x1 - x0), dy = -std::abs(y1 - y0);
    int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1, err = dx + dy;
    for (;;) {
      set(x0, y0);
      if (x0 == x1 && y0 == y1) return;
      int e2 = 2 * err;
      if (e2 >= dy) err += dy, x0 += sx;
      if (e2 <= dx) err += dx, y0 += sy;
    }
  }
  std::string row(int r) const {
    std::string out;
    for (int c = 0; c < cols; ++c) {
      int cp = 0x2800 + bits[static_cast<size_t>(r) * cols + c];
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
    return out;
  }
};

struct Mapper {
  const Axes& axes;
  int width, height;
  bool rowsDown;
  int x(double ax) const {
    return static_cast<int>(std::lround((ax - axes.x.lo) / (axes.x.hi - axes.x.lo) * (width - 1)));
  }
  int y(double ay) const {
    double t = (ay - axes.y.lo) / (axes.y.hi - axes.y.lo);
    return static_cast<int>(std::lround((rowsDown ? t : 1 - t) * (height - 1)));
  }
};

void drawSeries(Canvas& canvas, const Mapper& m, const Series& s) {
  switch (s.kind) {
    case SeriesKind::Line:
    case SeriesKind::Scatter: {
      bool havePrev = false;
      int px = 0, py = 0;
      for (size_t i = 0; i < s.ys.size(); ++i) {
        double ax = m.axes.x.toAxis(s.xs[i]), ay = m.axes.y.toAxis(s.ys[i]);
        if (!std::isfinite(ax) || !std::isfinite(ay)) {
          havePrev = false;  // a gap
          continue;
        }
        int x = m.x(ax), y = m.y(ay);
        if (s.kind == SeriesKind::Line && havePrev)
          canvas.line(px, py, x, y);
        else
          canvas.set(x, y);
        px = x, py = y, havePrev = true;
      }
      break;
    }
    case SeriesKind::Hist:
      for (size_t i = 0; i < s.ys.size(); ++i) {
        double a0 = m.axes.x.toAxis(s.xs[i]), a1 = m.axes.x.toAxis(s.xs[i + 1]);
        double ay = m.axes.y.toAxis(s.ys[i]);
        if (!std::isfinite(a0) || !std::isfinite(a1) || !std::isfinite(ay)) continue;
        int x0 = m.x(a0), x1 = std::max(x0, m.x(a1) - 1), top = m.y(ay);
        for (int x = x0; x <= x1; ++x)
          for (int y = top; y < m.height; ++y) canvas.set(x, y);
      }
      break;
    case SeriesKind::Image:
      break;  // shades, not dots: imageRows()
  }
}

// One shade per character cell: the mean of the pixels under it (RGB: their mean brightness).
std::vector<std::string> imageRows(const Series& s, int cols, int rows) {
  static const char* kShades[] = {" ", "░", "▒", "▓", "█"};
  std::vector<std::string> out;
  for (int r = 0; r < rows; ++r) {
    std::string line;
    int64_t r0 = r * s.rows / rows, r1 = std::max(r0 + 1, (r + 1) * s.rows / rows);
    for (int c = 0; c < cols; ++c) {
      int64_t c0 = c * s.cols / cols, c1 = std::max(c0 + 1, (c + 1) * s.cols / cols);
      double sum = 0;
      int64_t n = 0;
      for (int64_t i = r0; i < r1 && i < s.rows; ++i)
        for (int64_t j = c0; j < c1 && j < s.cols; ++j)
          for (int64_t k = 0; k < s.channels; ++k, ++n) {
            double v = s.pixels[(i * s.cols + j) * s.channels + k];
            sum += std::isfinite(v) ? std::clamp(v, 0.0, 1.0) : 0;
          }
      line += kShades[n ? std::min(4, static_cast<int>(sum / n * 5)) : 0];
    }
    out.push_back(line);
  }
  return out;
}

std::string pad(const std::string& s, size_t width) {
  return std::string(width > s.size() ? width - s.size() : 0, ' ') + s;
}

}  // namespace

std::string renderBraille(const Figure& f, int cols, int rows) {
  Axes axes = figureAxes(f);
  bool image = !f.series.empty() && f.series[0].kind == SeriesKind::Image;
  std::vector<std::string> chart;
  if (image) {
    // A cell is about twice as high as wide: two columns per pixel at most, and as many rows
    // as keep the image's proportions.
    const Series& s = f.series[0];
    cols = static_cast<int>(std::min<int64_t>(cols, 2 * s.cols));
    int h = std::clamp(static_cast<int>(std::lround(cols * s.rows / (2.0 * s.cols))), 1, 4 * rows);
    chart = imageRows(s, cols, h);
  } else {
    Canvas canvas(cols, rows);
    Mapper m{axes, canvas.width(), canvas.height(), false};
    for (const Series& s : f.series) drawSeries(canvas, m, s);
    for (int r = 0; r < rows; ++r) chart.push_back(canvas.row(r));
  }
  // The y axis is labelled at its ends with the data's range (an image: its rows).
  std::string top = image ? "0" : axes.y.label(axes.y.hi);
  std::string bottom = image ? std::to_string(f.series[0].rows) : axes.y.label(axes.y.lo);
  size_t w = std::max(top.size(), bottom.size());
  std::vector<std::string> lines;
  if (!f.title.empty()) lines.push_back(std::string(w + 2, ' ') + f.title);
  if (!f.ylabel.empty()) lines.push_back(f.ylabel);
  for (size_t r = 0; r < chart.size(); ++r) {
    bool end = r == 0 || r + 1 == chart.size();
    std::string label = r == 0 ? top : r + 1 == chart.size() ? bottom : "";
    lines.push_back(pad(label, w) + (end ? " ┤" : " │") + chart[r]);
  }
  std::string axisLine = std::string(w + 1, ' ') + "└";
  for (int c = 0; c < cols; ++c) axisLine += "─";
  lines.push_back(axisLine);
  std::string left = image ? "0" : axes.x.label(axes.x.lo);
  std::string right = image ? std::to_string(f.series[0].cols) : axes.x.label(axes.x.hi);
  size_t gap = cols > static_cast<int>(left.size() + right.size())
                   ? cols - left.size() - right.size()
                   : 1;
  lines.push_back(std::string(w + 2, ' ') + left + std::string(gap, ' ') + right);
  if (!f.xlabel.empty()) lines.push_back(std::string(w + 2, ' ') + f.xlabel);
  std::string legend;
  for (const Series& s : f.series)
    if (!s.label.empty()) legend += (legend.empty() ? "" : ", ") + s.label;
  if (!legend.empty()) lines.push_back(std::string(w + 2, ' ') + "series: " + legend);
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) out += (i ? "\n" : "") + lines[i];
  return out;
}

}  // namespace tessel::plot
