// Tab completion for the REPL: names in scope (keywords, the prelude, the session's globals),
// attributes after a dot (module globals, methods of lists, dicts, strings and tensors, tensor
// properties), the keys of a dict inside `d["`, and `:` command names.
#pragma once

#include <tessel/tessel.h>

#include <string>
#include <string_view>
#include <vector>

#include "repl/line_editor.h"

namespace tessel::repl {

/// Completions for the text before the cursor. Only values already bound are inspected and
/// nothing is evaluated, so completing never runs user code.
Completion completeInput(const Interpreter& vm, std::string_view beforeCursor);

/// What help() prints for the dotted name at byte `cursor` of `text` (the cursor in or just
/// after it), or for the function whose call's '(' is just before the cursor; "" when no bound
/// name is there. Like completion it runs no code. The Jupyter kernel's inspect_request shows it.
std::string helpAtCursor(const Interpreter& vm, std::string_view text, size_t cursor);

}  // namespace tessel::repl
