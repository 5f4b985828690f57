// The plot module's renderers and progress(): braille charts dot by dot (Note [Braille
// charts]), the SVG's structure, the figure's rich form for notebooks, and the progress bar's
// line and redraw policy (Note [Progress output]). tests/plot/svg_test.py renders the SVG.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "interp/interpreter.h"
#include "interp/natives/display.h"
#include "interp/natives/progress.h"
#include "interp/plot/braille.h"
#include "interp/plot/svg.h"

using namespace tessel;
using plot::Figure;
using plot::Series;
using plot::SeriesKind;

namespace {

Figure lineFigure(std::vector<double> ys) {
  Figure f;
  Series s;
  for (size_t i = 0; i < ys.size(); ++i) s.xs.push_back(static_cast<double>(i));
  s.ys = std::move(ys);
  f.series.push_back(s);
  return f;
}

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

TEST(Braille, ADiagonalSetsOneDotPerColumn) {
  // 0..3 over 2 x 1 characters (4 x 4 dots): dots (0,3) (1,2) in the first character
  // (bits 0x40 + 0x20), (2,1) (3,0) in the second (0x02 + 0x08).
  std::string chart = plot::renderBraille(lineFigure({0, 1, 2, 3}), 2, 1);
  EXPECT_NE(chart.find("3 ┤\u2860\u280a"), std::string::npos) << chart;
}

TEST(Braille, EveryDotHasItsBit) {
  // A point in each of a character's eight places: together they fill it (U+28FF).
  Figure f;
  Series s;
  s.kind = SeriesKind::Scatter;
  for (int x = 0; x < 2; ++x)
    for (int y = 0; y < 4; ++y) s.xs.push_back(x), s.ys.push_back(y);
  f.series.push_back(s);
  std::string chart = plot::renderBraille(f, 1, 1);
  EXPECT_NE(chart.find("\u28ff"), std::string::npos) << chart;
}

TEST(Braille, LabelsTheRangeAndTheSeries) {
  Figure f = lineFigure({5, -2, 7.5});
  f.series[0].label = "loss";
  f.title = "run 1";
  std::string chart = plot::renderBraille(f, 20, 4);
  EXPECT_NE(chart.find("7.5 ┤"), std::string::npos) << chart;
  EXPECT_NE(chart.find(" -2 ┤"), std::string::npos) << chart;
  EXPECT_NE(chart.find("series: loss"), std::string::npos) << chart;
  EXPECT_EQ(chart.find("run 1"), 5u) << chart;  // over the plot area
  // The title, 4 rows, the axis, the x labels and the legend: 8 lines.
  EXPECT_EQ(count(chart, "\n"), 7u) << chart;
}

TEST(Svg, APolylinePerUnbrokenRunAndEscapedText) {
  Figure f = lineFigure({1, 2, std::nan(""), 4, 5});
  f.title = "a<b & \"c\"";
  std::string svg = plot::renderSvg(f);
  EXPECT_EQ(count(svg, "<polyline"), 2u);
  EXPECT_NE(svg.find("a&lt;b &amp; &quot;c&quot;"), std::string::npos);
  EXPECT_EQ(svg.rfind("</svg>\n"), svg.size() - 7);
}

TEST(Svg, LogAxesDropNonPositiveValuesAndTickPowersOfTen) {
  Figure f = lineFigure({0, 1, 10, 100, 1000});
  f.logy = true;
  std::string svg = plot::renderSvg(f);
  EXPECT_EQ(count(svg, "<polyline"), 1u);  // the 0 is left out, before the run starts
  for (const char* tick : {">1<", ">10<", ">100<", ">1000<"})
    EXPECT_NE(svg.find(tick), std::string::npos) << tick;
}

TEST(Plot, AFigureDisplaysAsSvgInANotebook) {
  interp::Interpreter interp;
  std::ostringstream out;
  interp.setOutput(&out);
  interp.runSource("<test>", "import plot\nlet f = plot.line([1, 2, 3])\n");
  interp::Value* f = interp.mainModule().lookup("f");
  ASSERT_NE(f, nullptr);
  auto forms = interp::richForms(interp, *f);
  ASSERT_EQ(forms.size(), 2u);
  EXPECT_EQ(forms[0].first, "image/svg+xml");
  EXPECT_EQ(forms[0].second.rfind("<svg", 0), 0u);
  EXPECT_EQ(forms[1].first, "text/html");
  EXPECT_EQ(forms[1].second.rfind("<img class=\"tessel-figure\"", 0), 0u);
  EXPECT_NE(forms[1].second.find("src=\"data:image/svg+xml;base64,PHN2Zy"), std::string::npos);
}

TEST(Progress, TheLineSaysCountPercentRateAndEta) {
  EXPECT_EQ(interp::progressLine("epoch 1", 4, 10, 2.0, "loss=0.5"),
            "epoch 1:  40%|████████            | 4/10 [00:02<00:03, 2.00it/s, loss=0.5]");
  EXPECT_EQ(interp::progressLine("", 0, 3, 0, ""), "  0%|                    | 0/3 [00:00<?, ?it/s]");
  EXPECT_EQ(interp::progressLine("", 5, -1, 1, ""), "5 [00:01, 5.00it/s]");
  // Eighths of a character at the bar's end.
  EXPECT_NE(interp::progressLine("", 1, 16, 1, "").find("|█▎"), std::string::npos);
}

std::string runLoop(const char* mode, int items) {
  setenv("TESSEL_PROGRESS", mode, 1);
  interp::Interpreter interp;
  std::ostringstream out, err;
  interp.setOutput(&out);
  interp.setErrorOutput(&err);
  interp.runSource("<test>", "let p = progress(range(" + std::to_string(items) +
                                 "), desc = \"d\")\nlet t = 0\n"
                                 "for i in p { t += i\n p.set_postfix(loss = 0.25) }\nprint(t)\n");
  unsetenv("TESSEL_PROGRESS");
  EXPECT_EQ(out.str(), std::to_string(int64_t{items} * (items - 1) / 2) + "\n");
  return err.str();
}

TEST(Progress, PlainOutputWritesALineEachTenth) {
  std::string err = runLoop("plain", 1000);
  EXPECT_EQ(count(err, "\n"), 11u) << err;  // 0%, 10%, ..., 100%
  EXPECT_EQ(count(err, "\r"), 0u);
  EXPECT_NE(err.find("d: 100%|████████████████████| 1000/1000"), std::string::npos) << err;
  EXPECT_NE(err.find("loss=0.25]"), std::string::npos) << err;
}

TEST(Progress, ATerminalLineIsRedrawnInPlaceAtMostTenTimesASecond) {
  // The first and last draws, and at most one per 100 ms between them.
  auto start = std::chrono::steady_clock::now();
  std::string err = runLoop("tty", 100000);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LE(count(err, "\r"), 2 + static_cast<size_t>(seconds * 10) + 1) << seconds << " s";
  EXPECT_GE(count(err, "\r"), 2u);
  EXPECT_EQ(count(err, "\n"), 1u);  // the line ends once, when the loop does
  EXPECT_NE(err.find("\r" "d: 100%"), std::string::npos);
  EXPECT_NE(err.find("\x1b[K"), std::string::npos);
}

}  // namespace
