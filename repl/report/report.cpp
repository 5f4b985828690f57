// `tessel report`: arguments, reading the trace directory, writing the page (report.h).
#include "repl/report/report.h"

#include <fstream>

#include "repl/report/html.h"
#include "repl/report/trace.h"

namespace tessel::repl {

namespace {

const char* kReportUsage =
    "usage: tessel report DIR [-o FILE]\n"
    "\n"
    "Writes one self-contained HTML page (default report.html) from the compile traces\n"
    "DIR/*.jsonl written by `tessel --trace-dir DIR script.dsl`: a row per compile id with\n"
    "its reason, guards, graph, breaks, specializations and timings; each frame's similar\n"
    "graphs; the PGO state; and a timeline of compiles and runs.\n"
    "\n"
    "options:\n"
    "  -o FILE      where to write the page (default report.html)\n"
    "  -h, --help   show this help\n";

}  // namespace

int runReport(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  std::string dir, output = "report.html";
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-h" || a == "--help") {
      out << kReportUsage;
      return 0;
    }
    if (a == "-o" || a == "--output") {
      if (i + 1 == args.size()) {
        err << "tessel report: " << a << " needs a file name\n" << kReportUsage;
        return 2;
      }
      output = args[++i];
    } else if (a.rfind("-o", 0) == 0 && a.size() > 2) {
      output = a.substr(2);
    } else if (!a.empty() && a[0] == '-') {
      err << "tessel report: unknown option '" << a << "'\n" << kReportUsage;
      return 2;
    } else if (dir.empty()) {
      dir = a;
    } else {
      err << "tessel report: one trace directory expected, got '" << dir << "' and '" << a << "'\n"
          << kReportUsage;
      return 2;
    }
  }
  if (dir.empty()) {
    err << "tessel report: no trace directory given\n" << kReportUsage;
    return 2;
  }
  report::Trace trace;
  std::string error;
  if (!report::readTraceDir(dir, trace, error)) {
    err << "tessel report: " << error << "\n";
    return 1;
  }
  std::ofstream file(output, std::ios::binary | std::ios::trunc);
  if (file) report::writePage(trace, file);
  file.close();
  if (!file) {
    err << "tessel report: cannot write '" << output << "'\n";
    return 1;
  }
  out << "wrote " << output << " (" << trace.processes.size()
      << (trace.processes.size() == 1 ? " trace file" : " trace files");
  if (int64_t bad = trace.badLines())
    out << ", " << bad << (bad == 1 ? " line" : " lines") << " could not be read";
  out << ")\n";
  return 0;
}

}  // namespace tessel::repl
