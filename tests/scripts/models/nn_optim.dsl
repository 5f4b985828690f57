# stdlib/nn.dsl's optimizers, schedules, clip_grad_norm and accuracy (torch values: nn_parity.py).
import nn
let params = {"w": tensor([1.0, -2.0]), "b": [tensor(0.5)]}
let grads = {"w": tensor([0.5, 0.5]), "b": [tensor(-1.0)]}
print(nn.sgd_step(params, grads, lr = 0.1))  # expect: {"w": tensor([ 0.9500, -2.0500]), "b": [tensor(0.6000)]}
print(nn.sgd_step(params, grads, lr = 0.1, weight_decay = 0.1)["w"])  # expect: tensor([ 0.9400, -2.0300])
# Momentum: the first buffer is the gradient itself, then momentum * buf + g.
let s = nn.sgd_init(params)
let (p1, s1) = nn.sgd_step(params, grads, 0.1, s, momentum = 0.5)
let (p2, s2) = nn.sgd_step(p1, grads, 0.1, s1, momentum = 0.5)
print(s2["t"], s2["buf"]["w"], p2["w"])  # expect: 2 tensor([0.7500, 0.7500]) tensor([ 0.8750, -2.1250])
let (pa, sa) = nn.adam_step(params, grads, nn.adam_init(params), lr = 0.1)
print(sa["t"].item(), pa["w"])  # expect: 1.0 tensor([ 0.9000, -2.1000])
let (pw, sw) = nn.adamw_step(params, grads, nn.adam_init(params), lr = 0.1, weight_decay = 0.5)
print(pw["w"])  # expect: tensor([ 0.8500, -2.0000])

# Schedules are floats of the step.
print([nn.step_lr(i, 1.0, 2, gamma = 0.5) for i in range(5)])  # expect: [1.0, 1.0, 0.5, 0.5, 0.25]
print([nn.warmup_lr(i, 1.0, 4) for i in range(5)])  # expect: [0.25, 0.5, 0.75, 1.0, 1.0]
print([round(nn.cosine_lr(i, 1.0, 4), 4) for i in range(6)])  # expect: [1.0, 0.8536, 0.5, 0.1464, 0.0, 0.0]
let f = nn.lr_schedule("linear", 1.0, total_steps = 6, warmup_steps = 2, min_lr = 0.2)
print([round(f(i), 4) for i in range(8)])  # expect: [0.5, 1.0, 1.0, 0.8, 0.6, 0.4, 0.2, 0.2]
print(nn.lr_schedule("constant", 0.3)(100))  # expect: 0.3

# clip_grad_norm returns new gradients and the norm before clipping.
let (clipped, total) = nn.clip_grad_norm({"a": tensor([3.0, 0.0]), "b": [tensor([4.0])]}, 1.0)
print(total, clipped["a"], clipped["b"][0])  # expect: tensor(5.) tensor([0.6000, 0.0000]) tensor([0.8000])
print(nn.clip_grad_norm([tensor([0.3])], 1.0)[0])  # expect: [tensor([0.3000])]
print(nn.accuracy(tensor([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7]]), tensor([1, 1, 1])))  # expect: tensor(0.6667)

# Errors.
try { nn.lr_schedule("cosin", 0.1) } except ValueError as e { print(e.message) }  # expect: lr_schedule: unknown schedule "cosin" (expected "constant", "step", "cosine" or "linear")
try { nn.lr_schedule("cosine", 0.1, total_steps = 5, warmup_steps = 5) } except ValueError as e { print(e.message) }  # expect: lr_schedule: "cosine" needs total_steps greater than warmup_steps (5), got 5
try { nn.lr_schedule("step", 0.1) } except ValueError as e { print(e.message) }  # expect: lr_schedule: "step" needs step_size >= 1, got none
try { nn.sgd_step(params, grads, 0.1, momentum = 0.9) } except ValueError as e { print(e.message) }  # expect: sgd_step: momentum needs a state (nn.sgd_init(params))
try { nn.sgd_step(params, grads, 0.1, s, nesterov = true) } except ValueError as e { print(e.message) }  # expect: sgd_step: nesterov needs a momentum > 0 and no dampening
try { nn.adam_step(params, [grads["w"]], nn.adam_init(params)) } except ValueError as e { print(e.message) }  # expect: adam_step: 2 parameters but 1 gradients
try { nn.accuracy(ones([3, 2]), tensor([1, 0])) } except ShapeError as e { print(e.message) }  # expect: accuracy: logits must be [N, C] and target [N], got [3, 2] and [2]
try { nn.tree_unflatten([1, [2]], [1]) } except ValueError as e { print(e.message) }  # expect: tree_unflatten: the tree has 2 leaves, got 1
