// ShapeEnv: float inputs of a compiled function, their specializations and guards
// (Note [Symbolic floats] in sym_float.h).
#include "shapes/shape_env.h"

#include "shapes/expr.h"
#include "shapes/expr_print.h"
#include "shapes/poly_bound.h"
#include "shapes/shape_env_caches.h"
#include "shapes/solver.h"

namespace tessel::shapes {

// ---- float inputs ----------------------------------------------------------------------------

SymFloat ShapeEnv::createFloatInput(std::string source, double hint) {
  auto index = static_cast<uint32_t>(floatInputs_.size());
  log("create_symbol f" + std::to_string(index) + " = " + SymFloat(hint).toString() + " for " +
      source + " (a float input)" + currentSourceLoc().logSuffix());
  floatInputs_.push_back({std::move(source), hint, false});
  return SymFloat::input(index, hint);
}

std::vector<std::string> ShapeEnv::floatInputNames() const {
  std::vector<std::string> names;
  for (const FloatInput& f : floatInputs_) names.push_back(f.source);
  return names;
}

void ShapeEnv::specializeFloat(uint32_t index) {
  FloatInput& f = floatInputs_.at(index);
  if (f.specialized) return;
  f.specialized = true;
  ++stats_.specializations;
  ++version_;
  log("specialize " + f.source + " == " + SymFloat(f.hint).toString() +
      currentSourceLoc().logSuffix());
}

bool ShapeEnv::guardFloatCompare(uint32_t input, FloatCmp cmp, double constant) {
  const FloatInput& f = floatInputs_.at(input);
  const bool outcome = compareFloats(cmp, f.hint, constant);
  // The guard states the outcome that held, as a size guard states the branch taken.
  static const FloatCmp negated[] = {FloatCmp::Ne, FloatCmp::Eq, FloatCmp::Ge,
                                     FloatCmp::Gt, FloatCmp::Le, FloatCmp::Lt};
  const FloatCmp held = outcome ? cmp : negated[static_cast<int>(cmp)];
  std::string text = f.source + " " + floatCmpName(held) + " " + SymFloat(constant).toString();
  log("eval float " + text + " [guard added]" + currentSourceLoc().logSuffix());
  floatGuards_.push_back({input, cmp, constant, outcome, std::move(text)});
  ++version_;
  return outcome;
}

void ShapeEnv::noteFloatSpecialized(const std::string& text, double value) {
  log("eval float " + text + " = " + SymFloat(value).toString() +
      " [its value was needed: its sizes and float inputs are specialized]" +
      currentSourceLoc().logSuffix());
}

}  // namespace tessel::shapes
