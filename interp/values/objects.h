// The heap objects behind Values: strings, containers, functions, cells and modules.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "interp/values/dict_entries.h"
#include "interp/values/dict_keys.h"
#include "interp/values/gc.h"
#include "interp/syntax/diagnostics.h"
#include "interp/syntax/source.h"
#include "interp/values/trace_context.h"
#include "interp/values/value.h"

namespace tessel::interp {

struct FnProto;
class Interpreter;

/// Which trace is running on this thread (0: none). Containers remember the trace they were
/// made in, so a compiled function can tell its own lists from the caller's. Inline: global
/// stores of closure code test it (storeNonLocal).
inline uint64_t currentTraceEpoch() {
  return traceContext().epoch;
}
/// A mutation of `what` (made in trace epoch `epoch`) while another trace runs is a graph
/// break: the statement runs eagerly at every call instead (interp/values/graph_break.h).
void checkMutableWhileTracing(uint64_t epoch, const char* what);

struct StrObj : Object {
  explicit StrObj(std::string s) : Object(Type::Str), str(std::move(s)) {}
  std::string str;
};

// The containers below are GcObjects: each reports its references to the cycle collector
// (traverse) and can drop them (clearRefs), in objects.cpp (Note [Cycle collection], gc.cpp).
#define TESSEL_GC_MEMBERS                          \
  void traverse(GcVisit visit, void* ctx) override; \
  void clearRefs() override;

struct ListObj : GcObject {
  ListObj() : GcObject(Type::List) {}
  explicit ListObj(std::vector<Value> v) : GcObject(Type::List), items(std::move(v)) {}
  TESSEL_GC_MEMBERS
  size_t gcSlots() const override { return items.size(); }
  void traverseSlots(GcVisit visit, void* ctx, size_t from, size_t to) override;
  std::vector<Value> items;
  uint64_t traceEpoch = currentTraceEpoch();
};

struct TupleObj : GcObject {
  explicit TupleObj(std::vector<Value> v) : GcObject(Type::Tuple), items(std::move(v)) {}
  TESSEL_GC_MEMBERS
  size_t gcSlots() const override { return items.size(); }
  void traverseSlots(GcVisit visit, void* ctx, size_t from, size_t to) override;
  std::vector<Value> items;
};

/// The hash of a dict key in a large dict's index (Note [Small dicts] in objects.cpp).
struct DictKeyHash {
  size_t operator()(const std::string& key) const noexcept;
};

/// A dict with string keys that keeps insertion order (language.md).
struct DictObj : GcObject {
  DictObj() : GcObject(Type::Dict) {}
  TESSEL_GC_MEMBERS
  uint64_t traceEpoch = currentTraceEpoch();
  Value* find(const std::string& key);
  /// find() trying the entry at `hint` first, and leaving the found entry's position there:
  /// a lookup site (`p["x"]`) mostly sees records with the same fields in the same order.
  Value* find(const std::string& key, uint32_t& hint);
  /// find() with the hint's compare in line, for sites that mostly hit it (`p["x"]` reads):
  /// where the key changes at every run (`counts[k] += 1`) the out-of-line call is cheaper.
  Value* findAt(const std::string& key, uint32_t& hint) {
    if (hint < entries.size() && dict_keys::sameKey(entries[hint].first, key)) [[likely]]
      return &entries[hint].second;
    return find(key, hint);
  }
  void set(const std::string& key, Value v);
  /// set() for a key known not to be in the dict (a literal's distinct constant keys).
  void insertNew(const std::string& key, Value v);
  /// In insertion order; the first few inside the object (Note [Inline dict entries]).
  DictEntries entries;
  /// Key to position in `entries`; null while the dict is small (Note [Small dicts]).
  using Index = std::unordered_map<std::string, size_t, DictKeyHash>;
  std::unique_ptr<Index> index;
  static constexpr size_t kIndexedSize = 8;
};

/// range(start, stop, step): lazy, so `for i in range(1e8)` allocates nothing.
struct RangeObj : Object {
  RangeObj(int64_t a, int64_t b, int64_t s) : Object(Type::Range), start(a), stop(b), step(s) {}
  int64_t size() const;
  int64_t start, stop, step;
};

/// A variable captured by an inner function: both frames share the box.
struct CellObj : GcObject {
  CellObj() : GcObject(Type::Cell) {}
  explicit CellObj(Value v) : GcObject(Type::Cell), value(std::move(v)) {}
  TESSEL_GC_MEMBERS
  Value value;
  uint64_t traceEpoch = currentTraceEpoch();
};

/// A module's top-level names. Functions point at their module to reach its globals by slot.
struct ModuleObj : GcObject {
  explicit ModuleObj(std::string n, std::string p = "")
      : GcObject(Type::Module), name(std::move(n)), path(std::move(p)) {}
  TESSEL_GC_MEMBERS
  /// The slot of a global, created (undefined) if it does not exist yet.
  uint32_t slotOf(const std::string& name);
  /// The value of a global, or nullptr when there is no such defined global.
  Value* lookup(const std::string& name);
  void define(const std::string& name, Value v) { globals[slotOf(name)] = std::move(v); }

  std::string name;
  std::string path;  // the file the module came from; "" for the REPL and -c
  /// Built-in modules with checked fields (`config`) validate assignments here; null for
  /// modules written in Tessel.
  void (*setField)(ModuleObj& self, const std::string& name, Value v) = nullptr;
  void* native = nullptr;  // state of a built-in module (config: its CompilerConfig)
  std::vector<Value> globals;
  std::vector<std::string> globalNames;
  std::unordered_map<std::string, uint32_t> globalIndex;
};

/// A closure over a FnProto: its captured cells and its evaluated defaults.
struct FunctionObj : GcObject {
  FunctionObj(FnProto* p, Ref<ModuleObj> m)
      : GcObject(Type::Function), proto(p), module(std::move(m)) {}
  TESSEL_GC_MEMBERS
  FnProto* proto;
  Ref<ModuleObj> module;
  std::vector<Ref<CellObj>> upvalues;
  std::vector<Value> defaults;  // one per parameter; Undefined where there is none
};

/// The arguments of a call as natives see them: positional values, then keyword pairs.
struct CallArgs {
  std::span<Value> positional;
  std::span<const std::string> kwNames;
  std::span<Value> kwValues;
  Value self;   // the receiver of a method call; None otherwise
  Span site{};  // the call expression, for natives that call back into Tessel
};

using NativeFn = Value (*)(Interpreter& interp, CallArgs& args);

/// A function written in C++: a prelude built-in, or a method bound to its receiver.
struct BuiltinObj : GcObject {
  BuiltinObj(std::string n, NativeFn f, Value s = Value())
      : GcObject(Type::Builtin), name(std::move(n)), fn(f), self(std::move(s)) {}
  TESSEL_GC_MEMBERS
  std::string name;
  NativeFn fn;
  Value self;
};

inline Value makeStr(std::string s) {
  return Value::object(new StrObj(std::move(s)));
}
inline Value makeList(std::vector<Value> v = {}) {
  return Value::object(new ListObj(std::move(v)));
}
inline Value makeTuple(std::vector<Value> v) {
  return Value::object(new TupleObj(std::move(v)));
}
/// Adds a native function to a module (the prelude, a native module).
inline void defineNative(ModuleObj& module, const char* name, NativeFn fn) {
  module.define(name, Value::object(new BuiltinObj(name, fn)));
}

/// An error as a value (language.md, "Errors you can catch"): what `except ... as e` binds,
/// what `ValueError("...")` makes and `raise` throws. It keeps the ScriptError itself, so a
/// re-raised error keeps its place and its calls.
struct ErrorObj : Object {
  explicit ErrorObj(ScriptError e, bool wasRaised = false)
      : Object(Type::Error), error(std::move(e)), raised(wasRaised) {}
  ScriptError error;
  bool raised;  // caught by an `except`: raising it again keeps its span and calls
};

}  // namespace tessel::interp
