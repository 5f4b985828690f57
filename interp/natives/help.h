// The documentation of the built-ins (Note [One source of docs]): what help() prints, what
// dir() lists, what the REPL's completion offers and docs/reference.md, all read from the
// entries of interp/natives/docs/*.txt and the comments above stdlib functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "interp/values/value.h"

namespace tessel::interp {

class Interpreter;
struct ModuleObj;

/// One documented name: `key` ("print", "str.strip", "tensor.shape", "math.sqrt"), its
/// signature line as written ("print(*values, sep = \" \", ...)"), its description, and the
/// section of the docs it is in ("Strings").
struct DocEntry {
  std::string key;
  std::string signature;
  std::string text;
  std::string section;
  std::string sectionIntro;  // the section's paragraph (the same for its every entry)
};

/// Every entry of the docs, in their order (sections in file order).
const std::vector<DocEntry>& builtinDocs();
/// The entry for `key`, or nullptr. A tensor method `tensor.name` without an entry of its own
/// is documented by the function `name` (the same native, the tensor as first argument).
const DocEntry* findDoc(std::string_view key);

/// The names dir(v) lists: a module's public members, or the methods and attributes of v's type.
std::vector<std::string> attributeNames(const Value& v);

/// The doc key of a value (a built-in, a method bound to a receiver, a module, a stdlib
/// function), or "" when it has none.
std::string docKey(const Value& v);

/// The comment block above a function written in Tessel (its docstring), "" if none.
std::string functionComment(Interpreter& interp, const Value& function);

/// What help(v) prints.
std::string helpText(Interpreter& interp, const Value& v);

/// One line about `name` (a global when `owner` is null, else an attribute of *owner): its
/// signature and the first sentence of its doc, "" when it has none. The REPL shows it when Tab
/// finds one complete name. Looks only at bound values, so it runs no code.
std::string docLine(Interpreter& interp, const Value* owner, const std::string& name);

/// Every name the docs must cover, as doc keys: the prelude, the members of the built-in
/// modules, the public functions of the stdlib modules and the methods and attributes of
/// each type. A name here without a doc fails the docs test.
std::vector<std::string> documentableNames(Interpreter& interp);
/// Whether `key` has documentation (an entry, or a stdlib function's comment).
bool isDocumented(Interpreter& interp, const std::string& key);

/// docs/reference.md: every documentable name with its signature and description.
std::string referenceMarkdown(Interpreter& interp);

/// Adds help() and dir() to the prelude.
void registerHelpBuiltins(ModuleObj& prelude);

}  // namespace tessel::interp
