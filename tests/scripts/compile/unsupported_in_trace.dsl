# x.item() needs the tensor's data: a graph break (the statement runs eagerly); with
# fullgraph = true it is an error naming the line.
@compile
fn f(x) {
  let total = x.sum().item()
  return total
}
print(f(ones([3])))   # expect: 3.0
print(f(ones([3]) * 2))   # expect: 6.0
@compile(fullgraph = true)
fn g(x) {
  let total = x.sum().item()  # expect error: DataDependentError: x.item() needs the tensor's data (a graph break; fullgraph = true allows none)
  return total
}
g(ones([3]))
