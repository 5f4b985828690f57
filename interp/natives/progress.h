// progress(iterable, total = none, desc = ""): a progress bar around a loop (docs/notebook.md,
// "Progress"), as tqdm draws one.
#pragma once

#include <cstdint>
#include <string>

#include "interp/values/objects.h"

namespace tessel::interp {

/// Adds progress() to the prelude.
void registerProgressBuiltins(ModuleObj& prelude);

/// The text of a bar after `done` of `total` items (total < 0: unknown) in `seconds`:
/// `desc: 40%|████▌     | 4/10 [00:02<00:03, 2.00it/s, loss=0.5]`.
std::string progressLine(const std::string& desc, int64_t done, int64_t total, double seconds,
                         const std::string& postfix);

}  // namespace tessel::interp
