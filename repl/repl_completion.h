// Tab completion for the REPL: names in scope (keywords, the prelude, the session's globals),
// attributes after a dot (module globals, methods of lists, dicts, strings and tensors, tensor
// properties), and `:` command names.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "repl/line_editor.h"

namespace tessel::interp {
class Interpreter;
class Value;
}  // namespace tessel::interp

namespace tessel::repl {

/// Completions for the text before the cursor. Only values already bound are inspected and
/// nothing is evaluated, so completing never runs user code.
Completion completeInput(interp::Interpreter& interp, std::string_view beforeCursor);

/// The attribute names `value.` offers, sorted.
std::vector<std::string> attributeNames(const interp::Value& value);

}  // namespace tessel::repl
