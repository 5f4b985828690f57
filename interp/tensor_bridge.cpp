// Placeholder bodies for the tensor seam, until backends/ provides tensors: no value of type
// Tensor, Shape or DType can be created yet, so none of these is reachable.
#include "interp/tensor_bridge.h"

#include "shapes/user_error.h"

namespace tessel::interp {

#define TESSEL_UNREACHABLE_TENSOR() TESSEL_ASSERT(false, "tensor values are not bound yet")

Value tensorIndex(Interpreter&, const Value&, const std::vector<IndexItem>&) { TESSEL_UNREACHABLE_TENSOR(); }
Value tensorCompare(CompareOp, const Value&, const Value&) { TESSEL_UNREACHABLE_TENSOR(); }
Value tensorBinary(BinaryOp, const Value&, const Value&) { TESSEL_UNREACHABLE_TENSOR(); }
Value tensorUnary(UnaryOp, const Value&) { TESSEL_UNREACHABLE_TENSOR(); }
bool tensorTruthy(const Value&) { TESSEL_UNREACHABLE_TENSOR(); }
std::string tensorRepr(const Value&) { TESSEL_UNREACHABLE_TENSOR(); }
bool objectsEqual(const Value&, const Value&) { TESSEL_UNREACHABLE_TENSOR(); }
int64_t shapeLength(const Value&) { TESSEL_UNREACHABLE_TENSOR(); }
Value shapeIndex(const Value&, const Value&) { TESSEL_UNREACHABLE_TENSOR(); }
Value shapeSlice(const Value&, std::optional<int64_t>, std::optional<int64_t>, std::optional<int64_t>) { TESSEL_UNREACHABLE_TENSOR(); }
bool shapeContains(const Value&, const Value&) { TESSEL_UNREACHABLE_TENSOR(); }
std::vector<Value> iterateTensorLike(const Value&) { TESSEL_UNREACHABLE_TENSOR(); }
NativeFn findTensorMethod(const std::string&) { return nullptr; }
bool tensorProperty(const Value&, const std::string&, Value&) { return false; }
bool tensorSignature(const Value&, std::string&, std::vector<int64_t>&) { return false; }
Value tensorItem(const Value&, bool) { TESSEL_UNREACHABLE_TENSOR(); }
Value tensorReduceBuiltin(Interpreter&, const char*, CallArgs&) { TESSEL_UNREACHABLE_TENSOR(); }
void registerTensorBuiltins(Interpreter&, ModuleObj&) {}

}  // namespace tessel::interp
