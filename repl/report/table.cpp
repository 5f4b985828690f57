// The compile table of `tessel report`: one row per compile id, in time order, with its
// reason, symbols and guards, graph, breaks, specializations and metrics.
#include <algorithm>

#include "repl/report/html.h"

namespace tessel::repl::report {

namespace {

/// Lists longer than this fold into <details>, so one compile with many guards does not push
/// every other row off the screen.
constexpr size_t kOpenListItems = 6;

/// The user line of a record: "f.dsl:6:8: if x.shape[0] <= 30 {".
void writeSourceLine(const SourceLine& where, std::ostream& out) {
  out << "<div class=\"at\">";
  if (where.at.empty()) {
    out << "(no user line)";
  } else {
    out << "at <span title=\"" << escapeHtml(where.at) << "\">"
        << escapeHtml(withoutFolders(where.at)) << "</span>";
    if (!where.code.empty()) out << ": <code>" << escapeHtml(where.code) << "</code>";
  }
  out << "</div>";
}

/// A list of items, folded when long; `item` writes one <li>'s content.
template <typename T, typename F>
void writeList(const std::vector<T>& items, const char* what, std::ostream& out, F item) {
  if (items.empty()) return;
  bool fold = items.size() > kOpenListItems;
  if (fold) out << "<details><summary>" << items.size() << " " << what << "</summary>";
  out << "<ul class=\"" << what << "\">";
  for (const T& i : items) {
    out << "<li>";
    item(i);
    out << "</li>";
  }
  out << "</ul>";
  if (fold) out << "</details>";
}

void writeIdCell(const Trace& trace, size_t p, const CompileRecord& c, std::ostream& out) {
  out << "<td class=\"id\"><a href=\"#" << compileAnchor(p, c) << "\"><b>" << escapeHtml(c.id)
      << "</b></a><div class=\"muted\">" << compileState(c) << "</div>";
  if (trace.processes.size() > 1)
    out << "<div class=\"muted\">" << escapeHtml(processName(trace, p)) << "</div>";
  out << "</td>";
}

void writeReasonCell(const CompileRecord& c, std::ostream& out) {
  out << "<td>";
  if (!c.reason.empty())
    out << "<code>" << escapeHtml(c.reason) << "</code>";
  else
    out << "<span class=\"muted\">" << (c.recompile ? "recompile" : "first compile") << "</span>";
  out << "</td>";
}

void writeGuardsCell(const CompileRecord& c, std::ostream& out) {
  out << "<td>";
  writeList(c.symbols, "symbols", out, [&](const SymbolRecord& s) {
    out << "<code>" << escapeHtml(s.symbol) << "</code> ";
    if (s.unbacked)
      out << "unbacked";
    else
      out << "= <code>" << escapeHtml(s.source) << "</code> hint " << escapeHtml(s.hint);
    if (!s.range.empty()) out << " <span class=\"muted\">" << escapeHtml(s.range) << "</span>";
    writeSourceLine(s.where, out);
  });
  writeList(c.guards, "guards", out, [&](const GuardRecord& g) {
    out << "<code>" << escapeHtml(g.text) << "</code> <span class=\"muted\">" << escapeHtml(g.kind)
        << "</span>";
    writeSourceLine(g.where, out);
  });
  if (c.symbols.empty() && c.guards.empty()) out << "<span class=\"muted\">none</span>";
  out << "</td>";
}

void writeGraphCell(const CompileRecord& c, std::ostream& out) {
  out << "<td class=\"graph\">";
  if (c.graph) {
    const GraphRecord& g = *c.graph;
    out << "<details><summary>" << g.nodes << (g.nodes == 1 ? " node, " : " nodes, ") << g.inputs
        << " in, " << g.outputs << " out";
    if (!g.backend.empty()) out << ", " << escapeHtml(g.backend);
    out << "</summary><pre>" << escapeHtml(g.code) << "</pre></details>";
  } else if (c.broke) {
    out << "<span class=\"muted\">none: the trace broke</span>";
  } else if (!c.endUs) {
    out << "<span class=\"muted\">none: no compile_end</span>";
  }
  if (c.endUs && !c.ok && !c.error.empty())
    out << "<div class=\"error-text\">" << escapeHtml(c.error) << "</div>";
  out << "</td>";
}

void writeBreaksCell(const CompileRecord& c, std::ostream& out) {
  out << "<td>";
  writeList(c.breaks, "breaks", out, [&](const BreakRecord& b) {
    out << escapeHtml(b.reason);
    if (!b.kind.empty()) out << " <span class=\"muted\">" << escapeHtml(b.kind) << "</span>";
    writeSourceLine(b.where, out);
  });
  out << "</td>";
}

void writeSpecializationsCell(const CompileRecord& c, std::ostream& out) {
  out << "<td>";
  writeList(c.specializations, "specializations", out, [&](const SpecializationRecord& s) {
    out << "<code>" << escapeHtml(s.symbol) << "</code>";
    if (!s.source.empty()) out << " (<code>" << escapeHtml(s.source) << "</code>)";
    out << " = <b>" << escapeHtml(s.value) << "</b>";
    if (!s.reason.empty()) out << " by <code>" << escapeHtml(s.reason) << "</code>";
    writeSourceLine(s.where, out);
  });
  out << "</td>";
}

void writeMetricsCell(const CompileRecord& c, std::ostream& out) {
  const CompileMetrics& m = c.metrics;
  out << "<td class=\"metrics\">";
  auto ms = [&](const char* name, const std::optional<double>& v) {
    if (v) out << "<div>" << name << " " << formatMs(*v) << " ms</div>";
  };
  ms("compile", m.compileMs);
  ms("trace", m.traceMs);
  ms("solver", m.solverMs);
  if (m.solverQueries) out << "<div>solver queries " << *m.solverQueries << "</div>";
  ms("codegen", m.codegenMs);
  ms("first run", m.firstRunMs);
  if (!c.runs.empty()) out << "<div>runs &ge; " << c.runs.back().second << "</div>";
  out << "</td>";
}

}  // namespace

void writeCompileTable(const Trace& trace, std::ostream& out) {
  out << "<section id=\"compiles\">\n<h2>Compiles</h2>\n";
  // A wide table (long guards, graphs) scrolls inside its box instead of widening the page.
  out << "<div class=\"table-box\">\n<table class=\"compiles\">\n<thead><tr><th>id</th><th>frame</th><th>recompile "
         "reason</th><th>symbols and guards</th><th>graph</th><th>graph breaks</th>"
         "<th>specializations</th><th>metrics</th></tr></thead>\n<tbody>\n";
  size_t rows = 0;
  for (size_t p = 0; p < trace.processes.size(); ++p) {
    std::vector<const CompileRecord*> compiles;
    for (const CompileRecord& c : trace.processes[p].compiles) compiles.push_back(&c);
    std::stable_sort(compiles.begin(), compiles.end(),
                     [](auto* a, auto* b) { return a->startUs < b->startUs; });
    for (const CompileRecord* c : compiles) {
      out << "<tr id=\"" << compileAnchor(p, *c) << "\" class=\"compile " << compileState(*c)
          << "\" data-id=\"" << escapeHtml(c->id) << "\">";
      writeIdCell(trace, p, *c, out);
      out << "<td class=\"frame\" title=\"" << escapeHtml(frameLabel(*c)) << "\">"
          << escapeHtml(frameLabel(*c, true)) << "</td>";
      writeReasonCell(*c, out);
      writeGuardsCell(*c, out);
      writeGraphCell(*c, out);
      writeBreaksCell(*c, out);
      writeSpecializationsCell(*c, out);
      writeMetricsCell(*c, out);
      out << "</tr>\n";
      ++rows;
    }
  }
  if (rows == 0)
    out << "<tr><td colspan=\"8\" class=\"muted\">no compiles in this trace</td></tr>\n";
  out << "</tbody>\n</table>\n</div>\n</section>\n";
}

}  // namespace tessel::repl::report
