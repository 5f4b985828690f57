# test_add_dyn_with_static_not_broadcastable with the nonzero still pending: [<=6, 2] (real
# [4, 2]) plus a static [2, 2] is a ShapeError naming both shapes (backends.md, "tpu").
let t2 = nonzero(tensor([[1, 0, 3, 5, 0, 6]]).to("tpu"))
let t3 = tensor([[1, 1], [1, 1]]).to("tpu")
print((t2 + t3).tolist())  # expect error: ShapeError: add: shapes [
