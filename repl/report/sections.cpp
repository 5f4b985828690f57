// The per-frame view (similar graphs, seed 002 "Compare Graphs") and the PGO view of
// `tessel report`.
#include "repl/report/html.h"
#include "repl/report/pgo.h"

namespace tessel::repl::report {

namespace {

std::string seenText(const SourceSeen& s) {
  if (!s.known) return "—";
  if (!s.dynamic) return s.value;
  return s.symbol + " (dynamic, hint " + (s.value.empty() ? "?" : s.value) + ")";
}

void writeGroup(const Trace& trace, const FrameView& frame, const SimilarGroup& g,
                std::ostream& out) {
  out << "<div class=\"group\"><p>" << escapeHtml(g.summary()) << "</p>";
  if (!g.varying.empty()) {
    out << "<table class=\"varying\"><thead><tr><th>source</th>";
    for (const CompileRecord* c : g.members)
      out << "<th><a href=\"#" << compileAnchor(frame.process, *c) << "\">"
          << escapeHtml(compileName(trace, frame.process, *c)) << "</a></th>";
    out << "</tr></thead><tbody>";
    for (const VaryingSource& v : g.varying) {
      out << "<tr><td><code>" << escapeHtml(v.source) << "</code></td>";
      for (const SourceSeen& s : v.seen) out << "<td>" << escapeHtml(seenText(s)) << "</td>";
      out << "</tr>";
    }
    out << "</tbody></table>";
    out << "<pre class=\"dynamic-sources\">" << escapeHtml(g.dynamicSourcesLine()) << "</pre>";
  }
  out << "</div>\n";
}

std::string counted(int64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

void writeFrameSummary(const FrameSummary& s, std::ostream& out) {
  out << "<p class=\"muted\">at exit: " << counted(s.compiles, "compile", "compiles") << ", "
      << counted(s.cacheHits, "cache hit", "cache hits") << ", "
      << counted(s.cacheMisses, "cache miss", "cache misses") << ", "
      << counted(s.recompiles, "recompile", "recompiles") << ", "
      << counted(s.graphBreaks, "graph break", "graph breaks") << ", "
      << counted(s.fallbacks, "fallback", "fallbacks") << "</p>\n";
}

void writePgoLoad(const PgoLoad& l, std::ostream& out) {
  // The heading reads like tlparse's code state: file:line:function.
  out << "<h3>" << escapeHtml(l.file + ":" + std::to_string(l.line) + ":" + l.frame)
      << "</h3>\n<p class=\"muted\">loaded from <code>" << escapeHtml(l.path) << "</code> at "
      << formatMs(l.tUs / 1000) << " ms</p>\n<pre class=\"pgo-state\">";
  for (const std::string& line : renderPgoSources(l.sources)) out << escapeHtml(line) << "\n";
  out << "</pre>\n";
  std::string line = dynamicSourcesAssignment(dynamicSourceNames(l.sources));
  if (!line.empty())
    out << "<p>To make these dynamic from the first compile without a profile:</p>"
           "<pre class=\"dynamic-sources\">"
        << escapeHtml(line) << "</pre>\n";
}

}  // namespace

void writeFrames(const Trace& trace, const std::vector<FrameView>& frames, std::ostream& out) {
  out << "<section id=\"frames\">\n<h2>Frames</h2>\n<p class=\"muted\">Each frame's compiles; "
         "graphs with the same ops over the same number of inputs but different sizes are "
         "grouped: they could be one dynamic graph.</p>\n";
  if (frames.empty()) out << "<p class=\"muted\">no frames compiled</p>\n";
  for (const FrameView& f : frames) {
    out << "<div class=\"frame\"><h3>" << escapeHtml(f.label);
    if (trace.processes.size() > 1)
      out << " <span class=\"muted\">" << escapeHtml(processName(trace, f.process)) << "</span>";
    out << "</h3>\n<p>" << f.compiles.size()
        << (f.compiles.size() == 1 ? " compile: " : " compiles: ");
    for (size_t i = 0; i < f.compiles.size(); ++i)
      out << (i ? ", " : "") << "<a href=\"#" << compileAnchor(f.process, *f.compiles[i]) << "\">"
          << escapeHtml(f.compiles[i]->id) << "</a>";
    out << "</p>\n";
    if (f.summary) writeFrameSummary(*f.summary, out);
    std::vector<SimilarGroup> groups = similarGroups(f);
    for (const SimilarGroup& g : groups) writeGroup(trace, f, g, out);
    if (groups.empty() && f.compiles.size() > 1)
      out << "<p class=\"muted\">No two graphs of this frame have the same ops.</p>\n";
    out << "</div>\n";
  }
  out << "</section>\n";
}

void writePgo(const Trace& trace, std::ostream& out) {
  out << "<section id=\"pgo\">\n<h2>PGO</h2>\n";
  bool any = false;
  for (size_t i = 0; i < trace.processes.size(); ++i) {
    const Process& p = trace.processes[i];
    if (p.pgoLoads.empty() && p.pgoSaves.empty() && p.pgoIgnored.empty()) continue;
    any = true;
    if (trace.processes.size() > 1) out << "<h3>" << escapeHtml(processName(trace, i)) << "</h3>\n";
    for (const PgoLoad& l : p.pgoLoads) writePgoLoad(l, out);
    for (const PgoNote& n : p.pgoIgnored)
      out << "<p class=\"warning\">ignored the profile <code>" << escapeHtml(n.path)
          << "</code>: " << escapeHtml(n.detail) << "</p>\n";
    for (const PgoNote& n : p.pgoSaves)
      out << "<p>saved <code>" << escapeHtml(n.path) << "</code> (" << escapeHtml(n.detail)
          << " frames) at " << formatMs(n.tUs / 1000) << " ms</p>\n";
  }
  if (!any)
    out << "<p class=\"muted\">No profile was loaded or saved (config.pgo = false, "
           "TESSEL_PGO=0, or a program that compiled nothing).</p>\n";
  out << "</section>\n";
}

}  // namespace tessel::repl::report
