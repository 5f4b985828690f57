// A dict's entries in insertion order, the first few stored inside the DictObj itself (Note
// [Inline dict entries]).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <utility>

#include "interp/values/value.h"

namespace tessel::interp {

// Note [Inline dict entries]
// Most dicts are records of a few fields, made and dropped by the thousand (`point(x, y)`
// returning {"x": x, "y": y}). With a std::vector of entries each record cost two heap blocks,
// the DictObj and the vector's buffer: two malloc/free pairs. DictEntries keeps up to kInline
// entries in a buffer inside the object, so such a record is one allocation; past kInline the
// entries move to a heap buffer that doubles as a vector's does, and stay there (dicts never
// shrink: the language has no dict deletion). It is the small part of std::vector that dicts
// use: append, index, iterate in order. As with std::vector, growing moves the entries, so a
// pointer from DictObj::find is good only until the next insertion. kInline is 4: records
// rarely have more fields, and each inline entry is 48 bytes of every dict.
class DictEntries {
 public:
  using Entry = std::pair<std::string, Value>;
  static constexpr uint32_t kInline = 4;

  DictEntries() = default;
  DictEntries(const DictEntries&) = delete;
  DictEntries& operator=(const DictEntries&) = delete;
  ~DictEntries() {
    std::destroy_n(data_, size_);
    if (data_ != inlineData()) ::operator delete(data_);
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  Entry& operator[](size_t i) { return data_[i]; }
  const Entry& operator[](size_t i) const { return data_[i]; }
  Entry* begin() { return data_; }
  Entry* end() { return data_ + size_; }
  const Entry* begin() const { return data_; }
  const Entry* end() const { return data_ + size_; }
  Entry& back() { return data_[size_ - 1]; }

  /// Room for n entries without moving them again (a literal's known field count).
  void reserve(size_t n) {
    if (n > capacity_) grow(n, nullptr);
  }

  /// Appends an entry. The key may be one of this dict's own keys: a full buffer is copied
  /// from before it is freed.
  template <class Key>
  Entry& emplace_back(Key&& key, Value v) {
    if (size_ == capacity_) [[unlikely]] {
      Entry fresh(std::forward<Key>(key), std::move(v));
      grow(size_t{capacity_} * 2, &fresh);
      return data_[size_ - 1];
    }
    Entry* e =
        ::new (static_cast<void*>(data_ + size_)) Entry(std::forward<Key>(key), std::move(v));
    ++size_;
    return *e;
  }

 private:
  Entry* inlineData() { return reinterpret_cast<Entry*>(inline_); }

  /// Moves the entries to a heap buffer of n, appending `extra` (moved from) when given.
  void grow(size_t n, Entry* extra) {
    auto* bigger = static_cast<Entry*>(::operator new(n * sizeof(Entry)));
    std::uninitialized_move_n(data_, size_, bigger);
    std::destroy_n(data_, size_);
    if (data_ != inlineData()) ::operator delete(data_);
    data_ = bigger;
    capacity_ = static_cast<uint32_t>(n);
    if (extra) ::new (static_cast<void*>(data_ + size_++)) Entry(std::move(*extra));
  }

  Entry* data_ = inlineData();
  uint32_t size_ = 0;
  uint32_t capacity_ = kInline;
  alignas(Entry) unsigned char inline_[kInline * sizeof(Entry)];
};

}  // namespace tessel::interp
