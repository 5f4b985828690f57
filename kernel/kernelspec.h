// The kernelspec: the folder Jupyter reads to know how to start tessel-kernel (kernel.json and
// the logos), written by `tessel-kernel install` (for `cmake --install` and for
// `tessel jupyter install`).
#pragma once

#include <string>

namespace tessel::kernel {

/// Writes kernel.json (argv runs `kernelPath`), logo-64x64.png and logo-svg.svg into `dir`,
/// creating it. Returns "" on success, else what went wrong.
std::string writeKernelspec(const std::string& dir, const std::string& kernelPath);

/// Where Jupyter looks for a user's kernels: $JUPYTER_DATA_DIR/kernels, else
/// $XDG_DATA_HOME/jupyter/kernels, else ~/.local/share/jupyter/kernels (jupyter_core's order).
std::string userKernelsDir();

/// `tessel-kernel install [--user | --prefix DIR] [--kernel PATH]`; returns the exit status.
int installCommand(int argc, char** argv);

}  // namespace tessel::kernel
