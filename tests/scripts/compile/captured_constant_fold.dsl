# A tensor a compiled function closes over is a constant of its graph, and the parts of the
# backward that depend on constants alone are folded when the graph is compiled. Folding runs the
# cpu kernels, so a constant captured on another device is copied to the cpu first (under
# TESSEL_DEVICE=vulkan the fold read the device buffer as host memory: garbage indices).
let known = tensor([0, 3])
fn loss(w) { return index_select(w * 2.0, 0, known).sum() }
@compile
fn g(w) { return value_and_grad(loss)(w) }
let (v, dw) = g(ones([4, 2]))
print(v.item(), dw.tolist())  # expect: 8.0 [[2.0, 2.0], [0.0, 0.0], [0.0, 0.0], [2.0, 2.0]]
let (v2, dw2) = g(ones([4, 2]) * 3.0)
print(v2.item(), dw2.sum().item())  # expect: 24.0 8.0
