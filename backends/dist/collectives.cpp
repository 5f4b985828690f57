// Collectives on tensors (collectives.h): headers, agreement across ranks, payloads.
#include "backends/dist/collectives.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <type_traits>

#include "backends/dist/transport.h"
#include "backends/dist/world.h"
#include "shapes/user_error.h"

namespace tessel::backends::dist {

// Note [Headers first]
// In MPI a collective whose ranks disagree is undefined behaviour (an all-reduce of 8 floats on
// one rank and 9 on another truncates, corrupts or waits forever), and a blocking collective
// waits forever for a rank that never comes. So each collective starts with a small header
// from every rank (which collective, op, source, dtype, shape), exchanged point to point with a
// deadline (transport::exchangeHeaders). Only once every header has arrived (so every rank is
// here) and they agree does a large payload go through MPI's own blocking collective, the
// fastest path Open MPI has (its nonblocking MPI_Iallreduce measured up to 4x slower on this
// machine); a small one has come with the header already (Note [Small payloads inline]).
// Every rank sees every header and decides the same: all raise the same ValueError, or none.
// A barrier is the header round alone: a rank has every header only once every rank sent one.

namespace {

enum class Kind : uint32_t { AllReduce, Broadcast, AllGather, Barrier, Text };
constexpr int kMaxDims = 16;

struct Header {
  uint32_t kind = 0;
  uint32_t op = 0;
  int32_t src = 0;
  uint32_t dtype = 0;
  uint32_t ndim = 0;
  uint32_t inlined = 0;  // 1: the payload follows the header (Note [Small payloads inline])
  int64_t dims[kMaxDims] = {};
};

// Note [Small payloads inline]
// A small payload travels in the header message itself, so a small collective is one round of
// messages rather than two (headers, then MPI's collective): at 1 KiB the second round would
// double the time of a bare MPI_Allreduce. Every rank then has every rank's data and finishes
// locally: an all-reduce combines the payloads in rank order (so every rank computes the same
// bits), a broadcast copies the source's, an all-gather each one. A payload is inlined when it
// fits in kInlineBytes; which path a collective takes is decided from the headers, which every
// rank sees alike. The header and its payload stay under Open MPI's 4-KiB eager limit for
// shared memory (btl_vader_eager_limit): past it a message waits for the receiver
// (rendezvous), and a 4-KiB all-reduce sent inline took 5.3 us against 4.0 us in two rounds
// (bench_dist, MPI_Allreduce 3.0 us in the same runs).
constexpr size_t kInlineBytes = 3840;
constexpr size_t kSlot = sizeof(Header) + kInlineBytes;
static_assert(kSlot <= 4096 - 64, "an inlined message must stay under the 4-KiB eager limit");

// What every rank sent: its header, and where its inlined payload is.
struct Exchanged {
  std::vector<Header> headers;
  const char* base = nullptr;  // rank r's message at base + r * kSlot
  const char* payload(size_t r) const { return base + r * kSlot + sizeof(Header); }
  bool allInlined() const {
    for (const Header& h : headers)
      if (!h.inlined) return false;
    return true;
  }
};

std::mutex gLock;  // one collective at a time per process (MPI_THREAD_SERIALIZED)
uint64_t gCount = 0;

const char* kindName(Kind k) {
  switch (k) {
    case Kind::AllReduce:
      return "dist.all_reduce";
    case Kind::Broadcast:
      return "dist.broadcast";
    case Kind::AllGather:
      return "dist.all_gather";
    case Kind::Barrier:
      return "dist.barrier";
    case Kind::Text:
      return "a compiler collective";
  }
  return "?";
}

std::string shapeText(const Header& h) {
  std::string s = std::string(shapes::name(static_cast<DType>(h.dtype))) + " [";
  for (uint32_t d = 0; d < h.ndim; ++d) s += (d ? ", " : "") + std::to_string(h.dims[d]);
  return s + "]";
}

Header headerOf(Kind kind, const Tensor& t, const std::string& what) {
  if (t.ndim() > kMaxDims)
    throwUserError(ErrorKind::ValueError, what + ": tensors of rank up to " +
                                              std::to_string(kMaxDims) + ", not " +
                                              std::to_string(t.ndim()));
  Header h;
  h.kind = static_cast<uint32_t>(kind);
  h.dtype = static_cast<uint32_t>(t.dtype());
  h.ndim = static_cast<uint32_t>(t.ndim());
  for (int64_t d = 0; d < t.ndim(); ++d) h.dims[d] = t.size(d);
  return h;
}

// "rank 0 has f32 [4, 8], ranks 1, 2 have f32 [4, 9]": each distinct description with the
// ranks that have it, in rank order of their first rank.
std::string byRank(const std::vector<Header>& all, std::string (*describe)(const Header&),
                   const char* one, const char* many) {
  std::vector<std::pair<std::string, std::vector<int>>> groups;
  for (size_t r = 0; r < all.size(); ++r) {
    std::string d = describe(all[r]);
    auto it = std::find_if(groups.begin(), groups.end(), [&](auto& g) { return g.first == d; });
    if (it == groups.end()) it = groups.insert(groups.end(), {d, {}});
    it->second.push_back(static_cast<int>(r));
  }
  std::string out;
  for (auto& [d, ranks] : groups) {
    std::string list;
    for (int r : ranks) list += (list.empty() ? "" : ", ") + std::to_string(r);
    out += (out.empty() ? "" : ", ") + std::string(ranks.size() == 1 ? "rank " : "ranks ") + list +
           " " + (ranks.size() == 1 ? one : many) + " " + d;
  }
  return out;
}

// A ValueError on every rank when `key` differs across ranks.
void agree(const std::vector<Header>& all, std::string (*key)(const Header&),
           std::string (*describe)(const Header&), const std::string& what,
           const std::string& problem) {
  for (const Header& h : all)
    if (key(h) != key(all[0]))
      throwUserError(ErrorKind::ValueError, what + ": " + problem + " across ranks: " +
                                                byRank(all, describe, "has", "have"));
}

std::string kindOf(const Header& h) {
  return kindName(static_cast<Kind>(h.kind));
}
std::string opOf(const Header& h) {
  return "\"" + std::string(reduceOpName(static_cast<ReduceOp>(h.op))) + "\"";
}
std::string srcOf(const Header& h) {
  return "src = " + std::to_string(h.src);
}
std::string dtypeAndRank(const Header& h) {
  return std::to_string(h.dtype) + "/" + std::to_string(h.ndim);
}

// Every rank's header (with this rank's payload inlined when `payload` is given and small); a
// ValueError on every rank when they are in different collectives.
Exchanged exchange(Header mine, const void* payload, size_t payloadBytes, const std::string& what) {
  ++gCount;
  mine.inlined = payload && payloadBytes <= kInlineBytes;
  Exchanged x;
  x.base = transport::exchangeHeaders(&mine, sizeof(Header), mine.inlined ? payload : nullptr,
                                      mine.inlined ? payloadBytes : 0, kSlot, what);
  x.headers.resize(static_cast<size_t>(worldSize()));
  for (size_t r = 0; r < x.headers.size(); ++r)
    std::memcpy(&x.headers[r], x.base + r * kSlot, sizeof(Header));
  for (const Header& h : x.headers)
    if (h.kind != mine.kind)
      throwUserError(ErrorKind::ValueError,
                     what + ": the ranks are in different collectives: " +
                         byRank(x.headers, kindOf, "is in", "are in") +
                         " (every rank must call the same collectives in the same order)");
  return x;
}

size_t bytesOf(const Tensor& t) {
  return static_cast<size_t>(t.numel()) * static_cast<size_t>(shapes::elementSize(t.dtype()));
}

// out = the payloads of every rank combined in rank order (Note [Small payloads inline]).
template <class T, class Combine>
void combine(const Exchanged& x, int64_t count, T* out, Combine f) {
  std::memcpy(out, x.payload(0), static_cast<size_t>(count) * sizeof(T));
  for (size_t r = 1; r < x.headers.size(); ++r) {
    const T* p = reinterpret_cast<const T*>(x.payload(r));
    for (int64_t i = 0; i < count; ++i) out[i] = f(out[i], p[i]);
  }
}

template <class T>
void reduceInlined(const Exchanged& x, int64_t count, T* out, ReduceOp op) {
  switch (op) {
    case ReduceOp::Max:
      return combine(x, count, out, [](T a, T b) { return a < b ? b : a; });
    case ReduceOp::Min:
      return combine(x, count, out, [](T a, T b) { return b < a ? b : a; });
    case ReduceOp::Sum:
    case ReduceOp::Mean:
      if constexpr (std::is_same_v<T, int32_t>)  // wraps around, as i32 arithmetic does
        return combine(x, count, out, [](T a, T b) {
          return static_cast<T>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
        });
      else if constexpr (std::is_same_v<T, uint8_t>)  // bool: any
        return combine(x, count, out, [](T a, T b) { return static_cast<T>(a | b); });
      else
        return combine(x, count, out, [](T a, T b) { return a + b; });
  }
}

Tensor copyOf(const Tensor& t) {
  Tensor out = Tensor::empty(t.shape(), t.dtype());
  if (t.numel()) std::memcpy(out.bytes(), t.bytes(), t.numel() * shapes::elementSize(t.dtype()));
  return out;
}

// Where each rank's part lands in an all-gather: element counts from the headers' shapes, and
// their running offsets.
struct Offsets {
  std::vector<int64_t> counts, displs;
  int64_t total = 0;
};
Offsets offsetsOf(const std::vector<Header>& headers) {
  Offsets o;
  for (const Header& h : headers) {
    const int64_t n = numelOf(std::span<const int64_t>(h.dims, h.ndim));
    o.counts.push_back(n);
    o.displs.push_back(o.total);
    o.total += n;
  }
  return o;
}

void checkHost(const Tensor& t, const char* what) {
  TESSEL_ASSERT(t.device() == Device::Cpu,
                std::string(what) + " takes cpu tensors (the interpreter stages the others)");
}

}  // namespace

std::optional<ReduceOp> reduceOpFromName(std::string_view name) {
  if (name == "sum") return ReduceOp::Sum;
  if (name == "max") return ReduceOp::Max;
  if (name == "min") return ReduceOp::Min;
  if (name == "mean") return ReduceOp::Mean;
  return std::nullopt;
}

std::string_view reduceOpName(ReduceOp op) {
  switch (op) {
    case ReduceOp::Sum:
      return "sum";
    case ReduceOp::Max:
      return "max";
    case ReduceOp::Min:
      return "min";
    case ReduceOp::Mean:
      return "mean";
  }
  return "?";
}

uint64_t collectiveCount() {
  std::lock_guard lock(gLock);
  return gCount;
}

Tensor allReduce(const Tensor& t, ReduceOp op) {
  const std::string what = "dist.all_reduce";
  checkHost(t, "dist.all_reduce");
  std::lock_guard lock(gLock);
  Tensor in = t.contiguous();
  const int size = worldSize();
  Exchanged x;
  if (size > 1) {
    Header mine = headerOf(Kind::AllReduce, in, what);
    mine.op = static_cast<uint32_t>(op);
    x = exchange(mine, in.bytes(), bytesOf(in), what);
    agree(x.headers, opOf, opOf, what, "the ops differ");
    agree(x.headers, shapeText, shapeText, what, "the dtypes or shapes differ");
  } else {
    ++gCount;
  }
  // Checked after the exchange, so that every rank agrees on the dtype first and raises alike.
  if (op == ReduceOp::Mean && in.dtype() != DType::F32)
    throwUserError(ErrorKind::TypeError, what + ": op \"mean\" needs an f32 tensor, not " +
                                             std::string(shapes::name(in.dtype())) +
                                             " (x.to(f32) converts it)");
  if (size == 1) return copyOf(in);
  Tensor out = Tensor::empty(in.shape(), in.dtype());
  if (in.numel() == 0) return out;
  if (x.allInlined()) {
    switch (in.dtype()) {
      case DType::F32:
        reduceInlined(x, in.numel(), out.data<float>(), op);
        break;
      case DType::I32:
        reduceInlined(x, in.numel(), out.data<int32_t>(), op);
        break;
      case DType::Bool:
        reduceInlined(x, in.numel(), out.data<uint8_t>(), op);
        break;
    }
  } else {
    transport::Reduce r = op == ReduceOp::Max   ? transport::Reduce::Max
                          : op == ReduceOp::Min ? transport::Reduce::Min
                                                : transport::Reduce::Sum;
    transport::allReduce(in.bytes(), out.bytes(), in.numel(), in.dtype(), r);
  }
  if (op == ReduceOp::Mean) {
    float* p = out.data<float>();
    const float n = static_cast<float>(size);
    for (int64_t i = 0; i < out.numel(); ++i) p[i] /= n;
  }
  return out;
}

Tensor broadcast(const Tensor& t, int src) {
  const std::string what = "dist.broadcast";
  checkHost(t, "dist.broadcast");
  std::lock_guard lock(gLock);
  Tensor in = t.contiguous();
  const int size = worldSize();
  Exchanged x;
  if (size > 1) {
    Header mine = headerOf(Kind::Broadcast, in, what);
    mine.src = src;
    // Only the source's payload is of use: the others send their header alone.
    x = exchange(mine, rank() == src ? in.bytes() : nullptr, bytesOf(in), what);
    agree(x.headers, srcOf, srcOf, what, "the sources differ");
    agree(x.headers, shapeText, shapeText, what, "the dtypes or shapes differ");
  } else {
    ++gCount;
  }
  if (src < 0 || src >= size)
    throwUserError(ErrorKind::ValueError, what + ": src = " + std::to_string(src) +
                                              " is not a rank of this world of " +
                                              std::to_string(size));
  // The source's result is its own tensor, copied like the others' (tensors are values); it
  // still sends from the copy when the payload was too large to come with its header.
  const bool source = size == 1 || rank() == src;
  Tensor out = source ? copyOf(in) : Tensor::empty(in.shape(), in.dtype());
  if (size == 1 || out.numel() == 0) return out;
  if (!x.headers[src].inlined)
    transport::broadcast(out.bytes(), out.numel(), out.dtype(), src);
  else if (!source)
    std::memcpy(out.bytes(), x.payload(src), bytesOf(out));
  return out;
}

std::vector<Tensor> allGather(const Tensor& t) {
  const std::string what = "dist.all_gather";
  checkHost(t, "dist.all_gather");
  std::lock_guard lock(gLock);
  Tensor in = t.contiguous();
  const int size = worldSize();
  if (size == 1) {
    ++gCount;
    return {copyOf(in)};
  }
  Exchanged x = exchange(headerOf(Kind::AllGather, in, what), in.bytes(), bytesOf(in), what);
  agree(x.headers, dtypeAndRank, shapeText, what, "the dtypes or ranks (numbers of dims) differ");
  const auto [counts, displs, total] = offsetsOf(x.headers);
  Tensor gathered = Tensor::empty({total}, in.dtype());
  const size_t element = static_cast<size_t>(shapes::elementSize(in.dtype()));
  if (x.allInlined()) {
    for (size_t r = 0; r < x.headers.size(); ++r)
      if (counts[r])
        std::memcpy(gathered.bytes() + displs[r] * element, x.payload(r), counts[r] * element);
  } else {
    transport::allGatherV(in.bytes(), in.numel(), gathered.bytes(), counts, displs, in.dtype());
  }
  std::vector<Tensor> out;
  for (size_t r = 0; r < x.headers.size(); ++r) {
    Dims shape(x.headers[r].dims, x.headers[r].dims + x.headers[r].ndim);
    // One storage holds them all; each rank's part is a contiguous view of it.
    out.push_back(
        Tensor::view(gathered.storage(), shape, contiguousStrides(shape), displs[r], in.dtype()));
  }
  return out;
}

void barrier() {
  std::lock_guard lock(gLock);
  if (worldSize() == 1) {
    ++gCount;
    return;
  }
  Header mine;
  mine.kind = static_cast<uint32_t>(Kind::Barrier);
  exchange(mine, nullptr, 0, "dist.barrier");
}

std::vector<std::string> allGatherText(const std::string& mine, const std::string& what) {
  std::lock_guard lock(gLock);
  const int size = worldSize();
  if (size == 1) {
    ++gCount;
    return {mine};
  }
  Header h;
  h.kind = static_cast<uint32_t>(Kind::Text);
  h.dtype = static_cast<uint32_t>(DType::Bool);  // bytes
  h.ndim = 1;
  h.dims[0] = static_cast<int64_t>(mine.size());
  Exchanged x = exchange(h, mine.data(), mine.size(), what);
  std::vector<std::string> out;
  if (x.allInlined()) {
    for (size_t r = 0; r < x.headers.size(); ++r)
      out.emplace_back(x.payload(r), static_cast<size_t>(x.headers[r].dims[0]));
    return out;
  }
  const auto [counts, displs, total] = offsetsOf(x.headers);
  std::string gathered(static_cast<size_t>(total), '\0');
  transport::allGatherV(mine.data(), static_cast<int64_t>(mine.size()), gathered.data(), counts,
                        displs, DType::Bool);
  for (size_t r = 0; r < x.headers.size(); ++r)
    out.push_back(gathered.substr(displs[r], counts[r]));
  return out;
}

}  // namespace tessel::backends::dist
