# A 0-d tensor accepts dim 0 and -1 (PyTorch): reductions over it and transposes of it return
# the scalar itself; other dims are IndexErrors. These once read past an empty shape.
let x = tensor(2.5)
print(sum(x, dim = 0), mean(x, dim = -1), x.sum(dim = [0], keepdim = true))  # expect: tensor(2.5000) tensor(2.5000) tensor(2.5000)
print(amax(tensor(2), -1), amin(tensor(0.5), 0), prod(x, dim = 0))  # expect: tensor(2) tensor(0.5000) tensor(2.5000)
print(max(tensor(1.5), dim = 0), min(tensor(1.5), dim = -1))  # expect: (tensor(1.5000), tensor(0)) (tensor(1.5000), tensor(0))
print(tensor(1.5).argmax(dim = -1), argmin(tensor(1.5), dim = 0))  # expect: tensor(0) tensor(0)
print(any(tensor(true), 0), all(tensor(false), -1))  # expect: tensor(true) tensor(false)
print(transpose(tensor(1.5), 0, -1), transpose(x, -1, -1), x.transpose(0, 0))  # expect: tensor(1.5000) tensor(2.5000) tensor(2.5000)
print(grad(fn(t) { return sum(t * t, dim = 0) })(x))  # expect: tensor(5.)
print(compile(fn(t) { return amax(t, 0) + sum(t, -1) })(x))  # expect: tensor(5.)
print(sum(x, dim = 1))  # expect error: IndexError: sum: dimension 1 is out of range for a tensor of rank 0 (expected [-1, 0])
