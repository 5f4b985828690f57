# sort, argsort, topk, searchsorted and nms (torch.sort, torch.topk, torch.searchsorted,
# torchvision.ops.nms; indices are i32). Every sort is stable: equal keys keep input order,
# -0.0 equals 0.0, NaN sorts last (first when descending).
let x = tensor([3.0, 1.0, 2.0, 1.0, -0.0, 0.0])
let (v, i) = sort(x)
print(v.tolist(), i.tolist())                   # expect: [-0.0, 0.0, 1.0, 1.0, 2.0, 3.0] [4, 5, 1, 3, 2, 0]
print(sort(x, descending = true)[1].tolist())   # expect: [0, 2, 1, 3, 4, 5]
print(x.argsort(stable = true).tolist())        # expect: [4, 5, 1, 3, 2, 0]
let nan = float("nan")
print(sort(tensor([2.0, nan, -float("inf"), 1.0]))[1].tolist(), argsort(tensor([2.0, nan, 1.0]), descending = true).tolist())  # expect: [2, 3, 0, 1] [1, 0, 2]
let m = tensor([[3, 1, 2], [0, 5, 4]])
print(sort(m, dim = 0)[0].tolist(), m.sort()[1].tolist())  # expect: [[0, 1, 2], [3, 5, 4]] [[1, 2, 0], [0, 2, 1]]
print(sort(tensor([true, false, true]))[1].tolist())  # expect: [1, 0, 2]
let (tv, ti) = topk(x, 3)
print(tv.tolist(), ti.tolist())                 # expect: [3.0, 2.0, 1.0] [0, 2, 1]
print(x.topk(2, largest = false)[1].tolist(), topk(m, 1, dim = 0)[0].tolist())  # expect: [4, 5] [[3, 5, 4]]
print(topk(x, 0)[0].shape, sort(zeros([2, 0]))[0].shape, sort(tensor(4.0))[1].item())  # expect: shape([0]) shape([2, 0]) 0
# Gradients of the values go back to the elements they came from.
print(grad(fn (t) { return (topk(t, 2)[0] * tensor([1.0, 10.0])).sum() })(tensor([1.0, 5.0, 3.0])).tolist())  # expect: [0.0, 1.0, 10.0]
print(grad(fn (t) { return (sort(t, descending = true)[0] * arange(3)).sum() })(tensor([1.0, 5.0, 3.0])).tolist())  # expect: [2.0, 0.0, 1.0]
# searchsorted: left (first >= v) or right (first > v); batched rows.
let seq = tensor([1.0, 2.0, 2.0, 3.0])
print(searchsorted(seq, tensor([2.0, 2.5, 0.0, 9.0])).tolist(), searchsorted(seq, tensor([2.0]), right = true).tolist())  # expect: [1, 3, 0, 4] [3]
print(searchsorted(tensor([[1, 3, 5], [2, 4, 6]]), tensor([[3], [3]]), side = "right").tolist(), searchsorted(seq, 2.0).item())  # expect: [[2], [1]] 1
# nms: decreasing score, a box suppressed above the IoU threshold.
let boxes = tensor([[0.0, 0, 10, 10], [1, 1, 11, 11], [20, 20, 30, 30], [0, 0, 9, 9]])
let scores = tensor([0.9, 0.8, 0.7, 0.95])
print(nms(boxes, scores, 0.5).tolist(), nms(boxes, scores, 0.9).tolist())  # expect: [3, 2] [3, 0, 1, 2]
print(nms(zeros([0, 4]), zeros([0]), 0.5).tolist())  # expect: []
print(topk(x, 7))  # expect error: IndexError: topk: k (7) is out of range for dim -1 of size 6 (shape [6])
