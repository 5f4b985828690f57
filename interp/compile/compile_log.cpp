// Parsing TESSEL_LOGS and writing log lines.
#include "interp/compile/compile_log.h"

#include <iostream>

namespace tessel::interp {

void CompileLog::configure(std::string_view spec) {
  mask_ = 0;
  size_t start = 0;
  while (start <= spec.size()) {
    size_t comma = spec.find(',', start);
    std::string_view name = spec.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    if (!name.empty()) {
      bool found = false;
#define TESSEL_X(e, n)                               \
  if (name == n) {                                   \
    mask_ |= 1u << static_cast<int>(LogCategory::e); \
    found = true;                                    \
  }
      TESSEL_LOG_CATEGORIES(TESSEL_X)
#undef TESSEL_X
      if (!found)
        std::cerr
            << "tessel: unknown log category '" << name
            << "' (known: recompiles, guards, dynamic, +dynamic, graph_breaks, graph_code, perf)\n";
    }
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  if (on(LogCategory::DynamicVerbose)) mask_ |= 1u << static_cast<int>(LogCategory::Dynamic);
}

void CompileLog::write(LogCategory c, int frame, int compile, std::string_view text) const {
  if (!on(c)) return;
  std::string prefix = "[" + std::to_string(frame) + "/" + std::to_string(compile) + "] ";
  // Multi-line texts (graph code) get the prefix on every line, so logs stay greppable.
  size_t start = 0;
  std::string out;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    out += prefix;
    out += text.substr(start, nl - start);
    out += '\n';
    start = nl + 1;
  }
  std::cerr << out;
  std::cerr.flush();
}

}  // namespace tessel::interp
