# try under @compile is a graph break (it runs eagerly, its blocks as compiled regions), and an
# error raised inside a region's run reaches the except with its kind.
@compile
fn safe_div(x, d) {
  let y = x * 2
  try {
    let z = y[d]
    return z
  } except IndexError as e {
    return y.sum()
  }
}
print(safe_div(ones([3]), 1))       # expect: tensor(2.)
print(safe_div(ones([3]), 7))       # expect: tensor(6.)
print(stats(safe_div)["graph_breaks"] > 0)   # expect: true
@compile(fullgraph = true)
fn strict(x) {
  try { return x } except { return x }   # expect error: try/except runs eagerly
}
strict(ones([2]))
