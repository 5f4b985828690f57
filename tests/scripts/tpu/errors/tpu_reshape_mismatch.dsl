# test_view_copy_symint_with_static_input_dyn_input_shape (pytorch/xla
# test/ds/test_dynamic_shapes.py): a [2, 3] tensor viewed as [n] where n = 4 (<=6): PyTorch
# raises "shape '[4]' is invalid for input of size 6"; on the tpu it is a ShapeError.
let t2 = nonzero(tensor([1, 0, 3, 5, 0, 6]).to("tpu"))
let t4 = ones([2, 3]).to("tpu")
print(t4.reshape([t2.shape[0]]).tolist())  # expect error: ShapeError
