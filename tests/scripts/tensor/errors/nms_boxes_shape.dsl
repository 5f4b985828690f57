# nms takes boxes [n, 4] and scores [n].
nms(zeros([3, 5]), zeros([3]), 0.5)  # expect error: ShapeError: nms: boxes must have shape [n, 4], got [3, 5]
