# A tour of Tessel: run with `build/repl/tessel examples/demo.dsl`.

fn fib(n) {
  if n < 2 { return n }
  return fib(n - 1) + fib(n - 2)
}
print("fib(20) =", fib(20))

# Closures capture variables, and can assign them.
fn make_counter() {
  let count = 0
  return fn () { count += 1; return count }
}
let tick = make_counter()
tick(); tick()
print("counter:", tick())

# Lists, dicts, tuples and destructuring.
let scores = {"ada": 93, "alan": 88, "grace": 97}
let ranked = sorted(scores.items(), key = fn (kv) { return kv[1] }, reverse = true)
for (i, (name, score)) in enumerate(ranked, start = 1) {
  print(str(i) + ".", name, score)
}

# Tensors: NumPy broadcasting, reductions, matmul, and gradients.
let x = tensor([[1.0, 2.0], [3.0, 4.0]])
print(x @ x.T)
print("row sums:", x.sum(dim = 1))
let loss = fn (w) { return ((x @ w - 1.0) ** 2).mean() }
print("d loss / d w:", grad(loss)(tensor([0.5, -0.5])))
