// The prelude's file functions: load, save, read_text, write_text, read_lines, load_csv
// (docs/tensors.md, "Files"), each checked against the interpreter's file policy.
#pragma once

#include <string>

#include "backends/io/file_ref.h"
#include "interp/values/objects.h"

namespace tessel::interp {

class Interpreter;

/// The file to open after the interpreter's file policy allowed it (an IOError otherwise):
/// beneath the allowed folder, so that opening it cannot leave the folder (Note [File
/// policy]). A file function inside a @compile function is a side effect that runs at every
/// call (a graph break). `fn` names the function in errors.
backends::io::FileRef allowedPath(Interpreter& interp, const char* fn, const std::string& path,
                                  bool write);

/// Adds the file functions to the prelude.
void registerFileBuiltins(Interpreter& interp, ModuleObj& prelude);

}  // namespace tessel::interp
