// Iterating any iterable value item by item: for loops and comprehensions. Private to
// interp/eval/.
#pragma once

#include "interp/eval/engine.h"
#include "interp/values/native_object.h"
#include "interp/values/printer.h"
#include "interp/values/tensor_hooks.h"

namespace tessel::interp {

// `body(item)` for each item of `iterable`, until it returns Break (the loop ends normally)
// or Return (passed on). Lists are read by index, so that appending inside the loop is seen,
// as in Python; ranges make no list; other iterables are copied first. Errors of the iterable
// itself point at `iterableSpan`.
template <class Body>
Flow Engine::eachItem(const Value& iterable, const Span& iterableSpan, Body&& body) {
  switch (iterable.type()) {
    case Type::Range: {
      auto* r = iterable.as<RangeObj>();
      int64_t n = r->size();
      for (int64_t i = 0, v = r->start; i < n; ++i, v += r->step) {
        Flow flow = body(Value::integer(v));
        if (flow == Flow::Break) break;
        if (flow == Flow::Return) return flow;
      }
      return Flow::Normal;
    }
    case Type::List: {
      auto* l = iterable.as<ListObj>();
      for (size_t i = 0; i < l->items.size(); ++i) {
        Flow flow = body(l->items[i]);
        if (flow == Flow::Break) break;
        if (flow == Flow::Return) return flow;
      }
      return Flow::Normal;
    }
    case Type::Native: {
      auto* native = iterable.as<NativeObj>();
      if (!native->iterable()) break;
      // The object hears how the loop ended (Note [Native objects]), also when it throws.
      struct End {
        NativeObj* native;
        bool completed = false;
        ~End() { native->end(completed); }
      } end{native};
      native->begin();
      Value item;
      while (native->next(item)) {
        Flow flow = body(std::move(item));
        if (flow == Flow::Break) return Flow::Normal;
        if (flow == Flow::Return) return flow;
      }
      end.completed = true;
      return Flow::Normal;
    }
    default:
      break;
  }
  std::vector<Value> items;
  switch (iterable.type()) {
    case Type::Tuple:
      items = iterable.as<TupleObj>()->items;
      break;
    case Type::Dict:
      for (auto& [k, v] : iterable.as<DictObj>()->entries) items.push_back(makeStr(k));
      break;
    case Type::Str:
      for (auto& ch : utf8Chars(iterable.as<StrObj>()->str)) items.push_back(makeStr(ch));
      break;
    case Type::Tensor:
    case Type::Shape:
      at(iterableSpan);
      items = tensorHooks().iterate(iterable);
      break;
    default:
      raise(ErrorKind::TypeError, "'" + kindName(iterable) + "' is not iterable", iterableSpan);
  }
  for (Value& item : items) {
    Flow flow = body(std::move(item));
    if (flow == Flow::Break) break;
    if (flow == Flow::Return) return flow;
  }
  return Flow::Normal;
}

}  // namespace tessel::interp
