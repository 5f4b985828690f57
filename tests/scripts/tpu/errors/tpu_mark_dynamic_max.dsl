# A declared max is the bound the tpu plans memory for (backends.md, "tpu"): sizes up to it
# share one program; a size above it is a ShapeError when the function is called.
@compile(backend = "tpu")
fn f(x) { return (x * 2.0).sum(dim = 0) }
let a = ones([4, 3])
mark_dynamic(a, 0, max = 8)
print(f(a).tolist(), f(a).device)  # expect: [8.0, 8.0, 8.0] tpu
let b = ones([8, 3])
mark_dynamic(b, 0, max = 8)
print(f(b).tolist(), stats(f)["compiles"])  # expect: [16.0, 16.0, 16.0] 1
let c = ones([9, 3])
mark_dynamic(c, 0, max = 8)
f(c)  # expect error: ShapeError: x.shape[0] = 9 is above its declared max 8 on the tpu
