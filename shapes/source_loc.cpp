// Thread-local current source location and ShapeEnv (the RAII scopes of source_loc.h).
#include "shapes/source_loc.h"

namespace tessel::shapes {

namespace {
const SourceLoc kUnknown{};
thread_local const SourceLoc* tCurrentLoc = &kUnknown;
thread_local ShapeEnv* tCurrentEnv = nullptr;
}  // namespace

std::string SourceLoc::toString() const {
  if (!known()) return "<unknown>";
  std::string s = (file.empty() ? "<input>" : file) + ":" + std::to_string(line);
  if (col > 0) s += ":" + std::to_string(col);
  return s;
}

const SourceLoc& currentSourceLoc() {
  return *tCurrentLoc;
}

ScopedSourceLoc::ScopedSourceLoc(SourceLoc loc) : loc_(std::move(loc)), prev_(tCurrentLoc) {
  tCurrentLoc = &loc_;
}
ScopedSourceLoc::ScopedSourceLoc(std::string file, int line, int col, std::string lineText)
    : ScopedSourceLoc(SourceLoc{std::move(file), line, col, std::move(lineText)}) {}
ScopedSourceLoc::~ScopedSourceLoc() {
  tCurrentLoc = prev_;
}

ShapeEnv* currentShapeEnv() {
  return tCurrentEnv;
}
ScopedShapeEnv::ScopedShapeEnv(ShapeEnv* env) : prev_(tCurrentEnv) {
  tCurrentEnv = env;
}
ScopedShapeEnv::~ScopedShapeEnv() {
  tCurrentEnv = prev_;
}

}  // namespace tessel::shapes
