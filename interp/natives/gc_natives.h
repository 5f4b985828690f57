// gc() and stats()["gc"]: the cycle collector as scripts see it (language.md, "Memory").
#pragma once

#include "interp/values/gc.h"
#include "interp/values/objects.h"

namespace tessel::interp {

class Interpreter;

/// Adds gc() to the prelude.
void registerGcBuiltins(ModuleObj& prelude);
/// stats()["gc"]: collections (all, and by generation), freed, time_ms, max_pause_ms,
/// tracked.
Value gcStatsDict(const GcHeap& heap);

}  // namespace tessel::interp
