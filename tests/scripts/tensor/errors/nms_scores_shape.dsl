# nms needs one score per box.
nms(zeros([3, 4]), zeros([2]), 0.5)  # expect error: ShapeError: nms: boxes [3, 4] and scores [2] must have the same number of boxes
