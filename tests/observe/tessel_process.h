// Running the `tessel` command from a test, with chosen environment variables, from a chosen
// directory.
#pragma once

#include <string>

#include "tests/support/process.h"

namespace tessel::observe {

using testing::readText;
using testing::ScratchDir;
using ProcessResult = testing::ShellResult;

/// `tessel ARGS` under `env` ("A=1 B=2"), from `cwd`; stdout and stderr interleaved.
inline ProcessResult runTessel(const std::string& args, const std::string& env = "",
                               const std::string& cwd = ".") {
  return testing::runShell("cd '" + cwd + "' && env " + env + " " + TESSEL_BINARY_DIR +
                           "/repl/tessel " + args + " 2>&1");
}

}  // namespace tessel::observe
