# Detection post-processing as RetinaNet's: a score threshold (data-dependent count),
# the best min(k, n) by score (topk of a size expression), then nms per class (the coordinate
# trick of vision.batched_nms). Compiled once with dynamic sizes, it serves inputs that keep
# different numbers of boxes, with no graph break, and equals the same function run eagerly.
import vision
fn postprocess(boxes, scores, labels) {
  let keep = nonzero(scores > 0.3).squeeze(1)
  let s = index_select(scores, 0, keep)
  let (top, order) = topk(s, min(8, s.shape[0]))
  let idx = index_select(keep, 0, order)
  let b = index_select(boxes, 0, idx)
  let l = index_select(labels, 0, idx)
  let kept = vision.batched_nms(b, top, l, 0.4)
  return (index_select(b, 0, kept), index_select(top, 0, kept), index_select(l, 0, kept))
}
let cpost = compile(postprocess, dynamic = true)
seed(3)
let counts = []
let same = true
for n in [12, 40, 6, 25] {
  let xy = rand([n, 2]) * 20.0
  let boxes = cat([xy, xy + rand([n, 2]) * 10.0 + 10.0], dim = 1)
  let scores = rand([n])
  let labels = randint(0, 3, [n])
  let (b, s, l) = cpost(boxes, scores, labels)
  let (eb, es, el) = postprocess(boxes, scores, labels)
  same = same and b.tolist() == eb.tolist() and s.tolist() == es.tolist() and l.tolist() == el.tolist()
  counts.append(s.shape[0])
}
print(same, counts)  # expect: true [8, 7, 4, 7]
print(stats(cpost)["compiles"], stats(cpost)["graph_breaks"])  # expect: 1 0
