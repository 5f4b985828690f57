# Losses (PyTorch 1.13 semantics; reduction = "mean" | "sum" | "none" on every one),
# reductions over lists of dims, and shape utilities. Composites of table ops, so
# the same lines run on every device and under @compile.
let x = tensor([[0.5, -1.0], [2.0, 0.0]])
let y = tensor([[1.0, 1.0], [0.0, 0.5]])
print(mse_loss(x, y).item(), mse_loss(x, y, reduction = "sum").item())  # expect: 2.125 8.5
print(l1_loss(x, y, reduction = "none").tolist())                # expect: [[0.5, 2.0], [2.0, 0.5]]
print(smooth_l1_loss(x, y, reduction = "sum").item())             # expect: 3.25
print(smooth_l1_loss(x, y, beta = 0.0).item(), huber_loss(x, y, delta = 0.5).item())  # expect: 1.25 0.5
let p = tensor([0.25, 0.5, 1.0])
let t = tensor([0.0, 1.0, 1.0])
print(binary_cross_entropy(p, t, reduction = "none").tolist())   # expect: [0.28768205642700195, 0.6931471824645996, -0.0]
print(binary_cross_entropy_with_logits(tensor([0.0, 2.0]), tensor([1.0, 0.0]), reduction = "sum").item())  # expect: 2.820075273513794
print(binary_cross_entropy_with_logits(tensor([0.0]), tensor([1.0]), pos_weight = tensor([3.0])).item())  # expect: 2.079441547393799
# cross_entropy: targets equal to ignore_index add nothing, not even to the mean's count.
let logits = tensor([[0.0, 0.0], [1.0, 3.0], [5.0, -5.0]])
let labels = tensor([1, -100, 0])
print(abs(cross_entropy(logits, labels).item() - 0.3465963) < 1e-6)  # expect: true
print((cross_entropy(logits, labels, reduction = "none") - tensor([0.6931472, 0.0, 4.54e-05])).abs().max().item() < 1e-6)  # expect: true
print(cross_entropy(logits, tensor([1, 1, 0]), ignore_index = 0, label_smoothing = 0.5).tolist())  # expect: 0.660037636756897
print(nll_loss(log_softmax(logits, 1), labels, reduction = "sum").item())  # expect: 0.6931926012039185
print(cross_entropy(logits, tensor([[0.5, 0.5], [0.0, 1.0], [1.0, 0.0]])).item())  # expect: 0.273373544216156
print(cross_entropy(logits, labels, reduction = "avg"))  # expect error: ValueError: cross_entropy(): reduction must be "mean", "sum" or "none", got "avg"
