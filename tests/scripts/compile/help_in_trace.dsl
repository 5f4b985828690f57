# help() inside a compiled function is a side effect like print: a graph break, so it prints at
# every call; dir() is a plain value and traces.
@compile
fn f(x) {
  help(math.sqrt)
  return x * len(dir(math))
}
print(f(ones([2])).tolist())   # expect: math.sqrt(x)
                               # expect:     The square root of a number (a `ValueError` below 0).
                               # expect: [15.0, 15.0]
print(stats(f)["graph_breaks"])   # expect: 1
@compile(fullgraph = true)
fn g(x) {
  help(len)   # expect error: ValueError: help() is a side effect (a graph break; fullgraph = true allows none)
  return x
}
g(ones([1]))
