// tessel::Value: the public handle on an interpreter value.
#include <utility>

#include "api/api_internal.h"
#include "interp/values/objects.h"
#include "interp/values/printer.h"
#include "interp/tensors/tensor_bridge.h"
#include "interp/tensors/tensor_value.h"

namespace tessel {

using interp::Type;

namespace api {

Value wrap(interp::Value v, std::shared_ptr<void> owner) {
  return Value(std::make_shared<Value::Impl>(Value::Impl{std::move(owner), std::move(v)}));
}

const interp::Value& unwrap(const Value& v) {
  return v.impl().value;
}

}  // namespace api

namespace {

const interp::Value& inner(const Value& v) {
  return api::unwrap(v);
}

[[noreturn]] void wrongType(const Value& v, const char* wanted) {
  throw api::errorWithoutLocation(
      "TypeError", std::string("expected ") + wanted + ", got " + v.typeName());
}

const std::vector<interp::Value>* sequence(const interp::Value& v) {
  if (v.is(Type::List)) return &v.as<interp::ListObj>()->items;
  if (v.is(Type::Tuple)) return &v.as<interp::TupleObj>()->items;
  return nullptr;
}

// Elements taken out of a container keep the container's owner (the interpreter).
std::shared_ptr<void> ownerOf(const Value& v) {
  return v.impl().owner;
}

}  // namespace

Value::Value() : Value(api::wrap(interp::Value::none())) {}
Value::Value(FromInt, int64_t i) : Value(api::wrap(interp::Value::integer(i))) {}
Value::Value(double f) : Value(api::wrap(interp::Value::real(f))) {}
Value::Value(bool b) : Value(api::wrap(interp::Value::boolean(b))) {}
Value::Value(std::string s) : Value(api::wrap(interp::makeStr(std::move(s)))) {}
// A tensor value may be made before any Interpreter is: its printing and operators reach
// tensors/ through the hooks each Interpreter installs, so install them here as well.
Value::Value(Tensor t) : Value(api::wrap(interp::makeTensor(t.impl().tensor))) {
  interp::installTensorHooks();
}

Value Value::list(std::vector<Value> items) {
  std::vector<interp::Value> values;
  values.reserve(items.size());
  for (const Value& item : items) values.push_back(inner(item));
  return api::wrap(interp::makeList(std::move(values)));
}

bool Value::isNone() const {
  return inner(*this).is(Type::None);
}
bool Value::isInt() const {
  return inner(*this).is(Type::Int);
}
bool Value::isFloat() const {
  return inner(*this).is(Type::Float);
}
bool Value::isBool() const {
  return inner(*this).is(Type::Bool);
}
bool Value::isString() const {
  return inner(*this).is(Type::Str);
}
bool Value::isTensor() const {
  return inner(*this).is(Type::Tensor);
}
bool Value::isList() const {
  return sequence(inner(*this)) != nullptr;
}
bool Value::isDict() const {
  return inner(*this).is(Type::Dict);
}
bool Value::isCallable() const {
  Type t = inner(*this).type();
  return t == Type::Function || t == Type::Builtin || t == Type::Compiled;
}

int64_t Value::asInt() const {
  if (!isInt()) wrongType(*this, "an int");
  return inner(*this).asInt();
}

double Value::asFloat() const {
  if (isInt()) return static_cast<double>(inner(*this).asInt());
  if (!isFloat()) wrongType(*this, "a float");
  return inner(*this).asFloat();
}

bool Value::asBool() const {
  if (!isBool()) wrongType(*this, "a bool");
  return inner(*this).asBool();
}

std::string Value::asString() const {
  if (!isString()) wrongType(*this, "a str");
  return inner(*this).as<interp::StrObj>()->str;
}

Tensor Value::asTensor() const {
  if (!isTensor()) wrongType(*this, "a tensor");
  return Tensor(std::make_shared<const Tensor::Impl>(Tensor::Impl{api::tensorOf(inner(*this))}));
}

size_t Value::size() const {
  const interp::Value& v = inner(*this);
  if (const auto* items = sequence(v)) return items->size();
  if (v.is(Type::Dict)) return v.as<interp::DictObj>()->entries.size();
  if (v.is(Type::Str)) return v.as<interp::StrObj>()->str.size();
  wrongType(*this, "a list, tuple, dict or str");
}

Value Value::operator[](size_t i) const {
  const auto* items = sequence(inner(*this));
  if (!items) wrongType(*this, "a list or tuple");
  if (i >= items->size())
    throw api::errorWithoutLocation("IndexError", "index " + std::to_string(i) +
                                                      " out of range for a " + typeName() +
                                                      " of " + std::to_string(items->size()));
  return api::wrap((*items)[i], ownerOf(*this));
}

Value Value::operator[](std::string_view key) const {
  if (!isDict()) wrongType(*this, "a dict");
  auto* dict = inner(*this).as<interp::DictObj>();
  interp::Value* found = dict->find(std::string(key));
  if (!found) throw api::errorWithoutLocation("KeyError", "no key '" + std::string(key) + "'");
  return api::wrap(*found, ownerOf(*this));
}

std::vector<Value> Value::keys() const {
  if (!isDict()) wrongType(*this, "a dict");
  std::vector<Value> out;
  for (const auto& [key, value] : inner(*this).as<interp::DictObj>()->entries) out.emplace_back(key);
  return out;
}

std::vector<Value> Value::items() const {
  const auto* items = sequence(inner(*this));
  if (!items) wrongType(*this, "a list or tuple");
  std::vector<Value> out;
  out.reserve(items->size());
  for (const interp::Value& item : *items) out.push_back(api::wrap(item, ownerOf(*this)));
  return out;
}

std::string Value::typeName() const {
  return std::string(interp::typeName(inner(*this).type()));
}

std::string Value::repr() const {
  return interp::repr(inner(*this));
}

}  // namespace tessel
