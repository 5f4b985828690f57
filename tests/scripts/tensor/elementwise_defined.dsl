# The ops of ops/elementwise.ops through the language: keywords by PyTorch's names, methods,
# integer and bool arguments, numbers for tensors, broadcasting, and the aliases and
# decompositions. (Their values against PyTorch: tests/torch/elementwise_parity.py.)
let x = tensor([0.5, -2.0, 3.0])
let y = tensor([1.0, 4.0, -2.0])
print(atan2(input = x, other = y))        # expect: tensor([ 0.4636, -0.4636,  2.1588])
print(x.atan2(y))                         # expect: tensor([ 0.4636, -0.4636,  2.1588])
print(hypot(x, 2.0))                      # expect: tensor([2.0616, 2.8284, 3.6056])
print(lerp(x, y, weight = tensor([0.0, 0.5, 1.0])))  # expect: tensor([ 0.5000,  1.0000, -2.0000])
print(square(tensor([3, -4])), square(tensor([true, false])))  # expect: tensor([ 9, 16]) tensor([1, 0])
print(fmod(tensor([7, -7]), tensor([3, 3])), remainder(tensor([7, -7]), 3))  # expect: tensor([ 1, -1]) tensor([1, 2])
print(heaviside(tensor([-1, 0, 5]), tensor([7])))  # expect: tensor([0, 7, 1])
print(reciprocal(tensor([2, 4])).dtype, atanh(tensor([1.0, -1.0, 2.0])))  # expect: f32 tensor([inf, -inf, nan])
print(copysign(tensor([1.0, 2.0]), tensor([-0.0, 0.0])))  # expect: tensor([-1.,  2.])
print(xlogy(tensor([0.0, 0.0]), tensor([0.0, float("nan")])))  # expect: tensor([0., nan])
print(hardtanh(x, max_val = 2.5), relu6(tensor([-1.0, 7.0])))  # expect: tensor([ 0.5000, -1.0000,  2.5000]) tensor([0., 6.])
print(leaky_relu(x, negative_slope = 0.5), elu(x, alpha = 2.0).shape)  # expect: tensor([ 0.5000, -1.0000,  3.0000]) shape([3])
# The gradient of a decomposition comes from its ops; of a defined op, from its formula.
print(grad(fn(v) { return (mish(v) + asinh(v)).sum() })(tensor([0.0])))  # expect: tensor([1.6000])
@compile
fn f(a, b) { return logaddexp(a, b) + cosh(a) * sinh(b) }
print(f(x, y).shape, f(tensor([0.0]), tensor([0.0])))  # expect: shape([3]) tensor([0.6931])
atan2(x, othr = y)  # expect error: TypeError: atan2() got an unexpected keyword argument 'othr' (did you mean 'other'?)
