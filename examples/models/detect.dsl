# Detection post-processing, the seeds' "variable bounding boxes in detection models": a
# detector's head gives, for every anchor of its feature map, class scores and box offsets; the
# boxes it reports come from a score threshold, a top-k, box decoding and non-maximum
# suppression per class, and how many survive each step depends on the data. Here the head's
# outputs are synthetic but honest: each image holds a few objects at random places, and an
# anchor's score for an object's class rises with how well the anchor covers it, plus noise.
# Images have different sizes, so the anchor count changes too; the compiled post-processing
# serves every image with one graph (one compile) and, on the tpu, one program with static
# memory under the bounds of its signature.
#   tessel examples/models/detect.dsl                  (TESSEL_DEVICE=vulkan or tpu to move it)
#   TESSEL_EXAMPLE_IMAGES=3 tessel examples/models/detect.dsl   (fewer images: the test suite)
import vision

let num_images = int(env("TESSEL_EXAMPLE_IMAGES", "24"))
let num_classes = 5
let stride = 16.0
let anchor_sizes = [32.0, 64.0, 128.0]

# The anchors of an h x w feature map, (cx, cy, w, h) rows: one square per size at every cell.
fn anchors_for(h, w) {
  let cy = ((arange(h).to(f32) + 0.5) * stride).reshape([h, 1, 1]).expand([h, w, 3])
  let cx = ((arange(w).to(f32) + 0.5) * stride).reshape([1, w, 1]).expand([h, w, 3])
  let size = tensor(anchor_sizes).reshape([1, 1, 3]).expand([h, w, 3])
  return stack([cx, cy, size, size], dim = -1).reshape([h * w * 3, 4])
}

# A synthetic image: objects (xyxy boxes and classes), and the head's outputs for its anchors:
# offsets that move each anchor toward the object it covers best (with noise), and logits that
# grow with that coverage for the object's class.
fn synthetic_image(h, w, num_objects) {
  let size = rand([num_objects, 2]) * 80.0 + 24.0
  let corner = rand([num_objects, 2]) * (tensor([w * stride, h * stride]) - size)
  let objects = cat([corner, corner + size], dim = 1)
  let classes = randint(0, num_classes, [num_objects])
  let anchors = anchors_for(h, w)
  let iou = vision.box_iou(vision.box_convert(anchors, "cxcywh", "xyxy"), objects)
  let (best, which) = iou.max(dim = 1)
  let target = vision.box_convert(index_select(objects, 0, which), "xyxy", "cxcywh")
  let offsets = stack([(target[:, 0] - anchors[:, 0]) / anchors[:, 2],
                       (target[:, 1] - anchors[:, 1]) / anchors[:, 3],
                       log(target[:, 2] / anchors[:, 2]), log(target[:, 3] / anchors[:, 3])], dim = 1)
  let logits = randn([anchors.shape[0], num_classes]) * 0.5 - 4.0
  let hit = one_hot(index_select(classes, 0, which), num_classes).to(f32) * (12.0 * best - 2.0)[:, none]
  return (objects, classes, anchors, offsets + randn(offsets.shape) * 0.05, logits + hit)
}

# Box decoding as torchvision's BoxCoder: offsets (dx, dy, dw, dh) relative to the anchor.
fn decode(anchors, offsets) {
  let cx = anchors[:, 0] + offsets[:, 0] * anchors[:, 2]
  let cy = anchors[:, 1] + offsets[:, 1] * anchors[:, 3]
  let w = anchors[:, 2] * exp(offsets[:, 2])
  let h = anchors[:, 3] * exp(offsets[:, 3])
  return vision.box_convert(stack([cx, cy, w, h], dim = 1), "cxcywh", "xyxy")
}

# The post-processing: scores above the threshold, the best 300 of them, decoded and clipped
# boxes, nms per class, at most 50 detections. Every size after the threshold is data-dependent.
@compile
fn postprocess(anchors: f32[A, 4], offsets: f32[A, 4], logits: f32[A, C], image_size) where A <= 12288 {
  let (score, label) = sigmoid(logits).max(dim = 1)
  let candidates = nonzero(score > 0.2).squeeze(1)
  let s = index_select(score, 0, candidates)
  let (top, order) = topk(s, min(300, s.shape[0]))
  let picked = index_select(candidates, 0, order)
  let boxes = decode(index_select(anchors, 0, picked), index_select(offsets, 0, picked))
  let clipped = vision.clip_boxes_to_image(boxes, image_size)
  let labels = index_select(label, 0, picked)
  let kept = vision.batched_nms(clipped, top, labels, 0.5)
  let first = kept[:min(50, kept.shape[0])]
  return (index_select(clipped, 0, first), index_select(top, 0, first), index_select(labels, 0, first))
}

# Recall: the objects matched by a detection of their class with IoU >= 0.5; precision: the
# detections that match an object.
fn matches(objects, classes, boxes, labels) {
  if boxes.shape[0] == 0 { return (0, 0) }
  let same = labels[:, none] == classes[none, :]
  let good = logical_and(vision.box_iou(boxes, objects) >= 0.5, same)
  return (good.any(dim = 0).sum().item(), good.any(dim = 1).sum().item())
}

seed(0)
let shapes = [(20, 30), (32, 24), (16, 16), (24, 40), (30, 30), (12, 20)]
let found = 0
let objects_total = 0
let correct = 0
let detections = 0
let last = none
for i in range(num_images) {
  let (h, w) = shapes[i % len(shapes)]
  let (objects, classes, anchors, offsets, logits) = synthetic_image(h, w, 2 + i % 4)
  let (boxes, scores, labels) = postprocess(anchors, offsets, logits, (h * stride, w * stride))
  let (hit, right) = matches(objects, classes, boxes, labels)
  found += hit
  objects_total += objects.shape[0]
  correct += right
  detections += int(boxes.shape[0])   # the real count (on the tpu, shape[0] is a bounded size)
  last = {"boxes": boxes, "scores": scores, "labels": labels}
}
print(f"{num_images} images, {objects_total} objects, {detections} detections")
print(f"recall {found / objects_total:.3f}, precision {correct / max(detections, 1):.3f}")
print("compiles:", stats(postprocess)["compiles"])

# The last image's detections as a checkpoint, written and read back.
let path = env("TMPDIR", "/tmp") + "/tessel_detect_example.npz"
let saved = {"boxes": last["boxes"].to("cpu"), "scores": last["scores"].to("cpu"), "labels": last["labels"].to("cpu")}
save(path, saved)
let back = load(path, device = "cpu")
let same = all([bool((back[k] == saved[k]).all().item()) for k in saved.keys()])
print("checkpoint round trip:", same)
# What the test suite checks when it runs this example on each device.
assert same and stats(postprocess)["compiles"] <= 2 and found >= 0.8 * objects_total
