// ArgBinder and value-type expectations for natives.
#include "interp/values/native_args.h"

#include "interp/syntax/suggest.h"

#include <algorithm>
#include <cstring>

#include "interp/values/native_object.h"
#include "interp/values/printer.h"
#include "interp/values/sym_value.h"
#include "interp/values/tensor_hooks.h"
#include "shapes/user_error.h"

namespace tessel::interp {

void ArgBinder::bindSlow(CallArgs& args, size_t required) {
  const char* fn = fn_;
  std::fill_n(bound_, count_, nullptr);
  const size_t n = args.positional.size();
  if (n > positional_ && !variadic_)
    throwUserError(ErrorKind::TypeError, std::string(fn) + "() takes at most " +
                                             std::to_string(positional_) +
                                             (positional_ == count_ ? "" : " positional") +
                                             " arguments (" + std::to_string(n) + " given)");
  for (size_t i = 0; i < std::min(n, positional_); ++i) bound_[i] = &args.positional[i];
  if (variadic_ && n > positional_) {
    rest_ = &args.positional[positional_];
    restCount_ = n - positional_;
  }
  // The names a keyword may take: all but a `*rest` parameter's.
  auto keywordable = [&](size_t i) { return !(variadic_ && i == positional_); };
  for (size_t k = 0; k < args.kwNames.size(); ++k) {
    size_t i = 0;
    while (i < count_ && (args.kwNames[k] != names_[i] || !keywordable(i))) ++i;
    if (i == count_) {
      std::vector<std::string> names;
      for (size_t j = 0; j < count_; ++j)
        if (keywordable(j)) names.push_back(names_[j]);
      std::string hint = didYouMean(args.kwNames[k], names);
      // Without a near name, the ones it takes: the error then says how to call it.
      if (hint.empty()) {
        hint = names.empty() ? " (it takes no keyword arguments)" : " (its keywords: ";
        for (size_t j = 0; j < names.size(); ++j) hint += (j ? ", " : "") + names[j];
        if (!names.empty()) hint += ")";
      }
      throwUserError(ErrorKind::TypeError, std::string(fn) +
                                               "() got an unexpected keyword argument '" +
                                               args.kwNames[k] + "'" + hint);
    }
    if (bound_[i])
      throwUserError(ErrorKind::TypeError,
                     std::string(fn) + "() got multiple values for argument '" + names_[i] + "'");
    bound_[i] = &args.kwValues[k];
  }
  for (size_t i = 0; i < required; ++i)
    if (!bound_[i])
      throwUserError(ErrorKind::TypeError,
                     std::string(fn) + "() missing argument '" + names_[i] + "'");
}

void ArgBinder::typeError(size_t i, const char* expected) const {
  throwUserError(ErrorKind::TypeError, std::string(fn_) + "(): argument '" + names_[i] +
                                           "' must be " + expected + ", not '" +
                                           std::string(typeName(bound_[i]->type())) + "'");
}

int64_t ArgBinder::toInt(size_t i) const {
  const Value& v = at(i);
  if (v.is(Type::Int)) return v.asInt();
  if (v.is(Type::Bool)) return v.asBool();
  if (v.is(Type::SymInt)) return concreteInt(v);
  typeError(i, "int");
}

double ArgBinder::toFloat(size_t i) const {
  const Value& v = at(i);
  if (v.isNumber()) return v.toDouble();
  if (v.is(Type::Bool)) return v.asBool();
  if (v.is(Type::SymInt) || v.is(Type::SymFloat)) return concreteFloat(v);
  typeError(i, "a number");
}

bool ArgBinder::toBool(size_t i) const {
  const Value& v = at(i);
  if (v.is(Type::Bool)) return v.asBool();
  if (v.is(Type::SymBool)) return concreteBool(v);
  typeError(i, "bool");
}

const std::string& ArgBinder::toStr(size_t i) const {
  const Value& v = at(i);
  if (v.is(Type::Str)) return v.as<StrObj>()->str;
  typeError(i, "str");
}

int64_t expectInt(const Value& v, const std::string& what) {
  if (v.is(Type::Int)) return v.asInt();
  if (v.is(Type::Bool)) return v.asBool();
  if (v.is(Type::SymInt)) return concreteInt(v);
  throwUserError(ErrorKind::TypeError,
                 what + " must be int, not '" + std::string(typeName(v.type())) + "'");
}

double expectNumber(const Value& v, const std::string& what) {
  if (v.isNumber()) return v.toDouble();
  if (v.is(Type::Bool)) return v.asBool();
  if (v.is(Type::SymInt) || v.is(Type::SymFloat)) return concreteFloat(v);
  throwUserError(ErrorKind::TypeError,
                 what + " must be a number, not '" + std::string(typeName(v.type())) + "'");
}

const std::string& expectStr(const Value& v, const std::string& what) {
  if (v.is(Type::Str)) return v.as<StrObj>()->str;
  throwUserError(ErrorKind::TypeError,
                 what + " must be str, not '" + std::string(typeName(v.type())) + "'");
}

std::vector<Value> iterate(const Value& v, const std::string& what) {
  switch (v.type()) {
    case Type::List:
      return v.as<ListObj>()->items;
    case Type::Tuple:
      return v.as<TupleObj>()->items;
    case Type::Range: {
      auto* r = v.as<RangeObj>();
      std::vector<Value> out;
      int64_t n = r->size();
      if (n > (int64_t{1} << 28))
        throwUserError(ErrorKind::LimitError, what + ": range too large to materialize");
      out.reserve(n);
      for (int64_t i = 0, x = r->start; i < n; ++i, x += r->step) out.push_back(Value::integer(x));
      return out;
    }
    case Type::Dict: {
      std::vector<Value> out;
      for (auto& [k, val] : v.as<DictObj>()->entries) out.push_back(makeStr(k));
      return out;
    }
    case Type::Str: {
      std::vector<Value> out;
      for (auto& ch : utf8Chars(v.as<StrObj>()->str)) out.push_back(makeStr(ch));
      return out;
    }
    case Type::Tensor:
    case Type::Shape:
      return tensorHooks().iterate(v);
    case Type::Native:
      if (v.as<NativeObj>()->iterable()) return nativeItems(*v.as<NativeObj>());
      [[fallthrough]];
    default:
      throwUserError(ErrorKind::TypeError, what + ": '" + kindName(v) + "' is not iterable");
  }
}

}  // namespace tessel::interp
