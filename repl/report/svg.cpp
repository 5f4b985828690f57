// The timeline picture of `tessel report`: inline SVG, x = time since the process opened its
// trace, one lane per frame (grouped by process), compile spans, run ticks, break and
// fallback markers, an axis and a legend. Every mark has a <title> tooltip.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "repl/report/html.h"

namespace tessel::repl::report {

namespace {

// Layout in SVG user units; the picture scales to the page width (viewBox).
constexpr double kWidth = 1100, kLabelWidth = 290, kRight = 20, kTop = 44, kLaneHeight = 24,
                 kAxisHeight = 40;
constexpr size_t kLabelChars = 50;

struct Colour {
  const char* state;
  const char* fill;
  const char* legend;
};
// One table for span colours and their legend entries.
constexpr Colour kColours[] = {{"ok", "#3a9a5b", "compile"},
                               {"break", "#e0952b", "compile that broke"},
                               {"error", "#d64545", "failed compile"},
                               {"unfinished", "#9a9a9a", "no compile_end"}};
constexpr const char* kFirstRun = "#1f4f9c";
constexpr const char* kRun = "#7fa7e0";
constexpr const char* kBreak = "#9c4a00";
constexpr const char* kFallback = "#b01c1c";

std::string n(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

const char* fillOf(const char* state) {
  for (const Colour& c : kColours)
    if (std::string(c.state) == state) return c.fill;
  return "#9a9a9a";
}

/// A tick step of 1, 2 or 5 times a power of ten giving about eight ticks over `span`.
double tickStep(double span) {
  double raw = span / 8, p = std::pow(10.0, std::floor(std::log10(raw)));
  double m = raw / p;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

/// A lane: a frame, a frame known only from a fallback event, or the heading of a process
/// (when there are several).
struct Lane {
  size_t process;
  std::string label, title;
  const FrameView* frame = nullptr;  ///< null for a fallback-only lane and a heading
  std::vector<const Fallback*> fallbacks = {};
  bool heading = false;
};

/// "train (train.dsl:10) lines 11-12": the frame label, short enough for the label column
/// (the file without its folders, "lines" for "region lines"); the tooltip has it in full.
std::string laneLabel(const CompileRecord& c) {
  std::string label = frameLabel(c, true);
  if (size_t at = label.rfind(" region lines "); c.region && at != std::string::npos)
    label.replace(at, 14, " lines ");
  return label;
}

std::vector<Lane> lanesOf(const Trace& trace, const std::vector<FrameView>& frames) {
  std::vector<Lane> lanes;
  for (const FrameView& f : frames)
    lanes.push_back({f.process, laneLabel(*f.compiles.front()), f.label, &f});
  // Two compiled variants of one function (compile(f) and compile(f, dynamic = true)) share a
  // label: each says which frame it is.
  std::vector<bool> shared(lanes.size(), false);
  for (size_t i = 0; i < lanes.size(); ++i)
    for (size_t j = 0; j < lanes.size(); ++j)
      shared[i] = shared[i] || (i != j && lanes[i].process == lanes[j].process &&
                                lanes[i].label == lanes[j].label);
  for (size_t i = 0; i < lanes.size(); ++i)
    if (shared[i] && lanes[i].frame->compiles.front()->frameId >= 0)
      lanes[i].label += " [frame " + std::to_string(lanes[i].frame->compiles.front()->frameId) + "]";
  for (size_t p = 0; p < trace.processes.size(); ++p) {
    for (const Fallback& fb : trace.processes[p].fallbacks) {
      // The frame a fallback names: by frame_id when given, else by function name.
      auto it = std::find_if(lanes.begin(), lanes.end(), [&](const Lane& l) {
        if (l.process != p || !l.frame) return false;
        const CompileRecord& c = *l.frame->compiles.front();
        return fb.frameId >= 0 ? c.frameId == fb.frameId && c.region == fb.region
                               : c.frame == fb.frame;
      });
      if (it == lanes.end()) {
        lanes.push_back({p, fb.frame + " (fallback)", fb.frame});
        it = lanes.end() - 1;
      }
      it->fallbacks.push_back(&fb);
    }
  }
  std::stable_sort(lanes.begin(), lanes.end(),
                   [](const Lane& a, const Lane& b) { return a.process < b.process; });
  if (trace.processes.size() < 2) return lanes;
  std::vector<Lane> withHeadings;
  for (size_t i = 0; i < lanes.size(); ++i) {
    size_t p = lanes[i].process;
    if (i == 0 || lanes[i - 1].process != p) {
      const Process& proc = trace.processes[p];
      std::string title = processName(trace, p) + ": " + proc.fileName +
                          (proc.argv.empty() ? "" : ", " + proc.argv);
      withHeadings.push_back({p, processName(trace, p), title, nullptr, {}, true});
    }
    withHeadings.push_back(std::move(lanes[i]));
  }
  return withHeadings;
}

class Picture {
 public:
  Picture(const Trace& trace, std::ostream& out) : trace_(trace), out_(out) {
    for (const Process& p : trace.processes) endUs_ = std::max(endUs_, p.lastUs);
    if (endUs_ <= 0) endUs_ = 1;
  }

  void draw(const std::vector<Lane>& lanes) {
    double height = kTop + std::max<size_t>(lanes.size(), 1) * kLaneHeight + kAxisHeight;
    out_
        << "<svg id=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " << n(kWidth)
        << " " << n(height) << "\" width=\"" << n(kWidth) << "\" height=\"" << n(height)
        << "\" style=\"max-width:100%;height:auto\" role=\"img\" "
           "aria-labelledby=\"timeline-title\">"
        << "<title id=\"timeline-title\">Compiles and runs over time, one lane per frame</title>\n";
    legend();
    for (size_t i = 0; i < lanes.size(); ++i) lane(lanes, i);
    if (lanes.empty())
      out_ << "<text x=\"" << n(kLabelWidth) << "\" y=\"" << n(kTop + 16)
           << "\">no compiles</text>\n";
    axis(kTop + std::max<size_t>(lanes.size(), 1) * kLaneHeight);
    out_ << "</svg>\n";
  }

 private:
  const Trace& trace_;
  std::ostream& out_;
  double endUs_ = 0;

  double x(double tUs) const {
    return kLabelWidth + std::clamp(tUs / endUs_, 0.0, 1.0) * (kWidth - kLabelWidth - kRight);
  }

  std::string when(double tUs) const { return formatMs(tUs / 1000) + " ms"; }

  void legend() {
    double lx = kLabelWidth;
    auto entry = [&](const std::string& mark, const char* text, double width) {
      out_ << "<g class=\"legend\">" << mark << "<text x=\"" << n(lx + 14) << "\" y=\"20\">" << text
           << "</text></g>";
      lx += width;
    };
    for (const Colour& c : kColours)
      entry(
          "<rect x=\"" + n(lx) + "\" y=\"11\" width=\"10\" height=\"10\" fill=\"" + c.fill + "\"/>",
          c.legend, 30 + 6.2 * std::string(c.legend).size());
    entry(tick(lx + 5, 9, 23, kFirstRun, 2) + "/>", "first run", 72);
    entry(tick(lx + 5, 11, 21, kRun, 1.5) + "/>", "run (sampled)", 100);
    entry(breakMark(lx + 5, 11) + "/>", "graph break", 88);
    entry(fallbackMark(lx + 5, 16) + "/>", "fallback", 70);
    out_ << "\n";
  }

  static std::string tick(double x, double y0, double y1, const char* colour, double width) {
    return "<line x1=\"" + n(x) + "\" x2=\"" + n(x) + "\" y1=\"" + n(y0) + "\" y2=\"" + n(y1) +
           "\" stroke=\"" + colour + "\" stroke-width=\"" + n(width) + "\"";
  }

  static std::string breakMark(double x, double top) {
    return "<polygon points=\"" + n(x - 4.5) + "," + n(top) + " " + n(x + 4.5) + "," + n(top) +
           " " + n(x) + "," + n(top + 8) + "\" fill=\"" + kBreak + "\"";
  }

  static std::string fallbackMark(double x, double mid) {
    return "<polygon points=\"" + n(x) + "," + n(mid - 5) + " " + n(x + 5) + "," + n(mid) + " " +
           n(x) + "," + n(mid + 5) + " " + n(x - 5) + "," + n(mid) + "\" fill=\"" + kFallback +
           "\"";
  }

  /// A mark opened by one of the functions above, closed with its tooltip.
  void titled(const std::string& open, const std::string& title) {
    out_ << open << "><title>" << escapeHtml(title) << "</title></"
         << open.substr(1, open.find(' ') - 1) << ">";
  }

  void lane(const std::vector<Lane>& lanes, size_t i) {
    const Lane& l = lanes[i];
    double top = kTop + i * kLaneHeight, mid = top + kLaneHeight / 2;
    const char* fill = l.heading ? "#dde3ea" : i % 2 ? "#ffffff" : "#f5f5f2";
    out_ << "<g class=\"" << (l.heading ? "process" : "lane") << "\"><rect x=\"0\" y=\"" << n(top)
         << "\" width=\"" << n(kWidth) << "\" height=\"" << n(kLaneHeight) << "\" fill=\"" << fill
         << "\"/>";
    const std::string& label = l.label;
    std::string shown = label;
    if (shown.size() > kLabelChars) {  // cut at a character boundary of the UTF-8 text
      size_t cut = kLabelChars - 1;
      while (cut > 0 && (static_cast<unsigned char>(shown[cut]) & 0xC0) == 0x80) --cut;
      shown = shown.substr(0, cut) + "…";
    }
    out_ << "<text x=\"6\" y=\"" << n(mid + 4) << "\"" << (l.heading ? " font-weight=\"bold\"" : "")
         << ">" << escapeHtml(shown) << "<title>" << escapeHtml(l.title) << "</title></text>";
    if (l.frame)
      for (const CompileRecord* c : l.frame->compiles) compile(*c, l.process, top);
    for (const Fallback* fb : l.fallbacks)
      titled(fallbackMark(x(fb->tUs), mid),
             "fallback at " + when(fb->tUs) + ": " + fb->frame + " runs eagerly: " + fb->reason);
    out_ << "</g>\n";
  }

  void compile(const CompileRecord& c, size_t process, double top) {
    const char* state = compileState(c);
    double end = c.endUs.value_or(trace_.processes[process].lastUs);
    double x0 = x(c.startUs), width = std::max(2.0, x(end) - x0);
    std::string title = c.id + " " + c.frame + ": " + state + ", started at " + when(c.startUs);
    if (c.metrics.compileMs) title += ", compile " + formatMs(*c.metrics.compileMs) + " ms";
    if (!c.reason.empty()) title += "\nreason: " + c.reason;
    if (!c.error.empty()) title += "\n" + c.error;
    out_ << "<a href=\"#" << compileAnchor(process, c) << "\">";
    titled("<rect class=\"span " + std::string(state) + "\" x=\"" + n(x0) + "\" y=\"" + n(top + 4) +
               "\" width=\"" + n(width) + "\" height=\"" + n(kLaneHeight - 8) + "\" fill=\"" +
               fillOf(state) + "\"",
           title);
    out_ << "</a>";
    if (c.firstRunUs)
      titled(tick(x(*c.firstRunUs), top + 2, top + kLaneHeight - 2, kFirstRun, 2),
             c.id + " first run at " + when(*c.firstRunUs) +
                 (c.metrics.firstRunMs ? ": " + formatMs(*c.metrics.firstRunMs) + " ms" : ""));
    for (const auto& [t, calls] : c.runs)
      titled(tick(x(t), top + 6, top + kLaneHeight - 6, kRun, 1.5),
             c.id + " call " + std::to_string(calls) + " at " + when(t));
    for (const BreakRecord& b : c.breaks)
      titled(breakMark(x(b.tUs), top + 1), c.id + " graph break at " + when(b.tUs) + ": " +
                                               b.reason +
                                               (b.where.at.empty() ? "" : " at " + b.where.at));
  }

  void axis(double y) {
    double width = kWidth - kLabelWidth - kRight;
    out_ << "<g class=\"axis\"><line x1=\"" << n(kLabelWidth) << "\" x2=\""
         << n(kLabelWidth + width) << "\" y1=\"" << n(y) << "\" y2=\"" << n(y)
         << "\" stroke=\"#333\"/>";
    double spanMs = endUs_ / 1000, step = tickStep(spanMs);
    for (double t = 0; t <= spanMs * 1.0001; t += step) {
      double tx = x(t * 1000);
      out_ << "<line x1=\"" << n(tx) << "\" x2=\"" << n(tx) << "\" y1=\"" << n(y) << "\" y2=\""
           << n(y + 5) << "\" stroke=\"#333\"/><text x=\"" << n(tx) << "\" y=\"" << n(y + 17)
           << "\" text-anchor=\"middle\">" << formatMs(t) << "</text>";
    }
    out_ << "<text x=\"" << n(kLabelWidth + width) << "\" y=\"" << n(y + 33)
         << "\" text-anchor=\"end\">ms since the process opened its trace</text></g>\n";
  }
};

}  // namespace

void writeTimeline(const Trace& trace, const std::vector<FrameView>& frames, std::ostream& out) {
  out << "<section id=\"timeline-section\">\n<h2>Timeline</h2>\n<div class=\"timeline-box\">\n";
  Picture(trace, out).draw(lanesOf(trace, frames));
  out << "</div>\n</section>\n";
}

}  // namespace tessel::repl::report
