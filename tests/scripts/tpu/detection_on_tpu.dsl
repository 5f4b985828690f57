# Detection post-processing on the tpu: the thresholded count is bounded by the
# number of boxes, topk(s, min(k, n)) by k, nms by its input; one program serves every count
# under the bounds, with static memory.
import vision
@compile(backend = "tpu")
fn post(boxes: f32[N, 4], scores: f32[N], labels: i32[N]) where N >= 1, N <= 64 {
  let keep = nonzero(scores > 0.3).squeeze(1)
  let s = index_select(scores, 0, keep)
  let (top, order) = topk(s, min(4, s.shape[0]))
  let idx = index_select(keep, 0, order)
  let b = index_select(boxes, 0, idx)
  let kept = vision.batched_nms(b, top, index_select(labels, 0, idx), 0.5)
  return (index_select(idx, 0, kept), top)
}
let boxes = tensor([[0.0, 0, 10, 10], [1, 1, 11, 11], [20, 20, 30, 30], [0, 0, 9, 9], [5, 5, 6, 6], [40, 40, 50, 50]])
let (i, top) = post(boxes, tensor([0.9, 0.2, 0.8, 0.7, 0.1, 0.95]), tensor([0, 0, 1, 0, 1, 1]))
print(i.shape, top.shape)  # expect: shape([<=4]) shape([<=4])
print(i.tolist(), top.tolist())  # expect: [5, 0, 2] [0.949999988079071, 0.8999999761581421, 0.800000011920929, 0.699999988079071]
let (i2, top2) = post(boxes[:2], tensor([0.9, 0.8]), tensor([0, 0]))
print(i2.tolist(), top2.tolist(), stats(post)["compiles"], stats()["tpu"]["run_allocations"])  # expect: [0] [0.8999999761581421, 0.800000011920929] 1 0
