# one_hot with num_classes = -1 has a data-dependent width (max(x) + 1, bincount's length): on
# the tpu a compiled program needs a bound for it, and the ShapeError says how to give one.
@compile(backend = "tpu")
fn f(x) { return one_hot(x) }
print(f(tensor([1, 0, 2])).tolist())  # expect error: ShapeError: bincount: on the tpu its output size u1 (max(x) + 1, also one_hot's num_classes = -1) needs an upper bound, and nothing bounds it: add a fact such as check(y.shape[0] <= N) on the result (for one_hot: pass num_classes, or check(y.shape[-1] <= N))
