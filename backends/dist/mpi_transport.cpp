// The transport over Open MPI (transport.h): joining and leaving the world, headers exchanged
// point to point with a deadline, payloads through MPI's own collectives, and the failure
// notice a rank sends before it aborts the job.
#include <mpi.h>
#include <sched.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include "backends/dist/transport.h"
#include "shapes/user_error.h"

namespace tessel::backends::dist::transport {

namespace {

// Tags on the transport's own communicator (a duplicate of MPI_COMM_WORLD, so nothing an
// embedding app sends on the world can match them).
constexpr int kHeaderTag = 1;
constexpr int kFailureTag = 2;

struct State {
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0, size = 1;
  // Owned here, not by the caller: after a timeout the pending receives and sends may still
  // touch them, and the world is broken, so they are never reused.
  std::vector<char> sendHeader, recvHeaders;
  std::vector<MPI_Request> requests;
  std::vector<int> peers;
  std::string broken;  // why the world is unusable ("" while it is fine)
  // Failure notices in flight (notifyAndAbort).
  std::vector<std::string> notices;
};

State& state() {
  static State s;
  return s;
}

[[noreturn]] void fail(const std::string& message) {
  state().broken = message;
  throwUserError(ErrorKind::DeviceError, message);
}

void check(int rc, const char* call) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  fail(std::string(call) + " failed: " + std::string(text, len));
}

// A notice that another rank failed, if one has arrived: its text.
bool takeFailureNotice(std::string& text) {
  State& s = state();
  int flag = 0;
  MPI_Status status;
  MPI_Iprobe(MPI_ANY_SOURCE, kFailureTag, s.comm, &flag, &status);
  if (!flag) return false;
  int len = 0;
  MPI_Get_count(&status, MPI_CHAR, &len);
  std::string message(static_cast<size_t>(len), '\0');
  MPI_Recv(message.data(), len, MPI_CHAR, status.MPI_SOURCE, kFailureTag, s.comm,
           MPI_STATUS_IGNORE);
  text = "rank " + std::to_string(status.MPI_SOURCE) + " failed: " + message;
  return true;
}

MPI_Datatype mpiType(shapes::DType dtype) {
  switch (dtype) {
    case shapes::DType::Bool:
      return MPI_UINT8_T;
    case shapes::DType::I32:
      return MPI_INT32_T;
    case shapes::DType::F32:
      return MPI_FLOAT;
  }
  return MPI_BYTE;
}

MPI_Op mpiOp(Reduce op, shapes::DType dtype) {
  switch (op) {
    // A bool sum is "any": the sum of 0/1 bytes could wrap around in a byte.
    case Reduce::Sum:
      return dtype == shapes::DType::Bool ? MPI_LOR : MPI_SUM;
    case Reduce::Max:
      return MPI_MAX;
    case Reduce::Min:
      return MPI_MIN;
  }
  return MPI_SUM;
}

int intCount(int64_t n, const char* what) {
  if (n > INT32_MAX)
    throwUserError(ErrorKind::ValueError, std::string(what) + ": " + std::to_string(n) +
                                              " elements is more than MPI's int counts hold");
  return static_cast<int>(n);
}

}  // namespace

std::string libraryVersion() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  MPI_Get_library_version(text, &len);
  std::string v(text, static_cast<size_t>(len));
  if (size_t comma = v.find(','); comma != std::string::npos) v.resize(comma);
  while (!v.empty() && (v.back() == '\n' || v.back() == ' ')) v.pop_back();
  return v;
}

void join(WorldInfo& w) {
  int provided = 0;
  // SERIALIZED: collectives.cpp's lock keeps calls one at a time, and the `tessel` command
  // runs scripts on a thread of its own (runWithLargeStack), which joins and leaves.
  int rc = MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided);
  if (rc != MPI_SUCCESS) {
    w.info = "a world of one: MPI_Init_thread failed under an MPI launcher";
    return;
  }
  State& s = state();
  MPI_Comm_dup(MPI_COMM_WORLD, &s.comm);
  MPI_Comm_rank(s.comm, &s.rank);
  MPI_Comm_size(s.comm, &s.size);
  // Errors come back as return codes (check()), not as MPI's default abort.
  MPI_Comm_set_errhandler(s.comm, MPI_ERRORS_RETURN);
  w.rank = s.rank;
  w.size = s.size;
  w.mpi = true;
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  w.info = "rank " + std::to_string(s.rank) + " of " + std::to_string(s.size) + " on " + host +
           " over " + libraryVersion();
}

void leave() {
  State& s = state();
  if (s.comm != MPI_COMM_NULL && s.broken.empty()) MPI_Comm_free(&s.comm);
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

const char* exchangeHeaders(const void* head, size_t headBytes, const void* body, size_t bodyBytes,
                            size_t slot, const std::string& what) {
  State& s = state();
  if (!s.broken.empty())
    throwUserError(ErrorKind::DeviceError,
                   what + ": the world is broken (" + s.broken + "); no collective can run");
  const size_t bytes = headBytes + bodyBytes;
  s.sendHeader.resize(bytes);
  std::memcpy(s.sendHeader.data(), head, headBytes);
  if (bodyBytes) std::memcpy(s.sendHeader.data() + headBytes, body, bodyBytes);
  s.recvHeaders.resize(slot * static_cast<size_t>(s.size));
  s.requests.clear();
  // Receives first, one per other rank, in rank order: requests[i] receives from peer(i).
  std::vector<int>& peers = s.peers;
  peers.clear();
  for (int r = 0; r < s.size; ++r) {
    if (r == s.rank) continue;
    peers.push_back(r);
    s.requests.emplace_back();
    check(MPI_Irecv(s.recvHeaders.data() + slot * r, static_cast<int>(slot), MPI_BYTE, r,
                    kHeaderTag, s.comm, &s.requests.back()),
          "MPI_Irecv");
  }
  for (int r : peers) {
    s.requests.emplace_back();
    check(MPI_Isend(s.sendHeader.data(), static_cast<int>(bytes), MPI_BYTE, r, kHeaderTag, s.comm,
                    &s.requests.back()),
          "MPI_Isend");
  }
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const auto deadline = start + std::chrono::duration<double>(distConfig().timeoutSeconds);
  // Spin while the others are about to come (a collective's usual wait is microseconds), then
  // yield the core, then sleep: ranks oversubscribed on few cores must not starve each other.
  for (uint64_t spins = 0;; ++spins) {
    int done = 0;
    check(MPI_Testall(static_cast<int>(s.requests.size()), s.requests.data(), &done,
                      MPI_STATUSES_IGNORE),
          "MPI_Testall");
    if (done) break;
    if (spins % 64 != 63) continue;
    std::string notice;
    if (takeFailureNotice(notice)) fail(what + ": " + notice);
    const auto now = Clock::now();
    if (now > deadline) {
      std::string missing;
      int count = 0;
      for (size_t i = 0; i < peers.size(); ++i) {
        int arrived = 0;
        MPI_Test(&s.requests[i], &arrived, MPI_STATUS_IGNORE);
        if (arrived) continue;
        missing += (missing.empty() ? "" : ", ") + std::to_string(peers[i]);
        ++count;
      }
      char seconds[32];
      std::snprintf(seconds, sizeof seconds, "%g", distConfig().timeoutSeconds);
      fail(what + ": timed out after " + seconds + " s (config.dist_timeout_s) waiting for rank" +
           (count == 1 ? " " : "s ") + missing + " of " + std::to_string(s.size) +
           ", which did not reach this collective: a rank failed, finished early, or runs "
           "different collectives");
    }
    if (now - start > std::chrono::milliseconds(100))
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    else if (spins > 4096)
      sched_yield();
  }
  std::memcpy(s.recvHeaders.data() + slot * s.rank, s.sendHeader.data(), bytes);
  return s.recvHeaders.data();
}

void allReduce(const void* in, void* out, int64_t count, shapes::DType dtype, Reduce op) {
  check(MPI_Allreduce(in, out, intCount(count, "dist.all_reduce"), mpiType(dtype), mpiOp(op, dtype),
                      state().comm),
        "MPI_Allreduce");
}

void broadcast(void* buffer, int64_t count, shapes::DType dtype, int src) {
  check(MPI_Bcast(buffer, intCount(count, "dist.broadcast"), mpiType(dtype), src, state().comm),
        "MPI_Bcast");
}

void allGatherV(const void* mine, int64_t count, void* all, std::span<const int64_t> counts,
                std::span<const int64_t> displs, shapes::DType dtype) {
  std::vector<int> c, d;
  for (int64_t n : counts) c.push_back(intCount(n, "dist.all_gather"));
  for (int64_t n : displs) d.push_back(intCount(n, "dist.all_gather"));
  check(MPI_Allgatherv(mine, intCount(count, "dist.all_gather"), mpiType(dtype), all, c.data(),
                       d.data(), mpiType(dtype), state().comm),
        "MPI_Allgatherv");
}

void notifyAndAbort(int status, const std::string& message) {
  State& s = state();
  // A rank that already heard of another's failure has nothing new to tell.
  if (s.broken.empty() && s.comm != MPI_COMM_NULL) {
    std::vector<MPI_Request> sends;
    s.notices.assign(static_cast<size_t>(s.size), message);
    for (int r = 0; r < s.size; ++r) {
      if (r == s.rank) continue;
      sends.emplace_back();
      MPI_Isend(s.notices[r].data(), static_cast<int>(message.size()), MPI_CHAR, r, kFailureTag,
                s.comm, &sends.back());
    }
    // Give the notices time to leave and the others time to report them before the job ends.
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    int done = 0;
    while (std::chrono::steady_clock::now() < until) {
      if (!done)
        MPI_Testall(static_cast<int>(sends.size()), sends.data(), &done, MPI_STATUSES_IGNORE);
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  MPI_Abort(MPI_COMM_WORLD, status);
  std::_Exit(status);  // MPI_Abort does not return; this is in case it ever does
}

}  // namespace tessel::backends::dist::transport
