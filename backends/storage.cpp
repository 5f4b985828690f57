// Aligned storage with a small cache of large freed blocks.
#include "backends/storage.h"

#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <unordered_map>
#include <string>
#include <vector>

#include "shapes/user_error.h"

namespace tessel::backends {

// Note [Block cache]
// Every eager op returns a fresh tensor. For large tensors glibc's malloc hands out fresh
// mmap'd pages and unmaps them on free, so each op would pay a page fault per 4 KiB of its
// output: on a 64 MiB add that costs more than the arithmetic and halves the achieved memory
// bandwidth. Freed blocks of at least kMinCachedBytes are therefore kept, keyed by their
// exact (rounded) size, and reused by the next allocation of that size; at most kMaxCached
// bytes are kept, so a program that changes sizes often does not hoard memory.
//
// The cache starts at 64 KiB, not at glibc's mmap threshold: between 64 KiB and 1 MiB malloc
// serves a block from the top of its heap and trims it back on free, so the faults came back
// there too (a training step with a batch size that changes every step took about 100 page
// faults a step in its fused kernels' outputs and randn's batch, bench/mlp). And sizes round
// up to one of four classes per octave (at most 25% more, about 12% on average) rather than
// to the next 64 KiB: with a batch size that changes every step exact sizes rarely repeat,
// while the classes do. Past 16 MiB the classes are multiples of 1 MiB (at most 6% more), so
// a big tensor does not count a quarter more against a memory budget.
//
// Small blocks (up to kSmallMax bytes, in 64-byte classes) go to a per-thread free list
// instead: aligned_alloc of a few bytes costs more than a 4-element add itself, and eager
// scripts allocate many tiny tensors. A block freed on another thread joins that thread's list.
//
// Note [Huge pages]
// Blocks of kHugeFrom bytes and more are aligned to 2 MiB and marked MADV_HUGEPAGE (NumPy's
// choice for arrays of 4 MiB and more; Debian enables transparent huge pages on request only).
// A 4 KiB page covers 1,024 floats, so a streaming op over 64 MiB misses the TLB every 4 KiB,
// and on a virtual machine each miss walks two page tables; random row access (index_add's
// targets, gather's rows) misses on almost every row. On the 2-core EPYC VM a triad on 16M
// floats went from 23 to 32-34 GB/s, `add` from 8.5-8.9 to 6.0-6.2 ms and a GCN epoch (100K
// nodes) from 860-883 to 551-617 ms (docs/perf.md, "Huge pages for large tensors"); small
// tensors keep ordinary pages. Where the kernel gives no huge pages the advice is ignored;
// TESSEL_HUGE_PAGES=0 turns it off (each huge page is 2 MiB of resident memory at first touch).
//
// Note [Poisoned fresh storage]
// A kernel that leaves part of its output unwritten returns whatever its block held: zeros
// from fresh pages (so a test passes by chance) or an earlier tensor's values from the block
// cache. In sanitized builds (the ASan suite of CI) and with TESSEL_POISON_STORAGE=1 in any
// build, every block handed out is first filled with 0xFF bytes: NaN floats, -1 integers and
// bools that are neither true nor false (UBSan reports reading one), so an unwritten element
// shows in a result, as MemorySanitizer would report it (MSan needs every library rebuilt
// instrumented, which Debian's are not).
namespace {

constexpr size_t kAlign = 64;
constexpr size_t kMinCachedBytes = size_t{1} << 16;
constexpr size_t kHugeFrom = size_t{4} << 20;
constexpr size_t kHugePage = size_t{2} << 20;
constexpr size_t kFineClassesFrom = size_t{1} << 24;
constexpr size_t kMaxCached = size_t{1} << 30;
constexpr size_t kSmallMax = 1024;
constexpr size_t kSmallClasses = kSmallMax / kAlign;
constexpr size_t kSmallKeep = 64;  // blocks kept per class and thread

// A thread's list dies with the thread (at exit, before static destructors run), and storages
// held by statics are freed after that, so each access first asks whether the list still
// exists: tSmallState is trivially destructible and stays readable to the end.
enum class SmallState : unsigned char { Unborn, Alive, Dead };
thread_local constinit SmallState tSmallState = SmallState::Unborn;

struct SmallCache {
  std::vector<void*> free[kSmallClasses];
  SmallCache() { tSmallState = SmallState::Alive; }
  ~SmallCache() {
    tSmallState = SmallState::Dead;
    for (auto& list : free)
      for (void* p : list) std::free(p);
  }
};
thread_local SmallCache tSmall;

/// A fresh block of `size` bytes (Note [Huge pages]); nullptr when memory is exhausted.
void* freshBlock(size_t size) {
  static const bool huge = [] {
    const char* env = std::getenv("TESSEL_HUGE_PAGES");
    return !(env && std::string(env) == "0");
  }();
  if (size < kHugeFrom || !huge) return std::aligned_alloc(kAlign, size);
  // posix_memalign, not aligned_alloc: the size need not be a multiple of 2 MiB.
  void* p = nullptr;
  if (posix_memalign(&p, kHugePage, size) != 0) return nullptr;
  madvise(p, size, MADV_HUGEPAGE);  // advice only: a refusal leaves ordinary pages
  return p;
}

/// The calling thread's free list of `bytes`-sized blocks; nullptr once the thread is exiting.
std::vector<void*>* smallList(size_t bytes) {
  if (tSmallState == SmallState::Dead) return nullptr;
  return &tSmall.free[bytes / kAlign - 1];
}

struct BlockCache {
  std::mutex mu;
  std::unordered_map<size_t, std::vector<void*>> free;
  size_t held = 0;
};

BlockCache& cache() {
  // Leaked on purpose: storages may be freed by static destructors after main returns.
  static BlockCache* c = new BlockCache;
  return *c;
}

thread_local AllocationHook* tHook = nullptr;

bool poisonStorage() {
#if defined(TESSEL_SANITIZED)
  return true;
#else
  static const bool on = [] {
    const char* env = std::getenv("TESSEL_POISON_STORAGE");
    return env && std::string(env) == "1";
  }();
  return on;
#endif
}

}  // namespace

// Cached sizes round up to their class so that nearby sizes share blocks (Note [Block cache]).
size_t storageSizeClass(size_t bytes) {
  if (bytes == 0) return kAlign;
  size_t unit = kAlign;
  if (bytes >= kFineClassesFrom) {
    unit = size_t{1} << 20;
  } else if (bytes >= kMinCachedBytes) {
    size_t octave = size_t{1} << (63 - __builtin_clzll(bytes));  // the power of two <= bytes
    unit = octave / 4;
  }
  return (bytes + unit - 1) / unit * unit;
}

ScopedAllocationHook::ScopedAllocationHook(AllocationHook* hook) : previous_(tHook) {
  tHook = hook;
}
ScopedAllocationHook::~ScopedAllocationHook() {
  tHook = previous_;
}

std::shared_ptr<Storage> Storage::borrow(void* data, size_t bytes, Device device,
                                         std::shared_ptr<const void> owner) {
  auto s = std::make_shared<Storage>(Key{}, data, bytes, device);
  s->owner_ = owner ? std::move(owner) : std::make_shared<int>(0);
  return s;
}

std::shared_ptr<Storage> Storage::allocate(size_t bytes, Device device) {
  if (tHook) [[unlikely]] {
    std::shared_ptr<const void> owner;
    if (void* p = tHook->allocate(bytes, owner))
      return borrow(p, bytes, tHook->device(), std::move(owner));
    tHook->heapFallback(bytes);
    device = tHook->device();
  }
  size_t size = storageSizeClass(bytes);
  MemoryCharge charge = chargeMemory(size);  // before any memory is taken (Note [Memory budget])
  void* p = nullptr;
  if (size <= kSmallMax) {
    if (auto* list = smallList(size); list && !list->empty()) {
      p = list->back();
      list->pop_back();
    }
  } else if (size >= kMinCachedBytes) {
    BlockCache& c = cache();
    std::lock_guard<std::mutex> lock(c.mu);
    auto it = c.free.find(size);
    if (it != c.free.end() && !it->second.empty()) {
      p = it->second.back();
      it->second.pop_back();
      c.held -= size;
    }
  }
  if (!p) p = freshBlock(size);
  if (!p)
    throwUserError(ErrorKind::DeviceError,
                   "out of memory: cannot allocate " + std::to_string(bytes) + " bytes (" +
                       std::to_string(bytes >> 20) + " MiB) on " +
                       std::string(deviceName(device)));
  if (poisonStorage()) [[unlikely]]
    std::memset(p, 0xFF, size);  // Note [Poisoned fresh storage]
  auto storage = std::make_shared<Storage>(Key{}, p, size, device);
  storage->charge_ = std::move(charge);
  return storage;
}

Storage::~Storage() {
  if (owner_) return;  // borrowed bytes
  if (bytes_ <= kSmallMax) {
    if (auto* list = smallList(bytes_); list && list->size() < kSmallKeep) {
      list->push_back(data_);
      return;
    }
  } else if (bytes_ >= kMinCachedBytes) {
    BlockCache& c = cache();
    std::lock_guard<std::mutex> lock(c.mu);
    if (c.held + bytes_ <= kMaxCached) {
      c.free[bytes_].push_back(data_);
      c.held += bytes_;
      return;
    }
  }
  std::free(data_);
}

size_t cachedStorageBytes() {
  BlockCache& c = cache();
  std::lock_guard<std::mutex> lock(c.mu);
  return c.held;
}

}  // namespace tessel::backends
