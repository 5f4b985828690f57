# tril, triu, masked_fill and embedding: a causal attention mask over sequences of changing
# length, one compiled graph for every length.
let a = ones([2, 3, 4])
print(tril(a, 1)[0].tolist())   # expect: [[1.0, 1.0, 0.0, 0.0], [1.0, 1.0, 1.0, 0.0], [1.0, 1.0, 1.0, 1.0]]
print(a.triu(-1)[1].tolist())   # expect: [[1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0], [0.0, 1.0, 1.0, 1.0]]
print(tril(arange(12).reshape([3, 4])).tolist())  # expect: [[0, 0, 0, 0], [4, 5, 0, 0], [8, 9, 10, 0]]
print(triu(arange(6).reshape([2, 3]) > 2, 1).tolist())  # expect: [[false, false, false], [false, false, true]]
print(zeros([2, 3], dtype = i32).masked_fill(tensor([true, false, true]), 1.7).tolist())  # expect: [[1, 0, 1], [1, 0, 1]]
print(masked_fill(zeros([3]), tensor([[true], [false]]), 5.0).tolist())  # expect: [[5.0, 5.0, 5.0], [0.0, 0.0, 0.0]]

@compile
fn causal_attention(q, k, v) {
  let t = q.shape[0]
  let future = triu(ones([t, t]), 1) > 0.0
  let scores = (q @ k.T).masked_fill(future, float("-inf"))
  return softmax(scores, 1) @ v
}
for t in [3, 5, 6, 7] {  # (lengths inside two of the tpu's power-of-two buckets)
  let x = arange(t * 2.0).reshape([t, 2]) / 10.0
  let y = causal_attention(x, x, x)
  # Row 0 attends to itself only; the last row to every position.
  assert (y[0] - x[0]).abs().max().item() < 1e-6
  let w = softmax(x[t - 1] @ x.T, 0)
  assert (y[t - 1] - w @ x).abs().max().item() < 1e-5
}
print(stats(causal_attention)["compiles"] <= 2)  # expect: true

fn loss(w) { return (tril(w) * arange(4.0)).sum() + masked_fill(w, w > 0.0, 0.0).sum() }
print(grad(loss)(tensor([[1.0, -2.0, 3.0, 4.0], [-1.0, 2.0, 3.0, 4.0]])).tolist())  # expect: [[0.0, 1.0, 0.0, 0.0], [1.0, 1.0, 0.0, 0.0]]
# embedding: rows of a table; the padding row is returned but gets no gradient.
let table = arange(12.0).reshape([4, 3])
print(embedding(tensor([[0, 2], [3, 3]]), table)[1].tolist())  # expect: [[9.0, 10.0, 11.0], [9.0, 10.0, 11.0]]
fn emb_loss(w) { return (embedding(tensor([0, 1, 1, 3]), w, padding_idx = 1) * arange(3.0)).sum() }
print(grad(emb_loss)(table).tolist())  # expect: [[0.0, 1.0, 2.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 1.0, 2.0]]
print(grad(fn (w) { return (detach(w) * w).sum() })(tensor([3.0])).tolist())  # expect: [3.0]
print(masked_fill(zeros([2, 3]), tensor([true, false]), 1.0))  # expect error: ShapeError: masked_fill: shapes [2, 3] and [2] are not broadcastable
