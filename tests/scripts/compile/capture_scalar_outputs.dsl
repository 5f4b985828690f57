# config.capture_scalar_outputs = true keeps x.item() in the graph as a number (Dynamo's knob):
# no graph break; the number becomes a Python-like float again when it leaves the graph.
config.capture_scalar_outputs = true
@compile
fn scale(x) {
  let v = x.sum().item()
  let w = v * 2 + 1
  return [v, w, x * w]
}
print(scale(ones([3])))      # expect: [3.0, 7.0, tensor([7., 7., 7.])]
print(scale(ones([3]) * 2))  # expect: [6.0, 13.0, tensor([26., 26., 26.])]
print(stats(scale)["graph_breaks"], stats(scale)["compiles"])  # expect: 0 1
# A branch on the kept number still needs its value: a graph break there.
@compile
fn pick(x) {
  let v = x.sum().item()
  if v > 4 { return x * 0 }
  return x
}
print(pick(ones([3])).tolist(), pick(ones([3]) * 2).tolist())  # expect: [1.0, 1.0, 1.0] [0.0, 0.0, 0.0]
print(stats(pick)["graph_breaks"])  # expect: 1
config.capture_scalar_outputs = false
@compile
fn plain(x) { return x.sum().item() * 2 }
print(plain(ones([2])), stats(plain)["graph_breaks"])  # expect: 4.0 1
