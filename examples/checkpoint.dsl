# Checkpoints: train a small MLP, save the parameters and the optimizer state to a
# .safetensors file, then load them in a second process and get the same predictions.
#   tessel examples/checkpoint.dsl DIR          trains, writes DIR/mlp.safetensors and
#                                               DIR/predictions.npy
#   tessel examples/checkpoint.dsl DIR check    loads both, predicts again, compares
# (the tessel command may touch any file; --allow-files DIR keeps it to DIR).
import nn

let dir = args[0] if len(args) > 0 else "."
let checkpoint = dir + "/mlp.safetensors"

seed(7)
let n = 256
let x = randn([n, 2])
let labels = ((x[:, 0] * x[:, 1]) > 0).to(i32)  # class 1 where the signs agree

fn loss_fn(params, x, labels) {
  return cross_entropy(nn.mlp_apply(params, x), labels)
}

if len(args) > 1 and args[1] == "check" {
  # The second process: the tree comes back as it was saved (lists of dicts of tensors, the
  # optimizer's step count as an int); cpu tensors view the file's memory mapping.
  let ckpt = load(checkpoint)
  let predictions = nn.mlp_apply(ckpt["params"], x)
  let saved = load(dir + "/predictions.npy")
  print("loaded epoch", ckpt["epoch"], "adam step", int(ckpt["opt"]["t"].item()))
  print("same predictions:", (predictions == saved).all().item())
  # Training goes on from the saved optimizer state.
  let step = value_and_grad(loss_fn)
  let (loss, grads) = step(ckpt["params"], x, labels)
  let (params, opt) = nn.adam_step(ckpt["params"], grads, ckpt["opt"], lr = 0.01)
  print("resumed at adam step", int(opt["t"].item()))
} else {
  let params = nn.mlp_init([2, 32, 2])
  let opt = nn.adam_init(params)
  let step = value_and_grad(loss_fn)
  for epoch in range(200) {
    let (loss, grads) = step(params, x, labels)
    let (p, o) = nn.adam_step(params, grads, opt, lr = 0.01)
    params = p
    opt = o
  }
  let accuracy = (nn.mlp_apply(params, x).argmax(dim = 1) == labels).to(f32).mean().item()
  print("trained: accuracy", round(accuracy, 2))
  save(checkpoint, {"params": params, "opt": opt, "epoch": 200})
  save(dir + "/predictions.npy", nn.mlp_apply(params, x))
  print("saved", checkpoint)
}
