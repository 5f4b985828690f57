// Compiler logs (compiler.md, "Observing the compiler"): TESSEL_LOGS / --logs categories,
// written to stderr with the `[frame/compile]` id of the compile they belong to.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tessel::interp {

#define TESSEL_LOG_CATEGORIES(X) \
  X(Recompiles, "recompiles")    \
  X(Guards, "guards")            \
  X(Dynamic, "dynamic")          \
  X(DynamicVerbose, "+dynamic")  \
  X(GraphBreaks, "graph_breaks") \
  X(GraphCode, "graph_code")     \
  X(Perf, "perf")

enum class LogCategory : uint8_t {
#define TESSEL_X(e, name) e,
  TESSEL_LOG_CATEGORIES(TESSEL_X)
#undef TESSEL_X
};

/// Which categories are on. `+dynamic` implies `dynamic`.
class CompileLog {
 public:
  /// Parses "recompiles,guards,+dynamic"; unknown names are reported on stderr once.
  void configure(std::string_view spec);
  bool on(LogCategory c) const { return (mask_ >> static_cast<int>(c)) & 1; }
  bool any() const { return mask_ != 0; }
  /// Writes "[frame/compile] text" to stderr when `c` is on.
  void write(LogCategory c, int frame, int compile, std::string_view text) const;

 private:
  uint32_t mask_ = 0;
};

}  // namespace tessel::interp
