# repeat_interleave with a tensor of repeats has no bound on the tpu unless one is given: a
# ShapeError naming the op, the missing bound and the ways to give it.
@compile(backend = "tpu")
fn f(x, r) { return repeat_interleave(x, r) }
print(f(arange(3.0), tensor([1, 0, 2])).tolist())  # expect error: ShapeError: repeat_interleave: on the tpu its output size u0 (sum(repeats)) needs an upper bound, and nothing bounds it: pass output_size = N, or add a fact such as check(y.shape[0] <= N) on the result
