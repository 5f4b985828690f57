// display(value): showing a value richly where the host can (Note [Rich display]).
#pragma once

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "interp/values/objects.h"

namespace tessel::interp {

class Interpreter;

// Note [Rich display]
// A host that can show more than text (the Jupyter kernel, kernel/) sets as the interpreter's
// output a RichOutput: an ostream print() writes to as to any other, which also takes whole
// values. display(v) hands v to it; anywhere else display prints v's repr on the output, as the
// REPL echoes it.
// What a host shows besides the repr comes from the rich forms registered here (the
// `_repr_html_` of Python's display protocol, for native values): each renders the values it
// knows in one MIME type. The kernel registers a tensor's HTML table; plots can register
// "image/svg+xml" for figures. The kernel puts every form a value has in its MIME bundle; the
// interpreter itself never calls them.
class RichOutput : public std::ostream {
 public:
  explicit RichOutput(std::streambuf* buffer) : std::ostream(buffer) {}
  /// Shows `value` (the kernel publishes a display_data message).
  virtual void display(const Value& value) = 0;
  /// Whether the host can show a text and later replace it in place (Jupyter's display_id):
  /// progress() then draws its bar there instead of writing lines (Note [Progress output]).
  virtual bool updatesDisplays() const { return false; }
  /// Shows `text` as the display named `id` when `first`, else replaces what `id` shows.
  virtual void showUpdatable(const std::string& /*id*/, const std::string& /*text*/,
                             bool /*first*/) {}
};

/// Renders `value` in a MIME type, or nullopt when this form does not apply to it.
using RichRender = std::function<std::optional<std::string>(Interpreter&, const Value&)>;

/// Registers (or, for a `name` already registered, replaces) a rich form. Thread-safe.
void registerRichForm(const std::string& name, const std::string& mimeType, RichRender render);

/// The (MIME type, text) of each registered form that renders `value`, in registration order.
std::vector<std::pair<std::string, std::string>> richForms(Interpreter& interp, const Value& value);

/// Adds display() to the prelude.
void registerDisplayBuiltins(ModuleObj& prelude);

}  // namespace tessel::interp
