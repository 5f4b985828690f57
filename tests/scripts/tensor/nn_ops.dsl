# Neural-network ops.
let a = tensor([[1.0, 2.0], [3.0, 4.0]])
print((a @ a).tolist(), matmul(a, tensor([1.0, 1.0])).tolist())  # expect: [[7.0, 10.0], [15.0, 22.0]] [3.0, 7.0]
let s = softmax(tensor([1.0, 2.0, 3.0]), 0)
print(round(s.sum().item(), 6), round(s[2].item(), 4))  # expect: 1.0 0.6652
print(round(log_softmax(tensor([0.0, 0.0]), 0)[0].item(), 4))  # expect: -0.6931
let ln = layer_norm(tensor([[1.0, 3.0]]), [2])
print(round(ln[0, 0].item(), 3), round(ln[0, 1].item(), 3))  # expect: -1.0 1.0
print(linear(a, eye(2), tensor([1.0, 1.0])).tolist())  # expect: [[2.0, 3.0], [4.0, 5.0]]
print(mse_loss(a, zeros([2, 2])).item())              # expect: 7.5
print(round(cross_entropy(tensor([[0.0, 0.0]]), tensor([1])).item(), 4))  # expect: 0.6931
print(dropout(ones([4]), 0.0).tolist())               # expect: [1.0, 1.0, 1.0, 1.0]
print(a @ ones([3]))  # expect error: ShapeError: matmul
