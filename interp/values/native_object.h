// Values defined by a native library above the core (a plot's figure, a progress bar): the
// core prints them, looks up their methods and iterates them through this interface only.
#pragma once

#include <string>
#include <vector>

#include "interp/values/objects.h"

namespace tessel::interp {

// Note [Native objects]
// A library above the core (interp/natives/, the plot module) sometimes needs a value of its
// own kind: a figure that prints as a chart, a progress bar that is iterated and has methods.
// Rather than a Type per such kind, each touching the printer, attribute lookup, iteration and
// the collector, they share Type::Native and answer those questions here. type(v) is the
// kind's name ("figure"); a method is a NativeFn called with the object as `self`; an
// iterable kind yields its items one at a time through next(), so a loop over it runs each
// item's body before the next is asked for (a progress bar draws between them).
struct NativeObj : GcObject {
  NativeObj() : GcObject(Type::Native) {}
  /// What type() returns ("figure").
  virtual const char* kind() const = 0;
  /// The text print() and the REPL show.
  virtual std::string repr() const = 0;
  /// The method `name` (called with this object as CallArgs::self), or nullptr.
  virtual NativeFn method(const std::string& name) const { return nullptr; }
  /// The names of its methods, for dir() and "did you mean".
  virtual std::vector<std::string> methodNames() const { return {}; }
  /// Whether a for loop may iterate it (then begin() and next() are called).
  virtual bool iterable() const { return false; }
  /// Starts a pass over the items (a second loop starts again).
  virtual void begin() {}
  /// The next item into `item`, or false at the end.
  virtual bool next(Value& item) { return false; }
  /// The loop is over, by its end, a break, a return or an error.
  virtual void end(bool completed) {}
  /// A figure holds no values: by default there is nothing for the collector to see.
  void traverse(GcVisit, void*) override {}
  void clearRefs() override {}
};

/// The kind name of a value: a native object's kind, else its type's name.
inline std::string kindName(const Value& v) {
  if (v.is(Type::Native)) return v.as<NativeObj>()->kind();
  return std::string(typeName(v.type()));
}

/// Every item of an iterable native object, in a vector (list(), sorted(), ...).
inline std::vector<Value> nativeItems(NativeObj& object) {
  std::vector<Value> items;
  object.begin();
  Value item;
  while (object.next(item)) items.push_back(std::move(item));
  object.end(true);
  return items;
}

}  // namespace tessel::interp
