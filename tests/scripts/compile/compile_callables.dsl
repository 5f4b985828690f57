# compile() accepts any callable made from Tessel code, as torch.compile accepts any callable:
# a function made by grad/value_and_grad (traced with its backward in one graph), a lambda, a
# closure, a compiled function. Its arguments are named after the underlying function's.
fn loss(w, x) { return ((x @ w) ** 2).sum() }
let vg = compile(value_and_grad(loss))
let (l, g) = vg(ones([2, 1]), ones([3, 2]))
print(l, g.shape)                                        # expect: tensor(12.) shape([2, 1])
let (le, ge) = value_and_grad(loss)(ones([2, 1]), ones([3, 2]))
print(abs(g - ge).max().item(), l.item() == le.item())   # expect: 0.0 true
vg(ones([2, 1]), ones([4, 2]))
vg(ones([2, 1]), ones([5, 2]))
print(stats(vg)["compiles"], stats(vg)["reasons"])       # expect: 2 ["x.shape[0]: expected 3, got 4"]

let gw = compile(grad(loss))
print(gw(ones([2, 1]), ones([3, 2])).shape)              # expect: shape([2, 1])

let double = compile(fn (x) { return x * 2 })
print(double(ones([2])))                                 # expect: tensor([2., 2.])

fn adder(k) { return fn (x) { return x + k } }
let add3 = compile(adder(3))
print(add3(ones([2])))                                   # expect: tensor([4., 4.])

let twice = compile(compile(fn (x) { return x + 1 }))
print(twice(ones([2])))                                  # expect: tensor([2., 2.])

compile(print)  # expect error: TypeError: compile() needs a function (a fn, a lambda, a closure, or one made by grad, value_and_grad or compile), not 'function'
