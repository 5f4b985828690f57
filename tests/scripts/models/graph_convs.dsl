# stdlib/graph.dsl and the graph convolutions of nn.dsl: PyG's conventions (torch values:
# tests/torch/nn_parity.py).
import graph
import nn
# A path 0 - 1 - 2 (both directions) and node 3 with only a self-loop.
let ei = tensor([[0, 1, 1, 2, 3], [1, 0, 2, 1, 3]])
print(graph.degree(ei[1], 4))  # expect: tensor([1., 2., 1., 1.])
print(graph.degree(ei[0], 5, dtype = i32))  # expect: tensor([1, 2, 1, 1, 0])
let (looped, none_w) = graph.add_self_loops(ei, 4)
print(looped.shape, none_w)  # expect: shape([2, 9]) none
print(graph.add_self_loops(ei, 4, tensor([1.0, 2.0, 3.0, 4.0, 5.0]), fill_value = 0.5)[1])  # expect: tensor([1.0000, 2.0000, 3.0000, 4.0000, 5.0000, 0.5000, 0.5000, 0.5000, 0.5000])
# add_remaining_self_loops keeps node 3's loop and its weight, and adds none for it.
let (rem, rem_w) = graph.add_remaining_self_loops(ei, 4, tensor([1.0, 2.0, 3.0, 4.0, 5.0]))
print(rem)  # expect: tensor([[0, 1, 1, 2, 0, 1, 2, 3],
            # expect:         [1, 0, 2, 1, 0, 1, 2, 3]])
print(rem_w)  # expect: tensor([1., 2., 3., 4., 1., 1., 1., 5.])
let (nei, norm) = graph.gcn_norm(ei, none, 4)
print(norm)  # expect: tensor([0.4082, 0.4082, 0.4082, 0.4082, 0.5000, 0.3333, 0.5000, 1.0000])
print(graph.gcn_norm(ei, add_self_loops = false)[1])  # expect: tensor([0.7071, 0.7071, 0.7071, 0.7071, 1.0000])

# GCN and SAGE layers: shapes, then a two-layer GCN fits node labels.
seed(0)
let x = randn([4, 5])
print(nn.gcn_conv_apply(nn.gcn_conv_init(5, 3), x, ei).shape)  # expect: shape([4, 3])
let sage = nn.sage_conv_init(5, 3)
print(sorted(sage.keys()), "b" in sage["root"], nn.sage_conv_apply(sage, x, ei).shape)  # expect: ["neigh", "root"] false shape([4, 3])
let labels = tensor([0, 0, 1, 1])
let p = [nn.gcn_conv_init(5, 8), nn.gcn_conv_init(8, 2)]
fn loss(p) {
  let h = relu(nn.gcn_conv_apply(p[0], x, ei))
  return cross_entropy(nn.gcn_conv_apply(p[1], h, ei), labels)
}
let s = nn.adam_init(p)
for i in range(60) {
  let (np, ns) = nn.adam_step(p, grad(loss)(p), s, lr = 0.05)
  p = np
  s = ns
}
print(loss(p).item() < 0.2)  # expect: true

try { graph.gcn_norm(ei.T) } except ShapeError as e { print(e.message) }  # expect: gcn_norm: edge_index must have shape [2, E], got [5, 2]
try { graph.add_self_loops(ei.to(f32), 4) } except TypeError as e { print(e.message) }  # expect: add_self_loops: edge_index must be i32, got f32
