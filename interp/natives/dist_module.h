// The built-in `dist` module: ranks and collectives across processes (docs/distributed.md).
#pragma once

#include "interp/values/value.h"

namespace tessel::interp {

/// A new `dist` module (one per interpreter; the world behind it is the process's).
Value makeDistModule();

}  // namespace tessel::interp
