# graph: edge lists for message passing, as PyTorch Geometric's utils name them (docs/models.md).
# A graph of n nodes is an edge_index [2, E] of i32 node ids, row 0 the sources and row 1 the
# targets; edge weights are [E] f32. Everything is tensor ops, so it differentiates through the
# weights and compiles with data-dependent edge counts.

fn _check_edge_index(fname, edge_index) {
  if edge_index.ndim != 2 or edge_index.shape[0] != 2 {
    raise ShapeError(f"{fname}: edge_index must have shape [2, E], got {list(edge_index.shape)}")
  }
  if edge_index.dtype != i32 {
    raise TypeError(f"{fname}: edge_index must be i32, got {edge_index.dtype}")
  }
}

# How many times each node 0 .. num_nodes-1 occurs in the 1-D i32 index (PyG's degree), as
# dtype.
fn degree(index, num_nodes, dtype = f32) {
  return index_add(zeros([num_nodes], dtype = dtype), 0, index, ones(index.shape, dtype = dtype))
}

# edge_index with a self-loop (i, i) appended for every node, and edge_weight (when given)
# with fill_value for each: (edge_index, edge_weight), as PyG's add_self_loops.
fn add_self_loops(edge_index, num_nodes, edge_weight = none, fill_value = 1.0) {
  _check_edge_index("add_self_loops", edge_index)
  let loops = arange(num_nodes)
  let ei = cat([edge_index, stack([loops, loops])], 1)
  if type(edge_weight) == "none" { return (ei, none) }
  return (ei, cat([edge_weight, full([num_nodes], fill_value)], 0))
}

# Like add_self_loops, but a node that already has a self-loop keeps it (and its weight) and
# gets no second one, as PyG's add_remaining_self_loops: the edges that are not loops, then one
# loop per node.
fn add_remaining_self_loops(edge_index, num_nodes, edge_weight = none, fill_value = 1.0) {
  _check_edge_index("add_remaining_self_loops", edge_index)
  let is_edge = edge_index[0] != edge_index[1]
  let keep = nonzero(is_edge)[:, 0]
  let loops = arange(num_nodes)
  let ei = cat([index_select(edge_index, 1, keep), stack([loops, loops])], 1)
  let w = edge_weight if type(edge_weight) != "none" else ones(edge_index.shape[1:])
  # The existing loops' weights replace the fill at their nodes.
  let old = nonzero(logical_not(is_edge))[:, 0]
  let loop_w = index_copy(full([num_nodes], fill_value), 0, index_select(edge_index[0], 0, old), index_select(w, 0, old))
  return (ei, cat([index_select(w, 0, keep), loop_w], 0))
}

# The symmetric normalization of GCN (Kipf & Welling), as PyG's gcn_norm: self-loops added by
# add_remaining_self_loops (unless add_self_loops is false), then each edge (j, i) weighted
# w_ji / sqrt(deg(j) * deg(i)), deg the weighted in-degree at the targets (a node of degree 0
# gets 0). Returns (edge_index, weights).
fn gcn_norm(edge_index, edge_weight = none, num_nodes = none, add_self_loops = true) {
  _check_edge_index("gcn_norm", edge_index)
  let n = num_nodes if type(num_nodes) != "none" else int(edge_index.max().item()) + 1
  let ei = edge_index
  let w = edge_weight if type(edge_weight) != "none" else ones(edge_index.shape[1:])
  if add_self_loops {
    let looped = add_remaining_self_loops(edge_index, n, w)
    ei = looped[0]
    w = looped[1]
  }
  let deg = index_add(zeros([n]), 0, ei[1], w)
  let inv_sqrt = where(deg > 0.0, rsqrt(deg), zeros([n]))
  return (ei, index_select(inv_sqrt, 0, ei[0]) * w * index_select(inv_sqrt, 0, ei[1]))
}
