// Argument checking for natives, at the API boundary (Lua style): arity, keywords and types,
// with messages that name the function and the argument.
#pragma once

#include <algorithm>
#include <initializer_list>
#include <span>
#include <string>

#include "interp/values/native_signature.h"
#include "interp/values/objects.h"
#include "shapes/user_error.h"

namespace tessel::interp {

/// Binds positional and keyword arguments to parameter names, Python style. A tensor native
/// binds by its generated signature, the line of ops/tensor_functions.txt help() prints
/// (`ArgBinder b(sig::zeros, args)`, ops_gen/tensor_signatures.h); other natives list every
/// accepted name in order and how many are required.
class ArgBinder {
 public:
  // Inline, so that at each native the parameter count and names are constants and the
  // usual call, enough positional arguments and no keywords, binds in a few stores.
  ArgBinder(const char* fn, CallArgs& args, std::initializer_list<const char*> params,
            size_t required)
      : fn_(fn), names_(ownNames_), count_(params.size()), positional_(count_) {
    TESSEL_ASSERT(count_ <= kMaxParams, std::string(fn) + "() has too many parameters");
    std::copy(params.begin(), params.end(), ownNames_);
    size_t n = args.positional.size();
    if (args.kwNames.empty() && n >= required && n <= count_) [[likely]] {
      for (size_t i = 0; i < count_; ++i) bound_[i] = i < n ? &args.positional[i] : nullptr;
      return;
    }
    bindSlow(args, required);
  }
  // The same fast path over a signature's static names: nothing is copied or allocated.
  // tools/signatures.py keeps count within kMaxParams.
  ArgBinder(const NativeSignature& sig, CallArgs& args)
      : fn_(sig.name), names_(sig.params), count_(sig.count), positional_(sig.positional),
        variadic_(sig.variadic) {
    size_t n = args.positional.size();
    if (args.kwNames.empty() && !sig.variadic && n >= sig.required && n <= sig.positional)
        [[likely]] {
      for (size_t i = 0; i < count_; ++i) bound_[i] = i < n ? &args.positional[i] : nullptr;
      return;
    }
    bindSlow(args, sig.required);
  }
  // names_ may point into this object (ownNames_): a copy would point into the original.
  ArgBinder(const ArgBinder&) = delete;
  ArgBinder& operator=(const ArgBinder&) = delete;

  /// The argument for parameter i, or nullptr when it was not passed.
  const Value* get(size_t i) const { return bound_[i]; }
  bool has(size_t i) const { return bound_[i] != nullptr; }
  const Value& at(size_t i) const { return *bound_[i]; }
  /// The positional arguments a `*rest` parameter took (empty without one).
  std::span<const Value> rest() const { return {rest_, restCount_}; }

  int64_t toInt(size_t i) const;
  int64_t intOr(size_t i, int64_t dflt) const { return has(i) ? toInt(i) : dflt; }
  double toFloat(size_t i) const;
  bool toBool(size_t i) const;
  const std::string& toStr(size_t i) const;

 private:
  // Keywords, a variadic parameter, or an arity error.
  void bindSlow(CallArgs& args, size_t required);
  [[noreturn]] void typeError(size_t i, const char* expected) const;
  // Fixed arrays: natives are called in loops, and a binder must not allocate.
  static constexpr size_t kMaxParams = 16;
  const char* fn_;
  const char* const* names_;
  size_t count_;
  size_t positional_;  // the parameters that may be given by position
  bool variadic_ = false;
  const Value* rest_ = nullptr;
  size_t restCount_ = 0;
  const char* ownNames_[kMaxParams];  // the names of the list constructor
  const Value* bound_[kMaxParams];    // the first count_ are set by the constructor
};

/// "expected int, got str" style helpers for natives that check one value.
int64_t expectInt(const Value& v, const std::string& what);
double expectNumber(const Value& v, const std::string& what);
const std::string& expectStr(const Value& v, const std::string& what);
/// The items of a list or tuple (or the values of a range), for natives taking iterables.
std::vector<Value> iterate(const Value& v, const std::string& what);

}  // namespace tessel::interp
