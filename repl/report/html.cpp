// The page skeleton of `tessel report`: head, style, summary header, the sections, script.
#include "repl/report/html.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <set>

namespace tessel::repl::report {

namespace {

// Inline on purpose: the page is one file that opens anywhere, offline.
const char* kStyle = R"css(
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.5em; margin: 0 0 .3em; }
h2 { font-size: 1.2em; margin-top: 1.6em; border-bottom: 1px solid #ccc; }
h3 { font-size: 1em; margin: 1.2em 0 .3em; }
code, pre { font: 12px/1.35 ui-monospace, monospace; }
pre { background: #f6f6f4; padding: .5em; overflow-x: auto; margin: .2em 0; }
nav a { margin-right: 1em; }
.summary { display: flex; flex-wrap: wrap; gap: .6em 1.6em; margin: .6em 0; }
.stat b { font-size: 1.3em; }
.warning { color: #a33; font-weight: bold; }
.muted { color: #777; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid #ddd; padding: 4px 6px; vertical-align: top; text-align: left; }
th { background: #f0f0ee; position: sticky; top: 0; }
tr.compile.break td:first-child { border-left: 4px solid #e0952b; }
tr.compile.error td:first-child { border-left: 4px solid #d64545; }
tr.compile.ok td:first-child { border-left: 4px solid #3a9a5b; }
tr.compile.unfinished td:first-child { border-left: 4px solid #999; }
tr:target { background: #fff7d6; }
td ul { margin: 0; padding-left: 1.1em; }
td li { margin-bottom: .25em; }
.at { color: #555; font-size: 12px; }
td { overflow-wrap: anywhere; }
td.id, td.metrics { white-space: nowrap; }
td.frame { min-width: 11em; }
.error-text { color: #b22; }
.group { border-left: 3px solid #7a9cc6; padding-left: .8em; margin: .6em 0; }
.timeline-box { overflow-x: auto; }
.table-box { overflow-x: auto; max-width: 100%; }
svg text { font: 11px system-ui, sans-serif; fill: #333; }
)css";

// After load: marks the page rendered and records the laid-out width of the timeline, so a
// headless browser's dumped DOM shows both (tests/repl/report_test.cpp). Nothing else needs
// script: sections are plain HTML and graphs fold with <details>.
const char* kScript = R"js(
window.addEventListener('load', function () {
  var svg = document.getElementById('timeline');
  var width = svg ? svg.getBoundingClientRect().width : 0;
  document.body.dataset.timelineWidth = String(Math.round(width));
  document.body.dataset.rendered = '1';
});
)js";

void stat(std::ostream& out, const char* id, double value, const std::string& what) {
  out << "<span class=\"stat\" id=\"stat-" << id << "\"><b>" << formatMs(value) << "</b> " << what
      << "</span>\n";
}

void stat(std::ostream& out, const char* id, int64_t value, const std::string& one,
          const std::string& many) {
  out << "<span class=\"stat\" id=\"stat-" << id << "\"><b>" << value << "</b> "
      << (value == 1 ? one : many) << "</span>\n";
}

void writeHeader(const Trace& trace, const std::vector<FrameView>& frames, std::ostream& out) {
  int64_t compiles = 0, breaks = 0, failed = 0, fallbacks = 0;
  double compileMs = 0;
  for (const Process& p : trace.processes) {
    fallbacks += static_cast<int64_t>(p.fallbacks.size());
    for (const CompileRecord& c : p.compiles) {
      ++compiles;
      breaks += static_cast<int64_t>(c.breaks.size());
      failed += c.endUs && !c.ok && !c.broke;
      compileMs += c.metrics.compileMs.value_or(0);
    }
  }
  out << "<header>\n<h1>Tessel compile report</h1>\n<div class=\"summary\">\n";
  stat(out, "processes", static_cast<int64_t>(trace.processes.size()), "process (file)",
       "processes (files)");
  // Frames as the producer counts them (frame ids); the regions of a function with graph
  // breaks share its id but are views of their own below.
  std::set<std::pair<size_t, std::string>> frameIds;
  int64_t regions = 0;
  for (const FrameView& f : frames) {
    const CompileRecord& c = *f.compiles.front();
    frameIds.insert({f.process, c.frameId >= 0
                                    ? std::to_string(c.frameId)
                                    : c.frame + "@" + c.file + ":" + std::to_string(c.line)});
    regions += c.region.has_value();
  }
  stat(out, "frames", static_cast<int64_t>(frameIds.size()), "frame", "frames");
  if (regions) stat(out, "regions", regions, "region", "regions");
  stat(out, "compiles", compiles, "compile", "compiles");
  stat(out, "breaks", breaks, "graph break", "graph breaks");
  stat(out, "failed", failed, "failed compile", "failed compiles");
  stat(out, "fallbacks", fallbacks, "fallback", "fallbacks");
  stat(out, "compile-ms", compileMs, "ms compiling");
  out << "</div>\n";
  if (int64_t bad = trace.badLines())
    out << "<p class=\"warning\" id=\"bad-lines\">" << bad << (bad == 1 ? " line" : " lines")
        << " could not be read (not JSON, or no event)</p>\n";
  out << "<ul class=\"processes\">\n";
  for (size_t i = 0; i < trace.processes.size(); ++i) {
    const Process& p = trace.processes[i];
    out << "<li><code>" << escapeHtml(p.fileName)
        << "</code>: " << escapeHtml(processName(trace, i));
    if (!p.argv.empty()) out << ", <code>" << escapeHtml(p.argv) << "</code>";
    if (!p.wallTime.empty()) out << ", started " << escapeHtml(p.wallTime);
    if (!p.cwd.empty()) out << " in <code>" << escapeHtml(p.cwd) << "</code>";
    out << ", " << formatMs(p.lastUs / 1000) << " ms traced";
    if (!p.ended) out << " <span class=\"warning\">(no end event: killed, or still running)</span>";
    out << "</li>\n";
  }
  out << "</ul>\n<nav><a href=\"#timeline-section\">Timeline</a><a href=\"#compiles\">Compiles</a>"
         "<a href=\"#frames\">Frames</a><a href=\"#pgo\">PGO</a></nav>\n</header>\n";
}

}  // namespace

std::string formatMs(double ms) {
  char buf[32];
  double mag = ms < 0 ? -ms : ms;
  std::snprintf(buf, sizeof buf,
                mag >= 100 ? "%.0f"
                : mag >= 1 ? "%.1f"
                : mag > 0  ? "%.3f"
                           : "%.0f",
                ms);
  return buf;
}

std::string compileAnchor(size_t process, const CompileRecord& c) {
  std::string id = c.id;
  for (char& ch : id)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '-';
  return "c-" + std::to_string(process) + "-" + id;
}

const char* compileState(const CompileRecord& c) {
  if (!c.endUs) return "unfinished";
  if (c.broke) return "break";
  return c.ok ? "ok" : "error";
}

std::string processName(const Trace& trace, size_t process) {
  const Process& p = trace.processes[process];
  std::string pid = "pid " + std::to_string(p.pid);
  bool ranks = std::any_of(trace.processes.begin(), trace.processes.end(),
                           [](const Process& q) { return q.rank.value_or(0) > 0; });
  return ranks && p.rank ? "rank " + std::to_string(*p.rank) + " (" + pid + ")" : pid;
}

std::string compileName(const Trace& trace, size_t process, const CompileRecord& c) {
  if (trace.processes.size() < 2) return c.id;
  return c.id + " (" + processName(trace, process) + ")";
}

void writePage(const Trace& trace, std::ostream& out) {
  std::vector<FrameView> frames = framesOf(trace);
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<title>Tessel compile report</title>\n<style>"
      << kStyle << "</style>\n</head>\n<body>\n";
  writeHeader(trace, frames, out);
  writeTimeline(trace, frames, out);
  writeCompileTable(trace, out);
  writeFrames(trace, frames, out);
  writePgo(trace, out);
  out << "<script>" << kScript << "</script>\n</body>\n</html>\n";
}

}  // namespace tessel::repl::report
