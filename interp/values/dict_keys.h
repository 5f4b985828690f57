// Dict keys compared and hashed in line: keys are mostly field names of a few bytes, where a
// call of memcmp or of std::hash's murmur loop costs more than the work itself (Note [Small
// dicts] in objects.cpp).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

namespace tessel::interp::dict_keys {

template <class Word>
inline Word load(const char* p) {
  Word w;
  std::memcpy(&w, p, sizeof w);
  return w;
}

/// a == b, in line up to 16 bytes: two word loads each, overlapping for lengths between sizes.
/// The same loads as keyWords, with an exit after the first word: comparing keyWords' two words
/// instead cost 3.4M more instructions on bench/scripts/objects.dsl (138.1M -> 141.5M).
[[gnu::always_inline]] inline bool sameKey(const std::string& a, const std::string& b) {
  size_t n = a.size();
  if (n != b.size()) return false;
  const char* p = a.data();
  const char* q = b.data();
  if (n >= 8) {
    if (n > 16) return std::memcmp(p, q, n) == 0;
    return load<uint64_t>(p) == load<uint64_t>(q) &&
           load<uint64_t>(p + n - 8) == load<uint64_t>(q + n - 8);
  }
  if (n >= 4)
    return load<uint32_t>(p) == load<uint32_t>(q) &&
           load<uint32_t>(p + n - 4) == load<uint32_t>(q + n - 4);
  if (n == 0) return true;
  return p[0] == q[0] && p[n / 2] == q[n / 2] && p[n - 1] == q[n - 1];  // 1 to 3 bytes
}

/// The bytes of a key of up to 16 bytes as two words (overlapping, so every byte is in one),
/// as sameKey reads them.
[[gnu::always_inline]] inline void keyWords(const char* p, size_t n, uint64_t& a, uint64_t& b) {
  if (n >= 8) {
    a = load<uint64_t>(p);
    b = load<uint64_t>(p + n - 8);
  } else if (n >= 4) {
    a = load<uint32_t>(p);
    b = load<uint32_t>(p + n - 4);
  } else {
    auto byte = [&](size_t i) { return static_cast<uint64_t>(static_cast<unsigned char>(p[i])); };
    a = n == 0 ? 0 : byte(0) | byte(n / 2) << 8 | byte(n - 1) << 16;
    b = 0;
  }
}

}  // namespace tessel::interp::dict_keys
