// Formatting values with Python's format-spec mini-language: f-string fields, `format(v,
// spec)` and `str.format` (language.md, "Strings").
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "interp/values/value.h"

namespace tessel::interp {

/// `v` formatted by `spec` (`[[fill]align][sign][#][0][width][,|_][.precision][type]`; types
/// `s d b o x X c e E f F g G %`). An empty spec is str(v). A one-element tensor formats as its
/// item when the spec is not empty, as in PyTorch. Bad specs are ValueErrors, values that take
/// no spec TypeErrors.
std::string formatValue(const Value& v, std::string_view spec);

/// `template.format(positional..., name = value...)`: fields `{}`, `{0}`, `{name}`, each with
/// an optional `!r`/`!s` and `:spec`; `{{` and `}}` are braces.
std::string formatTemplate(std::string_view tmpl, std::span<const Value> positional,
                           std::span<const std::string> names, std::span<const Value> named);

}  // namespace tessel::interp
