# A shape whose element count overflows 64 bits is refused, not wrapped to a small tensor
# (zeros([2^40, 2^40]) used to give an empty tensor).
let x = zeros([1099511627776, 1099511627776])  # expect error: ValueError: full: shape [1099511627776, 1099511627776] has more elements than memory can address
