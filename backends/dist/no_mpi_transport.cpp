// The transport of a build without MPI (transport.h): the world is always one rank, so
// world.cpp and collectives.cpp never reach these; each says so if a bug ever does.
#include <cstdlib>

#include "backends/dist/transport.h"
#include "shapes/user_error.h"

namespace tessel::backends::dist::transport {

namespace {
[[noreturn]] void noMpi(const char* what) {
  TESSEL_ASSERT(false, std::string(what) + " called in a build without MPI");
  std::abort();
}
}  // namespace

std::string libraryVersion() {
  return "none";
}
void join(WorldInfo&) {
  noMpi("join");
}
void leave() {}
const char* exchangeHeaders(const void*, size_t, const void*, size_t, size_t, const std::string&) {
  noMpi("exchangeHeaders");
}
void allReduce(const void*, void*, int64_t, shapes::DType, Reduce) {
  noMpi("allReduce");
}
void broadcast(void*, int64_t, shapes::DType, int) {
  noMpi("broadcast");
}
void allGatherV(const void*, int64_t, void*, std::span<const int64_t>, std::span<const int64_t>,
                shapes::DType) {
  noMpi("allGatherV");
}
void notifyAndAbort(int status, const std::string&) {
  std::_Exit(status);
}

}  // namespace tessel::backends::dist::transport
