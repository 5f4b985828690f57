# grad and value_and_grad over compositions of ops, and over trees of parameters.
fn f(x) { return (x * x).sum() }
print(grad(f)(tensor([1.0, 2.0])).tolist())           # expect: [2.0, 4.0]
let (v, g) = value_and_grad(f)(tensor([3.0]))
print(v.item(), g.tolist())                           # expect: 9.0 [6.0]
fn g2(a, b) { return (a @ b).sum() }
let (ga, gb) = grad(g2, argnums = [0, 1])(ones([2, 3]), ones([3, 1]))
print(ga.shape, gb.tolist())                          # expect: shape([2, 3]) [[2.0], [2.0], [2.0]]
fn tree_loss(p) { return (p["w"] * 2.0).sum() + p["b"][0].sum() }
let tg = grad(tree_loss)({"w": ones([2]), "b": [tensor([5.0])]})
print(tg["w"].tolist(), tg["b"][0].tolist())          # expect: [2.0, 2.0] [1.0]
print(grad(fn (x) { return x[1:].sum() })(ones([3])).tolist())  # expect: [0.0, 1.0, 1.0]
print(grad(fn (x) { return (x + ones([2, 2])).sum() })(ones([2])).tolist())  # expect: [2.0, 2.0]
print(grad(grad(fn (x) { return (x * x * x).sum() }))(tensor([2.0])).tolist())  # expect: [12.0]
print(grad(fn (x) { return x * 2.0 })(ones([3])))  # expect error: ShapeError
