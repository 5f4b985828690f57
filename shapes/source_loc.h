// Thread-local tracing context: the current ShapeEnv and the current source location, set by
// RAII scopes so shape rules and the evaluator need not pass them around.
#pragma once

#include <string>

namespace tessel::shapes {

class ShapeEnv;

/// Where a guard, specialization or symbol came from (the user's program).
struct SourceLoc {
  std::string file;      ///< script path as the user wrote it ("f.dsl"); empty if unknown
  int line = 0;          ///< 1-based; 0 if unknown
  int col = 0;           ///< 1-based; 0 if unknown
  std::string lineText;  ///< the source line, for "at f.dsl:6:8: if x.shape[0] <= 30 {"
  bool known() const { return line > 0; }
  /// "f.dsl:6:8" (or "<unknown>").
  std::string toString() const;
  /// " at f.dsl:6:8: if x.shape[0] <= 30 {" for a log line; empty when unknown.
  std::string logSuffix() const {
    if (!known()) return "";
    std::string s = " at " + toString();
    if (!lineText.empty()) s += ": " + lineText;
    return s;
  }
};

/// The location guards recorded on this thread are attributed to (empty SourceLoc if none).
const SourceLoc& currentSourceLoc();

/// Sets the current source location for its lifetime (the interpreter installs one per
/// statement/expression it evaluates); nests and restores the previous one.
class ScopedSourceLoc {
 public:
  explicit ScopedSourceLoc(SourceLoc loc);
  ScopedSourceLoc(std::string file, int line, int col, std::string lineText = {});
  ~ScopedSourceLoc();
  ScopedSourceLoc(const ScopedSourceLoc&) = delete;
  ScopedSourceLoc& operator=(const ScopedSourceLoc&) = delete;

 private:
  SourceLoc loc_;
  const SourceLoc* prev_;
};

/// The ShapeEnv installed by the tracer on this thread, or nullptr (eager execution).
ShapeEnv* currentShapeEnv();

/// Installs env as the current ShapeEnv for its lifetime (nests).
class ScopedShapeEnv {
 public:
  explicit ScopedShapeEnv(ShapeEnv* env);
  ~ScopedShapeEnv();
  ScopedShapeEnv(const ScopedShapeEnv&) = delete;
  ScopedShapeEnv& operator=(const ScopedShapeEnv&) = delete;

 private:
  ShapeEnv* prev_;
};

}  // namespace tessel::shapes
