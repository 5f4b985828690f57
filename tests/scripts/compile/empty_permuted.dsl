# An empty result of a fused chain over a permuted operand (a bug once: an internal assert).
@compile
fn f(x, y) { return relu(permute(x, [4, 3, 2, 1, 0]) * 2.0 + y) - 1.0 }
print(f(ones([2, 3, 0, 2, 2]), ones([2, 2, 0, 3, 2])).shape)  # expect: shape([2, 2, 0, 3, 2])
print(f(ones([2, 3, 1, 2, 2]), ones([2, 2, 1, 3, 2])).sum().item())  # expect: 48.0
