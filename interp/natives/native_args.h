// Argument checking for natives, at the API boundary (Lua style): arity, keywords and types,
// with messages that name the function and the argument.
#pragma once

#include <algorithm>
#include <initializer_list>
#include <string>

#include "interp/values/objects.h"
#include "shapes/user_error.h"

namespace tessel::interp {

/// Binds positional and keyword arguments to parameter names, Python style. `params` lists
/// every accepted name in order; `required` how many must be present.
class ArgBinder {
 public:
  // Inline, so that at each native the parameter count and names are constants and the
  // usual call, enough positional arguments and no keywords, binds in a few stores.
  ArgBinder(const char* fn, CallArgs& args, std::initializer_list<const char*> params,
            size_t required)
      : fn_(fn), count_(params.size()) {
    TESSEL_ASSERT(count_ <= kMaxParams, std::string(fn) + "() has too many parameters");
    std::copy(params.begin(), params.end(), names_);
    size_t n = args.positional.size();
    if (args.kwNames.empty() && n >= required && n <= count_) [[likely]] {
      for (size_t i = 0; i < count_; ++i) bound_[i] = i < n ? &args.positional[i] : nullptr;
      return;
    }
    bindSlow(args, required);
  }
  /// The argument for parameter i, or nullptr when it was not passed.
  const Value* get(size_t i) const { return bound_[i]; }
  bool has(size_t i) const { return bound_[i] != nullptr; }
  const Value& at(size_t i) const { return *bound_[i]; }

  int64_t toInt(size_t i) const;
  int64_t intOr(size_t i, int64_t dflt) const { return has(i) ? toInt(i) : dflt; }
  double toFloat(size_t i) const;
  bool toBool(size_t i) const;
  const std::string& toStr(size_t i) const;

 private:
  // Keywords, or an arity error.
  void bindSlow(CallArgs& args, size_t required);
  [[noreturn]] void typeError(size_t i, const char* expected) const;
  // Fixed arrays: natives are called in loops, and a binder must not allocate.
  static constexpr size_t kMaxParams = 16;
  const char* fn_;
  size_t count_;
  const char* names_[kMaxParams];
  const Value* bound_[kMaxParams];  // the first count_ are set by the constructor
};

/// "expected int, got str" style helpers for natives that check one value.
int64_t expectInt(const Value& v, const std::string& what);
double expectNumber(const Value& v, const std::string& what);
const std::string& expectStr(const Value& v, const std::string& what);
/// The items of a list or tuple (or the values of a range), for natives taking iterables.
std::vector<Value> iterate(const Value& v, const std::string& what);

}  // namespace tessel::interp
