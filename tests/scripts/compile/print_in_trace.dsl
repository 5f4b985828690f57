# print inside a compiled function is a graph break: it runs eagerly at every call, with real
# values, and the code around it is compiled.
@compile(dynamic = true)
fn f(x) {
  let y = x * 2
  print("shape", x.shape, "sum", y.sum())
  return y + 1
}
print(f(ones([3])).tolist())  # expect: shape shape([3]) sum tensor(6.)
                              # expect: [3.0, 3.0, 3.0]
print(f(ones([4])).tolist())  # expect: shape shape([4]) sum tensor(8.)
                              # expect: [3.0, 3.0, 3.0, 3.0]
let s = stats(f)
print(s["graphs"], s["graph_breaks"], s["compiles"])  # expect: 2 1 2
@compile(fullgraph = true)
fn g(x) {
  print(x.shape)  # expect error: ValueError: print() is a side effect (a graph break; fullgraph = true allows none)
  return x
}
g(ones([3]))
