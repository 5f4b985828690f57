# Breaks inside loops, inside called functions, and across returns inside branches: the
# compiled function replays graph, eager statement, graph, ... and agrees with eager at every
# call, side effects included.
let log = []
fn helper(t, k) {
  let u = t * k
  log.append(u.sum().item())             # breaks inside the callee
  if u.sum() > 10 { return u - 1 }       # a return inside a branch on data
  return u + 1
}
fn body(x, n) {
  let acc = x
  let total = 0.0
  for i in range(n) {
    acc = acc + i
    if i % 2 == 0 { continue }
    total = total + acc.sum().item()
    if total > 100 { break }
    acc = helper(acc, 2)
  }
  if total > 20 { return [acc, total] }
  return [acc * 0, total]
}
let cbody = compile(body)
let same = true
for n in [1, 3, 4, 6, 3] {
  let before = len(log)
  let e = body(ones([3]), n)
  let eager_log = log[before:]
  before = len(log)
  let c = cbody(ones([3]), n)
  same = same and e[0].tolist() == c[0].tolist() and e[1] == c[1] and eager_log == log[before:]
}
print(same)                              # expect: true
print(log[-4:])                          # expect: [12.0, 48.0, 12.0, 12.0]
let s = stats(cbody)
print(s["graph_breaks"] >= 3, s["graphs"] >= 3)  # expect: true true
