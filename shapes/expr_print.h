// Printing expressions with a caller-chosen name per symbol (symbol names or source names).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "shapes/sym_int.h"

namespace tessel::shapes {

using SymbolNamer = std::function<std::string(uint32_t symbol)>;
/// "2*s0 + 1", "s0 <= 30", "x.shape[0] >= 2" (with a namer returning sources).
std::string exprToString(Expr e, const SymbolNamer& name);

}  // namespace tessel::shapes
