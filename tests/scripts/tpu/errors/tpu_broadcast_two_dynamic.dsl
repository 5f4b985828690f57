# test_add_two_dynamic_tensors / test_sub_two_dynamic_tensors (pytorch/xla
# test/ds/test_dynamic_shapes.py): [<=6, 2] with real [4, 2] minus [<=6, 2] with real [2, 2].
# Neither size is 1, so they do not broadcast: a ShapeError (backends.md, "tpu"), though both
# sizes are still pending when the op is recorded.
let t2 = nonzero(tensor([[1, 0, 3, 5, 0, 6]]).to("tpu"))
let t4 = nonzero(tensor([[1, 0, 1, 0, 0, 0]]).to("tpu"))
print(t2.shape, t4.shape)  # expect: shape([<=6, 2]) shape([<=6, 2])
print((t2 - t4).tolist())  # expect error: ShapeError
