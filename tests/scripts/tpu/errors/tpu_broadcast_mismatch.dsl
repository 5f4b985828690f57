# test_add_dyn_with_static_not_broadcastable (pytorch/xla test/ds/test_dynamic_shapes.py):
# nonzero gives [<=6, 2] with real [4, 2]; adding a static [2, 2] is a ShapeError naming both
# shapes (backends.md, "tpu": real sizes that do not broadcast are a ShapeError).
let t2 = nonzero(tensor([[1, 0, 3, 5, 0, 6]]).to("tpu"))
print(t2.shape, int(t2.shape[0]))  # expect: shape([<=6, 2]) 4
let t3 = tensor([[1, 1], [1, 1]]).to("tpu")
let t4 = t2 + t3  # expect error: ShapeError: add: shapes [
