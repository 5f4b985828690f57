# Shape errors found while tracing are reported at the op, with the call below.
@compile
fn f(x) { return x @ ones([7]) }  # expect error: ShapeError: matmul
f(ones([3, 4]))
