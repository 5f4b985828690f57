// The `plot` module (plot_module.h): its natives turn lists and tensors into a plot::Figure
// (interp/plot/figure.h) held by a figure value, a native object (Note [Native objects]) that
// prints as a braille chart and displays as SVG.
#include "interp/natives/plot_module.h"

#include <cmath>
#include <initializer_list>
#include <mutex>

#include "backends/io/file_access.h"
#include "interp/values/graph_break.h"
#include "interp/natives/builtins.h"
#include "interp/natives/display.h"
#include "interp/natives/file_natives.h"
#include "interp/values/native_args.h"
#include "interp/plot/braille.h"
#include "interp/plot/png.h"
#include "interp/plot/svg.h"
#include "interp/tensors/device_support.h"
#include "interp/tensors/tensor_value.h"
#include "interp/values/native_object.h"
#include "shapes/user_error.h"

namespace tessel::interp {

namespace {

using plot::Figure;
using plot::Series;
using plot::SeriesKind;

struct FigureObj : NativeObj {
  Figure figure;
  const char* kind() const override { return "figure"; }
  std::string repr() const override {
    // A figure from plot.figure() before its first series has no axes to draw.
    return figure.series.empty() ? "<figure: empty>" : plot::renderBraille(figure);
  }
};

std::string dimsText(const backends::Tensor& t) {
  std::string s = "[";
  for (int64_t i = 0; i < t.ndim(); ++i) s += (i ? ", " : "") + std::to_string(t.size(i));
  return s + "]";
}

/// The values of a list or tuple of numbers (or one-element tensors: losses kept as tensors),
/// or of a 1-D tensor on any device (any shape where `flatten`).
std::vector<double> numbersOf(const Value& v, const std::string& what, bool flatten = false) {
  std::vector<double> out;
  if (v.is(Type::List) || v.is(Type::Tuple)) {
    const auto& items = v.is(Type::List) ? v.as<ListObj>()->items : v.as<TupleObj>()->items;
    for (size_t i = 0; i < items.size(); ++i) {
      const Value& x = items[i];
      if (x.isNumber()) {
        out.push_back(x.toDouble());
      } else if (x.is(Type::Bool)) {
        out.push_back(x.asBool());
      } else if (x.is(Type::Tensor) && hostTensor(asTensor(x)).numel() == 1) {
        out.push_back(hostTensor(asTensor(x)).item());
      } else {
        throwUserError(ErrorKind::TypeError, what + "[" + std::to_string(i) +
                                                 "] must be a number, not " + kindName(x));
      }
    }
  } else if (v.is(Type::Tensor)) {
    backends::Tensor t = hostTensor(asTensor(v));
    if (!flatten && t.ndim() != 1)
      throwUserError(ErrorKind::ShapeError, what + " must be 1-D (a list, or a tensor of shape "
                                                   "[n]), not a tensor of shape " +
                                                   dimsText(t));
    out = t.toDoubles();
  } else {
    throwUserError(ErrorKind::TypeError,
                   what + " must be a list of numbers or a tensor, not " + kindName(v));
  }
  if (out.empty()) throwUserError(ErrorKind::ValueError, what + " is empty");
  return out;
}

FigureObj* figureArg(const Value& v, const std::string& what) {
  if (v.is(Type::Native) && std::string(v.as<NativeObj>()->kind()) == "figure")
    return static_cast<FigureObj*>(v.as<NativeObj>());
  throwUserError(ErrorKind::TypeError, what + " must be a figure, not " + kindName(v));
}

// The keywords every drawing function takes, after its own parameters.
#define TESSEL_FIGURE_PARAMS "label", "title", "xlabel", "ylabel", "logx", "logy", "fig"
static_assert(std::initializer_list<const char*>{TESSEL_FIGURE_PARAMS}.size() == 7,
              "addSeries reads the seven figure keywords by position");

// Adds `s` to the figure passed as `fig` (or a new one) with the options given, and returns
// the figure. The options and the series apply only if the figure can still be drawn: a
// failed call leaves `fig` as it was.
Value addSeries(const char* fn, ArgBinder& b, size_t first, Series s) {
  std::string name = std::string("plot.") + fn + "()";
  Value figValue;
  if (b.has(first + 6) && !b.at(first + 6).is(Type::None)) {
    figValue = b.at(first + 6);
    figureArg(figValue, name + ": fig");
  } else {
    figValue = Value::object(new FigureObj);
  }
  FigureObj* obj = static_cast<FigureObj*>(figValue.as<NativeObj>());
  Figure f = obj->figure;
  bool image = s.kind == SeriesKind::Image;
  if (!f.series.empty() && (image || f.series[0].kind == SeriesKind::Image))
    throwUserError(ErrorKind::ValueError,
                   name + ": an image is a figure of its own; it cannot share one with other "
                          "series");
  auto optStr = [&](size_t i, std::string& field) {
    if (b.has(i) && !b.at(i).is(Type::None))
      field = expectStr(b.at(i), name + ": " + std::string(i == first ? "label" : "a label"));
  };
  optStr(first, s.label);
  optStr(first + 1, f.title);
  optStr(first + 2, f.xlabel);
  optStr(first + 3, f.ylabel);
  if (b.has(first + 4)) f.logx = b.toBool(first + 4);
  if (b.has(first + 5)) f.logy = b.toBool(first + 5);
  if (image && (f.logx || f.logy))
    throwUserError(ErrorKind::ValueError, name + ": an image has no log axes");
  // A ValueError when the new series would show nothing (all NaN, or <= 0 on a log axis).
  Figure alone = f;
  alone.series = {s};
  plot::figureAxes(alone, name);
  f.series.push_back(std::move(s));
  obj->figure = std::move(f);
  return figValue;
}

void drawing(const char* fn) {
  graphBreak(ErrorKind::ValueError, std::string("plot.") + fn + "() draws a figure");
}

// A series' xs and ys pair up one to one.
void requirePairs(const char* fn, const Series& s) {
  if (s.xs.size() != s.ys.size())
    throwUserError(ErrorKind::ValueError, std::string("plot.") + fn + "(): xs has " +
                                              std::to_string(s.xs.size()) + " values but ys has " +
                                              std::to_string(s.ys.size()));
}

Value nativeLine(Interpreter&, CallArgs& a) {
  drawing("line");
  ArgBinder b("plot.line", a, {"ys", "xs", TESSEL_FIGURE_PARAMS}, 1);
  Series s;
  s.kind = SeriesKind::Line;
  s.ys = numbersOf(b.at(0), "plot.line(): ys");
  if (b.has(1) && !b.at(1).is(Type::None)) {
    s.xs = numbersOf(b.at(1), "plot.line(): xs");
    requirePairs("line", s);
  } else {
    for (size_t i = 0; i < s.ys.size(); ++i) s.xs.push_back(static_cast<double>(i));
  }
  return addSeries("line", b, 2, std::move(s));
}

Value nativeScatter(Interpreter&, CallArgs& a) {
  drawing("scatter");
  ArgBinder b("plot.scatter", a, {"xs", "ys", TESSEL_FIGURE_PARAMS}, 2);
  Series s;
  s.kind = SeriesKind::Scatter;
  s.xs = numbersOf(b.at(0), "plot.scatter(): xs");
  s.ys = numbersOf(b.at(1), "plot.scatter(): ys");
  requirePairs("scatter", s);
  return addSeries("scatter", b, 2, std::move(s));
}

// As torch.histc: `bins` equal bins over [min, max] of the finite values (every value of
// the data, whatever its shape); the last bin includes max.
Value nativeHist(Interpreter&, CallArgs& a) {
  drawing("hist");
  ArgBinder b("plot.hist", a, {"t", "bins", TESSEL_FIGURE_PARAMS}, 1);
  std::vector<double> values = numbersOf(b.at(0), "plot.hist(): t", true);
  int64_t bins = b.intOr(1, 10);
  if (bins < 1 || bins > 100000)
    throwUserError(ErrorKind::ValueError,
                   "plot.hist(): bins must be in [1, 100000], not " + std::to_string(bins));
  double lo = INFINITY, hi = -INFINITY;
  for (double v : values)
    if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
  if (lo > hi)
    throwUserError(ErrorKind::ValueError, "plot.hist(): t has no finite value");
  if (lo == hi) lo -= 0.5, hi += 0.5;
  Series s;
  s.kind = SeriesKind::Hist;
  s.ys.assign(static_cast<size_t>(bins), 0);
  for (int64_t i = 0; i <= bins; ++i) s.xs.push_back(lo + (hi - lo) * i / bins);
  for (double v : values)
    if (std::isfinite(v))
      s.ys[std::min<int64_t>(bins - 1, static_cast<int64_t>((v - lo) / (hi - lo) * bins))] += 1;
  return addSeries("hist", b, 2, std::move(s));
}

// A [H, W] tensor as a heat map (scaled from its min to its max), a [3, H, W] one as RGB
// (floats in [0, 1] as torchvision's to_pil_image takes them; integers in [0, 255]).
Value nativeImage(Interpreter&, CallArgs& a) {
  drawing("image");
  ArgBinder b("plot.image", a, {"t", TESSEL_FIGURE_PARAMS}, 1);
  if (!b.at(0).is(Type::Tensor))
    throwUserError(ErrorKind::TypeError, "plot.image(): t must be a tensor, not " +
                                             kindName(b.at(0)));
  backends::Tensor t = hostTensor(asTensor(b.at(0)));
  bool rgb = t.ndim() == 3 && t.size(0) == 3;
  if (t.ndim() != 2 && !rgb)
    throwUserError(ErrorKind::ShapeError,
                   "plot.image(): t must be [H, W] (a heat map) or [3, H, W] (RGB), not " +
                       dimsText(t));
  if (t.numel() == 0) throwUserError(ErrorKind::ValueError, "plot.image(): t is empty");
  std::vector<double> v = t.toDoubles();
  Series s;
  s.kind = SeriesKind::Image;
  s.channels = rgb ? 3 : 1;
  s.rows = t.size(rgb ? 1 : 0);
  s.cols = t.size(rgb ? 2 : 1);
  s.pixels.resize(v.size());
  if (rgb) {
    double scale = shapes::isFloating(t.dtype()) ? 1.0 : 1 / 255.0;
    int64_t plane = s.rows * s.cols;
    for (int64_t c = 0; c < 3; ++c)  // channels first in the tensor, last in the series
      for (int64_t p = 0; p < plane; ++p) s.pixels[p * 3 + c] = v[c * plane + p] * scale;
  } else {
    double lo = INFINITY, hi = -INFINITY;
    for (double x : v)
      if (std::isfinite(x)) lo = std::min(lo, x), hi = std::max(hi, x);
    for (size_t i = 0; i < v.size(); ++i)
      s.pixels[i] = lo >= hi ? 0.5 : (v[i] - lo) / (hi - lo);
  }
  return addSeries("image", b, 1, std::move(s));
}

Value nativeFigure(Interpreter&, CallArgs& a) {
  ArgBinder b("plot.figure", a, {"title", "xlabel", "ylabel", "logx", "logy"}, 0);
  auto* obj = new FigureObj;
  Value out = Value::object(obj);
  Figure& f = obj->figure;
  if (b.has(0) && !b.at(0).is(Type::None)) f.title = b.toStr(0);
  if (b.has(1) && !b.at(1).is(Type::None)) f.xlabel = b.toStr(1);
  if (b.has(2) && !b.at(2).is(Type::None)) f.ylabel = b.toStr(2);
  if (b.has(3)) f.logx = b.toBool(3);
  if (b.has(4)) f.logy = b.toBool(4);
  return out;
}

const Figure& drawable(const Value& v, const std::string& what) {
  const Figure& f = figureArg(v, what)->figure;
  if (f.series.empty())
    throwUserError(ErrorKind::ValueError, what + " has nothing to draw yet (plot.line(ys, fig "
                                                 "= f) adds a series)");
  return f;
}

int64_t sizeArg(ArgBinder& b, size_t i, int64_t dflt, int64_t lo, int64_t hi,
                const std::string& what) {
  int64_t v = b.intOr(i, dflt);
  if (v < lo || v > hi)
    throwUserError(ErrorKind::ValueError, what + " must be in [" + std::to_string(lo) + ", " +
                                              std::to_string(hi) + "], not " +
                                              std::to_string(v));
  return v;
}

Value nativeSvg(Interpreter&, CallArgs& a) {
  ArgBinder b("plot.svg", a, {"fig", "width", "height"}, 1);
  const Figure& f = drawable(b.at(0), "plot.svg(): fig");
  int64_t w = sizeArg(b, 1, 640, 160, 8192, "plot.svg(): width");
  int64_t h = sizeArg(b, 2, 400, 120, 8192, "plot.svg(): height");
  return makeStr(plot::renderSvg(f, static_cast<int>(w), static_cast<int>(h)));
}

Value nativeText(Interpreter&, CallArgs& a) {
  ArgBinder b("plot.text", a, {"fig", "width", "height"}, 1);
  const Figure& f = drawable(b.at(0), "plot.text(): fig");
  int64_t w = sizeArg(b, 1, 60, 4, 1000, "plot.text(): width");
  int64_t h = sizeArg(b, 2, 15, 2, 500, "plot.text(): height");
  return makeStr(plot::renderBraille(f, static_cast<int>(w), static_cast<int>(h)));
}

// The format is the path's extension: SVG, or PNG drawn from the same SVG (interp/plot/png.h).
Value nativeSave(Interpreter& interp, CallArgs& a) {
  ArgBinder b("plot.save", a, {"fig", "path"}, 2);
  const Figure& f = drawable(b.at(0), "plot.save(): fig");
  const std::string& path = b.toStr(1);
  std::string lower = path;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  bool png = lower.ends_with(".png");
  if (!png && !lower.ends_with(".svg"))
    throwUserError(ErrorKind::ValueError,
                   "plot.save(): cannot tell the format of '" + path + "' (.svg or .png)");
  std::string svg = plot::renderSvg(f);
  // The PNG is drawn before the path is opened: a build without librsvg names what it lacks
  // rather than the folder.
  std::string bytes = png ? plot::svgToPng(svg, 640, 400, "plot.save()") : std::move(svg);
  backends::io::writeFileAtomically(allowedPath(interp, "plot.save", path, true), bytes);
  return Value::none();
}

const Figure* shownFigure(const Value& v) {
  if (!v.is(Type::Native) || std::string(v.as<NativeObj>()->kind()) != "figure") return nullptr;
  const Figure& f = static_cast<const FigureObj*>(v.as<NativeObj>())->figure;
  return f.series.empty() ? nullptr : &f;
}

// A figure in a notebook: its SVG, and the same SVG as an <img> in HTML. Frontends show the
// HTML form first (Jupyter's and nbconvert's orders put text/html before image/svg+xml);
// nbconvert's HTML export strips an inline <svg>'s children, but keeps an <img>.
void registerSvgForm() {
  static std::once_flag once;
  std::call_once(once, [] {
    registerRichForm("plot.figure", "image/svg+xml",
                     [](Interpreter&, const Value& v) -> std::optional<std::string> {
                       const Figure* f = shownFigure(v);
                       if (!f) return std::nullopt;
                       return plot::renderSvg(*f);
                     });
    registerRichForm("plot.figure.html", "text/html",
                     [](Interpreter&, const Value& v) -> std::optional<std::string> {
                       const Figure* f = shownFigure(v);
                       if (!f) return std::nullopt;
                       return plot::svgImgTag(plot::renderSvg(*f), 640, 400);
                     });
  });
}

}  // namespace

Value makePlotModule() {
  registerSvgForm();
  auto* m = new ModuleObj("plot");
  static const std::pair<const char*, NativeFn> kFunctions[] = {
      {"figure", nativeFigure}, {"line", nativeLine}, {"scatter", nativeScatter},
      {"hist", nativeHist},     {"image", nativeImage}, {"svg", nativeSvg},
      {"text", nativeText},     {"save", nativeSave},
  };
  for (auto& [name, fn] : kFunctions)
    m->define(name, Value::object(new BuiltinObj(std::string("plot.") + name, fn)));
  return Value::object(m);
}

}  // namespace tessel::interp
