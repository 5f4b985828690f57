# NaN, infinities and signed zeros through elementwise ops, searches and gradients, each as
# PyTorch 1.13 gives it on the same inputs.
let inf = float("inf")
let nan = float("nan")
# Floor division derives the quotient from the remainder, as Python and PyTorch do.
print((tensor([0.3, -0.3]) // -inf).tolist(), (tensor([inf]) // -0.25).tolist())  # expect: [-1.0, 0.0] [nan]
print((tensor([2.0, -0.0]) // tensor([-inf, 3.0])).tolist(), (tensor([5.0, -5.0, 7.5, -7.5]) // 2.0).tolist())  # expect: [-1.0, -0.0] [2.0, -3.0, 3.0, -4.0]
print((tensor([5.0]) // 0.0).tolist(), (tensor([2.0]) % -inf).tolist())  # expect: [inf] [-inf]
# clamp: a NaN bound gives NaN, a NaN input stays NaN, lo > hi gives hi.
print(clamp(tensor([1.0, 2.0]), nan).tolist(), clamp(tensor([1.0, nan]), 0.0, 1.5).tolist(), clamp(tensor([1.0, 2.0]), 3.0, 1.0).tolist())  # expect: [nan, nan] [1.0, nan] [1.0, 1.0]
# searchsorted: a NaN value goes after everything (PyTorch's search).
print(searchsorted(tensor([0.1, 0.7]), tensor([nan, 0.5])).tolist(), searchsorted(tensor([0.1, 0.7, nan]), tensor([nan, 0.5])).tolist())  # expect: [2, 1] [3, 1]
print(searchsorted(tensor([0.1, 0.7, nan]), tensor([nan]), right = true).tolist())  # expect: [3]
# Gradients at the edges.
print(grad(fn(x) { return sum(x ** 0) })(tensor([0.0, 1.5])).tolist())  # expect: [0.0, 0.0]
let ge = grad(fn(e) { return sum(tensor([-0.5, 2.0]) ** e) })(tensor([1.5, 1.5])).tolist()
print(ge[0], abs(ge[1] - 1.960516) < 1e-5)  # expect: nan true
print(grad(fn(e) { return sum(tensor([0.0, 0.0, 0.0]) ** e) })(tensor([0.0, 2.0, -1.0])).tolist())  # expect: [0.0, 0.0, -inf]
print(grad(fn(x) { return smooth_l1_loss(x, tensor([inf]), reduction = "sum") })(tensor([3.0])).tolist())  # expect: [-1.0]
print(grad(fn(x) { return huber_loss(x, tensor([-inf]), reduction = "sum") })(tensor([3.0])).tolist())  # expect: [1.0]
print(grad(fn(x) { return sum(clamp(x, 0.0, 1.0)) })(tensor([0.5, nan])).tolist())  # expect: [1.0, 0.0]
let lo = tensor(1.0)
let hi = tensor(1.0)
print(grad(fn(x, l, h) { return sum(clamp(x, l, h)) }, [0, 1, 2])(tensor([0.5, 2.0, -1.0]), lo, hi))  # expect: (tensor([0., 0., 0.]), tensor(0.), tensor(1.))
# max(dim)'s gradient goes to a NaN maximum (a tie-free row sends it all to that element).
print(grad(fn(x) { return sum(max(x, dim = 1)[0]) })(tensor([[1.0, 2.0], [nan, 0.0]])).tolist())  # expect: [[0.0, 1.0], [1.0, 0.0]]
# A padded tap times an infinite weight is 0 * inf = NaN on every device (PyTorch too).
print(conv2d(tensor([[[[1.0]]]]), tensor([[[[inf]]]]), padding = 1).tolist())  # expect: [[[[nan, nan, nan], [nan, inf, nan], [nan, nan, nan]]]]
# maximum/minimum: both operands get the gradient at a NaN (neither loses), half each at a tie;
# a selected gradient is where(), so an infinite one does not become NaN through a 0 mask.
print(grad(fn(a, c) { return sum(minimum(a, c)) }, [0, 1])(tensor([0.5, nan, 2.0, 1.0]), tensor(1.0)))  # expect: (tensor([1.0000, 1.0000, 0.0000, 0.5000]), tensor(2.5000))
print(grad(fn(x) { return sum(sqrt(relu(x - 1.0))) })(tensor([0.5])).tolist())  # expect: [0.0]
