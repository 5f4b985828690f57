// Figures as SVG (svg.h): a frame with ticks, the series, a legend, the title and labels.
#include "interp/plot/svg.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>

namespace tessel::plot {

namespace {

std::string escapeXml(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default:
        // Control characters are not allowed in XML 1.0 text.
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\t' || c == '\n') out += c;
    }
  }
  return out;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::string rgbText(const int rgb[3]) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
  return buf;
}

struct Frame {
  double left, top, width, height;
  Axes axes;
  bool rowsDown;  // an image: row 0 at the top
  double pad;     // pixels between the data's range and the frame
  double px(double ax) const {
    return left + pad + (ax - axes.x.lo) / (axes.x.hi - axes.x.lo) * (width - 2 * pad);
  }
  double py(double ay) const {
    double t = (ay - axes.y.lo) / (axes.y.hi - axes.y.lo);
    return rowsDown ? top + pad + t * (height - 2 * pad)
                    : top + height - pad - t * (height - 2 * pad);
  }
};

void text(std::string& out, double x, double y, const std::string& anchor,
          const std::string& cls, const std::string& s, const std::string& extra = "") {
  out += "<text class=\"" + cls + "\" x=\"" + num(x) + "\" y=\"" + num(y) +
         "\" text-anchor=\"" + anchor + "\"" + extra + ">" + escapeXml(s) + "</text>\n";
}

void drawTicks(std::string& out, const Frame& fr) {
  for (double t : fr.axes.x.ticks) {
    double x = fr.px(t), y = fr.top + fr.height;
    out += "<line class=\"tick\" x1=\"" + num(x) + "\" y1=\"" + num(y) + "\" x2=\"" + num(x) +
           "\" y2=\"" + num(y + 5) + "\" stroke=\"#333\"/>\n";
    text(out, x, y + 18, "middle", "tick-label", fr.axes.x.label(t));
  }
  for (double t : fr.axes.y.ticks) {
    double y = fr.py(t);
    out += "<line class=\"tick\" x1=\"" + num(fr.left - 5) + "\" y1=\"" + num(y) + "\" x2=\"" +
           num(fr.left) + "\" y2=\"" + num(y) + "\" stroke=\"#333\"/>\n";
    text(out, fr.left - 8, y + 4, "end", "tick-label", fr.axes.y.label(t));
  }
}

void drawLine(std::string& out, const Frame& fr, const Series& s, const char* color) {
  // A point that cannot be shown (NaN, or <= 0 on a log axis) breaks the line in two.
  std::string points;
  auto flush = [&] {
    if (!points.empty())
      out += "<polyline class=\"series line\" fill=\"none\" stroke=\"" + std::string(color) +
             "\" stroke-width=\"2\" points=\"" + points + "\"/>\n";
    points.clear();
  };
  for (size_t i = 0; i < s.ys.size(); ++i) {
    double x = fr.axes.x.toAxis(s.xs[i]), y = fr.axes.y.toAxis(s.ys[i]);
    if (!std::isfinite(x) || !std::isfinite(y)) {
      flush();
      continue;
    }
    if (!points.empty()) points += ' ';
    points += num(fr.px(x)) + "," + num(fr.py(y));
  }
  flush();
}

void drawScatter(std::string& out, const Frame& fr, const Series& s, const char* color) {
  out += "<g class=\"series scatter\" fill=\"" + std::string(color) + "\">\n";
  for (size_t i = 0; i < s.ys.size(); ++i) {
    double x = fr.axes.x.toAxis(s.xs[i]), y = fr.axes.y.toAxis(s.ys[i]);
    if (!std::isfinite(x) || !std::isfinite(y)) continue;
    out += "<circle cx=\"" + num(fr.px(x)) + "\" cy=\"" + num(fr.py(y)) + "\" r=\"3\"/>\n";
  }
  out += "</g>\n";
}

void drawHist(std::string& out, const Frame& fr, const Series& s, const char* color) {
  out += "<g class=\"series hist\" fill=\"" + std::string(color) + "\" stroke=\"white\">\n";
  double base = fr.py(fr.axes.y.lo);
  for (size_t i = 0; i < s.ys.size(); ++i) {
    double x0 = fr.axes.x.toAxis(s.xs[i]), x1 = fr.axes.x.toAxis(s.xs[i + 1]);
    double y = fr.axes.y.toAxis(s.ys[i]);
    if (!std::isfinite(x0) || !std::isfinite(x1)) continue;
    double top = std::isfinite(y) ? fr.py(y) : base;  // an empty bin on a log axis: no height
    out += "<rect class=\"bar\" x=\"" + num(fr.px(x0)) + "\" y=\"" + num(top) + "\" width=\"" +
           num(fr.px(x1) - fr.px(x0)) + "\" height=\"" + num(base - top) + "\"/>\n";
  }
  out += "</g>\n";
}

void drawImage(std::string& out, const Frame& fr, const Series& s) {
  // Blocks of `step` x `step` pixels, averaged, keep the element count bounded.
  int64_t step = std::max<int64_t>(1, (std::max(s.rows, s.cols) + kMaxImageSide - 1) / kMaxImageSide);
  out += "<g class=\"series image\" shape-rendering=\"crispEdges\">\n";
  for (int64_t r = 0; r < s.rows; r += step)
    for (int64_t c = 0; c < s.cols; c += step) {
      double sum[3] = {0, 0, 0};
      int64_t n = 0;
      for (int64_t rr = r; rr < std::min(r + step, s.rows); ++rr)
        for (int64_t cc = c; cc < std::min(c + step, s.cols); ++cc, ++n)
          for (int64_t k = 0; k < s.channels; ++k)
            sum[k] += s.pixels[(rr * s.cols + cc) * s.channels + k];
      int rgb[3];
      if (s.channels == 1) {
        heatColor(sum[0] / n, rgb);
      } else {
        for (int k = 0; k < 3; ++k) {
          double v = std::isfinite(sum[k]) ? std::clamp(sum[k] / n, 0.0, 1.0) : 0;
          rgb[k] = static_cast<int>(std::lround(v * 255));
        }
      }
      double x0 = fr.px(c), x1 = fr.px(std::min(c + step, s.cols));
      double y0 = fr.py(r), y1 = fr.py(std::min(r + step, s.rows));
      out += "<rect class=\"pixel\" x=\"" + num(x0) + "\" y=\"" + num(y0) + "\" width=\"" +
             num(x1 - x0) + "\" height=\"" + num(y1 - y0) + "\" fill=\"" + rgbText(rgb) +
             "\"/>\n";
    }
  out += "</g>\n";
}

void drawLegend(std::string& out, const Frame& fr, const Figure& f) {
  std::vector<size_t> labelled;
  size_t longest = 0;
  for (size_t i = 0; i < f.series.size(); ++i)
    if (!f.series[i].label.empty()) {
      labelled.push_back(i);
      longest = std::max(longest, f.series[i].label.size());
    }
  if (labelled.empty()) return;
  double w = 40 + 7.0 * static_cast<double>(longest), h = 8 + 18.0 * labelled.size();
  double x = fr.left + fr.width - w - 8, y = fr.top + 8;
  out += "<g class=\"legend\">\n<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" +
         num(w) + "\" height=\"" + num(h) +
         "\" fill=\"white\" fill-opacity=\"0.85\" stroke=\"#bbb\"/>\n";
  for (size_t k = 0; k < labelled.size(); ++k) {
    double ly = y + 15 + 18.0 * k;
    out += "<line x1=\"" + num(x + 6) + "\" y1=\"" + num(ly - 4) + "\" x2=\"" + num(x + 26) +
           "\" y2=\"" + num(ly - 4) + "\" stroke=\"" + seriesColor(labelled[k]) +
           "\" stroke-width=\"4\"/>\n";
    text(out, x + 32, ly, "start", "legend-label", f.series[labelled[k]].label);
  }
  out += "</g>\n";
}

std::string base64(const std::string& in) {
  static const char* kDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  for (size_t i = 0; i < in.size(); i += 3) {
    uint32_t n = static_cast<unsigned char>(in[i]) << 16;
    if (i + 1 < in.size()) n |= static_cast<unsigned char>(in[i + 1]) << 8;
    if (i + 2 < in.size()) n |= static_cast<unsigned char>(in[i + 2]);
    out += kDigits[n >> 18 & 63];
    out += kDigits[n >> 12 & 63];
    out += i + 1 < in.size() ? kDigits[n >> 6 & 63] : '=';
    out += i + 2 < in.size() ? kDigits[n & 63] : '=';
  }
  return out;
}

}  // namespace

std::string svgImgTag(const std::string& svg, int width, int height) {
  return "<img class=\"tessel-figure\" width=\"" + std::to_string(width) + "\" height=\"" +
         std::to_string(height) + "\" src=\"data:image/svg+xml;base64," + base64(svg) + "\"/>";
}

std::string renderSvg(const Figure& f, int width, int height) {
  bool image = !f.series.empty() && f.series[0].kind == SeriesKind::Image;
  // Lines and points keep off the frame, as matplotlib's margins do; bars and images fill it
  // (a bar stands on the frame's bottom).
  bool fills = image;
  for (const Series& s : f.series) fills = fills || s.kind == SeriesKind::Hist;
  double pad = fills ? 0 : 10;
  Frame fr{72, 36, width - 72.0 - 20, height - 36.0 - 56, figureAxes(f), image, pad};
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                    std::to_string(width) + "\" height=\"" + std::to_string(height) +
                    "\" viewBox=\"0 0 " + std::to_string(width) + " " +
                    std::to_string(height) +
                    "\" font-family=\"sans-serif\" font-size=\"12\">\n"
                    "<rect class=\"background\" width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  // The series are clipped to the frame: a line may leave it only by rounding.
  // Ids are per document in a notebook's page, which may show many figures: each its own.
  static std::atomic<uint64_t> figures{0};
  std::string clip = "tessel-plot-" + std::to_string(++figures);
  out += "<clipPath id=\"" + clip + "\"><rect x=\"" + num(fr.left) + "\" y=\"" + num(fr.top) +
         "\" width=\"" + num(fr.width) + "\" height=\"" + num(fr.height) + "\"/></clipPath>\n";
  out += "<g clip-path=\"url(#" + clip + ")\">\n";
  for (size_t i = 0; i < f.series.size(); ++i) {
    const Series& s = f.series[i];
    switch (s.kind) {
      case SeriesKind::Line: drawLine(out, fr, s, seriesColor(i)); break;
      case SeriesKind::Scatter: drawScatter(out, fr, s, seriesColor(i)); break;
      case SeriesKind::Hist: drawHist(out, fr, s, seriesColor(i)); break;
      case SeriesKind::Image: drawImage(out, fr, s); break;
    }
  }
  out += "</g>\n";
  out += "<rect class=\"frame\" x=\"" + num(fr.left) + "\" y=\"" + num(fr.top) + "\" width=\"" +
         num(fr.width) + "\" height=\"" + num(fr.height) + "\" fill=\"none\" stroke=\"#333\"/>\n";
  drawTicks(out, fr);
  drawLegend(out, fr, f);
  if (!f.title.empty()) text(out, width / 2.0, 22, "middle", "title", f.title, " font-size=\"15\"");
  if (!f.xlabel.empty()) text(out, fr.left + fr.width / 2, height - 12.0, "middle", "xlabel", f.xlabel);
  if (!f.ylabel.empty()) {
    double x = 16, y = fr.top + fr.height / 2;
    text(out, x, y, "middle", "ylabel", f.ylabel,
         " transform=\"rotate(-90 " + num(x) + " " + num(y) + ")\"");
  }
  return out + "</svg>\n";
}

}  // namespace tessel::plot
