# stdlib/nn.dsl's layers: init shapes, apply shapes, state threading and masks' meaning
# (the values against PyTorch are tests/torch/nn_parity.py's).
import nn
seed(0)
let lin = nn.torch_linear_init(5, 3, bias = false)
print(sorted(lin.keys()), nn.linear_apply(lin, randn([2, 4, 5])).shape)  # expect: ["w"] shape([2, 4, 3])
let e = nn.embedding_init(10, 4, padding_idx = 1)
print(e["w"][1], nn.embedding_apply(e, tensor([[1, 2, 3]])).shape)  # expect: tensor([0., 0., 0., 0.]) shape([1, 3, 4])
let x = randn([2, 6]) * 3.0 + 1.0
let ln = nn.layer_norm_apply(nn.layer_norm_init(6), x)
print(abs(ln.mean(-1)).max().item() < 1e-5, abs(ln.var(-1, correction = 0) - 1.0).max().item() < 1e-3)  # expect: true true
print(nn.rms_norm_apply(nn.rms_norm_init(6), x).shape)  # expect: shape([2, 6])
let c = nn.conv2d_init(4, 6, (3, 1), groups = 2)
print(c["w"].shape, c["b"].shape, nn.conv2d_apply(c, randn([1, 4, 8, 8]), padding = 1, groups = 2).shape)  # expect: shape([6, 2, 3, 1]) shape([6]) shape([1, 6, 8, 10])

# batch_norm: training updates the running state, eval leaves it.
let (bp, bs) = nn.batch_norm_init(3)
let imgs = randn([8, 3, 4, 4]) + 2.0
let (y, bs1) = nn.batch_norm_apply(bp, bs, imgs, training = true)
print(abs(y.mean([0, 2, 3])).max().item() < 1e-5, bs1["running_mean"].min().item() > 0.1)  # expect: true true
let (y2, bs2) = nn.batch_norm_apply(bp, bs1, imgs)
print(bs2["running_mean"] == bs1["running_mean"])  # expect: tensor([true, true, true])

# dropout: off in eval, zeros and 1/(1-p) scaling in training.
print(nn.dropout_apply(ones([4]), 0.5, training = false))  # expect: tensor([1., 1., 1., 1.])
let d = nn.dropout_apply(ones([1000]), 0.25)
print(logical_or(d == 0.0, abs(d - 1.0 / 0.75) < 1e-6).all().item())  # expect: true

# attention: a padded key changes nothing, a causal query never sees a later position.
let a = nn.attention_init(8, 2)
let q = randn([2, 5, 8])
let kpm = tensor([[false, false, false, true, true], [false, false, false, false, false]])
let out = nn.attention_apply(a, q, q, q, 2, key_padding_mask = kpm)
let q2 = cat([q[:1, :3], randn([1, 2, 8])], 1)
let out2 = nn.attention_apply(a, q2, q2, q2, 2, key_padding_mask = kpm[:1])
print(abs(out[:1, :3] - out2[:, :3]).max().item() < 1e-5)  # expect: true
let causal = nn.attention_apply(a, q, q, q, 2, is_causal = true)
let later = cat([q[:, :2], randn([2, 3, 8])], 1)
print(abs(causal[:, :2] - nn.attention_apply(a, later, later, later, 2, is_causal = true)[:, :2]).max().item() < 1e-5)  # expect: true
let both = nn.attention_apply(a, q, q, q, 2, key_padding_mask = kpm, is_causal = true)
print(both.shape, isfinite(both).all().item())  # expect: shape([2, 5, 8]) true

# A pre-norm transformer block learns: the loss of a small regression falls.
let blk = nn.transformer_block_init(8, 2, 16)
let target = randn([2, 5, 8])
fn loss(p) { return mse_loss(nn.transformer_block_apply(p, q, 2, key_padding_mask = kpm, activation = "gelu"), target) }
let first = loss(blk).item()
let state = nn.adam_init(blk)
for i in range(20) {
  let (np, ns) = nn.adamw_step(blk, grad(loss)(blk), state, lr = 0.01)
  blk = np
  state = ns
}
print(loss(blk).item() < first * 0.8, len(nn.tree_leaves(blk)))  # expect: true 16

# Shape and option errors name the sizes.
try { nn.linear_apply(nn.linear_init(3, 4), randn([2, 5])) } except ShapeError as err { print(err.message) }  # expect: linear: input [2, 5] and weight [4, 3] are incompatible (5 != 3)
try { nn.attention_init(10, 3) } except ValueError as err { print(err.message) }  # expect: attention_init: embed_dim 10 must be divisible by num_heads 3
try { nn.attention_apply(a, q[0], q[0], q[0], 2) } except ShapeError as err { print(err.message) }  # expect: attention_apply: query, key and value must be [batch, length, embed_dim], got [5, 8], [5, 8], [5, 8]
try { nn.attention_apply(a, q, q, q, 2, key_padding_mask = ones([2, 5])) } except TypeError as err { print(err.message) }  # expect: attention_apply: key_padding_mask must be bool (true: padding), got f32
try { nn.transformer_block_apply(blk, q, 2, activation = "tanh") } except ValueError as err { print(err.message) }  # expect: transformer_block_apply: unknown activation "tanh" (expected "relu" or "gelu")
try { nn.dropout_apply(q, 1.5) } except ValueError as err { print(err.message) }  # expect: dropout_apply: p must be in [0, 1], got 1.5
try { nn.conv2d_init(3, 4, 3, groups = 2) } except ValueError as err { print(err.message) }  # expect: conv2d_init: in_channels 3 and out_channels 4 must be divisible by groups 2
