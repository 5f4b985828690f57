// The bytes-level operations of an MPI world, for collectives.cpp. mpi_transport.cpp implements
// them over Open MPI and is the only file that includes mpi.h; a build without MPI compiles
// no_mpi_transport.cpp instead, whose world is always one rank (world.cpp never calls these
// then). Callers hold collectives.cpp's lock: one operation at a time per process.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "backends/dist/world.h"
#include "shapes/dtype.h"

namespace tessel::backends::dist::transport {

enum class Reduce : uint8_t { Sum, Max, Min };

/// "Open MPI v4.1.4, ..." (MPI_Get_library_version), or why there is none.
std::string libraryVersion();
/// Joins the MPI world and fills `w`. Only when builtWithMpi() and launchedByMpirun().
void join(WorldInfo& w);
/// MPI_Finalize.
void leave();

/// Every rank's header (`head`, then `body`: a small payload where it fits; at most `slot`
/// bytes in all), rank r's at r * slot of the result (valid until the next exchange), sent to and
/// received from every other rank (Note [Headers first] in collectives.cpp). The only operation
/// that waits for ranks that may not come: it polls, and raises a DeviceError naming the ranks
/// whose header did not arrive within distConfig().timeoutSeconds, or naming a rank that reported a
/// failure meanwhile (abortWorld). Either leaves the world broken: every later operation raises
/// that error again at once.
const char* exchangeHeaders(const void* head, size_t headBytes, const void* body, size_t bodyBytes,
                            size_t slot, const std::string& what);

// The payloads, once the headers showed that every rank is here and agrees on the sizes:
// blocking MPI collectives (the fastest Open MPI has).
void allReduce(const void* in, void* out, int64_t count, shapes::DType dtype, Reduce op);
void broadcast(void* buffer, int64_t count, shapes::DType dtype, int src);
/// Rank r's `counts[r]` elements at `displs[r]` of `all`.
void allGatherV(const void* mine, int64_t count, void* all, std::span<const int64_t> counts,
                std::span<const int64_t> displs, shapes::DType dtype);

/// Tells every other rank that this one failed with `message`, waits briefly for the messages
/// to leave, then MPI_Abort(status). Does not return.
[[noreturn]] void notifyAndAbort(int status, const std::string& message);

}  // namespace tessel::backends::dist::transport
