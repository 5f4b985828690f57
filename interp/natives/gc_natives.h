// gc(), stats()["gc"] and stats()["memory"]: the cycle collector and memory as scripts see it (language.md, "Memory").
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
/// stats()["memory"]: the process's resident memory now and at its peak (soak tests, long
/// notebooks), in bytes.
Value memoryStatsDict();

}  // namespace tessel::interp
