# Compiled results equal eager results across ops, broadcasting and shapes.
fn body(x, y) {
  let h = relu(x @ y + 1.0)
  let s = softmax(h, 1)
  return (s * 2.0 - 1.0).sum(dim = 1)
}
let cbody = compile(body)
seed(3)
for n in [3, 5, 8] {
  let x = randn([n, 4])
  let y = randn([4, 6])
  print((cbody(x, y) - body(x, y)).abs().max().item() < 1e-5)
}
# expect: true
# expect: true
# expect: true
print(stats(cbody)["compiles"])  # expect: 2
