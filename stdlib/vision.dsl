# vision: bounding-box helpers for detection post-processing, as torchvision.ops names them
# (docs/tensors.md, "Sorting, searching and detection"). Boxes are [n, 4] f32 tensors; indices
# are i32. Everything is written with tensor ops, so it runs on every backend, under @compile
# with data-dependent box counts (no graph break), and on the tpu with bounded sizes.

# --- boxes -------------------------------------------------------------------------------

fn _check_boxes(fname, boxes) {
  if len(boxes.shape) != 2 or boxes.shape[1] != 4 {
    raise ShapeError(f"{fname}: boxes must have shape [n, 4], got {boxes.shape}")
  }
}

# Areas of [n, 4] boxes in (x1, y1, x2, y2) format.
fn box_area(boxes) {
  _check_boxes("box_area", boxes)
  return (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
}

# The [n, m] matrix of IoUs between boxes1 [n, 4] and boxes2 [m, 4] (xyxy).
fn box_iou(boxes1, boxes2) {
  _check_boxes("box_iou", boxes1)
  _check_boxes("box_iou", boxes2)
  let area1 = box_area(boxes1)
  let area2 = box_area(boxes2)
  let lt = maximum(boxes1[:, none, :2], boxes2[:, :2])
  let rb = minimum(boxes1[:, none, 2:], boxes2[:, 2:])
  let wh = relu(rb - lt)
  let inter = wh[:, :, 0] * wh[:, :, 1]
  let union = area1[:, none] + area2 - inter
  return inter / union
}

fn _to_xyxy(b, fmt) {
  if fmt == "xyxy" { return b }
  if fmt == "xywh" {
    return stack([b[:, 0], b[:, 1], b[:, 0] + b[:, 2], b[:, 1] + b[:, 3]], dim = -1)
  }
  let cx = b[:, 0]
  let cy = b[:, 1]
  let w = b[:, 2]
  let h = b[:, 3]
  return stack([cx - 0.5 * w, cy - 0.5 * h, cx + 0.5 * w, cy + 0.5 * h], dim = -1)
}

fn _from_xyxy(b, fmt) {
  if fmt == "xyxy" { return b }
  let w = b[:, 2] - b[:, 0]
  let h = b[:, 3] - b[:, 1]
  if fmt == "xywh" { return stack([b[:, 0], b[:, 1], w, h], dim = -1) }
  return stack([(b[:, 0] + b[:, 2]) / 2.0, (b[:, 1] + b[:, 3]) / 2.0, w, h], dim = -1)
}

# Converts boxes between "xyxy" (corners), "xywh" (corner, size) and "cxcywh" (center, size).
fn box_convert(boxes, in_fmt, out_fmt) {
  let fmts = ["xyxy", "xywh", "cxcywh"]
  if not (in_fmt in fmts) or not (out_fmt in fmts) {
    raise ValueError(f"box_convert: unsupported formats in_fmt={in_fmt!r}, out_fmt={out_fmt!r} (expected \"xyxy\", \"xywh\" or \"cxcywh\")")
  }
  _check_boxes("box_convert", boxes)
  if in_fmt == out_fmt { return boxes }
  return _from_xyxy(_to_xyxy(boxes, in_fmt), out_fmt)
}

# Clips xyxy boxes to an image of size (height, width) (torchvision's clip_boxes_to_image).
fn clip_boxes(boxes, size) {
  _check_boxes("clip_boxes", boxes)
  let (height, width) = size
  let x = clamp(boxes[:, 0::2], 0.0, float(width))
  let y = clamp(boxes[:, 1::2], 0.0, float(height))
  return stack([x[:, 0], y[:, 0], x[:, 1], y[:, 1]], dim = -1)
}
# The same as clip_boxes, under torchvision's other name.
fn clip_boxes_to_image(boxes, size) { return clip_boxes(boxes, size) }

# Indices of the boxes whose width and height are both at least min_size.
fn remove_small_boxes(boxes, min_size) {
  _check_boxes("remove_small_boxes", boxes)
  let ws = boxes[:, 2] - boxes[:, 0]
  let hs = boxes[:, 3] - boxes[:, 1]
  return nonzero(logical_and(ws >= min_size, hs >= min_size)).squeeze(1)
}

# --- non-maximum suppression ---------------------------------------------------------------

# nms within each category: torchvision's coordinate trick, every box shifted by its category
# times (the largest coordinate + 1), so boxes of different categories never overlap and one
# nms serves them all. Indices into boxes, in decreasing score. The largest coordinate is taken
# over the boxes and -inf, so an empty set of boxes needs no branch on its size (a branch on a
# data-dependent size would break the graph under @compile).
fn batched_nms(boxes, scores, idxs, iou_threshold) {
  _check_boxes("batched_nms", boxes)
  let max_coordinate = cat([boxes.flatten(), tensor([float("-inf")])]).max()
  let offsets = idxs.to(f32) * (max_coordinate + 1.0)
  return nms(boxes + offsets[:, none], scores, iou_threshold)
}
