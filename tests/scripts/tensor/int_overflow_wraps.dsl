# Found by tests/fuzz/fuzz_compile_diff under UBSan: i32 add, sub and mul overflowed as signed
# C++ ints (undefined behaviour), in the eager kernels and in fused compiled ones. They wrap
# around in two's complement now, as division, negation and PyTorch's integer tensors do.
let big = tensor([2147483647, -2147483648])
print((big + 1).tolist())         # expect: [-2147483648, -2147483647]
print((big - 1).tolist())         # expect: [2147483646, 2147483647]
print((big * big).tolist())       # expect: [1, 0]
print(full([2], 1e10).to(i32).tolist())  # expect: [2147483647, 2147483647]
fn sq(x) { return (x * x + x) - 1 }
print(sq(big).tolist())           # expect: [2147483647, 2147483647]
print(compile(sq)(big).tolist())  # expect: [2147483647, 2147483647]
