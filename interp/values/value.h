// Value: the dynamically typed value of Tessel. Scalars are stored inline; everything else is a
// reference-counted Object, so copying a Value is a tag copy plus at most one increment.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace tessel::interp {

#define TESSEL_VALUE_TYPES(X) \
  X(Undefined, "undefined")   \
  X(None, "none")             \
  X(Bool, "bool")             \
  X(Int, "int")               \
  X(Float, "float")           \
  X(Str, "str")               \
  X(List, "list")             \
  X(Tuple, "tuple")           \
  X(Dict, "dict")             \
  X(Range, "range")           \
  X(Function, "function")     \
  X(Builtin, "function")      \
  X(Module, "module")         \
  X(Tensor, "tensor")         \
  X(Shape, "shape")           \
  X(DType, "dtype")           \
  X(Cell, "cell")             \
  X(SymInt, "int")            \
  X(SymBool, "bool")          \
  X(SymFloat, "float")        \
  X(Compiled, "compiled")     \
  X(Error, "error")           \
  X(Native, "native")

enum class Type : uint8_t {
#define TESSEL_X(t, name) t,
  TESSEL_VALUE_TYPES(TESSEL_X)
#undef TESSEL_X
};
// The AST's method cache starts value-initialized (`Type cachedType{}` in syntax/ast.h, which
// only declares Type) and reads that as "nothing cached".
static_assert(Type{} == Type::Undefined);

/// The name `type(v)` returns.
std::string_view typeName(Type t);

class Object;
/// Deletes an object whose last reference went away. Freeing a deeply nested container would
/// recurse once per level (a 100k-deep list would overflow the native stack), so past a small
/// depth objects are queued and freed iteratively by the outermost call (CPython's trashcan).
void destroyObject(Object* o);

/// Base of every heap value. Reference counts are not atomic: an Interpreter is used from one
/// thread at a time (interrupt() is the only cross-thread entry and touches no Value).
class Object {
 public:
  explicit Object(Type t) : type(t) {}
  virtual ~Object() = default;
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;

  uint32_t refs = 0;
  const Type type;
};

class Value {
 public:
  Value() : type_(Type::None) { u_.i = 0; }
  static Value undefined() {
    Value v;
    v.type_ = Type::Undefined;
    return v;
  }
  static Value none() { return Value(); }
  static Value boolean(bool b) {
    Value v;
    v.type_ = Type::Bool;
    v.u_.b = b;
    return v;
  }
  static Value integer(int64_t i) {
    Value v;
    v.type_ = Type::Int;
    v.u_.i = i;
    return v;
  }
  static Value real(double f) {
    Value v;
    v.type_ = Type::Float;
    v.u_.f = f;
    return v;
  }
  /// Takes a reference to a heap object (which may be newly allocated with refs == 0).
  static Value object(Object* o) {
    Value v;
    v.type_ = o->type;
    v.u_.o = o;
    ++o->refs;
    return v;
  }

  Value(const Value& other) : type_(other.type_), u_(other.u_) { retain(); }
  Value(Value&& other) noexcept : type_(other.type_), u_(other.u_) { other.type_ = Type::None; }
  Value& operator=(const Value& other) {
    if (this != &other) {
      other.retainConst();
      release();
      type_ = other.type_;
      u_ = other.u_;
    }
    return *this;
  }
  [[gnu::always_inline]] Value& operator=(Value&& other) noexcept {
    if (this != &other) {
      release();
      type_ = other.type_;
      u_ = other.u_;
      other.type_ = Type::None;
    }
    return *this;
  }
  ~Value() { release(); }

  Type type() const { return type_; }
  bool isHeap() const { return type_ >= Type::Str; }
  bool is(Type t) const { return type_ == t; }
  bool isNumber() const { return type_ == Type::Int || type_ == Type::Float; }

  bool asBool() const { return u_.b; }
  int64_t asInt() const { return u_.i; }
  double asFloat() const { return u_.f; }
  /// Int or float, as a double.
  double toDouble() const { return type_ == Type::Int ? static_cast<double>(u_.i) : u_.f; }
  Object* asObject() const { return u_.o; }
  template <class T>
  T* as() const {
    return static_cast<T*>(u_.o);
  }

 private:
  void retain() {
    if (isHeap()) ++u_.o->refs;
  }
  void retainConst() const {
    if (isHeap()) ++u_.o->refs;
  }
  void release() {
    if (isHeap() && --u_.o->refs == 0) destroyObject(u_.o);
  }

  Type type_;
  union {
    bool b;
    int64_t i;
    double f;
    Object* o;
  } u_;
};

/// An owning pointer to a specific Object type (intrusive count, like Value).
template <class T>
class Ref {
 public:
  Ref() = default;
  explicit Ref(T* p) : p_(p) {
    if (p_) ++p_->refs;
  }
  Ref(const Ref& o) : p_(o.p_) {
    if (p_) ++p_->refs;
  }
  Ref(Ref&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
  Ref& operator=(Ref o) {
    std::swap(p_, o.p_);
    return *this;
  }
  ~Ref() {
    if (p_ && --p_->refs == 0) destroyObject(p_);
  }
  T* get() const { return p_; }
  T* operator->() const { return p_; }
  T& operator*() const { return *p_; }
  explicit operator bool() const { return p_ != nullptr; }
  Value value() const { return Value::object(p_); }

 private:
  T* p_ = nullptr;
};

template <class T, class... A>
Ref<T> make(A&&... args) {
  return Ref<T>(new T(std::forward<A>(args)...));
}

}  // namespace tessel::interp
