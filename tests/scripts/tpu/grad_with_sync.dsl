# grad on the tpu of a function that needs a value from the device in its middle (a branch on
# .item(), a bounded size as an int): the sync runs what is pending, the trace tape keeps
# recording in the next segment, and the gradient equals the cpu's.
fn loss(x) {
  let y = (x * x).sum()
  if y.item() > 1.0 { return y * 2.0 }
  return y
}
print(grad(loss)(tensor([1.0, 2.0]).to("tpu")).tolist())   # expect: [4.0, 8.0]
print(grad(loss)(tensor([0.5, 0.25]).to("tpu")).tolist())  # expect: [1.0, 0.5]
fn rows_loss(x, mask) {
  let picked = x[nonzero(mask)[:, 0]]
  return picked.sum() * float(int(picked.shape[0]))
}
let m = tensor([1, 0, 1]).to("tpu")
print(grad(rows_loss)(ones([3, 2]).to("tpu"), m).tolist())  # expect: [[2.0, 2.0], [0.0, 0.0], [2.0, 2.0]]
