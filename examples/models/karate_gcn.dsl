# A two-layer graph convolutional network (Kipf & Welling, 2017) on Zachary's karate club: 34
# members, 78 friendships, and the club each member joined when the club split (data file and
# source in examples/models/data/README.md). Semi-supervised: only the two leaders' clubs are
# known (member 0, Mr. Hi, and member 33, the Officer); the network labels the other 32 from the
# friendships alone. Message passing is written with index_add over the edge list (the form
# PyTorch Geometric uses), so the graph is sparse data, not a dense adjacency matrix.
#   tessel examples/models/karate_gcn.dsl
#   TESSEL_EXAMPLE_STEPS=30 tessel examples/models/karate_gcn.dsl   (fewer steps: the test suite)
import nn

let here = env("TESSEL_EXAMPLES_DIR", "examples/models")
let steps = int(env("TESSEL_EXAMPLE_STEPS", "200"))
let edges = load_csv(here + "/data/karate_club_edges.csv", dtype = i32)
let clubs = load_csv(here + "/data/karate_club_labels.csv", dtype = i32).squeeze(1)
let n = clubs.shape[0]
print(n, "members,", edges.shape[0], "friendships")

# Both directions of every friendship plus a self loop per member, and the symmetric
# normalization 1 / sqrt(deg(i) deg(j)) of each message (the GCN's D^-1/2 (A + I) D^-1/2).
let loops = arange(n).to(i32)
let src = cat([edges[:, 0], edges[:, 1], loops])
let dst = cat([edges[:, 1], edges[:, 0], loops])
let degree = bincount(dst, minlength = n).to(f32)
let norm = rsqrt(index_select(degree, 0, src) * index_select(degree, 0, dst))

# One propagation: every member receives the normalized features of its friends and itself.
fn propagate(h, src, dst, norm) {
  let messages = index_select(h, 0, src) * norm[:, none]
  return index_add(zeros([h.shape[0], h.shape[1]]), 0, dst, messages)
}

fn gcn_init(sizes) {
  return [nn.linear_init(sizes[i], sizes[i + 1]) for i in range(len(sizes) - 1)]
}

fn gcn_apply(layers, x, src, dst, norm) {
  let h = x
  for i in range(len(layers)) {
    h = propagate(nn.linear_apply(layers[i], h), src, dst, norm)
    if i < len(layers) - 1 { h = relu(h) }
  }
  return h
}

# Features: each member's identity (one-hot), as in Kipf & Welling's karate club experiment.
let x = eye(n)
let known = tensor([0, 33])
let known_clubs = index_select(clubs, 0, known)

fn loss_fn(layers, x, src, dst, norm) {
  let logits = index_select(gcn_apply(layers, x, src, dst, norm), 0, known)
  return cross_entropy(logits, known_clubs)
}

@compile
fn train_step(layers, opt, x, src, dst, norm) {
  let (loss, grads) = value_and_grad(loss_fn)(layers, x, src, dst, norm)
  let (l2, o2) = nn.adam_step(layers, grads, opt, lr = 0.01)
  return (l2, o2, loss)
}

seed(1)
let layers = gcn_init([n, 16, 2])
let opt = nn.adam_init(layers)
for step in range(steps) {
  let (l, o, loss) = train_step(layers, opt, x, src, dst, norm)
  layers = l
  opt = o
  if step % 50 == 0 or step == steps - 1 { print(f"step {step:3d}  loss {loss.item():.4f}") }
}

let predicted = gcn_apply(layers, x, src, dst, norm).argmax(dim = 1)
let others = logical_and(arange(n) != 0, arange(n) != 33)
let accuracy = masked_select((predicted == clubs).to(f32), others).mean().item()
print(f"accuracy on the 32 unlabelled members: {accuracy:.3f}")
print("compiles:", stats(train_step)["compiles"])

# A checkpoint of the weights, written and read back.
let ckpt = env("TMPDIR", "/tmp") + "/tessel_karate_gcn.safetensors"
save(ckpt, nn.tree_map(fn (t) { return t.to("cpu") }, layers))
let back = load(ckpt, device = "cpu")
let same = bool((back[0]["w"] == layers[0]["w"].to("cpu")).all().item())
print("checkpoint round trip:", same)
# What the test suite checks when it runs this example on each device.
assert same and stats(train_step)["compiles"] <= 2 and (steps < 100 or accuracy >= 0.9)
