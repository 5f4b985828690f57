# Every kind of graph break (compiler.md, "Graph breaks"): the statement runs eagerly at every
# call, the code around it is compiled, and results equal eager ones.
let out = []
@compile(dynamic = true)
fn kinds(x) {
  let y = x * 2
  out.append(y.tolist())                 # .tolist(), and a change to an outer list
  let s = str(y.shape)                   # text of a traced value (a dynamic size)
  let n = int(y.max())                   # int() of a tensor
  if y.sum() > 7 { out.append("big") }   # a branch on tensor data
  let d = {"n": n}
  return [y + n, s, d]
}
print(kinds(ones([3])))  # expect: [tensor([4., 4., 4.]), "shape([3])", {"n": 2}]
print(kinds(ones([4])))  # expect: [tensor([4., 4., 4., 4.]), "shape([4])", {"n": 2}]
print(out)               # expect: [[2.0, 2.0, 2.0], [2.0, 2.0, 2.0, 2.0], "big"]
# Five sites: lines 7, 8, 9, the branch of line 10 and the append inside it.
print(stats(kinds)["graph_breaks"])  # expect: 5

# A loop whose condition reads tensor data: the loop runs eagerly, its body as a graph.
let counts = {}
@compile
fn grow(x) {
  let steps = 0
  while x.max() < 20 {
    x = x * 3
    steps = steps + 1
  }
  counts["last"] = steps                 # a change to an outer dict
  return x
}
print(grow(ones([2])).tolist(), counts)        # expect: [27.0, 27.0] {"last": 3}
print(grow(ones([2]) * 10).tolist(), counts)   # expect: [30.0, 30.0] {"last": 1}

# A global written inside: eager at every call, read back by the graph after it.
let total = 0
@compile
fn bump(x, k) {
  total = total + k
  return x * total
}
print(bump(ones([1]), 2).tolist(), bump(ones([1]), 3).tolist(), total)  # expect: [2.0] [5.0] 5
