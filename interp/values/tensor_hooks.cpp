#include "interp/values/tensor_hooks.h"

#include "shapes/user_error.h"

namespace tessel::interp {
namespace {

// A hook called before tensors/ installed the table: a tensor value exists only once it has,
// so this is a program that made one without an Interpreter (or an embedder that skipped it).
template <class F>
struct Missing;
template <class R, class... A>
struct Missing<R (*)(A...)> {
  static R fn(A...) {
    internalAssertFail("installTensorHooks()", __FILE__, __LINE__,
                       "a tensor hook was called before tensors/ installed the table");
  }
};

}  // namespace

namespace detail {
#define TESSEL_MISSING(hook) Missing<decltype(TensorHooks::hook)>::fn
TensorHooks gTensorHooks = {
    TESSEL_MISSING(binary),      TESSEL_MISSING(compare),       TESSEL_MISSING(unary),
    TESSEL_MISSING(truthy),      TESSEL_MISSING(index),         TESSEL_MISSING(repr),
    TESSEL_MISSING(objectsEqual), TESSEL_MISSING(shapeLength),  TESSEL_MISSING(shapeIndex),
    TESSEL_MISSING(shapeSlice),  TESSEL_MISSING(shapeContains), TESSEL_MISSING(signature),
    TESSEL_MISSING(isFake),      TESSEL_MISSING(item),          TESSEL_MISSING(iterate),
};
#undef TESSEL_MISSING
}  // namespace detail

void setTensorHooks(const TensorHooks& hooks) {
  detail::gTensorHooks = hooks;
}

}  // namespace tessel::interp
