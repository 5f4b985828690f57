// Small out-of-line pieces of the heap objects.
#include "interp/values/objects.h"

#include <algorithm>

#include <utility>

#include "interp/values/dict_keys.h"
#include "interp/values/graph_break.h"
#include "shapes/user_error.h"

namespace tessel::interp {


void checkMutableWhileTracing(uint64_t epoch, const char* what) {
  if (traceContext().epoch == 0 || epoch == traceContext().epoch) return;
  // Done while tracing, it would happen once, with symbolic values; run eagerly, it happens at
  // every call with real ones.
  graphBreak(ErrorKind::ValueError,
             std::string("changing a ") + what + " made outside the traced code");
}

void destroyObject(Object* o) {
  constexpr int kMaxDepth = 64;
  thread_local int depth = 0;
  thread_local std::vector<Object*> pending;
  if (depth >= kMaxDepth) {
    pending.push_back(o);
    return;
  }
  ++depth;
  delete o;
  if (depth == 1) {
    while (!pending.empty()) {
      Object* next = pending.back();
      pending.pop_back();
      delete next;  // may queue more: the loop runs until the whole structure is gone
    }
  }
  --depth;
}

// Note [Small dicts]
// Most dicts are records of a few fields ({"x": 1, "y": 2}). Below kIndexedSize entries a
// scan of `entries` finds a key faster than hashing it, and building such a dict allocates no
// hash nodes; the index is built when the dict grows past that size, and kept from then on.
// The scan compares keys with sameKey: field names are a few bytes long, where a call of
// memcmp (what std::string's == makes) costs more than the compare itself. For the same
// reason the index hashes keys of up to 16 bytes in line (DictKeyHash) rather than with
// std::hash's murmur loop. Lookup sites in closure code keep the position of their last hit
// (find with a hint): `p["y"]` then costs one compare whatever the field's place.
using dict_keys::keyWords;
using dict_keys::sameKey;

size_t DictKeyHash::operator()(const std::string& key) const noexcept {
  size_t n = key.size();
  if (n > 16) return std::hash<std::string>()(key);
  uint64_t a, b;
  keyWords(key.data(), n, a, b);
  uint64_t h = (a ^ n) * 0x9E3779B97F4A7C15ull;  // two odd multipliers from xxHash64
  h ^= (b + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
  return h ^ (h >> 29);
}

Value* DictObj::find(const std::string& key, uint32_t& hint) {
  if (hint < entries.size() && sameKey(entries[hint].first, key)) return &entries[hint].second;
  if (index) {
    auto it = index->find(key);
    if (it == index->end()) return nullptr;
    hint = static_cast<uint32_t>(it->second);
    return &entries[it->second].second;
  }
  for (size_t i = 0; i < entries.size(); ++i) {
    if (sameKey(entries[i].first, key)) {
      hint = static_cast<uint32_t>(i);
      return &entries[i].second;
    }
  }
  return nullptr;
}

Value* DictObj::find(const std::string& key) {
  if (!index) {
    for (auto& [k, v] : entries)
      if (sameKey(k, key)) return &v;
    return nullptr;
  }
  auto it = index->find(key);
  return it == index->end() ? nullptr : &entries[it->second].second;
}

void DictObj::set(const std::string& key, Value v) {
  if (Value* old = find(key)) {
    *old = std::move(v);
    return;
  }
  insertNew(key, std::move(v));
}

void DictObj::insertNew(const std::string& key, Value v) {
  entries.emplace_back(key, std::move(v));
  if (index) {
    index->emplace(key, entries.size() - 1);
  } else if (entries.size() > kIndexedSize) {
    index = std::make_unique<Index>();
    for (size_t i = 0; i < entries.size(); ++i) index->emplace(entries[i].first, i);
  }
}

int64_t RangeObj::size() const {
  if (step > 0) return start < stop ? (stop - start + step - 1) / step : 0;
  return start > stop ? (start - stop - step - 1) / -step : 0;
}

uint32_t ModuleObj::slotOf(const std::string& n) {
  auto [it, inserted] = globalIndex.emplace(n, static_cast<uint32_t>(globals.size()));
  if (inserted) {
    globals.push_back(Value::undefined());
    globalNames.push_back(n);
  }
  return it->second;
}

Value* ModuleObj::lookup(const std::string& n) {
  auto it = globalIndex.find(n);
  if (it == globalIndex.end() || globals[it->second].is(Type::Undefined)) return nullptr;
  return &globals[it->second];
}

}  // namespace tessel::interp

// What each container references, for the cycle collector (Note [Cycle collection] in
// gc.cpp). clearRefs() moves the references out before releasing them: what a release frees
// then never sees this object half cleared.
namespace tessel::interp {
namespace {
void visitAll(const std::vector<Value>& values, GcVisit visit, void* ctx) {
  for (const Value& v : values) gcVisit(v, visit, ctx);
}
}  // namespace

void ListObj::traverse(GcVisit visit, void* ctx) {
  visitAll(items, visit, ctx);
}
void ListObj::clearRefs() {
  std::vector<Value> old;
  old.swap(items);
}

// Large lists and tuples are visited in parts by incremental collections (gc.h).
static void visitSlots(const std::vector<Value>& items, GcVisit visit, void* ctx, size_t from,
                       size_t to) {
  for (size_t i = from; i < std::min(to, items.size()); ++i) gcVisit(items[i], visit, ctx);
}
void ListObj::traverseSlots(GcVisit visit, void* ctx, size_t from, size_t to) {
  visitSlots(items, visit, ctx, from, to);
}
void TupleObj::traverseSlots(GcVisit visit, void* ctx, size_t from, size_t to) {
  visitSlots(items, visit, ctx, from, to);
}

void TupleObj::traverse(GcVisit visit, void* ctx) {
  visitAll(items, visit, ctx);
}
void TupleObj::clearRefs() {
  std::vector<Value> old;
  old.swap(items);
}

void DictObj::traverse(GcVisit visit, void* ctx) {
  for (auto& [k, v] : entries) gcVisit(v, visit, ctx);
}
void DictObj::clearRefs() {
  // The keys stay (strings hold no references); each value is released on its own.
  for (auto& [k, v] : entries) Value old = std::move(v);
}

void CellObj::traverse(GcVisit visit, void* ctx) {
  gcVisit(value, visit, ctx);
}
void CellObj::clearRefs() {
  Value old = std::move(value);
}

void ModuleObj::traverse(GcVisit visit, void* ctx) {
  visitAll(globals, visit, ctx);
}
void ModuleObj::clearRefs() {
  for (Value& v : globals) Value old = std::exchange(v, Value::undefined());
}

void FunctionObj::traverse(GcVisit visit, void* ctx) {
  gcVisit(module, visit, ctx);
  for (const Ref<CellObj>& c : upvalues) gcVisit(c, visit, ctx);
  visitAll(defaults, visit, ctx);
}
void FunctionObj::clearRefs() {
  Ref<ModuleObj> m = std::move(module);
  std::vector<Ref<CellObj>> cells;
  cells.swap(upvalues);
  std::vector<Value> values;
  values.swap(defaults);
}

void BuiltinObj::traverse(GcVisit visit, void* ctx) {
  gcVisit(self, visit, ctx);
}
void BuiltinObj::clearRefs() {
  Value old = std::move(self);
}

}  // namespace tessel::interp
