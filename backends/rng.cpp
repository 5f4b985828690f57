// Philox4x32-10 and the global seed/counter.
#include "backends/rng.h"

#include <mutex>

namespace tessel::backends {

namespace {
constexpr uint32_t kM0 = 0xD2511F53, kM1 = 0xCD9E8D57;  // round multipliers
constexpr uint32_t kW0 = 0x9E3779B9, kW1 = 0xBB67AE85;  // Weyl key increments

inline void mulhilo(uint32_t a, uint32_t b, uint32_t& hi, uint32_t& lo) {
  uint64_t p = uint64_t(a) * b;
  hi = uint32_t(p >> 32);
  lo = uint32_t(p);
}

std::mutex gMu;
uint64_t gKey = 0;
uint64_t gNext = 0;
}  // namespace

std::array<uint32_t, 4> philox4x32_10(std::array<uint32_t, 4> c, std::array<uint32_t, 2> k) {
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k[0] += kW0;
      k[1] += kW1;
    }
    uint32_t hi0, lo0, hi1, lo1;
    mulhilo(kM0, c[0], hi0, lo0);
    mulhilo(kM1, c[2], hi1, lo1);
    c = {hi1 ^ c[1] ^ k[0], lo1, hi0 ^ c[3] ^ k[1], lo0};
  }
  return c;
}

void seed(uint64_t n) {
  std::lock_guard<std::mutex> lock(gMu);
  gKey = n;
  gNext = 0;
}

RngState rngState() {
  std::lock_guard<std::mutex> lock(gMu);
  return {gKey, gNext};
}

void setRngState(RngState state) {
  std::lock_guard<std::mutex> lock(gMu);
  gKey = state.key;
  gNext = state.next;
}

PhiloxStream reserveRandom(uint64_t numbers) {
  std::lock_guard<std::mutex> lock(gMu);
  PhiloxStream s{gKey, gNext};
  gNext += (numbers + 3) / 4;
  return s;
}

}  // namespace tessel::backends
